"""The engine reads a well-formed Downtown Farmers Market board straight from its bytes
and anything else field by field: for every message, both ways give the same board, or
the same problems at the same paths."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from google.protobuf.message import DecodeError

from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema
from engine_service.downtown_farmers_market import board_writing, convert, encodings, message_reading
from engine_service.wording import params_to_proto
from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.problems import InvalidInputError

from ..downtown_farmers_market.random_boards import random_board
from ..downtown_farmers_market.simulator import play_random_game

Outcome = dfm.Board | list[tuple[str, str]]


@contextmanager
def field_by_field() -> Iterator[None]:
    """The collecting reader alone: no board or tile read from its bytes."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(message_reading, "board_from_wire", lambda data: None)
        patch.setattr(message_reading, "TILE_BY_WIRE", {})
        yield


def outcome(message: board_pb2.Board) -> Outcome:
    try:
        return convert.board_from_proto(message, ("board",))
    except InvalidInputError as error:
        return [(p.pointer, p.message) for p in error.problems]


def both_ways(message: board_pb2.Board) -> tuple[Outcome, Outcome]:
    fast = outcome(message)
    with field_by_field():
        return fast, outcome(message)


def test_well_formed_boards_are_read_from_their_bytes() -> None:
    rng = random.Random(7)
    for _ in range(300):
        message = BoardSchema().load(random_board(rng))
        read = message_reading.board_from_wire(message.SerializeToString())
        assert read is not None
        board, as_written = read
        assert as_written and board_writing.board_to_wire(board) == message.SerializeToString()
        fast, slow = both_ways(message)
        assert fast == slow == board


def _space(rng: random.Random, board: board_pb2.Board) -> board_pb2.GridSpace:
    row = rng.choice(board.grid)
    return rng.choice(row.spaces) if row.spaces else row.spaces.add()


MUTATIONS: list[Callable[[random.Random, board_pb2.Board], object]] = [
    lambda rng, b: _space(rng, b).tile.ingredients.append(rng.choice([0, 7, 99, -1])),
    lambda rng, b: _space(rng, b).tile.ingredients.extend([1, 2, 3]),
    lambda rng, b: _space(rng, b).tile.ClearField("ingredients"),
    lambda rng, b: _space(rng, b).ClearField("tile"),
    lambda rng, b: b.grid.add(),
    lambda rng, b: b.grid[0].spaces.add(),
    lambda rng, b: setattr(b, "mode", rng.choice([0, 2, 3, -4])),
    lambda rng, b: b.row_challenges.add(points=rng.choice([-1, 3, 101])),
    lambda rng, b: setattr(b.column_challenges.add().majority, "ingredient",
                           rng.choice([0, 4, 8])),
    lambda rng, b: b.row_challenges.add().per_set.sets.add().ingredients.extend(
        rng.choices([0, 1, 5, 9], k=rng.randint(0, 3))),
    lambda rng, b: b.column_challenges.add().exact_count.counts.add(
        ingredient=rng.choice([0, 1, 7]), count=rng.choice([0, 2, 13])),
    lambda rng, b: b.row_challenges.add().forbidden.ingredients.extend([1, 1]),
    lambda rng, b: setattr(b.row_challenges.add(points=200).exact_total, "count", 300),
    lambda rng, b: b.ClearField("row_challenges"),
    lambda rng, b: b.MergeFromString(b"\x98\x06\x01"),  # an unknown field
    lambda rng, b: _space(rng, b).tile.MergeFromString(b"\x10\x05"),  # an unknown field
]


def test_anything_else_is_read_as_the_collecting_reader_reads_it() -> None:
    rng = random.Random(11)
    for _ in range(600):
        message = BoardSchema().load(random_board(rng))
        for mutate in rng.sample(MUTATIONS, rng.randint(1, 3)):
            mutate(rng, message)
        fast, slow = both_ways(message)
        assert fast == slow


def test_boards_garbled_byte_by_byte_are_read_the_same_both_ways() -> None:
    rng = random.Random(19)
    boards = [BoardSchema().load(random_board(rng)).SerializeToString() for _ in range(30)]
    compared = 0
    while compared < 1500:
        data = bytearray(rng.choice(boards))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            change = rng.random()
            if change < 0.5:
                data[at] = rng.randrange(256)
            elif change < 0.75:
                del data[at]
            else:
                data.insert(at, rng.randrange(256))
        try:
            message = board_pb2.Board.FromString(bytes(data))
        except DecodeError:
            continue
        fast, slow = both_ways(message)
        assert fast == slow
        compared += 1


