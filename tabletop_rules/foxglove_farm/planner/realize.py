"""Turning the relaxation's counts into moves and runs (the fast path).

Given how many batches of each column to fire and what to leave on end-game tiles
(:mod:`.relaxation`), build a plan phase by phase:

1. at a phase's start, a Hauler's Hut brings goods its regions lack (FF-R17);
2. buildings already holding planned batches keep them (the relaxation prefers
   solutions that fire batches where they stand);
3. *load* whole batches: bring each batch's inputs onto a building that can fire it,
   first moving away goods that are in the way (no partial loads, so nothing waits);
4. make the run do only what is planned: a building that would fire something the plan
   does not count has a good moved off it (processing is mandatory, FF-R4);
5. run, and check that what fired is still within the counts.

After the last batch, goods are moved onto end-game tiles as planned (Ranch, FF-R7).

Every step is checked as it is built, so the plan is legal; whether it is *optimal* is
settled by its value: if it reaches the relaxation's bound, nothing can do better. When
goods are jammed (no free slot where one is needed) it gives up (``None``), or, asked to
re-plan, lets the unwanted batch fire and plans the rest afresh: a good plan for the
exact search (:mod:`.search`) to start from. Where the goods stand as it goes, and where
a good is taken from or put, is the :class:`.Ledger`'s (:mod:`.ledger`).
"""

from __future__ import annotations

from ...deadline import NO_DEADLINE, Deadline
from ..model import GOODS, Goods
from ..processing import Outcome, Step
from .actions import ClusterPlan, HaulAction
from .board import Board, State
from .ledger import NO_GOODS, Firing, Ledger
from .relaxation import Relaxation, Relaxer


def realize(board: Board, members: tuple[int, ...], state: State,
            relaxation: Relaxation, replan: Relaxer | None = None,
            deadline: Deadline = NO_DEADLINE) -> ClusterPlan | None:
    """A legal plan for the cluster carrying out ``relaxation``'s solution, or ``None``
    when the constructive rules above get stuck (or ``deadline`` passes). With ``replan``,
    a building that fires against the plan because its goods cannot be moved is let fire,
    and the rest is planned afresh from what that leaves: a good plan, not necessarily
    the best."""
    return _Realizer(board, members, state, relaxation, replan).build(deadline)


