"""Recorded positions and their hand-counted legal moves (like python-chess's perft files).

Each file in ``tests/data/downtown_farmers_market/positions`` holds a state in JSON (boards
in the contract's form), its legal-move count, and ``why``: the count worked out by hand
from the rules, for a reader to check against the rulebook.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tabletop_rules.downtown_farmers_market import (
    Action,
    FoodTile,
    GameState,
    Mode,
    Player,
    check_state,
    legal_moves,
    validate,
)
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict

from .boards import DATA_DIR

POSITIONS = sorted((DATA_DIR / "positions").glob("*.json"))


def load_state(data: dict[str, Any]) -> GameState:
    """A state from its JSON form: the dataclass's fields, boards as in the contract."""
    return GameState(
        rules_version=data["rules_version"],
        mode=Mode(data["mode"]),
        players=tuple(Player(p["name"], board_from_dict(p["board"])) for p in data["players"]),
        face_up=tuple(FoodTile.of(*t) for t in data["face_up"]),
        pile_count=data["pile_count"],
        discards=tuple(FoodTile.of(*t) for t in data["discards"]),
        round=data["round"],
        first_player=data["first_player"],
        current_player=data["current_player"],
        expected=None if data["expected"] is None else Action(data["expected"]),
    )


def test_there_are_positions_for_every_action_and_mode() -> None:
    states = [load_state(json.loads(p.read_text())["state"]) for p in POSITIONS]
    assert {s.expected for s in states} == {*Action, None}
    assert {s.mode for s in states} == set(Mode)
    assert {len(s.players) for s in states} == {2, 3, 4}


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_a_recorded_position_has_its_hand_counted_legal_moves(path: Path) -> None:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    state = load_state(recorded["state"])
    assert check_state(state) == []
    moves = legal_moves(state)
    assert len(moves) == recorded["legal_move_count"] == len(set(moves))
    assert len(moves) == _by_hand(state)
    assert all(validate(state, move).legal for move in moves)


def _by_hand(state: GameState) -> int:
    """The count the ``why`` texts use: different tiles, times empty spaces for a take."""
    different = len({frozenset(Counter(t.ingredients).items()) for t in state.face_up})
    if state.expected is Action.DISCARD:
        return different
    if state.expected is Action.TAKE:
        return different * (16 - state.players[state.current_player].board.tile_count)
    return 0
