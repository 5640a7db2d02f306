"""Who acts when: the order within a round and who opens each round (DFM-R11), and Young
Shopper's unbroken clockwise order (DFM-R13). Expected orders are written out by hand."""

from __future__ import annotations

import itertools

import pytest

from tabletop_rules.downtown_farmers_market import (
    REVEAL_SIZE,
    Action,
    FoodTile,
    GameState,
    Mode,
    RevealTiles,
    legal_moves,
    new_game,
)

from .simulator import make_setup, play

EGG = FoodTile.of("egg")


def first_legal_game(mode: Mode, players: int, first: int) -> list[GameState]:
    """Every state of a game where each player always takes the first legal move."""
    state = new_game(make_setup(mode, players, first))
    states = [state]
    while not state.game_over:
        reveal = RevealTiles((EGG,) * REVEAL_SIZE[mode])
        state = play(state, reveal if state.expected is Action.REVEAL else legal_moves(state)[0])
        states.append(state)
    return states


def actions_by_round(states: list[GameState]) -> list[list[str]]:
    """Each round's actions as "Ana takes", from the states the game went through."""
    rounds: dict[int, list[str]] = {}
    for before, after in itertools.pairwise(states):
        if before.expected is Action.REVEAL:
            continue
        name = before.players[before.current_player].name
        verb = "discards" if len(after.discards) > len(before.discards) else "takes"
        rounds.setdefault(before.round, []).append(f"{name} {verb}")
    return list(rounds.values())


@pytest.mark.parametrize(("players", "first", "openers"), [
    (4, 0, ["Ana", "Dee", "Cy", "Ben"] * 4),
    (4, 1, ["Ben", "Ana", "Dee", "Cy"] * 4),
    (3, 0, ["Ana", "Cy", "Ben"] * 5 + ["Ana"]),
    (3, 2, ["Cy", "Ben", "Ana"] * 5 + ["Cy"]),
    (2, 0, ["Ana", "Ben"] * 8),
    (2, 1, ["Ben", "Ana"] * 8),
])
def test_the_last_to_act_opens_the_next_round(players: int, first: int,
                                              openers: list[str]) -> None:
    rounds = actions_by_round(first_legal_game(Mode.STANDARD, players, first))
    assert len(rounds) == 16
    assert [r[0].split()[0] for r in rounds] == openers
    for this, following in itertools.pairwise(rounds):
        assert following[0].split()[0] == this[-1].split()[0]


@pytest.mark.parametrize(("players", "first_two_rounds"), [
    (4, [["Ana takes", "Ben takes", "Cy takes", "Dee takes"],
         ["Dee takes", "Ana takes", "Ben takes", "Cy takes"]]),
    (3, [["Ana takes", "Ana discards", "Ben takes", "Cy takes"],
         ["Cy takes", "Cy discards", "Ana takes", "Ben takes"]]),
    (2, [["Ana takes", "Ana discards", "Ben takes", "Ben discards"],
         ["Ben takes", "Ben discards", "Ana takes", "Ana discards"]]),
])
def test_turns_go_clockwise_from_the_first_player(players: int,
                                                  first_two_rounds: list[list[str]]) -> None:
    rounds = actions_by_round(first_legal_game(Mode.STANDARD, players, 0))
    assert rounds[:2] == first_two_rounds


def test_the_first_player_token_follows_the_opener() -> None:
    states = first_legal_game(Mode.STANDARD, 3, 0)
    by_round = {s.round: s.first_player for s in states if s.expected is not None}
    assert list(by_round.values()) == [0, 2, 1] * 5 + [0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_young_shopper_turns_go_clockwise_all_game(players: int) -> None:
    states = first_legal_game(Mode.YOUNG_SHOPPER, players, 1)
    takers = [s.players[s.current_player].name for s in states if s.expected is Action.TAKE]
    seats = ["Ana", "Ben", "Cy", "Dee"][:players]
    assert takers == (seats[1:] + seats[:1]) * 16
    assert {s.first_player for s in states} == {1}
    assert [s.round for s in states if s.expected is Action.TAKE] == [
        r for r in range(1, 17) for _ in range(players)]
    assert all(s.discards == () and s.expected is not Action.DISCARD for s in states)
