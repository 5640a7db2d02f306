"""The final-round optimizer: the best total any legal final round reaches, and a plan.

``plan_final_round(town, *, deadline) -> FinalRoundPlan`` takes a town as the fourth
round's transportation and processing begin, and answers the contract's
``/v1/foxglove-farm/final-round/plan``: the highest ``total`` (score track + processing
points + end-game points), among those the fewest goods left (FF-R16), and the steps that
reach it. It is *anytime*: it holds a legal plan from the start and only improves it, and
answers when done or when ``deadline`` passes (``optimal`` says which), with
``upper_bound``, a total no plan can beat. The plan is replayed through the referee's own
:func:`..transport.apply_move`, :func:`..transport.apply_haul` and
:func:`..processing.run_processing` before it is returned, and the figures are the
replay's.

How (see each module): the town splits into independent *clusters* (:mod:`.board`).
For each, a greedy plan comes first (:mod:`.greedy`: best conversion first, milliseconds
even for 120 tiles). An integer program over goods pools bounds what any plan can reach
(:mod:`.relaxation`, solved by :mod:`.lp`); a constructive plan that reaches the bound is
optimal (:mod:`.realize`); otherwise an exact branch-and-bound search over the cluster's
real states looks for better (:mod:`.search`). Each step replaces the plan only with a
better one. Cluster plans run side by side: a run is every cluster's run at once, and a
cluster that has finished is idle (a run right after a run fires nothing).

Bounded: every loop that can run long polls the deadline cheaply (the search every few
hundred transports enumerated and at each node, the branch and bound at each LP solve,
the constructive plan at each phase), the branch and bound also stops after
:data:`.lp.NODE_LIMIT` LP solves and the search after ``search_budget`` arrangements;
time for the final replay is kept back. Stopped, each answers its best so far and a
bound that is still proven (the branch and bound's open nodes, the root relaxation).

Why the hand-written solver (:mod:`.lp`) and not HiGHS (``highspy`` 1.16; CP-SAT not
tried), measured 2026-12-01 on a 2-core machine on the integer programs the planner
solves while planning packed towns (5 a size and variant, 0.8 s deadline); both agree on
all 375 optima. 12 and 60 tiles, 245 programs: hand-written 0.14 ms median, 54 ms worst,
182 ms in all; HiGHS 2.5 ms median, 11 ms worst, 579 ms in all (its setup per call
dominates). 120 tiles, 130 programs: hand-written 0.6 / 196 / 1,269 ms; HiGHS 3.2 / 9.8 /
502 ms (it proves each at its root node, where the dense simplex is re-solved up to a few
hundred times). HiGHS wins only on the largest towns, where the deadline bounds the time
anyway and a stopped branch and bound still answers a proven bound, and it would bring a
native dependency (and numpy) into a pure-Python rules library. If 120-tile expert towns
must be proven more often, a hybrid (HiGHS past a few hundred LP solves) is the next step.

Cost: building the clusters and the programs is linear in the town; each program has a
row per goods pool (5 per region) and a column per kind of batch; the greedy and
constructive plans are about (goods x buildings) per run. Only jammed goods call for the
search, whose cost grows with the arrangements the jam allows, up to exponentially: the
deadline and ``search_budget`` cap it.

Interpretations (the rulings leave these open):

- The final round has at least one processing run: its processing phase happens, and
  FF-R15 lets it repeat. Transports may follow the last run (they move goods onto, say,
  the Ranch). A run that fires nothing is allowed.
- Hauler's Hut (FF-R17): "each transportation phase" includes every one of the final
  round's alternations, so the hut hauls (up to its count, onto its free slots, from any
  other building, ignoring routes) at the start of the first transportation and again
  after every run, before that phase's first move. A run that fires nothing therefore
  starts a new phase and lets the hut haul again. Plans show a haul as
  ``{"action": "haul", "to": {row, col}, "picks": [{"good", "count", "from"}]}``.
- When FF-R4 leaves a "different types" effect a choice of goods, the plan's process
  step names what the building is left with (``choices``).
- FF-R18: totals below 0 count as 0, so when no plan reaches a positive total, every
  plan ties at 0 and the one leaving the fewest goods is chosen.

Raises :class:`UnboundedPlanError` (a ``ValueError``) for a request catalog whose
conversions on different buildings cycle while scoring, which has no best plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...deadline import NO_DEADLINE, Deadline
from ..model import GOODS, Good, Goods, Position, Town
from ..processing import run_processing
from ..routes import Route, route_to_list
from ..scoring import score_town
from ..transport import Move, Pick, apply_haul, apply_move
from .actions import Action, ClusterPlan, HaulAction, MoveAction
from .board import Board
from .greedy import greedy, greedy_variants
from .realize import realize
from .relaxation import Relaxer, UnboundedPlanError
from .search import search

DEFAULT_SEARCH_BUDGET = 40_000
"""Arrangements the exact search may store for one cluster: forty times what the jammed
test towns need, and small enough that a 60-tile town built to jam goods everywhere
(``benchmarks/bench_planner.py --loaded``) still answers in under a second on one core;
such an answer says ``optimal: false``."""

__all__ = ["DEFAULT_SEARCH_BUDGET", "FinalRoundPlan", "HaulStep", "MoveStep", "PlanStep", "ProcessStep",
           "UnboundedPlanError", "plan_final_round"]


@dataclass(frozen=True, slots=True)
class MoveStep:
    """Move ``count`` goods of type ``good`` from ``origin`` to ``destination`` along
    ``path`` (FF-R2, FF-R3)."""

    good: Good
    count: int
    origin: Position
    destination: Position
    path: Route

    def to_dict(self) -> dict[str, Any]:
        return {"action": "move", "good": self.good.value, "count": self.count,
                "from": _position(self.origin), "to": _position(self.destination),
                "path": route_to_list(self.path)}


@dataclass(frozen=True, slots=True)
class HaulStep:
    """At a transportation phase's start, goods placed on the hut at ``hut`` (FF-R17)."""

    hut: Position
    picks: tuple[Pick, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"action": "haul", "to": _position(self.hut),
                "picks": [{"good": p.good.value, "count": p.count,
                           "from": _position(p.origin)} for p in self.picks]}


