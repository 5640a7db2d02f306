"""A greedy final round: a good legal plan at once, the floor the exact work must beat.

The exact machinery (:mod:`.realize`, :mod:`.search`) can need more time than a call
has, and in a packed town (every building full) the constructive plan gets stuck. This
plan is built in time linear in the town per batch loaded, and is always legal:

- each transportation phase loads batches one at a time, best conversion first: bring a
  batch's missing inputs onto a processing building from where they harm least, first
  moving goods in the way to a free slot; a load is kept only if it raises what the
  coming run is worth (``weight`` x points + goods spent, end-game points included, so
  taking a good from a loaded building or a Ranch counts against it);
- the run fires everything in place (FF-R4's mandatory processing; canonical outcomes);
- phases repeat while a run is worth something; the round ends after whichever run
  leaves the best value once goods are moved onto end-game tiles (Ranch, FF-R7).

Up to four variants are built and the best kept (beyond the first, only when the exact
work has not proven a plan best, and while the deadline allows): end-game tiles filled only at the end,
or also before the first run (sheep resting on a Ranch are then out of the processors'
way); inputs taken from any building, or only from buildings that do not process (a
loaded building robbed for a better batch often leaves a worse next phase; on packed
towns robbing wins about 19 times in 20). No hauls: a Hauler's Hut's haul is optional
(FF-R17).
"""

from __future__ import annotations

from ...deadline import Deadline
from ..effects import Convert
from ..model import GOODS, Goods
from .actions import Action, ClusterPlan, MoveAction
from .board import Board, State
from .relaxation import Pool


def greedy(board: Board, members: tuple[int, ...], state: State) -> ClusterPlan:
    """The first variant (inputs from anywhere, end-game tiles filled at the end): always
    built, it is the plan every answer stands on, and takes milliseconds (10-25 ms for a
    packed 120-tile town)."""
    return _Greedy(board, members, state, settle_first=False, rob=True).build()


def greedy_variants(board: Board, members: tuple[int, ...], state: State,
                    best: ClusterPlan, deadline: Deadline) -> ClusterPlan:
    """``best`` or a better plan from the other variants, built while ``deadline``
    allows (when the constructive plan has not proven ``best`` optimal)."""
    keepers = any(board.spots[i].end_effects for i in members)
    for rob, settle_first in ((True, True), (False, False), (False, True)):
        if deadline.expired():
            break
        if settle_first and not keepers:
            continue
        plan = _Greedy(board, members, state, settle_first, rob).build()
        if plan.value > best.value:
            best = plan
    return best


