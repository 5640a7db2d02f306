"""Game states for the four-round tests (tabletop_rules.foxglove_farm.farm_game): a
game set up with known tiles, moved to any phase and round with the towns a test needs,
and the refusals of an action read as (reason, rule, pointer) triples."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop_rules.foxglove_farm.construction import Payment, TrailWork
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_state import (
    Action,
    EndRound,
    GamePhase,
    GameState,
    Pass,
    ProcessGoods,
    Produce,
    Seat,
    Setup,
)
from tabletop_rules.foxglove_farm.model import Goods, Position, Side, Town, Variant
from tabletop_rules.game import apply

from .towns import b, town

P = Position

A_TILES = {2: ("sheepfold", "industrial_farm", "scrapyard", "allotment", "woolmill",
               "lambing_shed"),
           3: ("sheepfold", "industrial_farm", "scrapyard", "allotment", "woolmill",
               "lambing_shed", "granary"),
           4: ("sheepfold", "industrial_farm", "scrapyard", "allotment", "woolmill",
               "lambing_shed", "granary", "hot_spring")}
"""Distinct A tiles filling the board's 6, 7 or 8 A spaces (FF-R13)."""
C_TILES = ("butcher", "bakery", "ranch", "grocer")
NAMES = ("Ann", "Bob", "Cy", "Dee")

FOREST, MINE = P(0, 0), P(0, 1)
"""Where every new town's starting tile lies (farm_game.STARTING_TILE)."""


def new_game(players: int = 2, start: int = 0, a_tiles: tuple[str, ...] | None = None,
             c_tiles: tuple[str, ...] = C_TILES, expert: tuple[int, ...] = ()) -> GameState:
    """Round 1's production phase of a game with known tiles on the central board."""
    seats = tuple(Seat(NAMES[i], Variant.EXPERT if i in expert else Variant.STANDARD)
                  for i in range(players))
    return GAME.new_game(Setup(seats, start, A_TILES[players] if a_tiles is None else a_tiles,
                               c_tiles))


def at(state: GameState, phase: GamePhase, round_number: int | None = None,
       current: int | None = None) -> GameState:
    """``state`` moved, as a transcription would be, to ``phase`` of ``round_number``."""
    return replace(state, phase=phase, round=state.round if round_number is None
                   else round_number,
                   current_player=state.start_player if current is None else current)


def with_town(state: GameState, seat: int, new_town: Town) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], town=new_town)
    return replace(state, players=tuple(players))


def farm(*tiles: dict[str, Any], wood: int = 5, stone: int = 3, **fields: Any) -> Town:
    """A town whose Forest holds ``wood`` and whose Mine holds ``stone``, with ``tiles``."""
    forest = b(0, 0, "forest", **({"wood": wood} if wood else {}))
    mine = b(0, 1, "mine", **({"stone": stone} if stone else {}))
    return town(forest, mine, *tiles, start=False, **fields)


def sides(text: str) -> frozenset[Side]:
    """``sides("NE")``: a trail's open sides."""
    return frozenset(Side(c) for c in text)


def trail(row: int, col: int, open_sides: str, upgrade: bool = False) -> TrailWork:
    return TrailWork(P(row, col), sides(open_sides), upgrade)


def pay(position: Position, **goods: int) -> Payment:
    return Payment(position, Goods(**goods))


SHEEPFOLD_COST = (pay(FOREST, wood=1), pay(MINE, stone=1))
"""The Sheepfold's printed cost, 1 wood and 1 stone, from the starting tile."""


def refusals(state: GameState, action: Action) -> list[tuple[str, str, str]]:
    """Each rule ``action`` breaks: its reason, its rule id, and the pointer of the part
    of the action that breaks it, in a request that nests the action under "action"."""
    verdict = GAME.validate(state, action)
    assert verdict.next_state is None and verdict.violations, "the action was legal"
    return [(v.reason, v.rule, v.pointer("action")) for v in verdict.violations]


def play(state: GameState, *actions: Action) -> GameState:
    """``state`` after ``actions``, each of which must be legal."""
    for action in actions:
        state = apply(GAME, state, action)
    return state


def finish_round(state: GameState) -> GameState:
    """Every player produces, passes and processes (and in round 4 ends the round): the
    state once the round is over (the next round's, or the game over)."""
    round_number = state.round
    while state.round == round_number and state.phase is not GamePhase.GAME_OVER:
        turn = GAME.turn(state)
        assert turn.player is not None, turn
        seat = turn.player
        if turn.expected == "produce":
            action: Action = Produce(seat)
        elif turn.expected == "construct":
            action = Pass(seat)
        elif state.players[seat].runs:
            action = EndRound(seat)
        else:
            action = ProcessGoods(seat)
        state = apply(GAME, state, action)
    return state
