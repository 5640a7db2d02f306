"""Random complete games of Foxglove Farm, 1 to 4 players and solo, played through the
referee's own legal moves and validate, with a box of tiles standing in for the table.

The box holds each tier's tiles (the catalog's buildings of that tier, repeated to the
rulebook's stack sizes) shuffled; when the board waits for tiles the simulator draws
from it as players would: identical tiles stack, and drawing stops once every space is
filled. Players pick among the legal moves with a bias toward building; with
``composed`` they now and then also make what the list leaves to them (several trails
in one action, a production or processing choice).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop_rules.foxglove_farm import builtin_catalog
from tabletop_rules.foxglove_farm.central_board import (
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
    Spaces,
    area_tier,
    board_spaces,
    refill,
)
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GameState,
    Pass,
    GamePhase,
    ProcessGoods,
    Produce,
    Seat,
    Setup,
    Transport,
)
from tabletop_rules.foxglove_farm.model import Variant
from tabletop_rules.foxglove_farm.production import production_outcomes


@dataclass
class PlayedGame:
    """A game played to its end: the setup, the log, the state before each action and
    the last."""

    setup: Setup
    moves: list[Any]
    states: list[GameState]


def new_box(rng: random.Random, laid_out: Sequence[str] = ()) -> dict[str, list[str]]:
    """Each tier's face-down stack, shuffled: the catalog's tiles of the tier repeated
    to the stack's size, less the tiles a solo setup lays out."""
    catalog = builtin_catalog()
    box = {}
    for tier, size in STACK_SIZES.items():
        kinds = sorted(b.id for b in catalog if tier in b.tiers and b.documented)
        size -= sum(tier in catalog[t].tiers and tier != "B" for t in laid_out)
        box[tier] = [kinds[i % len(kinds)] for i in range(size)]
        rng.shuffle(box[tier])
    return box


def draw(spaces: Spaces, stack: list[str]) -> list[str]:
    """Draw from ``stack`` as players do until no space of ``spaces`` is empty."""
    drawn: list[str] = []
    while None in spaces and stack:
        drawn.append(stack.pop())
        spaces = refill(spaces, drawn[-1:], 1).spaces
    return drawn


def random_setup(rng: random.Random, players: int, box: dict[str, list[str]],
                 solo: int | None = None) -> Setup:
    seats = tuple(Seat(f"Player {i + 1}", rng.choice(list(Variant))) for i in range(players))
    laid_out = SOLO_SETUPS[solo] if solo is not None else None
    a_tiles: tuple[str, ...] = ()
    c_tiles: tuple[str, ...] = ()
    if laid_out is None or not laid_out.a_tiles:
        a_tiles = tuple(draw((None,) * board_spaces(players, solo is not None), box["A"]))
        c_tiles = tuple(draw((None,) * C_SPACES, box["C"]))
    return Setup(seats, rng.randrange(players), a_tiles, c_tiles, solo)


def _choose(rng: random.Random, state: GameState, legal: Sequence[Any],
            composed: bool) -> Any:
    if state.phase is GamePhase.PRODUCTION:
        move = rng.choice(legal)
        if composed:
            town = state.players[move.player].town
            choices = tuple((t.position, rng.choice(outcomes).goods) for t in town.buildings
                            if len(outcomes := production_outcomes(town, t.position)) > 1)
            return Produce(move.player, choices)
        return move
    if state.phase is GamePhase.CONSTRUCTION:
        builds = [m for m in legal if isinstance(m, BuildBuilding)]
        trails = [m for m in legal if isinstance(m, BuildTrails)]
        roll = rng.random()
        if builds and roll < 0.65:
            return rng.choice(builds)
        if trails and roll < 0.9:
            first = rng.choice(trails)
            if composed and rng.random() < 0.3:
                return _two_trails(state, first, trails, rng) or first
            return first
        return Pass(state.current_player)
    transports = [m for m in legal if isinstance(m, Transport)]
    ends = [m for m in legal if isinstance(m, EndRound)]
    if ends and rng.random() < 0.4:
        return rng.choice(ends)
    if transports and rng.random() < 0.85:
        return rng.choice(transports)
    return rng.choice([m for m in legal if isinstance(m, ProcessGoods)])


def _two_trails(state: GameState, first: BuildTrails, trails: Sequence[BuildTrails],
                rng: random.Random) -> BuildTrails | None:
    """``first`` and another listed trail in one action, if the town can pay both."""
    second = rng.choice(trails)
    move = BuildTrails(first.player, (*first.trails, *second.trails),
                       first.payment + second.payment)
    return move if GAME.validate(state, move).legal else None


def play_random_game(rng: random.Random, players: int, solo: int | None = None,
                     composed: bool = False, max_actions: int = 3000) -> PlayedGame:
    """A complete game, each action legal; the states before each action and the last."""
    box = new_box(rng, SOLO_SETUPS[solo].a_tiles + SOLO_SETUPS[solo].c_tiles if solo else ())
    setup = random_setup(rng, players, box, solo)
    state = GAME.new_game(setup)
    moves: list[Any] = []
    states = [state]
    while GAME.turn(state).expected is not None:
        assert len(moves) < max_actions, "the game does not end"
        turn = GAME.turn(state)
        if turn.expected == "draw_tiles":
            area = state.board.awaiting(state.round)
            assert area is not None
            move: Any = DrawTiles(tuple(draw(state.board.spaces(area),
                                             box[area_tier(area, state.round)])))
        else:
            move = _choose(rng, state, GAME.legal_moves(state), composed)
        verdict = GAME.validate(state, move)
        assert verdict.next_state is not None, (move, verdict.violations)
        state = verdict.next_state
        moves.append(move)
        states.append(state)
    return PlayedGame(setup, moves, states)