class _Greedy:
    def __init__(self, board: Board, members: tuple[int, ...], state: State,
                 settle_first: bool, rob: bool) -> None:
        self.rob = rob
        self.board = board
        self.spots = board.spots
        self.members = members
        self.cur: dict[int, Goods] = dict(zip(members, state))
        self.settle_first = settle_first
        self.pools: dict[Pool, list[int]] = {}
        for i in members:
            for g, r in enumerate(self.spots[i].regions):
                if r >= 0:
                    self.pools.setdefault((g, r), []).append(i)
        self.processors = [i for i in members if self.spots[i].processes]
        self.keepers = [i for i in members if self.spots[i].end_effects]
        self.ending = False
        self.segment: list[Action] = []

    def build(self) -> ClusterPlan:
        plan = ClusterPlan()
        if self.settle_first:
            self._settle()
        points = 0
        best: tuple[int, int, list[Action]] | None = None
        limit = sum(g.total for g in self.cur.values()) + 2
        for _ in range(limit):
            self._load_all()
            gained, worth = self._run()
            points += gained
            plan.segments.append(self.segment)
            plan.choices.append({})
            self.segment = []
            value, settling = self._ending(points)
            if best is None or value > best[0]:
                best = (value, len(plan.segments), settling)
            if not worth:
                break
        assert best is not None
        plan.value, runs, settling = best
        del plan.segments[runs:], plan.choices[runs:]
        plan.segments.append(settling)
        return plan

    # -- what a building's goods are worth -----------------------------------------------

    def _worth(self, i: int, goods: Goods) -> int:
        """``weight`` x (points of the coming run + end-game points) + goods the run
        spends, for building ``i`` holding ``goods`` (at the end: end-game points only)."""
        spot = self.spots[i]
        weight = self.board.weight
        worth = 0
        if spot.processes and not self.ending:
            outcome = self.board.outcome(spot, goods)
            worth = weight * outcome.points + goods.total - outcome.goods.total
            goods = outcome.goods
        if spot.end_effects:
            worth += weight * self.board.end_points(spot, goods)
        return worth

    def _free(self, i: int, trial: dict[int, Goods]) -> int:
        return self.spots[i].slots - trial.get(i, self.cur[i]).total

    def _pool(self, i: int, g: int) -> list[int]:
        return self.pools[(g, self.spots[i].regions[g])]

    def _gain(self, trial: dict[int, Goods]) -> int:
        return sum(self._worth(i, goods) - self._worth(i, self.cur[i])
                   for i, goods in trial.items())

    def _shift(self, trial: dict[int, Goods], moves: list[Action], g: int, origin: int,
               destination: int) -> None:
        good = GOODS[g]
        trial[origin] = trial.get(origin, self.cur[origin]).add(good, -1)
        trial[destination] = trial.get(destination, self.cur[destination]).add(good, 1)
        moves.append(MoveAction(g, origin, destination))

    def _best_partner(self, trial: dict[int, Goods], candidates: list[int], g: int,
                      delta: int) -> int | None:
        """The candidate whose worth changes most favourably when it gains ``delta`` goods
        of type ``g`` (``delta`` -1: gives one up)."""
        good = GOODS[g]
        best, best_change = None, 0
        for d in candidates:
            goods = trial.get(d, self.cur[d])
            if (goods[g] if delta < 0 else self.spots[d].slots - goods.total) <= 0:
                continue
            change = self._worth(d, goods.add(good, delta)) - self._worth(d, goods)
            if best is None or change > best_change:
                best, best_change = d, change
        return best

    def _commit(self, trial: dict[int, Goods], moves: list[Action]) -> None:
        self.cur.update(trial)
        self.segment.extend(moves)

    # -- loading -------------------------------------------------------------------------

    def _load_all(self) -> None:
        options = sorted(((effect.points, p, e) for p in self.processors
                          for e, effect in enumerate(self.spots[p].tile.building.processing)),
                         reverse=True)
        dead: set[tuple[int, int]] = set()
        progress = True
        while progress:
            progress = False
            for _, p, e in options:
                if (p, e) not in dead:
                    if self._load(p, e):
                        progress = True
                        break
                    dead.add((p, e))

    def _spend(self, p: int, e: int, spare: Goods) -> Goods | None:
        """The goods one more batch of effect ``e`` spends on ``p`` (for "different types",
        the types ``p`` holds spare first, then the most plentiful); None if it never fits."""
        spot = self.spots[p]
        effect = spot.tile.building.processing[e]
        if isinstance(effect, Convert):
            return effect.inputs if effect.inputs.total <= spot.slots else None
        if effect.count > min(spot.slots, len(GOODS)):
            return None
        supply = [0 if spot.regions[g] < 0 else
                  sum(self.cur[i][g] for i in self._pool(p, g)) for g in range(len(GOODS))]
        ranked = sorted((g for g in range(len(GOODS)) if supply[g]),
                        key=lambda g: (spare[g] == 0, -supply[g]))[:effect.count]
        if len(ranked) < effect.count:
            return None
        return Goods(*(1 if g in ranked else 0 for g in range(len(GOODS))))

    def _load(self, p: int, e: int) -> bool:
        """Load one more batch of effect ``e`` onto ``p`` if that raises the run's worth."""
        held = self.cur[p]
        spent = Goods()
        for step in self.board.outcome(self.spots[p], held).steps:
            spent = spent.plus(step.spent)
        spare = held.minus(spent)
        spend = self._spend(p, e, spare)
        if spend is None:
            return False
        lack = Goods(*(max(0, b - a) for a, b in zip(spare, spend)))
        if not any(lack):
            return False
        trial: dict[int, Goods] = {}
        moves: list[Action] = []
        junk = spare.minus(Goods(*(min(a, b) for a, b in zip(spare, spend))))
        for g in range(len(GOODS)):
            while junk[g] and self._free(p, trial) < lack.total:
                d = self._best_partner(trial, [i for i in self._pool(p, g) if i != p], g, 1)
                if d is None:
                    break
                self._shift(trial, moves, g, p, d)
                junk = junk.add(GOODS[g], -1)
        if self._free(p, trial) < lack.total:
            return False
        for g, n in enumerate(lack):
            if not n:
                continue
            sources = [i for i in self._pool(p, g) if i != p
                       and (self.rob or not self.spots[i].processes)]
            for _ in range(n):
                s = self._best_partner(trial, sources, g, -1)
                if s is None:
                    return False
                self._shift(trial, moves, g, s, p)
        if self._gain(trial) <= 0:
            return False
        self._commit(trial, moves)
        return True

    # -- running and ending --------------------------------------------------------------

    def _run(self) -> tuple[int, int]:
        """Run processing: the points, and what the run was worth."""
        points = worth = 0
        for p in self.processors:
            worth += self._worth(p, self.cur[p])
            outcome = self.board.outcome(self.spots[p], self.cur[p])
            self.cur[p] = outcome.goods
            points += outcome.points
        return points, worth

    def _ending(self, points: int) -> tuple[int, list[Action]]:
        """The value of ending the round now, and the moves onto end-game tiles that reach
        it (the goods are put back afterwards)."""
        saved = dict(self.cur)
        self.ending = True
        self._settle()
        value = self.board.value(self.members, tuple(self.cur[i] for i in self.members),
                                 points)
        settling = self.segment
        self.cur, self.segment, self.ending = saved, [], False
        return value, settling

    def _settle(self) -> None:
        """Move goods onto end-game tiles while each move adds to the town's worth."""
        for j in self.keepers:
            spot = self.spots[j]
            for g in sorted({e.held.index for e in spot.end_effects if e.held in spot.accepts}):
                while self._free(j, {}) > 0:
                    trial: dict[int, Goods] = {}
                    moves: list[Action] = []
                    s = self._best_partner(trial, [i for i in self._pool(j, g)
                                               if i != j and i not in self.keepers], g, -1)
                    if s is None:
                        break
                    self._shift(trial, moves, g, s, j)
                    if self._gain(trial) < 0 or (self._gain(trial) == 0 and not self.ending):
                        break
                    self._commit(trial, moves)
