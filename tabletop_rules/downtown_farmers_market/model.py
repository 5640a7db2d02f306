"""The pieces of Downtown Farmers Market: ingredients, Food tiles, modes and boards.

Plain immutable values. A board is built from already-typed values; checking that it is
well formed (4x4, 1 to 3 ingredients a tile, eight challenges) is :mod:`.validation`'s job.
The ingredients and a line's tally of them (:mod:`.tallies`), which the Challenge types
judge (:mod:`.challenges`), stand below the boards; this module re-exports them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .challenges import Challenge
from .tallies import (
    INGREDIENTS as INGREDIENTS,
    PACK_BITS as PACK_BITS,
    IdentityHashedEnum as IdentityHashedEnum,
    Ingredient as Ingredient,
    Tally as Tally,
    counts_tally as counts_tally,
    pack as pack,
)

GRID_SIZE = 4
"""A player's grid is 4 by 4 (the rulebook's Setup)."""

MIN_TILE_INGREDIENTS = 1
MAX_TILE_INGREDIENTS = 3
"""A Food tile shows 1 to 3 ingredients, repeats allowed (DFM-R15)."""

MAX_LINE_INGREDIENTS = GRID_SIZE * MAX_TILE_INGREDIENTS
"""The most ingredients one row or column can hold: 12."""

MAX_CHALLENGE_POINTS = 100
"""The number on a Challenge tile's wooden crate, as the contract bounds it."""

MAX_SETS = 12
"""The most sets one Points per set challenge may show: the printed tiles show one to
three, and a set of more than 12 ingredients can never form on a line."""


class Mode(IdentityHashedEnum):
    """Standard play, or the Young Shopper mode for younger children (no challenges)."""

    STANDARD = "standard"
    YOUNG_SHOPPER = "young_shopper"


@dataclass(frozen=True, slots=True)
class FoodTile:
    """One Food tile: the ingredients it shows, repeats allowed."""

    ingredients: tuple[Ingredient, ...]
    packed: int = field(init=False, repr=False, compare=False)
    """The tile's ingredients counted (:func:`pack`) once, as the tile is made: scoring
    adds up the tiles' counts along each line."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "packed", pack(self.ingredients))

    @classmethod
    def of(cls, *names: str) -> FoodTile:
        """``FoodTile.of("corn", "corn")``: a tile from ingredient names."""
        return cls(tuple(Ingredient(name) for name in names))

    def __repr__(self) -> str:
        return f"FoodTile.of({', '.join(repr(i.value) for i in self.ingredients)})"


Space = FoodTile | None
"""A grid space: a Food tile, or ``None`` while it is empty."""

Grid = tuple[tuple[Space, ...], ...]


def empty_grid() -> Grid:
    """A 4x4 grid with every space empty."""
    return tuple(tuple(None for _ in range(GRID_SIZE)) for _ in range(GRID_SIZE))


@dataclass(frozen=True, slots=True)
class Board:
    """One player's board: the grid and the eight Challenge tiles around it.

    ``row_challenges[r]`` stands beside row ``r`` (the rulebook's "line"), top to bottom;
    ``column_challenges[c]`` above column ``c``, left to right. A Young Shopper board has
    none.
    """

    grid: Grid
    row_challenges: tuple[Challenge, ...] = ()
    column_challenges: tuple[Challenge, ...] = ()
    mode: Mode = Mode.STANDARD

    @property
    def is_complete(self) -> bool:
        """True once every space holds a tile (DFM-R8)."""
        return all(space is not None for row in self.grid for space in row)

    @property
    def tile_count(self) -> int:
        return len([space for row in self.grid for space in row if space is not None])


def line_tallies(grid: Grid) -> tuple[list[Tally], list[Tally]]:
    """The tally of each row and of each column, top to bottom and left to right: its
    tiles' packed counts added up."""
    packs = [[0 if space is None else space.packed for space in row] for row in grid]
    return ([sum(row).to_bytes(len(INGREDIENTS), "little") for row in packs],
            [sum(column).to_bytes(len(INGREDIENTS), "little") for column in zip(*packs)])


def count_ingredients(spaces: tuple[Space, ...]) -> Counter[Ingredient]:
    """How many times each ingredient appears on a line, repeats on one tile included."""
    counts: Counter[Ingredient] = Counter()
    for tile in spaces:
        if tile is not None:
            counts.update(tile.ingredients)
    return counts
