"""The engine reads the requests most Downtown Farmers Market calls make straight from their
bytes (``byte_reading``) and anything else with the collecting reader: for every request,
both give the same values, or the same problems at the same paths. It writes each answer
as its encoding, the one protobuf writes for the message it parses into, and a state or
move written reads back as itself."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from google.protobuf.message import DecodeError, Message

from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema
from engine_service.downtown_farmers_market import board_writing, byte_reading, convert
from engine_service.downtown_farmers_market import encodings, message_reading
from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.problems import InvalidInputError

from ..downtown_farmers_market.random_boards import random_board
from ..downtown_farmers_market.simulator import play_random_game

Outcome = Any
"""What a reader gave: its values, or its problems' pointers and words."""


def outcome(read: Callable[..., Any], *request: Any) -> Outcome:
    try:
        return read(*request)
    except InvalidInputError as error:
        return [(p.pointer, p.message) for p in error.problems]


def scored_both_ways(message: board_pb2.Board) -> tuple[Outcome, Outcome]:
    data = service_pb2.ScoreBoardRequest(board=message).SerializeToString()
    return (outcome(byte_reading.score_board_request, data),
            outcome(message_reading.transcription_from_proto, message, ("board",)))


def test_well_formed_boards_are_read_from_their_bytes() -> None:
    rng = random.Random(7)
    for _ in range(300):
        message = BoardSchema().load(random_board(rng))
        read = byte_reading.board_from_wire(message.SerializeToString())
        assert read is not None
        board, as_written = read
        assert as_written and board_writing.board_to_wire(board) == message.SerializeToString()
        fast, slow = scored_both_ways(message)
        assert fast == slow == (board, ())


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
        fast, slow = scored_both_ways(message)
        assert fast == slow


def garbled(rng: random.Random, data: bytes) -> bytes:
    """``data`` with one to three bytes changed, dropped or added."""
    changed = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(changed))
        change = rng.random()
        if change < 0.5:
            changed[at] = rng.randrange(256)
        elif change < 0.75:
            del changed[at]
        else:
            changed.insert(at, rng.randrange(256))
    return bytes(changed)


def same_both_ways(requests: list[bytes], fast: Callable[[bytes], Any],
                   slow: Callable[[Message], Any], message: type[Message], rng: random.Random,
                   count: int) -> None:
    """Each of ``count`` garbled ``requests``: read from its bytes (``fast``), and
    parsed by protobuf then read field by field (``slow``), gives the same outcome; bytes
    protobuf refuses are refused by both."""
    compared = 0
    while compared < count:
        data = garbled(rng, rng.choice(requests))
        try:
            parsed = message.FromString(data)
        except DecodeError:
            with pytest.raises(DecodeError):
                fast(data)
            continue
        assert outcome(fast, data) == outcome(slow, parsed)
        compared += 1


def test_boards_garbled_byte_by_byte_are_read_the_same_both_ways() -> None:
    rng = random.Random(19)
    requests = [service_pb2.ScoreBoardRequest(board=BoardSchema().load(random_board(rng)))
                .SerializeToString() for _ in range(30)]
    same_both_ways(requests, byte_reading.score_board_request,
                   lambda r: message_reading.transcription_from_proto(r.board, ("board",)),
                   service_pb2.ScoreBoardRequest, rng, 1500)


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
        fast, slow = scored_both_ways(message)
        assert fast == slow


def _states(seed: int) -> list[dfm.GameState]:
    rng = random.Random(seed)
    return [state for mode, players in [(dfm.Mode.STANDARD, 3), (dfm.Mode.YOUNG_SHOPPER, 4),
                                        (dfm.Mode.STANDARD, 2)]
            for state in play_random_game(rng, mode, players).states[::7]]


def _message(message: type[Message], data: bytes) -> Any:
    return message.FromString(data)


