"""The counting relaxation: how many of each batch, ignoring where goods wait meanwhile.

With transport and processing alternating freely (FF-R15), what a cluster can still score
is bounded by an integer program over *pools* (goods of one type in one region, see
:mod:`.board`):

- a *column* is one kind of processing batch: an effect of a building that can ever hold
  its inputs (inputs no more than its slots), spending its inputs from the building's
  pools and putting what it makes back (Charcoal Kiln: a wood out, a coal in). Buildings
  whose batches touch the same pools with the same points are merged into one column;
- end-game tiles that count goods (Ranch) get a variable per counted type: goods left
  resting there, at most its slots, scoring as FF-R7 says (per-good points and the bonus
  at a threshold, with integer helper variables);
- each pool's net use is at most what it holds. A Hauler's Hut (FF-R17) brings goods from
  any building into its own regions, so there only the cluster-wide total per type binds.

Every sequence of legal transports and runs is a feasible point (batches fired are
columns, goods left on end-game tiles are resting variables), so the optimum bounds the
best plan from above. It is the planner's yardstick: a constructed plan reaching it is
optimal (:mod:`.realize`), and the exact search prunes with it (:mod:`.search`).
Objective: most points, then most goods spent (FF-R16), solved in that order; the bound
is weight x points + goods spent.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ...deadline import NO_DEADLINE, Deadline
from ...messages import Sentence
from ..catalog_format import UNBOUNDED_PLAN
from ..effects import BonusIfHeld, Convert, GainPerHeld
from ..model import GOODS, Goods
from .board import Board, State
from .lp import UnboundedError, solve_lexicographic

Pool = tuple[int, int]
"""A goods type's index and a region id."""