class _Realizer(Ledger):
    def __init__(self, board: Board, members: tuple[int, ...], state: State,
                 relaxation: Relaxation, replan: Relaxer | None) -> None:
        super().__init__(board, members, state, relaxation)
        self.replan = replan

    # -- the phase loop ----------------------------------------------------------------

    def build(self, deadline: Deadline) -> ClusterPlan | None:
        plan = ClusterPlan()
        points = 0
        limit = 4 * (sum(g.total for g in self.cur.values()) + 4)
        while True:
            if deadline.expired():
                return None
            self.segment = []
            self.choices = {}
            self.firing = {}
            self.allocated = [0] * len(self.columns)
            hauled = self._haul()
            self._keep_in_place()
            self._load_all()
            self._unclog()
            quiet = self._quiet()
            if not quiet and self.replan is None:
                return None
            pending = any(self.remaining) or self._imports_pending()
            if quiet and plan.segments and not self.firing and not pending:
                break
            if quiet and plan.segments and not self.firing and not hauled:
                return None
            gained = self._run(strict=quiet)
            if gained is None or len(plan.segments) > limit:
                return None
            points += gained
            plan.segments.append(self.segment)
            plan.choices.append(self.choices)
            if not quiet and self.replan is not None:
                again = self.replan.solve(tuple(self.cur[i] for i in self.members))
                self.remaining = list(again.counts)
                self.rest = {(j, g): n for j, g, n in again.rest}
        if any(self.remaining) or not self._settle():
            return None
        plan.segments.append(self.segment)
        plan.value = self.board.value(self.members, tuple(self.cur[i] for i in self.members),
                                      points)
        return plan

    # -- 1. hauling ----------------------------------------------------------------------

    def _haul(self) -> bool:
        """Bring goods the huts' pools lack from pools with goods to spare (FF-R17), a
        type at a time in turn so that batches needing several types fill together."""
        hauled = False
        for h in self.huts:
            room = min(self.spots[h].haul, self._free(h))
            picks: list[tuple[int, int]] = []
            lack = {g: self._demand(pool) - self._supply(pool)
                    for g in range(len(GOODS))
                    for pool in [(g, self.spots[h].regions[g])]}
            while room > 0:
                took = False
                for g in range(len(GOODS)):
                    if room <= 0 or lack[g] <= 0:
                        continue
                    origin = self._spare_source(g, (g, self.spots[h].regions[g]), h)
                    if origin is None:
                        lack[g] = 0
                        continue
                    self.cur[origin] = self.cur[origin].add(GOODS[g], -1)
                    self.cur[h] = self.cur[h].add(GOODS[g], 1)
                    picks.append((g, origin))
                    lack[g] -= 1
                    room -= 1
                    took = True
                if not took:
                    break
            if picks:
                self.segment.append(HaulAction(h, tuple(picks)))
                hauled = True
        return hauled

    def _unclog(self) -> None:
        """Move goods off the huts to storage in their pools while imports are still due,
        so the next phase's haul has room."""
        if not self._imports_pending():
            return
        for h in self.huts:
            for g in range(len(GOODS)):
                while self.cur[h][g] and self._evict(g, h):
                    pass

    # -- 2. loading ----------------------------------------------------------------------

    def _keep_in_place(self) -> None:
        """Let buildings already holding planned batches fire them where they stand."""
        for p in self.processors:
            steps = self.board.outcome(self.spots[p], self.cur[p]).steps
            if steps and p not in self.distinct_tiles:
                self._accept(p, steps)

    def _load_all(self) -> None:
        for i in sorted(self.distinct_tiles):
            self._load_distinct(i)
        for c, column in enumerate(self.columns):
            left = self.remaining[c] - self.allocated[c]
            if left <= 0 or column.batches[0].tile in self.distinct_tiles:
                continue
            batches = sorted(column.batches, key=lambda b: -sum(
                min(a, n) for a, n in zip(self.cur[b.tile], b.spend)))
            for batch in batches:
                if left <= 0:
                    break
                left -= self._load(c, batch.tile, batch.spend, left)

    def _load(self, c: int, i: int, spend: Goods, left: int) -> int:
        """Load up to ``left`` batches of column ``c`` spending ``spend`` onto building
        ``i``; returns how many were loaded."""
        if i in self.firing:
            return 0
        k = min(left, self.spots[i].slots // spend.total)
        for g, per in enumerate(spend):
            if per and k:
                k = min(k, self._available(i, g) // per)
        if k <= 0:
            return 0
        # Fewer batches may fit beside goods that are in the way, with nothing to move.
        k = next((n for n in range(k, 0, -1) if self._lack(i, spend.scaled(n)).total
                  <= self._free(i)), k)
        if not self._fill(i, spend.scaled(k)):
            return 0
        firing = self.firing[i] = Firing()
        firing.load = spend.scaled(k)
        firing.columns[c] = k
        self.allocated[c] += k
        return k

    def _load_distinct(self, i: int) -> None:
        """Load a "different types" building with planned batches, one at a time, each
        time the one using most of what the building already holds."""
        spot = self.spots[i]
        options = [(c, b.spend) for c, column in enumerate(self.columns)
                   for b in column.batches if b.tile == i]
        need = NO_GOODS
        picked: list[tuple[int, Goods]] = []
        while True:
            spare = self.cur[i].minus(need)
            best = None
            best_overlap = -1
            for c, spend in options:
                taken = sum(1 for d, _ in picked if d == c)
                if self.remaining[c] - self.allocated[c] - taken <= 0:
                    continue
                if need.total + spend.total > spot.slots:
                    continue
                total = need.plus(spend)
                if any(n > self._available(i, g) for g, n in enumerate(total)):
                    continue
                overlap = sum(min(max(a, 0), b) for a, b in zip(spare, spend))
                if overlap > best_overlap:
                    best, best_overlap = (c, spend), overlap
            if best is None:
                break
            need = need.plus(best[1])
            picked.append(best)
        # Fewer batches may fit beside goods that are in the way, with nothing to move.
        while len(picked) > 1 and self._lack(i, need).total > self._free(i):
            need = need.minus(picked.pop()[1])
        if not picked or not self._fill(i, need) or not self._clear_choice(i, need):
            return
        firing = self.firing[i] = Firing()
        firing.load = need
        for c, _ in picked:
            firing.columns[c] = firing.columns.get(c, 0) + 1
            self.allocated[c] += 1

    def _fill(self, i: int, need: Goods) -> bool:
        """Make building ``i`` hold ``need`` besides what else it holds: move goods in the
        way elsewhere if there is no room, then bring what is missing."""
        junk = self.cur[i].minus(Goods(*(min(a, b) for a, b in zip(self.cur[i], need))))
        lack = self._lack(i, need)
        evict = max(0, lack.total - self._free(i))
        inputs = self._input_types(i)
        for g in sorted(range(len(GOODS)), key=lambda g: g not in inputs):
            while evict and junk[g]:
                if not self._evict(g, i):
                    return False
                junk = junk.add(GOODS[g], -1)
                evict -= 1
        if evict:
            return False
        for g, n in enumerate(lack):
            for _ in range(n):
                origin = self._source(g, i)
                if origin is None:  # cannot happen: availability was counted
                    return False
                self._move(g, origin, i)
        return True

    def _chosen(self, i: int, need: Goods) -> Outcome | None:
        """The run's outcome on "different types" building ``i`` that spends exactly
        ``need``, if FF-R4 allows one (the player picks among the allowed ones)."""
        left = self.cur[i].minus(need)
        return next((o for o in self.board.outcomes(self.spots[i], self.cur[i])
                     if o.goods == left), None)

    def _clear_choice(self, i: int, need: Goods) -> bool:
        """Move goods beside ``need`` off building ``i`` until a run may spend exactly
        ``need`` there (extra goods could allow more conversions, which FF-R4 forces)."""
        while self._chosen(i, need) is None:
            spare = self.cur[i].minus(need)
            g = next((g for g, n in enumerate(spare) if n > 0), None)
            if g is None or not self._evict(g, i):
                return False
        return True

    # -- 3. only what is planned fires ---------------------------------------------------

    def _quiet(self) -> bool:
        """Make every processing building's run fire only batches the plan still counts;
        move goods off the others. False when a good cannot be moved."""
        quiet = True
        for p in self.processors:
            spot = self.spots[p]
            while True:
                outcome = self.board.outcome(spot, self.cur[p])
                if not outcome.steps or self._accept(p, outcome.steps):
                    break
                firing = self.firing.get(p)
                spare = self.cur[p].minus(firing.load) if firing is not None else self.cur[p]
                spent = outcome.steps[0].spent
                g = next((g for g in range(len(GOODS)) if spent[g] and spare[g]), None)
                if g is None or not self._evict(g, p):
                    quiet = False
                    break
        return quiet

    def _accept(self, p: int, steps: tuple[Step, ...]) -> bool:
        """True when the run's steps on ``p`` are batches the plan counts (recording any
        extra convert batches it brings)."""
        firing = self.firing.get(p)
        if p in self.distinct_tiles:
            return firing is not None and self._chosen(p, firing.load) is not None
        extra: dict[int, int] = {}
        for step in steps:
            e = self.spots[p].tile.building.processing.index(step.effect)
            c = self.column_of.get((p, e))
            if c is None:
                return False
            extra[c] = extra.get(c, 0) + step.times
        planned = firing.columns if firing is not None else {}
        for c, n in extra.items():
            if n - planned.get(c, 0) > self.remaining[c] - self.allocated[c]:
                return False
        for c, n in extra.items():
            self.allocated[c] += n - planned.get(c, 0)
        if firing is None:
            firing = self.firing[p] = Firing()
        firing.load = self.cur[p]
        firing.columns = extra
        return True

    # -- 4. the run ----------------------------------------------------------------------

    def _run(self, strict: bool) -> int | None:
        """Run processing; None if something fires that the plan does not count (unless
        not ``strict``: then the plan is redone after the run)."""
        points = 0
        for p in self.processors:
            outcome = self.board.outcome(self.spots[p], self.cur[p])
            if not outcome.steps:
                continue
            firing = self.firing.get(p)
            if firing is None:
                if strict:
                    return None
                self.cur[p] = outcome.goods
                points += outcome.points
                continue
            if p in self.distinct_tiles:
                chosen = self._chosen(p, firing.load)
                if chosen is None:
                    return None
                if chosen.goods != outcome.goods:
                    self.choices[p] = chosen.goods
                outcome = chosen
            for c, n in firing.columns.items():
                self.remaining[c] -= n
                if self.remaining[c] < 0:
                    return None
            self.cur[p] = outcome.goods
            points += outcome.points
        return points

    # -- after the last run --------------------------------------------------------------

    def _settle(self) -> bool:
        """Leave on each end-game tile the goods the relaxation planned (FF-R7)."""
        for (j, g), n in self.rest.items():
            while self.cur[j][g] > n:
                d = self._place(g, j)
                if d is None:
                    return False
                self._move(g, j, d)
        for (j, g), n in self.rest.items():
            while self.cur[j][g] < n:
                if not self._free(j):
                    other = next((h for h in range(len(GOODS)) if h != g and self.cur[j][h]
                                  and self.cur[j][h] > self.rest.get((j, h), 0)), None)
                    if other is None or (d := self._place(other, j)) is None:
                        return False
                    self._move(other, j, d)
                s = next((s for s in self._pool(j, g) if s != j and self.cur[s][g]
                          > self.rest.get((s, g), 0)), None)
                if s is None:
                    return False
                self._move(g, s, j)
        return True
