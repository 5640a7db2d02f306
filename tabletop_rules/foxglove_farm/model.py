"""The pieces of Foxglove Farm: goods, positions, sides, tiles and towns.

Plain immutable values. A :class:`Town` is one player's tableau: every tile by position,
the goods on its buildings, the score track and the catalog its building ids refer to.
Checking that a transcription is well formed is :mod:`.town`'s job (:func:`.parse_town`).

A town never changes in place: :meth:`Town.with_goods` returns a new town that shares the
old one's trail network (:attr:`Town.network`), so replaying transports and processing runs
costs no re-computation of routes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .catalog import Building, Catalog
    from .routes import Network


class Good(enum.Enum):
    """The five goods types, in the contract's order."""

    WOOD = "wood"
    STONE = "stone"
    WHEAT = "wheat"
    COAL = "coal"
    SHEEP = "sheep"

    @property
    def index(self) -> int:
        """This good's place in a :class:`Goods` vector (0 for wood ... 4 for sheep)."""
        return _GOOD_INDEX[self]

    def __repr__(self) -> str:
        return f"Good.{self.name}"

    __hash__ = object.__hash__
    """Members are singletons: hashing by identity is correct, and runs in C where
    Enum's own hashes the name in Python (goods and sides are hashed on every hot path)."""


GOODS: tuple[Good, ...] = tuple(Good)
_GOOD_INDEX = {good: i for i, good in enumerate(GOODS)}
ALL_GOODS: frozenset[Good] = frozenset(GOODS)


class Goods(NamedTuple):
    """How many cubes of each type: an immutable, hashable vector.

    ``Goods(wood=3)``, ``Goods.of({"coal": 2})``. Arithmetic is by method (``plus``,
    ``minus``); ``+`` is still tuple concatenation, so do not use it. A ``Goods`` is
    truthy when it holds at least one cube.
    """

    wood: int = 0
    stone: int = 0
    wheat: int = 0
    coal: int = 0
    sheep: int = 0

    @classmethod
    def of(cls, counts: Mapping[Good, int] | Mapping[str, int]) -> Goods:
        """Goods from ``{Good.WOOD: 2}`` or ``{"wood": 2}``; absent types are 0."""
        values = [0] * len(GOODS)
        for key, n in counts.items():
            good = key if isinstance(key, Good) else Good(key)
            values[good.index] += n
        return cls(*values)

    @classmethod
    def single(cls, good: Good, n: int = 1) -> Goods:
        values = [0] * len(GOODS)
        values[good.index] = n
        return cls(*values)

    def count(self, good: Good) -> int:
        return self[good.index]

    @property
    def total(self) -> int:
        return sum(self)

    @property
    def types(self) -> frozenset[Good]:
        """The types present (count > 0)."""
        return frozenset(g for g, n in zip(GOODS, self) if n)

    def plus(self, other: Goods) -> Goods:
        return Goods(*(a + b for a, b in zip(self, other)))

    def minus(self, other: Goods) -> Goods:
        return Goods(*(a - b for a, b in zip(self, other)))

    def scaled(self, factor: int) -> Goods:
        return Goods(*(a * factor for a in self))

    def add(self, good: Good, n: int) -> Goods:
        """These goods with ``n`` more (or fewer, if negative) of ``good``."""
        values = list(self)
        values[good.index] += n
        return Goods(*values)

    def contains(self, other: Goods) -> bool:
        """True when every count here is at least the one in ``other``."""
        return all(a >= b for a, b in zip(self, other))

    def items(self) -> Iterator[tuple[Good, int]]:
        """``(good, count)`` for the types present, in contract order."""
        return ((g, n) for g, n in zip(GOODS, self) if n)

    def to_dict(self) -> dict[str, int]:
        """The contract's form: ``{"wood": 2}``; absent types left out."""
        return {g.value: n for g, n in self.items()}

    def words(self) -> tuple[str, ...]:
        """``("2 wood", "1 coal")``: the goods as a message's param, which its ``goods``
        filter words as :meth:`describe` does (:mod:`tabletop_rules.messages`)."""
        return tuple([f"{n} {g.value}" for g, n in self.items()])

    def describe(self) -> str:
        """``"2 wood and 1 coal"``; ``"nothing"`` when empty."""
        parts = [f"{n} {g.value}" for g, n in self.items()]
        if not parts:
            return "nothing"
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def __bool__(self) -> bool:
        return any(self)

    def __repr__(self) -> str:
        inner = ", ".join(f"{g.value}={n}" for g, n in zip(GOODS, self) if n)
        return f"Goods({inner})"


NO_GOODS = Goods()