def test_states_and_moves_are_read_the_same_both_ways() -> None:
    """A state listed or judged with a move, read from the bytes and field by field, the
    request as written and garbled; the boards read as written are kept for the answer."""
    rng = random.Random(5)
    listed, judged = [], []
    for state in _states(5):
        message = _message(game_pb2.GameState, convert.state_to_wire(state))
        data = service_pb2.ListLegalMovesRequest(state=message).SerializeToString()
        assert byte_reading.legal_moves_request(data) == state
        listed.append(data)
        legal = dfm.legal_moves(state)
        for move in rng.sample(legal, min(2, len(legal))):
            request = service_pb2.ValidateMoveRequest(
                state=message, move=_message(game_pb2.Move, convert.move_to_wire(move)))
            kept: convert.Encodings = {}
            assert byte_reading.validate_move_request(request.SerializeToString(), kept) == (
                state, move)
            assert len(kept) == len(state.players)
            judged.append(request.SerializeToString())
    same_both_ways(listed, byte_reading.legal_moves_request,
                   lambda r: message_reading.state_from_proto(r.state),
                   service_pb2.ListLegalMovesRequest, rng, 1500)
    same_both_ways(judged, lambda data: byte_reading.validate_move_request(data, {}),
                   lambda r: message_reading.state_and_move_from_proto(r.state, r.move),
                   service_pb2.ValidateMoveRequest, rng, 1500)


def test_boards_to_rank_are_read_the_same_both_ways() -> None:
    rng = random.Random(23)
    requests = []
    for _ in range(30):
        mode = rng.choice(("standard", "young_shopper"))
        players = [scoring_pb2.PlayerBoard(name=f"player {i}",
                                           board=BoardSchema().load(random_board(rng, mode)))
                   for i in range(rng.randint(1, 4))]
        data = service_pb2.RankPlayersRequest(players=players).SerializeToString()
        assert outcome(byte_reading.rank_players_request, data) == outcome(
            message_reading.players_from_proto, players)
        requests.append(data)
    same_both_ways(requests, byte_reading.rank_players_request,
                   lambda r: message_reading.players_from_proto(r.players),
                   service_pb2.RankPlayersRequest, rng, 1000)


def _canonical(message: type[Message], data: bytes) -> Any:
    """The message ``data`` encodes, which protobuf writes back as ``data``."""
    parsed = message.FromString(data)
    assert parsed.SerializeToString() == data
    return parsed


def test_a_state_is_written_as_protobuf_writes_it_and_reads_back() -> None:
    rng = random.Random(11)
    for mode in dfm.Mode:
        for players in (2, 3, 4):
            game = play_random_game(rng, mode, players)
            for state in game.states[::3]:
                written = _canonical(game_pb2.GameState, convert.state_to_wire(state))
                assert message_reading.state_from_proto(written) == state
                assert written.game_over == state.game_over
                assert written.reveal_count == state.reveal_count
    # what no state the rules accept holds is written too: odd tiles, numbers
    odd = dfm.FoodTile(())
    big = dfm.FoodTile((dfm.Ingredient.EGG,) * 4)
    board = state.players[0].board
    grid = ((odd, big, None, odd), *board.grid[1:])
    strange = replace(state, players=(
        dfm.Player("∑ " * 80, replace(board, grid=grid)), *state.players[1:]),
        face_up=(odd, big), discards=(big,), pile_count=-3, round=300, rules_version=2**31 - 1)
    written = _canonical(game_pb2.GameState, convert.state_to_wire(strange))
    assert (written.players[0].name, written.pile_count, written.round) == (
        "∑ " * 80, -3, 300)
    assert [list(s.tile.ingredients) for s in written.players[0].board.grid[0].spaces[:2]] == [
        [], [encodings.INGREDIENT_TO_PROTO[dfm.Ingredient.EGG]] * 4]
    assert written.players[0].board.grid[0].spaces[0].HasField("tile")