def test_an_encoding_the_fast_path_does_not_expect_is_read_the_same() -> None:
    """Ingredients not packed, and a challenge longer than a one-byte length."""
    rng = random.Random(3)
    for _ in range(50):
        message = BoardSchema().load(random_board(rng, mode="standard"))
        unpacked = b"".join(b"\x08" + bytes([n]) for n in (1, 3, 3))
        tile = b"\x0a" + bytes([len(unpacked)]) + unpacked
        row = b"".join(b"\x0a" + bytes([len(tile) + 2]) + b"\x0a" + bytes([len(tile)]) + tile
                       for _ in range(4))
        message.ClearField("grid")
        message.MergeFromString(b"".join(b"\x22" + bytes([len(row)]) + row for _ in range(4)))
        sets = message.row_challenges.add(points=1).per_set.sets
        for _ in range(12):
            sets.add(ingredients=[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6])
        fast, slow = both_ways(message)
        assert fast == slow


def test_states_read_the_same_both_ways() -> None:
    rng = random.Random(5)
    for mode, players in [(dfm.Mode.STANDARD, 3), (dfm.Mode.YOUNG_SHOPPER, 4)]:
        game = play_random_game(rng, mode, players)
        for state in game.states[::9]:
            message = game_pb2.GameState.FromString(
                convert.state_to_proto(state).SerializeToString())
            fast = convert.state_from_proto(message)
            with field_by_field():
                assert convert.state_from_proto(message) == fast == state


def tile(written: board_pb2.FoodTile, value: dfm.FoodTile) -> None:
    """A Food tile written field by field (one of no ingredients is still set)."""
    written.SetInParent()
    written.ingredients.extend(encodings.INGREDIENT_TO_PROTO[i] for i in value.ingredients)


def _state_by_fields(state: dfm.GameState) -> game_pb2.GameState:
    """A state written field by field, the reference the engine's encoding is held to."""
    message = game_pb2.GameState(rules_version=state.rules_version,
                                 mode=encodings.MODE_TO_PROTO[state.mode])
    for player in state.players:
        board = message.players.add(name=player.name).board
        board.mode = encodings.MODE_TO_PROTO[player.board.mode]
        for challenges, side in ((player.board.row_challenges, board.row_challenges),
                                 (player.board.column_challenges, board.column_challenges)):
            for challenge in challenges:
                board_writing.write_challenge(challenge, side.add())
        for row in player.board.grid:
            spaces = board.grid.add().spaces
            for space in row:
                added = spaces.add()
                if space is not None:
                    tile(added.tile, space)
    for tiles, written in ((state.face_up, message.face_up), (state.discards, message.discards)):
        for value in tiles:
            tile(written.add(), value)
    message.pile_count = state.pile_count
    message.round = state.round
    message.first_player = state.first_player
    message.current_player = state.current_player
    message.expected = encodings.ACTION_TO_PROTO[state.expected]
    message.game_over = state.game_over
    message.reveal_count = state.reveal_count
    return message


def test_states_are_written_as_field_by_field() -> None:
    rng = random.Random(11)
    for mode in dfm.Mode:
        for players in (2, 3, 4):
            game = play_random_game(rng, mode, players)
            for state in game.states[::3]:
                written = convert.state_to_proto(state)
                assert written == _state_by_fields(state)
                assert written.SerializeToString() == _state_by_fields(state).SerializeToString()
    # what no state the rules accept holds is written the same too: odd tiles, numbers
    odd = dfm.FoodTile(())
    big = dfm.FoodTile((dfm.Ingredient.EGG,) * 4)
    board = state.players[0].board
    grid = ((odd, big, None, odd), *board.grid[1:])
    strange = replace(state, players=(
        dfm.Player("∑ " * 80, replace(board, grid=grid)), *state.players[1:]),
        face_up=(odd, big), discards=(big,), pile_count=-3, round=300, rules_version=2**31 - 1)
    assert convert.state_to_proto(strange) == _state_by_fields(strange)


def _move_by_fields(move: dfm.Move) -> game_pb2.Move:
    """A move written field by field, the reference for the engine's encoding."""
    message = game_pb2.Move()
    if isinstance(move, dfm.TakeTile):
        message.take.player, message.take.row, message.take.col = move.player, move.row, move.col
        tile(message.take.tile, move.tile)
    elif isinstance(move, dfm.DiscardTile):
        message.discard.player = move.player
        tile(message.discard.tile, move.tile)
    else:
        message.reveal.SetInParent()
        for value in move.tiles:
            tile(message.reveal.tiles.add(), value)
    return message


