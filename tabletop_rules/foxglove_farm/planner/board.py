"""The planner's compact view of a town: buildings by index, goods pools, clusters.

The optimizer explores many arrangements of goods, so it works on plain tuples of
:class:`Goods` (one per building) instead of :class:`Town` values, with everything that
never changes during the final round precomputed here:

- a *region* per building and goods type: the buildings a good of that type can travel
  between (FF-R2, FF-R3). Standard variant: the connected group; expert variant: the
  group joined through trails and buildings depicting the type. Within a region a good may
  go from any building to any other that depicts it and has a free slot, so a region's
  goods of one type form a *pool*;
- *clusters*: buildings whose fates are linked. Two pools are linked when one building
  takes goods from both (its slots are shared, its effects spend both), and a Hauler's Hut
  links everything (FF-R17 takes goods from any building). Clusters share nothing, so
  each is planned on its own and the answers add up.

Processing and end-game scoring are mirrored from :mod:`..processing` and
:mod:`..scoring` (their functions are called, with a cache), so the planner and the
referee cannot disagree on what a run does.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property

from ..effects import BonusIfHeld, GainPerHeld, Haul, Phase
from ..model import GOODS, BuildingTile, Good, Goods, Position, Town, Variant
from ..processing import Outcome, process, processing_outcomes

State = tuple[Goods, ...]
"""The goods on every building of a cluster, in the cluster's building order."""


@dataclass(frozen=True, slots=True)
class Spot:
    """One building as the planner sees it."""

    position: Position
    tile: BuildingTile
    slots: int
    accepts: frozenset[Good]
    regions: tuple[int, ...]
    """Region id per goods type (contract order); -1 where the building does not depict
    the type."""
    haul: int
    """How many goods a Haul effect (Hauler's Hut) brings at a phase's start; 0 if none."""
    end_effects: tuple[GainPerHeld | BonusIfHeld, ...]
    """End-game effects that count goods on this tile (Ranch, FF-R7)."""

    @property
    def processes(self) -> bool:
        return bool(self.tile.building.processing)


class Board:
    """A town's buildings, regions and clusters, and cached processing outcomes."""

    def __init__(self, town: Town, points_matter: bool = True) -> None:
        buildings = town.buildings
        regions = _regions(town)
        self.spots: tuple[Spot, ...] = tuple(
            Spot(tile.position, tile, tile.building.slots, tile.building.depicts,
                 tuple(regions[g].get(tile.position, -1) for g in GOODS),
                 sum(e.count for e in tile.building.effects if isinstance(e, Haul)),
                 tuple(e for e in tile.building.effects_in(Phase.END_GAME)
                       if isinstance(e, GainPerHeld | BonusIfHeld)))
            for tile in buildings)
        self.weight = sum(spot.slots for spot in self.spots) + 1 if points_matter else 0
        """Points are worth more than any difference in goods left: value = weight x points
        - goods left ranks plans as FF-R16 does (most points, then fewest goods). 0 when
        only the goods left matter (every plan's total floored to 0, FF-R18)."""
        self._outcomes: dict[tuple[str, Goods], tuple[Outcome, ...]] = {}
        self._canonical: dict[tuple[str, Goods], Outcome] = {}

    @cached_property
    def clusters(self) -> tuple[tuple[int, ...], ...]:
        """Groups of building indices that can be planned independently; buildings that
        take no goods at all are left out (nothing they hold ever changes)."""
        members = [i for i, s in enumerate(self.spots) if s.accepts]
        if any(self.spots[i].haul and self.spots[i].slots for i in members):
            return (tuple(members),) if members else ()
        parent: dict[tuple[int, int], tuple[int, int]] = {}

        def find(key: tuple[int, int]) -> tuple[int, int]:
            while parent.setdefault(key, key) != key:
                parent[key] = parent[parent[key]]
                key = parent[key]
            return key

        for i in members:
            pools = [(g, r) for g, r in enumerate(self.spots[i].regions) if r >= 0]
            for pool in pools[1:]:
                a, b = find(pools[0]), find(pool)
                if a != b:
                    parent[a] = b
        groups: dict[tuple[int, int], list[int]] = {}
        for i in members:
            g, r = next((g, r) for g, r in enumerate(self.spots[i].regions) if r >= 0)
            groups.setdefault(find((g, r)), []).append(i)
        return tuple(tuple(group) for group in groups.values())

    def outcomes(self, spot: Spot, goods: Goods) -> tuple[Outcome, ...]:
        """Every outcome FF-R4 allows for ``spot`` holding ``goods`` (cached)."""
        key = (spot.tile.building.id, goods)
        found = self._outcomes.get(key)
        if found is None:
            found = processing_outcomes(spot.tile.building, goods)
            self._outcomes[key] = found
        return found

    def outcome(self, spot: Spot, goods: Goods) -> Outcome:
        """The canonical outcome (the one :func:`..processing.run_processing` takes)."""
        key = (spot.tile.building.id, goods)
        found = self._canonical.get(key)
        if found is None:
            found = process(spot.tile.building, goods)
            self._canonical[key] = found
        return found

    def end_points(self, spot: Spot, goods: Goods) -> int:
        """End-game points that depend on the goods ``spot`` holds (FF-R7)."""
        points = 0
        for effect in spot.end_effects:
            if isinstance(effect, GainPerHeld):
                points += effect.times(goods) * effect.points
            elif goods.count(effect.held) >= effect.at_least:
                points += effect.points
        return points

    def value(self, members: tuple[int, ...], state: State, points: int) -> int:
        """The rank of ending with ``state`` after ``points`` processing points:
        weight x (points + goods-dependent end-game points) - goods left."""
        spots = self.spots
        total = points
        left = 0
        for i, goods in zip(members, state):
            left += goods.total
            if spots[i].end_effects:
                total += self.end_points(spots[i], goods)
        return self.weight * total - left


def _regions(town: Town) -> dict[Good, dict[Position, int]]:
    """Region id of each building for each type it depicts (see the module docstring)."""
    network = town.network
    depicts = network.depicts
    links = network.links
    out: dict[Good, dict[Position, int]] = {}
    standard = _components(links, depicts, None) if town.variant is Variant.STANDARD else None
    for good in GOODS:
        comp = standard if standard is not None else _components(links, depicts, good)
        out[good] = {p: r for p, r in comp.items() if p in depicts and good in depicts[p]}
    return out


def _components(links: dict[Position, tuple[Position, ...]],
                depicts: dict[Position, frozenset[Good]], good: Good | None,
                ) -> dict[Position, int]:
    """Component ids of the tiles joined by connections: every tile (``good`` None, the
    standard variant), or trails and the buildings depicting ``good`` (expert, FF-R2)."""
    def passable(p: Position) -> bool:
        return good is None or p not in depicts or good in depicts[p]

    comp: dict[Position, int] = {}
    for start in links:
        if start in comp or not passable(start):
            continue
        ident = len(comp)
        comp[start] = ident
        queue = deque([start])
        while queue:
            for nxt in links[queue.popleft()]:
                if nxt not in comp and passable(nxt):
                    comp[nxt] = ident
                    queue.append(nxt)
    return comp
