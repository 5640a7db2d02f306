"""Each rule of the draft, placement and end (DFM-R11..R15): a legal case and the illegal ones."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tabletop_rules.downtown_farmers_market import (
    Action,
    DiscardTile,
    FoodTile,
    GameState,
    Mode,
    Move,
    Reason,
    RevealTiles,
    TakeTile,
    Verdict,
    Violation,
    legal_moves,
    new_game,
    validate,
)
from tabletop_rules.problems import InvalidInputError

from .simulator import make_setup, play, play_random_game

BREAD, CARROT, CORN, CHEESE, MILK, EGG = (
    FoodTile.of(name) for name in ("bread", "carrot", "corn", "cheese", "milk", "egg"))
NEW = (EGG, EGG, FoodTile.of("egg", "milk"), FoodTile.of("bread", "bread", "corn"))


def start(players: int, mode: Mode = Mode.STANDARD, first: int = 0,
          face_up: tuple[FoodTile, ...] | None = None) -> GameState:
    return new_game(make_setup(mode, players, first, face_up))


def reasons(verdict: Verdict) -> list[Reason]:
    return [v.reason for v in verdict.violations]


def only(verdict: Verdict) -> Violation:
    assert not verdict.legal and verdict.next_state is None
    (violation,) = verdict.violations
    return violation


# DFM-R11: the draft ------------------------------------------------------------------

def test_four_players_each_take_one_tile_in_turn_and_one_is_left() -> None:
    state = play(start(4), TakeTile(0, BREAD, 0, 0), TakeTile(1, CARROT, 0, 0),
                 TakeTile(2, CORN, 0, 0), TakeTile(3, CHEESE, 0, 0))
    assert state.face_up == (MILK,) and state.discards == ()
    assert (state.round, state.first_player, state.current_player) == (2, 3, 3)
    assert state.expected is Action.REVEAL


def test_taking_out_of_turn_names_whose_turn_it_is() -> None:
    assert only(validate(start(4), TakeTile(1, BREAD, 0, 0))) == Violation(
        Reason.NOT_YOUR_TURN, "DFM-R11", "It is Ana's turn, not Ben's", ("player",))


@pytest.mark.parametrize(("players", "taken", "move"), [
    (3, (), DiscardTile(1, BREAD)),  # Ana must take; Ben may never discard this round
    (2, (), DiscardTile(1, BREAD)),  # Ana must take
    (2, (TakeTile(0, BREAD, 0, 0),), DiscardTile(1, CARROT)),  # Ana must discard
    (2, (TakeTile(0, BREAD, 0, 0),), TakeTile(1, CARROT, 0, 0)),  # Ana must discard
], ids=["3 players, discard at a take", "2 players, discard at a take",
        "discard at Ana's discard", "take at Ana's discard"])
def test_acting_out_of_turn_is_only_out_of_turn(players: int, taken: tuple[TakeTile, ...],
                                                move: Move) -> None:
    """Whose turn it is, and nothing else: what the mover may do on their own turn is
    not the question yet."""
    state = play(start(players), *taken)
    assert reasons(validate(state, move)) == [Reason.NOT_YOUR_TURN]


def test_nobody_discards_with_four_players() -> None:
    violation = only(validate(start(4), DiscardTile(0, BREAD)))
    assert violation.reason is Reason.DISCARD_NOT_ALLOWED
    assert violation.message == "Nothing is discarded with 4 players"


def test_three_players_first_player_takes_then_discards_the_others_take() -> None:
    state = play(start(3), TakeTile(0, BREAD, 1, 1))
    assert (state.current_player, state.expected) == (0, Action.DISCARD)
    assert legal_moves(state) == tuple(DiscardTile(0, t) for t in (CARROT, CORN, CHEESE, MILK))
    assert only(validate(state, TakeTile(0, CARROT, 0, 0))) == Violation(
        Reason.DISCARD_REQUIRED, "DFM-R11",
        "Ana has taken a tile and now discards one of the face-up tiles to the box")
    state = play(state, DiscardTile(0, CARROT))
    assert state.discards == (CARROT,)
    assert (state.current_player, state.expected) == (1, Action.TAKE)
    assert only(validate(state, DiscardTile(1, CORN))) == Violation(
        Reason.DISCARD_NOT_ALLOWED, "DFM-R11",
        "With 3 players only the first player, Ana, discards; Ben takes a tile")
    state = play(state, TakeTile(1, CORN, 0, 0), TakeTile(2, CHEESE, 0, 0))
    assert state.face_up == (MILK,) and state.expected is Action.REVEAL
    assert (state.round, state.first_player) == (2, 2)


def test_the_first_player_takes_before_discarding() -> None:
    violation = only(validate(start(3), DiscardTile(0, BREAD)))
    assert violation.reason is Reason.DISCARD_NOT_ALLOWED
    assert violation.message == "Ana takes a tile first, then discards one"


def test_two_players_each_take_then_discard() -> None:
    state = play(start(2), TakeTile(0, BREAD, 0, 0), DiscardTile(0, CARROT),
                 TakeTile(1, CORN, 0, 0))
    assert (state.current_player, state.expected) == (1, Action.DISCARD)
    assert reasons(validate(state, TakeTile(1, CHEESE, 0, 1))) == [Reason.DISCARD_REQUIRED]
    assert reasons(validate(state, DiscardTile(0, CHEESE))) == [Reason.NOT_YOUR_TURN]
    state = play(state, DiscardTile(1, CHEESE))
    assert state.face_up == (MILK,) and state.discards == (CARROT, CHEESE)
    assert (state.round, state.first_player, state.expected) == (2, 1, Action.REVEAL)


def test_a_tile_must_be_face_up() -> None:
    assert only(validate(start(4), TakeTile(0, EGG, 0, 0))) == Violation(
        Reason.TILE_NOT_ON_DISPLAY, "DFM-R11",
        "No egg tile is face up; the face-up tiles are: bread, carrot, corn, cheese, milk",
        ("tile",))
    state = play(start(3), TakeTile(0, BREAD, 0, 0))
    assert reasons(validate(state, DiscardTile(0, BREAD))) == [Reason.TILE_NOT_ON_DISPLAY]
    two = only(validate(start(4), TakeTile(0, FoodTile.of("corn", "egg"), 0, 0)))
    assert two.message.startswith("No corn+egg tile is face up")


def test_a_tiles_ingredients_may_be_named_in_any_order() -> None:
    shown = FoodTile.of("egg", "corn", "egg")
    state = start(4, face_up=(shown, BREAD, CARROT, CORN, MILK))
    move = TakeTile(0, FoodTile.of("corn", "egg", "egg"), 2, 2)
    assert move == TakeTile(0, shown, 2, 2) and move in legal_moves(state)
    after = play(state, move)
    assert after.players[0].board.grid[2][2] == shown  # the display's tile, as it was given


def test_identical_face_up_tiles_are_one_choice() -> None:
    state = start(4, face_up=(CORN, CORN, EGG, BREAD, CORN))
    moves = legal_moves(state)
    assert len(moves) == 3 * 16 == len(set(moves))
    assert play(state, TakeTile(0, CORN, 0, 0)).face_up == (CORN, EGG, BREAD, CORN)


def test_a_round_begins_with_four_tiles_revealed_beside_the_last_one() -> None:
    state = play(start(4), TakeTile(0, BREAD, 0, 0), TakeTile(1, CARROT, 0, 0),
                 TakeTile(2, CORN, 0, 0), TakeTile(3, CHEESE, 0, 0))
    assert legal_moves(state) == ()
    assert only(validate(state, TakeTile(3, MILK, 1, 1))) == Violation(
        Reason.REVEAL_REQUIRED, "DFM-R11",
        "Round 2 begins by turning over 4 tiles from the pile; then Dee takes")
    assert only(validate(state, RevealTiles(NEW[:3]))) == Violation(
        Reason.WRONG_REVEAL_SIZE, "DFM-R11", "Round 2 begins by turning over 4 tiles, not 3",
        ("tiles",))
    state = play(state, RevealTiles(NEW))
    assert state.face_up == (MILK, *NEW) and state.pile_count == 56
    assert (state.current_player, state.expected) == (3, Action.TAKE)


def test_tiles_are_revealed_only_as_a_round_begins() -> None:
    assert only(validate(start(4), RevealTiles(NEW))) == Violation(
        Reason.REVEAL_NOT_ALLOWED, "DFM-R11",
        "It is Ana's turn to take a tile; tiles are turned over only as a round begins")


def test_a_reveal_cannot_turn_over_more_tiles_than_the_pile_holds() -> None:
    game = play_random_game(random.Random(1), Mode.STANDARD, 2)
    (last_reveal,) = [s for s in game.states if s.expected is Action.REVEAL and s.round == 16]
    assert last_reveal.pile_count == 4
    verdict = validate(last_reveal, RevealTiles(NEW + (EGG,)))
    assert reasons(verdict) == [Reason.WRONG_REVEAL_SIZE, Reason.TILES_NOT_IN_PILE]
    assert verdict.violations[1] == Violation(Reason.TILES_NOT_IN_PILE, "DFM-R15",
                                              "The pile holds only 4 tiles, not 5", ("tiles",))


# DFM-R12: placement --------------------------------------------------------------------

def test_a_taken_tile_goes_on_an_empty_space_of_the_takers_own_grid() -> None:
    state = play(start(4), TakeTile(0, BREAD, 1, 2))
    assert state.players[0].board.grid[1][2] == BREAD
    assert state.players[0].board.tile_count == 1
    assert all(p.board.tile_count == 0 for p in state.players[1:])


def test_a_taken_tile_cannot_go_on_an_occupied_space() -> None:
    state = play(start(2), TakeTile(0, BREAD, 1, 2), DiscardTile(0, CARROT),
                 TakeTile(1, CORN, 0, 0), DiscardTile(1, CHEESE), RevealTiles(NEW))
    assert only(validate(state, TakeTile(1, EGG, 0, 0))) == Violation(
        Reason.OCCUPIED_SPACE, "DFM-R12", "Row 1, column 1 of Ben's grid already holds a tile")
    verdict = validate(state, TakeTile(0, CHEESE, 1, 2))  # everything wrong, not just the first
    assert reasons(verdict) == [Reason.NOT_YOUR_TURN, Reason.TILE_NOT_ON_DISPLAY,
                                Reason.OCCUPIED_SPACE]
    assert verdict.violations[2].message == "Row 2, column 3 of Ana's grid already holds a tile"


# DFM-R13: Young Shopper ----------------------------------------------------------------

def test_young_shopper_replaces_a_taken_tile_at_once() -> None:
    state = start(3, Mode.YOUNG_SHOPPER)
    assert state.face_up == (BREAD, CARROT, CORN) and state.pile_count == 62
    state = play(state, TakeTile(0, CARROT, 3, 3))
    assert (state.current_player, state.expected) == (1, Action.REVEAL)
    assert state.face_up == (BREAD, CORN) and legal_moves(state) == ()
    assert only(validate(state, TakeTile(1, BREAD, 0, 0))) == Violation(
        Reason.REVEAL_REQUIRED, "DFM-R13",
        "The tile just taken is replaced from the pile before Ben takes")
    assert only(validate(state, RevealTiles((EGG, EGG)))) == Violation(
        Reason.WRONG_REVEAL_SIZE, "DFM-R13",
        "The taken tile is replaced by 1 tile from the pile, not 2", ("tiles",))
    state = play(state, RevealTiles((EGG,)))
    assert state.face_up == (BREAD, CORN, EGG) and state.pile_count == 61
    assert (state.current_player, state.expected, state.round) == (1, Action.TAKE, 1)


def test_nothing_is_discarded_in_young_shopper() -> None:
    assert only(validate(start(2, Mode.YOUNG_SHOPPER), DiscardTile(0, BREAD))) == Violation(
        Reason.DISCARD_NOT_ALLOWED, "DFM-R13", "Nothing is discarded in Young Shopper")


def test_young_shopper_plays_on_from_the_display_once_the_pile_is_empty() -> None:
    game = play_random_game(random.Random(2), Mode.YOUNG_SHOPPER, 4)
    empty = [s for s in game.states if s.pile_count == 0]
    assert [len(s.face_up) for s in empty] == [3, 2, 1]
    assert [s.expected for s in empty] == [Action.TAKE, Action.TAKE, None]
    refused = validate(empty[0], RevealTiles((EGG,))).violations
    assert [v.reason for v in refused] == [Reason.REVEAL_NOT_ALLOWED, Reason.TILES_NOT_IN_PILE]
    assert refused[0].message.endswith("tiles are turned over only to replace a tile just taken")


# DFM-R14: the end ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", list(Mode))
def test_the_game_ends_when_every_grid_is_full(mode: Mode) -> None:
    game = play_random_game(random.Random(3), mode, 3)
    assert not game.states[-2].game_over and game.final.game_over
    assert legal_moves(game.final) == ()
    for move in (game.moves[-1], RevealTiles((EGG,)), DiscardTile(0, EGG)):
        assert only(validate(game.final, move)) == Violation(
            Reason.GAME_OVER, "DFM-R14", "The game is over: every grid is full")


# Input the rules cannot judge -----------------------------------------------------------

def test_a_malformed_move_is_refused_as_input_not_judged() -> None:
    with pytest.raises(InvalidInputError) as caught:
        validate(start(4), TakeTile(7, FoodTile(()), 4, -1))
    assert [p.pointer for p in caught.value.problems] == [
        "/move/tile", "/move/player", "/move/row", "/move/col"]
    with pytest.raises(InvalidInputError) as caught:
        validate(start(4), RevealTiles((EGG, FoodTile.of(*["egg"] * 4))))
    assert [p.pointer for p in caught.value.problems] == ["/move/tiles/1"]


def test_an_impossible_state_is_refused_before_any_move_is_judged() -> None:
    broken = replace(start(4), pile_count=59)
    with pytest.raises(InvalidInputError) as caught:
        validate(broken, TakeTile(0, BREAD, 0, 0))
    assert {p.pointer for p in caught.value.problems} == {"/state", "/state/pile_count"}
    with pytest.raises(InvalidInputError):
        legal_moves(broken)