def test_moves_are_written_as_protobuf_writes_them_and_read_back() -> None:
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
                answer = _canonical(service_pb2.ListLegalMovesResponse,
                                    convert.legal_moves_to_wire(state, listed))
                reader = message_reading.MessageReader()
                assert tuple(reader.move(m, ()) for m in answer.moves) == tuple(listed)
                turn = dfm.GAME.turn(state)
                assert (answer.turn.expected, answer.turn.reveal_count) == (
                    encodings.ACTION_TO_PROTO[state.expected], state.reveal_count)
                assert (answer.turn.player if answer.turn.HasField("player") else None) == \
                    turn.player
    for move in moves:
        written = _canonical(game_pb2.Move, convert.move_to_wire(move))
        assert message_reading.MessageReader().move(written, ()) == move
    assert {type(move) for move in moves} == {dfm.TakeTile, dfm.DiscardTile, dfm.RevealTiles}


def test_a_verdict_writes_the_request_s_unchanged_boards_as_they_came() -> None:
    rng = random.Random(17)
    reused = 0
    for mode in dfm.Mode:
        for players in (2, 3, 4):
            game = play_random_game(rng, mode, players)
            for state, move in list(zip(game.states, game.moves))[::4]:
                request = _message(game_pb2.GameState, convert.state_to_wire(state))
                if mode is dfm.Mode.STANDARD and rng.random() < 0.3:  # read as standard, written
                    # with its mode set, so not as it came
                    request.players[0].board.ClearField("mode")
                kept: convert.Encodings = {}
                read, _ = byte_reading.validate_move_request(service_pb2.ValidateMoveRequest(
                    state=request, move=_message(game_pb2.Move, convert.move_to_wire(move))
                ).SerializeToString(), kept)
                as_came = {id(p.board) for p in read.players if id(p.board) in kept}
                assert all(board_writing.board_to_wire(board) == data
                           for board, data in kept.values())
                for verdict in (dfm.validate(read, move),
                                dfm.validate(read, dfm.RevealTiles(()))):
                    with_them = convert.verdict_to_wire(verdict, kept)
                    assert with_them == convert.verdict_to_wire(verdict)
                    _canonical(service_pb2.ValidateMoveResponse, with_them)
                    if verdict.next_state is not None:
                        reused += sum(id(p.board) in as_came for p in verdict.next_state.players)
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
        read = byte_reading.board_from_wire(message.SerializeToString())
        assert read is not None and read[1] is kept


@pytest.mark.parametrize("kind", [None, "exact_count", "forbidden", "exact_count_any",
                                  "exact_total", "one_of_each", "majority", "per_set"])
def test_board_scores_are_written_as_protobuf_writes_them(kind: str | None) -> None:
    """Every line's verdict (its code, params, chosen ingredient, majority, sets formed)
    and counted cells, standard and Young Shopper, complete or not, each verdict written
    once and then seen again: the same bytes."""
    rng = random.Random(17)
    for _ in range(150):
        board = convert.board_from_proto(BoardSchema().load(random_board(rng, kind=kind)))
        written = [convert.board_score_to_wire(dfm.score_board(board)) for _ in range(2)]
        assert written[0] == written[1]  # the second time, the verdicts' parts are remembered
        score = dfm.score_board(board)
        message = _canonical(scoring_pb2.BoardScore, written[0])
        assert (message.total, message.complete, message.challenges_met) == (
            score.total, score.complete, score.challenges_met)
        for lines, scored in ((message.rows, score.rows), (message.columns, score.columns)):
            assert [(line.index, line.met, line.points, line.explanation, line.code)
                    for line in lines] == [
                (line.index, line.verdict.met, line.verdict.points, line.verdict.explanation,
                 line.verdict.code) for line in scored]
            assert [[(c.row, c.col) for c in line.cells] for line in lines] == [
                [(c.row, c.col) for c in line.cells] for line in scored]
