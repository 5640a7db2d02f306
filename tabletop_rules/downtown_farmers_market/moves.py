"""The setup and the moves of a game, as small values a log can hold.

A move says who does what, not whether the rules allow it: :mod:`.legality` judges it
against a state. :func:`check_move` only checks its shape (the contract's 422 cases).
Rows and columns count from 0 (top row, left column), as in the contract's grid.

A tile's ingredients are a multiset: ``corn+egg`` and ``egg+corn`` are one tile. Moves
keep their tile's ingredients in the contract's order, so that two moves naming the same
tile compare equal and ``move in legal_moves(state)`` does not depend on spelling.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..messages import choice, template
from ..problems import Problem
from .model import GRID_SIZE, INGREDIENTS, FoodTile, Ingredient, Mode
from .state import RULES_VERSION, SEAT, Player
from .validation import check_tile

NO_MOVE_ACTION = template("DFM_NO_MOVE_ACTION", "the move has no action; expected one of "
                                                "{expected}")
"""Said by the engine's protobuf reader (a move whose oneof is unset); declared with the
rules so that the gateway, which words a 422 detail again, knows it too."""
SQUARE = choice("DFM_SQUARE", lambda p: str(p["line"]),
                row="a row from 0 to {max}; got {value}",
                col="a column from 0 to {max}; got {value}")


def canonical_tile(tile: FoodTile) -> FoodTile:
    """``tile`` with its ingredients in the contract's order (bread, carrot, ... egg)."""
    ordered = _reordered(tile.ingredients)
    return tile if ordered is None else FoodTile(ordered)


@lru_cache(maxsize=1024)
def _reordered(ingredients: tuple[Ingredient, ...]) -> tuple[Ingredient, ...] | None:
    """``ingredients`` in the contract's order, or None if they are in it already: sorted
    once for each spelling, as every move makes its tile canonical and tiles recur (a
    well-formed tile is one of 258 spellings)."""
    ordered = tuple(sorted(ingredients, key=INGREDIENTS.index))
    return None if ordered == ingredients else ordered


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game begins: the players in clockwise order with their challenges chosen and
    empty grids, who holds the First Player token, and the tiles first turned over (5, or
    3 in Young Shopper)."""

    mode: Mode
    players: tuple[Player, ...]
    first_player: int
    face_up: tuple[FoodTile, ...]
    rules_version: int = RULES_VERSION


@dataclass(frozen=True, slots=True)
class TakeTile:
    """Seat ``player`` takes a face-up ``tile`` and places it at ``row``, ``col`` of
    their own grid (DFM-R12)."""

    player: int
    tile: FoodTile
    row: int
    col: int

    def __post_init__(self) -> None:
        if _reordered(self.tile.ingredients) is not None:  # a tile in order is kept as it is
            object.__setattr__(self, "tile", canonical_tile(self.tile))


@dataclass(frozen=True, slots=True)
class DiscardTile:
    """Seat ``player`` puts a face-up ``tile`` back in the box (2 and 3 players, DFM-R11)."""

    player: int
    tile: FoodTile

    def __post_init__(self) -> None:
        if _reordered(self.tile.ingredients) is not None:  # a tile in order is kept as it is
            object.__setattr__(self, "tile", canonical_tile(self.tile))


@dataclass(frozen=True, slots=True)
class RevealTiles:
    """The tiles turned over from the pile, in the order laid out beside the display.

    The pile is on the table, not in the referee: the client says what came up.
    """

    tiles: tuple[FoodTile, ...]


Move = TakeTile | DiscardTile | RevealTiles


def check_move(move: Move, player_count: int) -> list[Problem]:
    """Every way ``move`` is malformed, whatever the state: a seat, row or column out of
    range, a tile without 1 to 3 ingredients. Paths are relative to the move."""
    if isinstance(move, RevealTiles):
        return [p.under("tiles", i) for i, tile in enumerate(move.tiles)
                for p in check_tile(tile)]
    problems = [p.under("tile") for p in check_tile(move.tile)]
    if not 0 <= move.player < player_count:
        problems.append(Problem(("player",), SEAT(max=player_count - 1, seat=move.player)))
    if isinstance(move, TakeTile):
        for field in ("row", "col"):
            value = getattr(move, field)
            if not 0 <= value < GRID_SIZE:
                problems.append(Problem((field,), SQUARE(line=field, max=GRID_SIZE - 1,
                                                         value=value)))
    return problems