def test_moves_are_written_as_field_by_field() -> None:
    rng = random.Random(13)
    odd, big = dfm.FoodTile(()), dfm.FoodTile((dfm.Ingredient.CORN,) * 5)
    moves: list[dfm.Move] = [
        dfm.TakeTile(0, odd, 0, 0), dfm.TakeTile(200, big, -1, 2**31 - 1),
        dfm.TakeTile(-5, dfm.FoodTile.of("egg"), 128, 127), dfm.DiscardTile(0, odd),
        dfm.DiscardTile(3, big), dfm.RevealTiles(()), dfm.RevealTiles((odd, big))]
    for mode in dfm.Mode:
        for players in (2, 3, 4):
            game = play_random_game(rng, mode, players)
            moves.extend(game.moves)
            for state in game.states[::5]:
                listed = dfm.legal_moves(state)
                answer = convert.legal_moves_to_proto(state, listed)
                assert list(answer.moves) == [_move_by_fields(move) for move in listed]
                assert (answer.turn.expected, answer.turn.reveal_count) == (
                    encodings.ACTION_TO_PROTO[state.expected], state.reveal_count)
    for move in moves:
        assert convert.move_to_proto(move) == _move_by_fields(move)
        assert convert.move_to_proto(move).SerializeToString() == \
            _move_by_fields(move).SerializeToString()
    assert {type(move) for move in moves} == {dfm.TakeTile, dfm.DiscardTile, dfm.RevealTiles}


def test_a_verdict_writes_the_request_s_unchanged_boards_as_they_came() -> None:
    rng = random.Random(17)
    reused = 0
    for mode in dfm.Mode:
        for players in (2, 3, 4):
            game = play_random_game(rng, mode, players)
            for state, move in list(zip(game.states, game.moves))[::4]:
                request = game_pb2.GameState.FromString(
                    convert.state_to_proto(state).SerializeToString())
                if mode is dfm.Mode.STANDARD and rng.random() < 0.3:  # read as standard, written
                    # with its mode set, so not as it came
                    request.players[0].board.ClearField("mode")
                encodings: convert.Encodings = {}
                read, _ = convert.state_and_move_from_proto(
                    request, convert.move_to_proto(move), encodings)
                kept = {id(p.board) for p in read.players if id(p.board) in encodings}
                assert all(board_writing.board_to_wire(board) == data
                           for board, data in encodings.values())
                for verdict in (dfm.validate(read, move),
                                dfm.validate(read, dfm.RevealTiles(()))):
                    with_them = convert.verdict_to_proto(verdict, encodings)
                    assert with_them == convert.verdict_to_proto(verdict)
                    if verdict.next_state is not None:
                        reused += sum(id(p.board) in kept for p in verdict.next_state.players)
    assert reused > 100


def test_a_board_not_encoded_as_written_is_not_kept() -> None:
    board = BoardSchema().load(random_board(random.Random(2)))
    unset = board_pb2.Board()
    unset.CopyFrom(board)
    unset.ClearField("mode")
    odd = board_pb2.Board()
    odd.CopyFrom(board)
    odd.row_challenges[0].MergeFromString(b"\x98\x06\x01")  # an unknown field in a challenge
    for message, kept in ((board, True), (unset, False), (odd, False)):
        read = message_reading.board_from_wire(message.SerializeToString())
        assert read is not None and read[1] is kept


def _score_by_fields(score: dfm.BoardScore) -> scoring_pb2.BoardScore:
    """A board score written field by field, the reference for the engine's encoding."""
    message = scoring_pb2.BoardScore(
        mode=encodings.MODE_TO_PROTO[score.mode], total=score.total, complete=score.complete,
        challenges_met=score.challenges_met, best_challenge_points=score.best_challenge_points,
        rules_version=dfm.RULES_VERSION)
    for lines, scored in ((message.rows, score.rows), (message.columns, score.columns)):
        for line in scored:
            verdict = line.verdict
            added = lines.add(index=line.index, met=verdict.met, points=verdict.points,
                              explanation=verdict.explanation, rule=verdict.rule,
                              code=verdict.code, params=params_to_proto(verdict.params),
                              cells=[{"row": c.row, "col": c.col, "ingredients": [
                                  encodings.INGREDIENT_TO_PROTO[i] for i in c.ingredients]}
                                  for c in line.cells])
            if verdict.chosen is not None:
                added.chosen_ingredient = encodings.INGREDIENT_TO_PROTO[verdict.chosen]
            if verdict.majority is not None:
                added.majority_ingredient = encodings.INGREDIENT_TO_PROTO[verdict.majority]
            for made in verdict.sets:
                added.sets_formed.add().ingredients.extend(
                    [encodings.INGREDIENT_TO_PROTO[i] for i in made])
    return message


@pytest.mark.parametrize("kind", [None, "exact_count", "forbidden", "exact_count_any",
                                  "exact_total", "one_of_each", "majority", "per_set"])
def test_board_scores_are_written_as_field_by_field(kind: str | None) -> None:
    """Every line's verdict (its code, params, chosen ingredient, majority, sets formed)
    and counted cells, standard and Young Shopper, complete or not, each verdict written
    once and then seen again."""
    rng = random.Random(17)
    for _ in range(150):
        board = convert.board_from_proto(BoardSchema().load(random_board(rng, kind=kind)))
        for _ in range(2):  # the second time, the verdicts' parts are remembered
            score = dfm.score_board(board)
            written = scoring_pb2.BoardScore()
            convert.board_score_to_proto(score, written)
            assert written == _score_by_fields(score)
            assert written.SerializeToString() == _score_by_fields(score).SerializeToString()
