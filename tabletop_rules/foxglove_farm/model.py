"""The towns of Foxglove Farm: one player's tableau, and where its goods can go.

Plain immutable values. A :class:`Town` is one player's tableau: every tile by position,
the goods on its buildings, the score track and the catalog its building ids refer to.
Checking that a transcription is well formed is :mod:`.town`'s job (:func:`.parse_town`).
The top of the rules' values: goods, sides, positions, variants and trail shapes
(:mod:`.pieces`), the catalog (:mod:`.catalog`), tiles (:mod:`.tiles`) and trail networks
(:mod:`.routes`) stand below it, and it re-exports the pieces and tiles.

A town never changes in place: :meth:`Town.with_goods` returns a new town that shares the
old one's trail network (:attr:`Town.network`), so replaying transports and processing runs
costs no re-computation of routes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from .catalog import Catalog
from .pieces import (
    ALL_GOODS as ALL_GOODS,
    ALL_SIDES as ALL_SIDES,
    GOODS as GOODS,
    NO_GOODS as NO_GOODS,
    SIDES as SIDES,
    Good as Good,
    Goods as Goods,
    Position as Position,
    Side as Side,
    TrailShape as TrailShape,
    Variant as Variant,
    trail_shape as trail_shape,
)
from .routes import Network, Route
from .tiles import BuildingTile as BuildingTile, Tile as Tile, TrailTile as TrailTile


MAX_SCORE_TRACK = 10_000
"""The largest score track a town may show. Real games end near 150; this only guards
against absurd input."""


@mypyc_attr(native_class=False)  # compiled, still a plain class: it caches in its __dict__
@dataclass(frozen=True)
class Town:
    """One player's town: every tile by position, the variant, the score track, the catalog.

    ``tiles`` keeps the transcription's order. Goods live on :class:`BuildingTile`
    values; read them with :meth:`goods_at`, change them with :meth:`with_goods` (which
    shares the trail network with the new town). Build a town from the contract's JSON
    form with :func:`.parse_town`, which validates it.
    """

    tiles: Mapping[Position, Tile]
    catalog: Catalog
    variant: Variant = Variant.STANDARD
    score_track: int = 0

    # -- reading ----------------------------------------------------------------------

    def tile_at(self, position: Position) -> Tile | None:
        return self.tiles.get(position)

    def building_at(self, position: Position) -> BuildingTile | None:
        tile = self.tiles.get(position)
        return tile if isinstance(tile, BuildingTile) else None

    def goods_at(self, position: Position) -> Goods:
        """The goods on the building at ``position`` (none for a trail or empty square)."""
        tile = self.tiles.get(position)
        return tile.goods if isinstance(tile, BuildingTile) else NO_GOODS

    @property
    def buildings(self) -> tuple[BuildingTile, ...]:
        """Every building tile, in transcription order (found once per town)."""
        # Cached by hand, as the network is: mypyc compiles a cached_property as a property.
        found: tuple[BuildingTile, ...] | None = self.__dict__.get("_buildings")
        if found is None:
            found = self.__dict__["_buildings"] = tuple(
                t for t in self.tiles.values() if isinstance(t, BuildingTile))
        return found

    @property
    def trails(self) -> tuple[TrailTile, ...]:
        return tuple(t for t in self.tiles.values() if isinstance(t, TrailTile))

    @property
    def goods_remaining(self) -> int:
        """Goods cubes on all the town's buildings (FF-R16's second key)."""
        return sum(tile.goods.total for tile in self.buildings)

    @property
    def tile_count(self) -> int:
        """Building and trail tiles; the starting tile's Forest and Mine count as two."""
        return len(self.tiles)

    def goods_state(self) -> tuple[Goods, ...]:
        """The goods on every building, in :attr:`buildings` order: a hashable key for
        the part of a town that transports and processing change."""
        return tuple(tile.goods for tile in self.buildings)

    @property
    def network(self) -> Network:
        """The town's trail connections and route finder, built once per layout."""
        found: Network | None = self.__dict__.get("_network")
        if found is None:
            found = self.__dict__["_network"] = Network(self.tiles)
        return found

    # -- deriving new towns -----------------------------------------------------------

    def with_goods(self, changes: Mapping[Position, Goods] | Iterable[tuple[Position, Goods]],
                   ) -> Town:
        """A town whose buildings at the given positions hold the given goods instead.

        No checks: callers (transport, processing) have checked slots and types.
        """
        tiles = dict(self.tiles)
        items = changes.items() if isinstance(changes, Mapping) else changes
        for position, goods in items:
            tile = tiles[position]
            if not isinstance(tile, BuildingTile):
                raise ValueError(f"{position} is not a building")
            tiles[position] = BuildingTile(position, tile.building, goods)
        return self._derive(tiles, self.score_track)

    def with_score_track(self, score_track: int) -> Town:
        """The same town with another score track, floored at 0 (FF-R18)."""
        return self._derive(self.tiles, max(0, score_track))

    def _derive(self, tiles: Mapping[Position, Tile], score_track: int) -> Town:
        town = Town(tiles, self.catalog, self.variant, score_track)
        if "_network" in self.__dict__:  # same layout: share the precomputed network
            town.__dict__["_network"] = self.__dict__["_network"]
        return town


# Unhashable, as tiles is a mapping (use goods_state()); set after the class is made since,
# compiled, an assignment in its body would be a dataclass field.
Town.__hash__ = None  # type: ignore[assignment,method-assign]


def reachable(town: Town, origin: Position, good: Good) -> Mapping[Position, Route]:
    """Every building ``good`` on ``origin`` may be moved to in ``town``'s variant, with a
    shortest route (FF-R2, FF-R3; free slots not considered)."""
    return town.network.routes_from(origin, good, town.variant)


def find_route(town: Town, origin: Position, destination: Position, good: Good,
               ) -> Route | None:
    """A shortest route for ``good`` from ``origin`` to ``destination`` in ``town``'s
    variant, or ``None`` when there is none (or the destination does not depict it)."""
    return town.network.route(origin, destination, good, town.variant)