class Side(enum.Enum):
    """A side of a square tile. N is toward row - 1, E toward col + 1."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def delta(self) -> tuple[int, int]:
        """``(d_row, d_col)`` to the neighbour on this side."""
        return _DELTAS[self]

    @property
    def opposite(self) -> Side:
        return _OPPOSITE[self]

    __hash__ = object.__hash__
    """By identity, as :class:`Good`'s."""

    def __repr__(self) -> str:
        return f"Side.{self.name}"


SIDES: tuple[Side, ...] = (Side.N, Side.E, Side.S, Side.W)
_DELTAS = {Side.N: (-1, 0), Side.E: (0, 1), Side.S: (1, 0), Side.W: (0, -1)}
_OPPOSITE = {Side.N: Side.S, Side.S: Side.N, Side.E: Side.W, Side.W: Side.E}
ALL_SIDES: frozenset[Side] = frozenset(SIDES)


class Position(NamedTuple):
    """A square of the town: ``row`` grows to the south, ``col`` to the east."""

    row: int
    col: int

    def neighbour(self, side: Side) -> Position:
        d_row, d_col = _DELTAS[side]
        return Position(self.row + d_row, self.col + d_col)

    def neighbours(self) -> tuple[Position, ...]:
        """The four orthogonal neighbours, in N, E, S, W order."""
        row, col = self
        return (Position(row - 1, col), Position(row, col + 1), Position(row + 1, col),
                Position(row, col - 1))

    def surrounding(self) -> tuple[Position, ...]:
        """The eight positions around this one, orthogonal and diagonal."""
        r, c = self
        return tuple(Position(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if dr or dc)

    def to_list(self) -> list[int]:
        """The contract's ``[row, col]`` form, as in a path."""
        return [self.row, self.col]

    def __repr__(self) -> str:
        return f"Position({self.row}, {self.col})"


class Variant(enum.Enum):
    """The transport rule a player plays by (FF-R2)."""

    STANDARD = "standard"
    EXPERT = "expert"


class TrailShape(enum.Enum):
    """The three trail tiles: two opposite sides, two neighbouring sides, three sides."""

    STRAIGHT = "straight"
    CURVED = "curved"
    T_JUNCTION = "t_junction"


def trail_shape(sides: frozenset[Side]) -> TrailShape | None:
    """The trail tile with these open sides, or ``None`` if no trail tile has them."""
    if len(sides) == 3:
        return TrailShape.T_JUNCTION
    if len(sides) == 2:
        a, b = sides
        return TrailShape.STRAIGHT if a.opposite is b else TrailShape.CURVED
    return None


@dataclass(frozen=True, slots=True)
class BuildingTile:
    """A building at a position, with the goods on its slots."""

    position: Position
    building: Building
    goods: Goods = NO_GOODS

    @property
    def free_slots(self) -> int:
        return self.building.slots - self.goods.total

    @property
    def label(self) -> str:
        """``"Butcher at row 1, col 2"``: how answers name it to a player."""
        return f"{self.building.name} at row {self.position.row}, col {self.position.col}"

    @property
    def named(self) -> tuple[str, int, int]:
        """The building's name, row and column: a message's param its ``label`` filter
        words as :attr:`label` does (:mod:`tabletop_rules.messages`)."""
        return (self.building.name, self.position.row, self.position.col)

    @property
    def open_sides(self) -> frozenset[Side]:
        """A building is open on all four sides (FF-R1)."""
        return ALL_SIDES


@dataclass(frozen=True, slots=True)
class TrailTile:
    """A trail tile and the sides its paths reach (FF-R1)."""

    position: Position
    sides: frozenset[Side]

    @property
    def shape(self) -> TrailShape | None:
        return trail_shape(self.sides)

    @property
    def open_sides(self) -> frozenset[Side]:
        return self.sides


Tile = BuildingTile | TrailTile

MAX_SCORE_TRACK = 10_000
"""The largest score track a town may show. Real games end near 150; this only guards
against absurd input."""


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

    @cached_property
    def buildings(self) -> tuple[BuildingTile, ...]:
        """Every building tile, in transcription order."""
        return tuple(t for t in self.tiles.values() if isinstance(t, BuildingTile))

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

    @cached_property
    def network(self) -> Network:
        """The town's trail connections and route finder, built once per layout."""
        from .routes import Network

        return Network(self.tiles)

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
        if "network" in self.__dict__:  # same layout: share the precomputed network
            town.__dict__["network"] = self.__dict__["network"]
        return town

    __hash__ = None  # type: ignore[assignment]  # tiles is a mapping; use goods_state()
