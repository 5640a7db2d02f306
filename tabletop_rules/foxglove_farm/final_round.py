"""Foxglove Farm's final round as a :class:`tabletop_rules.game.Game`: the part of the
game the referee rules on move by move today (the four rounds come with their state).

A player, from a town as the fourth round's transportation begins, makes transports
(FF-R2, FF-R3), hauls with a Hauler's Hut at the start of a transportation phase
(FF-R17) and processing runs (FF-R4), interleaved as FF-R15 allows, then ends the round;
the standings are then the town's score (FF-R16). The interpretations are the
planner's (:mod:`.planner`): the round has at least one processing run, and each run
starts a new transportation phase in which every hut may haul once, before the phase's
first transport.

Legal moves list every transport (each count), the processing run with the rules'
default choices, and ending the round. Hauls and a run's "different types" choices are
the player's to compose (their combinations grow quickly), so they are judged when made
but not listed, as a payment would be.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from ..game import Game, Turn
from ..messages import choice, template
from ..problems import Problem
from ..verdicts import Verdict
from .effects import HAULERS_HUT_RULE
from .model import GOODS, Goods, Position, Town
from .processing import processing_outcomes, run_processing
from .ranking import Ranking, rank_towns
from .scoring import TownScore
from .reasons import Reason, Violation
from .transport import (
    Move,
    Pick,
    haul_unchecked,
    check_haul,
    validate_transport,
    check_move,
)

ROUND_RULE = "FF-R15"
MAX_LOG_MOVES = 2000
"""A final round moves each good a few times at most: a 120-tile town holds a few hundred."""

_ROUND_OVER = template("ROUND_OVER", "The final round is over: its score stands",
                       namespace="FF")
NO_PROCESSING_YET = choice(
    "NO_PROCESSING_YET", lambda p: str(p["ends"]), namespace="FF",
    final_round="The final round has a processing run before it ends",
    fourth_round="The fourth round has a processing run before the player ends it")
_HAUL_AFTER_TRANSPORT = template(
    "HAUL_AFTER_TRANSPORT", "A hut hauls at the start of a transportation phase, before its "
    "first transport", namespace="FF")
_ALREADY_HAULED = template(
    "ALREADY_HAULED", "This hut has hauled in this transportation phase already",
    namespace="FF")
_NOT_A_PROCESSING_CHOICE = template(
    "NOT_A_PROCESSING_CHOICE", "row {row}, col {col} cannot be left with those goods by a "
    "processing run", namespace="FF")


@dataclass(frozen=True, slots=True)
class Haul:
    """At a transportation phase's start, ``picks`` placed on the hut at ``hut``."""

    hut: Position
    picks: tuple[Pick, ...]


@dataclass(frozen=True, slots=True)
class Process:
    """A processing run; ``choices`` names, where FF-R4 leaves one, the goods a building
    is left with (the rules' default otherwise)."""

    choices: tuple[tuple[Position, Goods], ...] = ()


@dataclass(frozen=True, slots=True)
class EndRound:
    """The player is done: the round's end-game scoring follows (FF-R16)."""


FinalRoundMove = Move | Haul | Process | EndRound


@dataclass(frozen=True, slots=True)
class FinalRound:
    """The round so far: the town (its score track counts the runs' points), the runs
    made, whether a transport has been made in this transportation phase, the huts that
    hauled in it, and whether the round is over."""

    player: str
    town: Town
    runs: int = 0
    moved: bool = False
    hauled: frozenset[Position] = field(default_factory=frozenset)
    over: bool = False


@dataclass(frozen=True, slots=True)
class Setup:
    """Who plays, and their town as the final round's transportation begins."""

    player: str
    town: Town


