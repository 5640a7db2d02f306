"""Trail connections and routes (FF-R1 to FF-R3).

A :class:`Network` is built once per town layout (positions, trail sides, buildings) and
shared by every town derived from it by moving goods, so route look-ups on a replayed
plan cost a dictionary hit. Routes are shortest paths (breadth-first search, neighbours
tried in N, E, S, W order, so answers are deterministic).

- FF-R1: two neighbouring tiles are connected when both are open on the side they share;
  a building is open on all sides, yet two buildings are never connected directly.
- FF-R2: a good moves from its building to a destination along connected tiles; in the
  standard variant it may pass through any building, in the expert variant only through
  buildings whose effects depict its type.
- FF-R3: the destination must depict the good's type (free slots are the transport
  check's business: :mod:`.transport`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from .pieces import ALL_SIDES, SIDES, Good, Position, Variant
from .tiles import BuildingTile, Tile

_STEPS = tuple((side, side.opposite, *side.delta) for side in SIDES)
"""Each side in N, E, S, W order, the neighbour's side facing it, and the step to it."""

Route = tuple[Position, ...]
"""A path from origin to destination, both included: the contract's ``[[row, col], ...]``."""


class Network:
    """The connections of one town layout, with cached route searches.

    Built from the tiles alone; the goods on them do not matter. Use :attr:`Town.network`
    rather than building one yourself: it is computed once and shared by derived towns.
    """

    __slots__ = ("links", "building_positions", "processor_positions", "depicts", "_parents",
                 "_routes", "_trail_reach")

    def __init__(self, tiles: Mapping[Position, Tile]) -> None:
        self.building_positions: tuple[Position, ...] = tuple(
            p for p, t in tiles.items() if isinstance(t, BuildingTile))
        """Every building's position, in the tiles' order."""
        self.processor_positions: tuple[Position, ...] = tuple(
            p for p, t in tiles.items() if isinstance(t, BuildingTile) and t.building.processing)
        """The buildings with a processing effect, in the tiles' order."""
        self.depicts: dict[Position, frozenset[Good]] = {
            p: t.building.depicts for p, t in tiles.items() if isinstance(t, BuildingTile)}
        # Each position with its open sides and whether it is a building, once; a
        # neighbour is looked up by a plain (row, col) tuple, which hashes and compares as
        # the Position it names, and linked as the Position kept here (none is built).
        kept = {p: (p, ALL_SIDES, True) if isinstance(t, BuildingTile) else (p, t.sides, False)
                for p, t in tiles.items()}
        links: dict[Position, tuple[Position, ...]] = {}
        for position, (_, open_sides, building) in kept.items():
            row, col = position
            linked = []
            for side, back, d_row, d_col in _STEPS:
                if side in open_sides:
                    other = kept.get((row + d_row, col + d_col))  # type: ignore[call-overload]
                    # FF-R1: both open on the side they share; two buildings never linked
                    if other is not None and back in other[1] and not (building and other[2]):
                        linked.append(other[0])
            links[position] = tuple(linked)
        self.links: dict[Position, tuple[Position, ...]] = links
        """Each tile's connected neighbours (FF-R1), in N, E, S, W order."""
        self._parents: dict[tuple[Position, Good, Variant], dict[Position, Position | None]] = {}
        self._routes: dict[tuple[Position, Good, Variant], dict[Position, Route]] = {}
        self._trail_reach: dict[Position, dict[Position, Route]] = {}

    def connected(self, a: Position, b: Position) -> bool:
        """True when the tiles at ``a`` and ``b`` are neighbours connected by trails (FF-R1)."""
        return b in self.links.get(a, ())

    def routes_from(self, origin: Position, good: Good,
                    variant: Variant = Variant.STANDARD) -> Mapping[Position, Route]:
        """Every building a good of type ``good`` on ``origin`` can be moved to, with a
        shortest route: destinations depict the type (FF-R3); the route passes through
        any building (standard) or only buildings depicting the type (expert, FF-R2).

        Free slots are not considered. The answer is cached; do not mutate it.
        """
        key = (origin, good, variant)
        found = self._routes.get(key)
        if found is None:
            parents = self._search(key)
            found = {p: _walk_back(parents, p) for p in parents
                     if p != origin and good in self.depicts.get(p, ())}
            self._routes[key] = found
        return found

    def route(self, origin: Position, destination: Position, good: Good,
              variant: Variant = Variant.STANDARD) -> Route | None:
        """A shortest route for ``good`` from ``origin`` to ``destination``, or ``None``
        (also when the destination does not depict the good: see :meth:`path`)."""
        return self.routes_from(origin, good, variant).get(destination)

    def path(self, origin: Position, destination: Position, good: Good,
             variant: Variant = Variant.STANDARD) -> Route | None:
        """A shortest way ``good`` could travel from ``origin`` to the building at
        ``destination``, whether or not that building depicts it (for explaining why a
        move is illegal), or ``None``."""
        parents = self._search((origin, good, variant))
        if destination == origin or destination not in parents:
            return None
        return _walk_back(parents, destination)

    def _search(self, key: tuple[Position, Good, Variant]) -> dict[Position, Position | None]:
        """Breadth-first search from a building: each reached tile and where it was
        reached from. Buildings are reached but passed through only where FF-R2 allows."""
        parents = self._parents.get(key)
        if parents is not None:
            return parents
        origin, good, variant = key
        depicts = self.depicts
        parents = {origin: None} if origin in depicts else {}
        queue = deque(parents)
        expert = variant is Variant.EXPERT
        links = self.links
        while queue:
            here = queue.popleft()
            for nxt in links[here]:
                if nxt in parents:
                    continue
                parents[nxt] = here
                kinds = depicts.get(nxt)
                if kinds is None or not expert or good in kinds:
                    queue.append(nxt)
        self._parents[key] = parents
        return parents

    def buildings_via_trails(self, origin: Position) -> tuple[Position, ...]:
        """The other buildings reached from ``origin`` by moving through connected trail
        tiles only, never through another building (FF-R6), in search order."""
        return tuple(self.trails_to_buildings(origin))

    def trails_to_buildings(self, origin: Position) -> Mapping[Position, Route]:
        """Each building :meth:`buildings_via_trails` reaches (in search order), with the
        trail tiles a shortest way to it goes through, from ``origin``'s side on."""
        found = self._trail_reach.get(origin)
        if found is not None:
            return found
        depicts = self.depicts
        parents: dict[Position, Position | None] = {origin: None}
        queue = deque([origin])
        reached: list[Position] = []
        while queue:
            here = queue.popleft()
            for nxt in self.links[here]:
                if nxt in parents:
                    continue
                parents[nxt] = here
                if nxt in depicts:
                    reached.append(nxt)  # a building ends the way: do not pass through
                else:
                    queue.append(nxt)
        found = {building: _walk_back(parents, building)[1:-1] for building in reached}
        self._trail_reach[origin] = found
        return found


def _walk_back(parents: Mapping[Position, Position | None], destination: Position) -> Route:
    path = [destination]
    step = parents[destination]
    while step is not None:
        path.append(step)
        step = parents[step]
    return tuple(reversed(path))


def route_to_list(route: Route) -> list[list[int]]:
    """The contract's form of a path: ``[[row, col], ...]``."""
    return [[p.row, p.col] for p in route]
