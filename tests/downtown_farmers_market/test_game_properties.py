"""Invariants over positions reached by random play, with hypothesis choosing the game."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.downtown_farmers_market import (
    GRID_SIZE,
    INGREDIENTS,
    Action,
    DiscardTile,
    FoodTile,
    GameState,
    Mode,
    Move,
    TakeTile,
    check_state,
    legal_moves,
    validate,
)

from .simulator import play_random_game

tiles = st.lists(st.sampled_from(INGREDIENTS), min_size=1, max_size=3).map(
    lambda ingredients: FoodTile(tuple(ingredients)))


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """Any state of a random game of any mode and player count, the end included."""
    game = play_random_game(draw(st.randoms(use_true_random=False)),
                            draw(st.sampled_from(Mode)), draw(st.integers(2, 4)),
                            max_moves=draw(st.integers(0, 130)))  # 127 moves at most
    return game.final


@given(positions())
def test_every_legal_move_is_legal_and_leads_to_a_sound_state(state: GameState) -> None:
    moves = legal_moves(state)
    assert len(set(moves)) == len(moves)
    assert bool(moves) == (state.expected in (Action.TAKE, Action.DISCARD))
    for move in moves:
        verdict = validate(state, move)
        assert verdict.legal and verdict.next_state is not None
        assert check_state(verdict.next_state) == []


@given(positions(), st.data())
def test_a_take_or_discard_is_legal_exactly_when_legal_moves_lists_it(
        state: GameState, data: st.DataObject) -> None:
    player = data.draw(st.integers(0, len(state.players) - 1))
    tile = data.draw(st.sampled_from(state.face_up) | tiles if state.face_up else tiles)
    cell = st.integers(0, GRID_SIZE - 1)
    options: list[Move] = [TakeTile(player, tile, data.draw(cell), data.draw(cell)),
                           DiscardTile(player, tile)]
    move = data.draw(st.sampled_from(options))
    verdict = validate(state, move)
    assert verdict.legal == (move in legal_moves(state))
    assert verdict.legal == (verdict.next_state is not None) != bool(verdict.violations)


@given(positions(), st.data())
def test_a_state_with_one_count_or_turn_changed_is_refused(
        state: GameState, data: st.DataObject) -> None:
    n = len(state.players)
    field = data.draw(st.sampled_from(["round", "first_player", "current_player", "pile_count",
                                       "expected", "face_up", "discards"]))
    if field in ("round", "pile_count"):
        value = getattr(state, field) + data.draw(st.sampled_from([-1, 1, 4]))
    elif field in ("first_player", "current_player"):
        value = (getattr(state, field) + data.draw(st.integers(1, n - 1))) % n
    elif field == "expected":
        value = data.draw(st.sampled_from([a for a in (*Action, None) if a is not state.expected]))
    else:
        value = getattr(state, field) + (data.draw(tiles),)
    assert check_state(replace(state, **{field: value})) != []
