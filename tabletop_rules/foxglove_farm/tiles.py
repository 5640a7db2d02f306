"""The tiles of a town: a building at a position with the goods on it, or a trail tile.

Above the catalog (a building tile holds a :class:`.Building`), below the routes and the
towns (:mod:`.routes` links tiles; :mod:`.model` lays them out as a :class:`.Town`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Building
from .pieces import ALL_SIDES, NO_GOODS, Goods, Position, Side, TrailShape, trail_shape


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
