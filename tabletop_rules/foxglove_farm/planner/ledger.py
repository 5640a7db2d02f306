"""Where the goods stand while a plan is realized (:mod:`.realize`), and where a good may
be taken from or put: the bookkeeping under its phase steps.

A :class:`Ledger` holds each cluster member's goods as the plan moves them, the batches
still to fire and the goods to leave on end-game tiles (the relaxation's counts), what
each building is loaded to fire in the coming run, and the moves of the phase so far.
"""

from __future__ import annotations

from ..effects import Convert, ConvertDistinct
from ..model import GOODS, Goods
from .actions import HaulAction, MoveAction
from .board import Board, State
from .relaxation import Pool, Relaxation

NO_GOODS = Goods()


class Firing:
    """What one building is loaded to fire in the coming run."""

    __slots__ = ("load", "columns")

    def __init__(self) -> None:
        self.load = NO_GOODS
        self.columns: dict[int, int] = {}


class Ledger:
    """The goods of one cluster as a plan for it is built, and the choices of where a good
    comes from and goes to."""

    def __init__(self, board: Board, members: tuple[int, ...], state: State,
                 relaxation: Relaxation) -> None:
        self.board = board
        self.spots = board.spots
        self.members = members
        self.cur: dict[int, Goods] = dict(zip(members, state))
        self.columns = relaxation.columns
        self.remaining = list(relaxation.counts)
        self.rest: dict[tuple[int, int], int] = {(j, g): n for j, g, n in relaxation.rest}
        self.pool_tiles: dict[Pool, list[int]] = {}
        for i in members:
            for g, r in enumerate(self.spots[i].regions):
                if r >= 0:
                    self.pool_tiles.setdefault((g, r), []).append(i)
        self.processors = [i for i in members if self.spots[i].processes]
        self.huts = [i for i in members if self.spots[i].haul and self.spots[i].slots]
        self.column_of: dict[tuple[int, int], int] = {}
        self.distinct_tiles: set[int] = set()
        for c, column in enumerate(self.columns):
            for batch in column.batches:
                effect = self.spots[batch.tile].tile.building.processing[batch.effect]
                if isinstance(effect, ConvertDistinct):
                    self.distinct_tiles.add(batch.tile)
                else:
                    self.column_of[(batch.tile, batch.effect)] = c
        self.segment: list[MoveAction | HaulAction] = []
        self.choices: dict[int, Goods] = {}
        self.firing: dict[int, Firing] = {}
        self.allocated = [0] * len(self.columns)

    # -- goods bookkeeping -------------------------------------------------------------

    def _free(self, i: int) -> int:
        return self.spots[i].slots - self.cur[i].total

    def _pool(self, i: int, g: int) -> list[int]:
        return self.pool_tiles[(g, self.spots[i].regions[g])]

    def _move(self, g: int, origin: int, destination: int) -> None:
        good = GOODS[g]
        self.cur[origin] = self.cur[origin].add(good, -1)
        self.cur[destination] = self.cur[destination].add(good, 1)
        self.segment.append(MoveAction(g, origin, destination))

    def _demand(self, pool: Pool) -> int:
        """Goods of this pool the rest of the plan uses (net of what it makes) or leaves
        on end-game tiles."""
        total = 0
        for c, n in enumerate(self.remaining):
            if n:
                for p, a in self.columns[c].uses:
                    if p == pool:
                        total += a * n
        for (j, g), n in self.rest.items():
            if (g, self.spots[j].regions[g]) == pool:
                total += n
        return total

    def _supply(self, pool: Pool) -> int:
        g = pool[0]
        return sum(self.cur[i][g] for i in self.pool_tiles.get(pool, ()))

    def _imports_pending(self) -> bool:
        return any(self._demand(p) > self._supply(p) for p in self._hut_pools())

    def _hut_pools(self) -> set[Pool]:
        return {(g, self.spots[h].regions[g]) for h in self.huts for g in range(len(GOODS))}

    def _available(self, i: int, g: int) -> int:
        """Goods of type ``g`` that could be brought onto ``i`` now (or are on it)."""
        return self.cur[i][g] + sum(self.cur[s][g] for s in self._pool(i, g)
                                    if s != i and s not in self.firing)

    def _lack(self, i: int, need: Goods) -> Goods:
        """What building ``i`` is missing of ``need``."""
        return Goods(*(max(0, b - a) for a, b in zip(self.cur[i], need)))

    def _input_types(self, i: int) -> set[int]:
        types: set[int] = set()
        for effect in self.spots[i].tile.building.processing:
            if isinstance(effect, Convert):
                types.update(g for g, n in enumerate(effect.inputs) if n)
            else:
                types.update(range(len(GOODS)))
        return types

    # -- where a good comes from and goes to -------------------------------------------

    def _spare_source(self, g: int, pool: Pool, hut: int) -> int | None:
        for i in self.members:
            if i == hut or not self.cur[i][g]:
                continue
            own = (g, self.spots[i].regions[g])
            if own != pool and self._supply(own) > self._demand(own):
                return i
        return None

    def _source(self, g: int, i: int) -> int | None:
        """Where to take a good of type ``g`` for building ``i`` from: storage first, then
        idle processors, then end-game tiles holding more than they are to keep."""
        best = None
        best_key: tuple[bool, bool, bool] | None = None
        for s in self._pool(i, g):
            if s == i or s in self.firing or not self.cur[s][g]:
                continue
            spot = self.spots[s]
            short = self.cur[s][g] <= self.rest.get((s, g), 0)
            key = (short, bool(spot.end_effects), spot.processes)
            if best_key is None or key < best_key:
                best, best_key = s, key
        return best

    def _evict(self, g: int, i: int) -> bool:
        """Move a good of type ``g`` off building ``i`` to where it harms nothing: a free
        slot in its pool, not on a building loaded to fire, and not completing inputs on
        another processing building. Prefers end-game tiles that want it, then storage;
        huts last (they need room for hauling)."""
        best = None
        best_key: tuple[bool, bool, bool] | None = None
        good = GOODS[g]
        for d in self._pool(i, g):
            if d == i or d in self.firing or self._free(d) <= 0:
                continue
            spot = self.spots[d]
            if spot.processes and self.board.outcome(spot, self.cur[d].add(good, 1)).steps:
                continue
            wanted = self.cur[d][g] < self.rest.get((d, g), 0)
            key = (not wanted, bool(spot.haul), spot.processes)
            if best_key is None or key < best_key:
                best, best_key = d, key
        if best is None:
            return False
        self._move(g, i, best)
        return True

    def _place(self, g: int, j: int) -> int | None:
        """A building in ``j``'s pool for ``g`` with a free slot that does not want fewer
        goods of ``g`` than it would then hold."""
        for d in self._pool(j, g):
            if d != j and self._free(d) > 0 and (
                    (d, g) not in self.rest or self.cur[d][g] < self.rest[(d, g)]):
                return d
        return None