class FoxgloveFarmFinalRound:
    """The final round's rules; stateless, so the one instance :data:`GAME` serves all."""

    slug = "foxglove-farm-final-round"
    max_log_moves = MAX_LOG_MOVES

    def new_game(self, setup: Setup) -> FinalRound:
        return FinalRound(setup.player, setup.town)

    def turn(self, state: FinalRound) -> Turn:
        return Turn(None, None) if state.over else Turn(0, "act")

    def legal_moves(self, state: FinalRound) -> Sequence[FinalRoundMove]:
        if state.over:
            return ()
        moves: list[FinalRoundMove] = list(transports(state.town))
        moves.append(Process())
        if state.runs:
            moves.append(EndRound())
        return tuple(moves)

    def check_move(self, state: FinalRound, move: FinalRoundMove) -> list[Problem]:
        if isinstance(move, Move):
            return check_move(move)
        return []

    def validate(self, state: FinalRound, move: FinalRoundMove
                 ) -> Verdict[FinalRound, Reason]:
        if state.over:
            return Verdict(None, (Violation(Reason.ROUND_OVER, ROUND_RULE, _ROUND_OVER()),))
        if isinstance(move, Move):
            check = validate_transport(state.town, move)
            if check.town is None:
                return Verdict(None, check.violations)
            return Verdict(replace(state, town=check.town, moved=True))
        if isinstance(move, Haul):
            return _haul(state, move)
        if isinstance(move, Process):
            return _process(state, move)
        if not state.runs:
            return Verdict(None, (Violation(
                Reason.NO_PROCESSING_YET, ROUND_RULE, NO_PROCESSING_YET(ends="final_round")),))
        return Verdict(replace(state, over=True))

    def standings(self, state: FinalRound) -> Ranking | None:
        return rank_towns([(state.player, state.town)]) if state.over else None


def transports(town: Town) -> Iterator[Move]:
    """Every legal transport in ``town``, each count once."""
    for origin in town.buildings:
        for good in (g for g in GOODS if origin.goods.count(g)):
            for destination in town.buildings:
                room = min(origin.goods.count(good), destination.free_slots)
                if (destination is origin or good not in destination.building.depicts
                        or room < 1 or town.network.route(
                            origin.position, destination.position, good,
                            town.variant) is None):
                    continue
                yield from (Move(good, n, origin.position, destination.position)
                            for n in range(1, room + 1))


def haul(town: Town, moved: bool, hauled: frozenset[Position], hut: Position,
         picks: Sequence[Pick]) -> Town | tuple[Violation, ...]:
    """The town after a haul in a transportation phase where a transport was made
    (``moved``) or huts already hauled (``hauled``), or every violation of it."""
    order: list[Violation] = []
    if moved:
        order.append(Violation(Reason.HAUL_AFTER_TRANSPORT, HAULERS_HUT_RULE,
                               _HAUL_AFTER_TRANSPORT(), ("to",)))
    if hut in hauled:
        order.append(Violation(Reason.ALREADY_HAULED, HAULERS_HUT_RULE, _ALREADY_HAULED(),
                               ("to",)))
    violations = (*order, *check_haul(town, hut, picks))
    return violations or haul_unchecked(town, hut, picks)


def processing_run(town: Town, choices: Sequence[tuple[Position, Goods]]
                   ) -> Town | tuple[Violation, ...]:
    """The town after a processing run with the player's ``choices``, or the first
    choice that no outcome of its building allows."""
    for i, (position, goods) in enumerate(choices):
        tile = town.building_at(position)
        if tile is None or goods not in {o.goods for o in
                                         processing_outcomes(tile.building, tile.goods)}:
            return (Violation(
                Reason.NOT_A_PROCESSING_CHOICE, "FF-R4",
                _NOT_A_PROCESSING_CHOICE(row=position.row, col=position.col),
                ("choices", i)),)
    return run_processing(town, dict(choices) or None).town


def _haul(state: FinalRound, move: Haul) -> Verdict[FinalRound, Reason]:
    town = haul(state.town, state.moved, state.hauled, move.hut, move.picks)
    if not isinstance(town, Town):
        return Verdict(None, town)
    return Verdict(replace(state, town=town, hauled=state.hauled | {move.hut}))


def _process(state: FinalRound, run: Process) -> Verdict[FinalRound, Reason]:
    town = processing_run(state.town, run.choices)
    if not isinstance(town, Town):
        return Verdict(None, town)
    return Verdict(replace(state, town=town, runs=state.runs + 1, moved=False,
                           hauled=frozenset()))


GAME: Game[Setup, FinalRound, FinalRoundMove, Reason, TownScore] = FoxgloveFarmFinalRound()
"""The final round, as the conformance tests and library users drive it (typed as the
protocol, so mypy checks that the class follows it)."""