@dataclass(frozen=True, slots=True)
class ProcessStep:
    """One processing run (FF-R4) and the points it scores. ``choices`` names, where FF-R4
    leaves a choice, the goods a building is left with."""

    points: int
    choices: tuple[tuple[Position, Goods], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": "process", "points": self.points}
        if self.choices:
            out["choices"] = [{**_position(p), "goods": g.to_dict()} for p, g in self.choices]
        return out


PlanStep = MoveStep | HaulStep | ProcessStep


@dataclass(frozen=True, slots=True)
class FinalRoundPlan:
    """The best final round: its total and how it is made up, and the steps."""

    total: int
    score_track: int
    """The score track before the final round's transports and runs."""
    processing_points: int
    end_game_points: int
    goods_remaining: int
    steps: tuple[PlanStep, ...]
    optimal: bool
    """False when the deadline or the search budget ran out before the plan was proven
    best (see :func:`plan_final_round`)."""
    upper_bound: int
    """A proven upper bound on ``total`` over every legal final round: ``total`` when
    ``optimal``; otherwise how far a better plan could go at most (the gap
    ``upper_bound - total`` says how much the answer may leave on the table)."""

    def to_dict(self) -> dict[str, Any]:
        """The contract's answer for ``/final-round/plan``."""
        return {"total": self.total, "processing_points": self.processing_points,
                "end_game_points": self.end_game_points,
                "goods_remaining": self.goods_remaining, "optimal": self.optimal,
                "upper_bound": self.upper_bound,
                "steps": [step.to_dict() for step in self.steps]}


def plan_final_round(town: Town, *, deadline: Deadline = NO_DEADLINE,
                     search_budget: int | None = DEFAULT_SEARCH_BUDGET) -> FinalRoundPlan:
    """The best total reachable from ``town`` (a well-formed town, see
    :func:`..town.parse_town`) and a plan reaching it, within ``deadline``.

    Anytime: a greedy plan (:mod:`.greedy`) is built first, and the exact work only
    replaces it with better ones. When ``deadline`` passes, or the exact search has
    looked at ``search_budget`` arrangements in one cluster (``None``: no cap), the best
    plan so far is returned with ``optimal`` False and the bound proven so far. Time for
    the final replay is kept back (:func:`_replay_reserve`), so the call returns within
    the deadline plus a few tens of milliseconds; the deadline never raises.
    """
    work = deadline.within(max(0.0, deadline.remaining() - _replay_reserve(town)))
    board = Board(town)
    tokens, optimal, points = _plan(board, search_budget, work)
    constant = score_town(town).end_game_points - sum(
        board.end_points(spot, spot.tile.goods) for spot in board.spots)
    upper = max(0, town.score_track + constant + points)
    best = _replay(town, tokens, optimal, upper)
    raw = best.score_track + best.processing_points + best.end_game_points
    if raw <= 0:  # FF-R18: every plan scores 0, so only the goods left matter
        tokens, proven, _ = _plan(Board(town, points_matter=False), search_budget, work)
        best = _replay(town, tokens, optimal and proven, upper)
    return best


REPLAY_SECONDS_PER_GOOD = 0.000_05
"""Time kept back per good in the town for the final replay and scoring: a packed
120-tile town holds some 330 goods, keeps back 22 ms, and replays its plan in 1-5 ms."""


def _replay_reserve(town: Town) -> float:
    return 0.005 + REPLAY_SECONDS_PER_GOOD * town.goods_remaining


def _plan(board: Board, budget: int | None, deadline: Deadline,
          ) -> tuple[list[Action | dict[int, Goods]], bool, int]:
    """The whole town's plan as actions, with each run given as its choices; whether it
    is proven best; and a proven bound on the points (processing and goods-dependent
    end-game points) any plan scores (meaningless when points do not matter)."""
    solved = [_plan_cluster(board, members, budget, deadline) for members in board.clusters
              if any(board.spots[i].processes or board.spots[i].end_effects
                     for i in members)]
    plans = [plan for plan, _, _ in solved]
    runs = max([1, *(plan.runs for plan in plans)])
    tokens: list[Action | dict[int, Goods]] = []
    for r in range(runs):
        choices: dict[int, Goods] = {}
        for plan in plans:
            if r < plan.runs:
                tokens.extend(plan.segments[r])
                choices.update(plan.choices[r])
        tokens.append(choices)
    for plan in plans:  # after its last run a cluster is idle: later runs fire nothing
        tokens.extend(plan.segments[-1])
    return (tokens, all(optimal for _, optimal, _ in solved),
            sum(points for _, _, points in solved))


def _plan_cluster(board: Board, members: tuple[int, ...], budget: int | None,
                  deadline: Deadline) -> tuple[ClusterPlan, bool, int]:
    """The cluster's best plan found, whether it is proven best, and a proven bound on
    its points. Greedy first; then the relaxation's bound, the constructive plan and, if
    they leave a gap, the exact search, each only ever replacing the plan with a better
    one."""
    state = tuple(board.spots[i].tile.goods for i in members)
    best = greedy(board, members, state)
    relaxer = Relaxer(board, members, deadline)
    relaxation = relaxer.solve(state)
    bound = relaxation.bound - sum(g.total for g in state)
    for replan in (None, relaxer):
        if best.value >= bound:
            break
        built = realize(board, members, state, relaxation, replan, deadline)
        if built is not None and built.value > best.value:
            best = built
    if best.value < bound:
        best = greedy_variants(board, members, state, best, deadline)
    optimal = best.value >= bound
    if not optimal:
        best, optimal = search(board, members, state, relaxer, best, budget, deadline)
    if optimal:
        bound = best.value
    # value = weight x points - goods left, with goods left below weight: so points are
    # at most (value + slots) // weight.
    slots = sum(board.spots[i].slots for i in members)
    return best, optimal, (bound + slots) // board.weight if board.weight else 0


def _replay(town: Town, tokens: list[Action | dict[int, Goods]], optimal: bool,
            upper_bound: int) -> FinalRoundPlan:
    """Carry the plan out with the referee's own rules, writing the steps as it goes."""
    board_positions = [tile.position for tile in town.buildings]
    steps: list[PlanStep] = []
    current = town
    hauls: dict[int, list[Pick]] = {}
    for n, token in enumerate(tokens):
        if isinstance(token, HaulAction):
            picks = hauls.setdefault(token.hut, [])
            for g, origin in token.picks:
                picks.append(Pick(GOODS[g], 1, board_positions[origin]))
            if isinstance(tokens[n + 1] if n + 1 < len(tokens) else None, HaulAction):
                continue
            for hut, picks in hauls.items():
                merged = _merge_picks(picks)
                current = apply_haul(current, board_positions[hut], merged)
                steps.append(HaulStep(board_positions[hut], merged))
            hauls = {}
        elif isinstance(token, MoveAction):
            good = GOODS[token.good]
            start = board_positions[token.origin]
            end = board_positions[token.destination]
            current = apply_move(current, Move(good, 1, start, end))
            last = steps[-1] if steps else None
            if (isinstance(last, MoveStep) and last.good is good and last.origin == start
                    and last.destination == end):
                steps[-1] = MoveStep(good, last.count + 1, start, end, last.path)
            else:
                path = town.network.route(start, end, good, town.variant)
                assert path is not None  # apply_move found it
                steps.append(MoveStep(good, 1, start, end, path))
        else:
            choices = {board_positions[i]: goods for i, goods in token.items()}
            result = run_processing(current, choices or None)
            current = result.town
            steps.append(ProcessStep(result.points, tuple(sorted(choices.items()))))
    score = score_town(current)
    return FinalRoundPlan(score.total, town.score_track,
                          current.score_track - town.score_track, score.end_game_points,
                          score.goods_remaining, tuple(steps), optimal,
                          score.total if optimal else upper_bound)


def _merge_picks(picks: list[Pick]) -> tuple[Pick, ...]:
    counts: dict[tuple[Good, Position], int] = {}
    for pick in picks:
        counts[(pick.good, pick.origin)] = counts.get((pick.good, pick.origin), 0) + 1
    return tuple(Pick(good, n, origin) for (good, origin), n in counts.items())


def _position(position: Position) -> dict[str, int]:
    return {"row": position.row, "col": position.col}