class UnboundedPlanError(ValueError):
    """The final round's score has no limit: conversions on different buildings turn goods
    back into a type they came from and score each time (FF-R4, FF-R15). ``sentence``
    says so (only a request's catalog can cause it: a problem of the request's)."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@dataclass(frozen=True, slots=True)
class Batch:
    """One conversion ``effect`` (index in the building's processing effects) on the
    building ``tile`` (board index), spending ``spend`` and making ``make``."""

    tile: int
    effect: int
    spend: Goods
    make: Goods
    points: int


@dataclass(frozen=True, slots=True)
class Column:
    """Interchangeable batches: same pools, same points, same goods spent."""

    batches: tuple[Batch, ...]
    uses: tuple[tuple[Pool, int], ...]
    """Net goods taken from each pool per batch (negative: made)."""
    points: int
    spent: int
    """Goods a batch removes from the town (spent less made)."""


@dataclass(frozen=True, slots=True)
class Relaxation:
    """The program's optimum for one cluster in one state, and a solution reaching it."""

    bound: int
    """Most weight x (points to come) + goods still to be spent: proven, though not
    reached when the solver was stopped (then ``counts`` is its best solution)."""
    columns: tuple[Column, ...]
    counts: tuple[int, ...]
    rest: tuple[tuple[int, int, int], ...]
    """``(tile, good index, n)``: goods to leave on end-game tiles."""


class Relaxer:
    """Builds and solves the relaxation of a cluster; answers are cached by pool contents,
    the only thing they depend on."""

    def __init__(self, board: Board, members: tuple[int, ...],
                 deadline: Deadline = NO_DEADLINE) -> None:
        self.board = board
        self.deadline = deadline
        self.members = members
        spots = board.spots
        huts = [i for i in members if spots[i].haul and spots[i].slots]
        self.hut_regions = tuple(frozenset(spots[h].regions[g] for h in huts)
                                 for g in range(len(GOODS)))
        self.columns = _columns(board, members)
        self._column_of = {(b.tile, b.effect): c for c, column in enumerate(self.columns)
                           for b in column.batches}
        used = {pool for c in self.columns for pool, _ in c.uses} | {
            (g, spots[j].regions[g]) for j in members for g in self._held(j)}
        if huts:  # a hut may bring goods from any pool: every pool's goods count
            used |= {(g, r) for j in members for g, r in enumerate(spots[j].regions) if r >= 0}
        self.pools = sorted(used)
        self._cache: dict[tuple[tuple[int, ...], tuple[int, ...]], Relaxation] = {}

    def _held(self, j: int) -> list[int]:
        spot = self.board.spots[j]
        return sorted({e.held.index for e in spot.end_effects if e.held in spot.accepts})

    def supplies(self, state: State) -> tuple[int, ...]:
        """Goods per pool (in :attr:`pools` order)."""
        counts: dict[Pool, int] = dict.fromkeys(self.pools, 0)
        spots = self.board.spots
        for i, goods in zip(self.members, state):
            if any(goods):
                regions = spots[i].regions
                for g, n in enumerate(goods):
                    if n and (g, regions[g]) in counts:
                        counts[(g, regions[g])] += n
        return tuple(counts[p] for p in self.pools)

    def ready(self, state: State) -> tuple[int, ...]:
        """Batches of each column that buildings hold the inputs for already (the run
        fires them unless goods are moved away)."""
        counts = [0] * len(self.columns)
        spots = self.board.spots
        for i, goods in zip(self.members, state):
            spot = spots[i]
            if any(goods) and spot.processes:
                for step in self.board.outcome(spot, goods).steps:
                    if isinstance(step.effect, Convert):
                        e = spot.tile.building.processing.index(step.effect)
                        c = self._column_of.get((i, e))
                        if c is not None:
                            counts[c] += step.times
        return tuple(counts)

    def solve(self, state: State) -> Relaxation:
        """The optimum for ``state``; among optimal solutions, one that fires as many of
        the batches already in place as it can (fewer goods to move out of the way)."""
        key = (self.supplies(state), self.ready(state))
        found = self._cache.get(key)
        if found is None:
            found = self._solve(*key)
            self._cache[key] = found
        return found

    def _solve(self, supply: tuple[int, ...], ready: tuple[int, ...]) -> Relaxation:
        board = self.board
        weight = board.weight
        pool_row: dict[Pool, int] = {}
        rows: list[dict[int, int]] = []
        rhs: list[int] = []
        type_row: dict[int, int] = {}
        for pool, n in zip(self.pools, supply):
            g, region = pool
            if region not in self.hut_regions[g]:
                pool_row[pool] = len(rows)
                rows.append({})
                rhs.append(n)
            if self.hut_regions[g]:
                if g not in type_row:
                    type_row[g] = len(rows)
                    rows.append({})
                    rhs.append(0)
                rhs[type_row[g]] += n
        points: list[int] = []
        spent: list[int] = []
        upper: list[int | None] = []

        def add_var(worth: int, gone: int, bound: int | None, uses: dict[Pool, int]) -> int:
            j = len(points)
            points.append(worth)
            spent.append(gone)
            upper.append(bound)
            for pool, a in uses.items():
                if pool in pool_row:
                    rows[pool_row[pool]][j] = a
                if pool[0] in type_row:
                    row = rows[type_row[pool[0]]]
                    row[j] = row.get(j, 0) + a
            return j

        for column in self.columns:
            add_var(column.points, column.spent, None, dict(column.uses))
        rest_vars: list[tuple[int, int, int]] = []
        for j in self.members:
            spot = board.spots[j]
            if not spot.end_effects:
                continue
            held = {g: add_var(0, 0, spot.slots, {(g, spot.regions[g]): 1})
                    for g in self._held(j)}
            rest_vars.extend((j, g, v) for g, v in held.items())
            if held:
                rows.append(dict.fromkeys(held.values(), 1))
                rhs.append(spot.slots)
            for effect in spot.end_effects:
                y = held.get(effect.held.index)
                if y is None or not effect.points:
                    continue
                if isinstance(effect, GainPerHeld) and effect.per == 1:
                    points[y] += effect.points  # the Ranch's 3 per sheep: no helper
                elif isinstance(effect, GainPerHeld):
                    z = add_var(effect.points, 0, None, {})
                    if effect.points > 0:  # z <= y / per
                        rows.append({z: effect.per, y: -1})
                        rhs.append(0)
                    else:  # z >= (y - per + 1) / per
                        rows.append({y: 1, z: -effect.per})
                        rhs.append(effect.per - 1)
                elif isinstance(effect, BonusIfHeld):
                    b = add_var(effect.points, 0, 1, {})
                    if effect.points > 0:  # b only when y >= at_least
                        rows.append({b: effect.at_least, y: -1})
                        rhs.append(0)
                    else:  # b forced when y >= at_least
                        rows.append({y: 1, b: -max(spot.slots, effect.at_least)})
                        rhs.append(effect.at_least - 1)
        in_place = set()
        for c, n in enumerate(ready):
            if n:  # u <= x_c and u <= n: batches of column c fired where they stand
                u = add_var(0, 0, n, {})
                in_place.add(u)
                rows.append({u: 1, c: -1})
                rhs.append(0)
        objectives = (tuple(points), tuple(spent)) if weight else (tuple(spent),)
        if in_place:
            objectives = (*objectives, tuple(int(j in in_place) for j in range(len(points))))
        try:
            solved, x = solve_lexicographic(objectives, tuple(rows), tuple(rhs), tuple(upper),
                                            self.deadline)
        except UnboundedError as error:
            raise UnboundedPlanError(UNBOUNDED_PLAN()) from error
        # Goods spent never exceed the goods there are (< weight): a bound on points alone
        # bounds weight x points + goods spent.
        first = solved[0]
        if not weight:
            bound = first.bound
        elif first.bound > first.value or len(solved) < 2:
            bound = weight * first.bound + sum(supply)
        else:
            bound = weight * first.value + solved[1].bound
        counts = x[:len(self.columns)]
        rest = tuple((j, g, x[v]) for j, g, v in rest_vars)
        return Relaxation(bound, self.columns, counts, rest)


def _columns(board: Board, members: tuple[int, ...]) -> tuple[Column, ...]:
    """Every kind of batch the cluster's buildings can ever fire, merged by kind."""
    merged: dict[tuple[tuple[tuple[Pool, int], ...], int, int], list[Batch]] = {}
    for i in members:
        spot = board.spots[i]
        regions = spot.regions
        for e, effect in enumerate(spot.tile.building.processing):
            if isinstance(effect, Convert):
                if effect.inputs.total > spot.slots:
                    continue  # FF-R19: it can never hold its inputs
                options = [(effect.inputs, effect.goods)]
            else:
                if effect.count > min(spot.slots, len(GOODS)):
                    continue
                options = [(Goods(*(1 if g in subset else 0 for g in range(len(GOODS)))),
                            Goods()) for subset in combinations(range(len(GOODS)),
                                                                effect.count)]
            for spend, make in options:
                uses: dict[Pool, int] = {}
                for g in range(len(GOODS)):
                    net = spend[g] - make[g]
                    if net:
                        pool = (g, regions[g])
                        uses[pool] = uses.get(pool, 0) + net
                key = (tuple(sorted(uses.items())), effect.points, spend.total - make.total)
                merged.setdefault(key, []).append(Batch(i, e, spend, make, effect.points))
    return tuple(Column(tuple(batches), uses, points, spent)
                 for (uses, points, spent), batches in merged.items())
