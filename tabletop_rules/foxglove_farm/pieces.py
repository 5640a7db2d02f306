"""The plain pieces of Foxglove Farm that tiles, effects and the catalog are made of:
goods, sides, positions, variants and trail shapes.

The bottom floor of the rules' values: the effects, the catalog, its formats, the tiles,
the routes and the towns (:mod:`.model`, which re-exports everything here) stand on it,
each importing only from below.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import NamedTuple


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
    ``minus``); ``+`` is still tuple concatenation, so do not use it. Like any tuple of
    five counts a ``Goods`` is always true: ``any(goods)`` says whether it holds a cube
    (a truth of its own would be ignored where mypyc compiles the test).
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
