"""A state is checked once: judging a move or listing the legal ones trusts a state the
rules made from a sound one, or one check_state already passed, and nothing else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tabletop_rules.downtown_farmers_market import (
    FoodTile,
    GameState,
    Mode,
    TakeTile,
    check_state,
    legal_moves,
    new_game,
    validate,
)
from tabletop_rules.downtown_farmers_market import state as state_module
from tabletop_rules.problems import InvalidInputError, Problem

from .simulator import make_setup, play

pytestmark = pytest.mark.skipif(
    not str(state_module.__file__).endswith(".py"),
    reason="sees which states are checked by patching state._problems, which the compiled "
           "rules call directly: deploy/test.py runs these on the sources")

@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[GameState]:
    """Every state check_state examines in full, in order."""
    examined: list[GameState] = []
    full = state_module._problems

    def counted(state: GameState) -> list[Problem]:
        examined.append(state)
        return full(state)

    monkeypatch.setattr(state_module, "_problems", counted)
    return examined


def test_the_states_the_rules_make_are_not_checked_again(checks: list[GameState]) -> None:
    state = new_game(make_setup(Mode.STANDARD, 4))
    after = play(state, TakeTile(0, state.face_up[0], 0, 0))
    legal_moves(after)
    validate(after, TakeTile(1, after.face_up[0], 0, 0))
    assert checks == []


def test_a_state_from_outside_is_checked_once(checks: list[GameState]) -> None:
    made = play(new_game(make_setup(Mode.STANDARD, 2)), TakeTile(0, FoodTile.of("bread"), 0, 0))
    sent = replace(made)  # as the engine reads one: equal, but nobody vouched for it
    assert sent == made
    legal_moves(sent)
    validate(sent, TakeTile(0, sent.face_up[0], 0, 0))
    assert checks == [sent]


def test_a_changed_copy_of_a_sound_state_is_checked(checks: list[GameState]) -> None:
    broken = replace(new_game(make_setup(Mode.STANDARD, 3)), pile_count=1)
    for _ in range(2):  # a state found wrong is not trusted the second time either
        with pytest.raises(InvalidInputError):
            legal_moves(broken)
        with pytest.raises(InvalidInputError):
            validate(broken, TakeTile(0, broken.face_up[0], 0, 0))
    assert checks == [broken] * 4


def test_check_state_itself_always_checks_in_full(checks: list[GameState]) -> None:
    state = new_game(make_setup(Mode.YOUNG_SHOPPER, 2))
    assert check_state(state) == check_state(state) == []
    assert checks == [state, state]
