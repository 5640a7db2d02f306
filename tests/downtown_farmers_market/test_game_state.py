"""Starting a game, and everything check_state finds wrong with a hand-built state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop_rules.downtown_farmers_market import (
    RULES_VERSION,
    Action,
    Board,
    DiscardTile,
    FoodTile,
    GameState,
    Mode,
    Player,
    TakeTile,
    check_setup,
    check_state,
    empty_grid,
    new_game,
    replay,
)
from tabletop_rules.problems import InvalidInputError, Problem

from .simulator import make_setup, play

BREAD, CARROT, CORN = FoodTile.of("bread"), FoodTile.of("carrot"), FoodTile.of("corn")


def messages(problems: list[Problem]) -> dict[str, str]:
    return {p.pointer: p.message for p in problems}


@pytest.mark.parametrize(("mode", "face_up", "pile"), [(Mode.STANDARD, 5, 60),
                                                       (Mode.YOUNG_SHOPPER, 3, 62)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_starts_in_round_one_with_the_first_player_to_take(
        mode: Mode, face_up: int, pile: int, players: int) -> None:
    setup = make_setup(mode, players, first_player=players - 1)
    state = new_game(setup)
    assert state == GameState(rules_version=RULES_VERSION, mode=mode, players=setup.players,
                              face_up=setup.face_up, pile_count=pile, discards=(), round=1,
                              first_player=players - 1, current_player=players - 1,
                              expected=Action.TAKE)
    assert len(state.face_up) == face_up and not state.game_over and check_state(state) == []


def test_a_setup_is_checked_for_everything_at_once() -> None:
    setup = make_setup(Mode.STANDARD, 3)
    ana, ben, cy = setup.players
    filled = Board(tuple((BREAD,) + row[1:] for row in empty_grid()),
                   cy.board.row_challenges, cy.board.column_challenges)
    young = replace(ben.board, row_challenges=(), column_challenges=(), mode=Mode.YOUNG_SHOPPER)
    bad = replace(setup, players=(ana, Player("Ana", young), Player("Cy", filled)),
                  first_player=3, face_up=(BREAD, FoodTile(())))
    assert messages(check_setup(bad)) == {
        "/players/1/name": "'Ana' is named twice; give each player a distinct name",
        "/players/1/board/mode": "the game is played in standard mode; this board is "
                                 "young_shopper",
        "/first_player": "a seat from 0 to 2; got 3",
        "/players/2/board/grid": "a game begins with empty grids; Cy's holds 4 tiles",
        "/face_up": "a standard game begins with 5 tiles face up (DFM-R11); got 2",
        "/face_up/1": "a Food tile shows 1 to 3 ingredients (DFM-R15); this one has 0",
    }
    with pytest.raises(InvalidInputError) as caught:
        new_game(bad)
    assert len(caught.value.problems) == 6


def test_a_game_has_two_to_four_players() -> None:
    five = make_setup(Mode.STANDARD, 4)
    five = replace(five, players=five.players + (replace(five.players[0], name="Eve"),))
    assert messages(check_setup(five)) == {"/players": "a game has 2 to 4 players; got 5"}
    one = make_setup(Mode.YOUNG_SHOPPER, 2)
    assert messages(check_setup(replace(one, players=one.players[:1]))) == {
        "/players": "a game has 2 to 4 players; got 1"}


def test_an_unknown_rules_version_is_refused_clearly() -> None:
    refusal = {"/rules_version": "unknown rules version 2; this referee plays version 1"}
    setup = replace(make_setup(Mode.STANDARD, 2), rules_version=2)
    assert messages(check_setup(setup)) == refusal
    assert messages(check_state(replace(new_game(make_setup(Mode.STANDARD, 2)),
                                        rules_version=2))) == refusal


def three_player_state() -> GameState:
    """Round 1 of a 3-player game: Ana took and discarded, Ben took; Cy to take."""
    return play(new_game(make_setup(Mode.STANDARD, 3)), TakeTile(0, BREAD, 0, 0),
                DiscardTile(0, CARROT), TakeTile(1, CORN, 0, 0))


def test_tiles_that_do_not_add_up_to_65_are_refused() -> None:
    state = replace(three_player_state(), pile_count=50)
    assert messages(check_state(state)) == {
        "": "the tiles add up to 55 (2 on the grids, 1 discarded, 2 face up, 50 in the "
            "pile); the game has 65 Food tiles (DFM-R15)",
        "/pile_count": "50 tiles in the pile; at this point (round 1, Cy to take) there "
                       "should be 60 (DFM-R11)",
    }


def test_grids_must_fit_the_round_and_turn() -> None:
    state = three_player_state()
    ben = state.players[1]
    moved = replace(ben, board=replace(ben.board, grid=empty_grid()))
    cy = state.players[2]
    grown = replace(cy, board=replace(cy.board, grid=ben.board.grid))
    state = replace(state, players=(state.players[0], moved, grown))
    assert messages(check_state(state)) == {
        "/players/1/board/grid": "Ben's grid holds 0 tiles; at this point (round 1, Cy to "
                                 "take) it should hold 1",
        "/players/2/board/grid": "Cy's grid holds 1 tile; at this point (round 1, Cy to "
                                 "take) it should hold 0",
    }


def test_the_turn_must_fit_the_round() -> None:
    state = replace(three_player_state(), expected=Action.DISCARD)
    assert messages(check_state(state)) == {
        "": "round 1 with Ana as first player has no point where Cy discards; the round "
            "goes: Ana takes, Ana discards, Ben takes, Cy takes (DFM-R11)"}
    over = replace(three_player_state(), expected=None)
    assert "the game ends with Cy placing the last tile" in check_state(over)[0].message


def test_discards_the_game_does_not_have_are_refused() -> None:
    state = new_game(make_setup(Mode.YOUNG_SHOPPER, 4))
    state = replace(state, discards=(BREAD,), pile_count=61)
    assert messages(check_state(state)) == {
        "/discards": "1 tile discarded; at this point (round 1, Ana to take) there should be "
                     "0 (DFM-R13)",
        "/pile_count": "61 tiles in the pile; at this point (round 1, Ana to take) there "
                       "should be 62 (DFM-R13)",
    }
    assert messages(check_state(replace(state, expected=Action.DISCARD))) == {
        "": "nothing is discarded in Young Shopper (DFM-R13)"}


def test_seats_and_round_must_be_in_range() -> None:
    state = replace(three_player_state(), first_player=-1, current_player=3, round=17,
                    face_up=(BREAD, FoodTile.of("egg", "egg", "egg", "egg")))
    assert messages(check_state(state)) == {
        "/face_up/1": "a Food tile shows 1 to 3 ingredients (DFM-R15); this one has 4",
        "/first_player": "a seat from 0 to 2; got -1",
        "/current_player": "a seat from 0 to 2; got 3",
        "/round": "a round from 1 to 16; got 17",
    }


def test_replay_points_into_its_own_input() -> None:
    setup = make_setup(Mode.STANDARD, 2)
    with pytest.raises(InvalidInputError) as caught:
        replay(replace(setup, first_player=5), [])
    assert [p.pointer for p in caught.value.problems] == ["/setup/first_player"]
    with pytest.raises(InvalidInputError) as caught:
        replay(setup, [TakeTile(0, BREAD, 0, 0), TakeTile(0, CORN, 4, 0)])
    assert [p.pointer for p in caught.value.problems] == ["/moves/1/row"]
