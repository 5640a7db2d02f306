"""Final scoring of a town: the score track plus end-game effects (FF-R6 to FF-R8, FF-R18).

A town is scored as it stands when the fourth round's transportation and processing are
over. Each building with an end-game effect gives one :class:`EndGameEntry` (0 points
included, so a player sees why); the total is never below 0 (FF-R18).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..problems import quantity
from .effects import (
    BonusIfHeld,
    Effect,
    GainPerHeld,
    PerBuildingViaTrails,
    PerSurroundingProcessor,
    Phase,
    rule_of,
)
from .model import BuildingTile, Position, Town


@dataclass(frozen=True, slots=True)
class EndGameEntry:
    """What one building's end-game effects score."""

    building: str
    position: Position
    points: int
    explanation: str
    rule: str

    @property
    def row(self) -> int:
        return self.position.row

    @property
    def col(self) -> int:
        return self.position.col


@dataclass(frozen=True, slots=True)
class TownScore:
    """A town's final score and the figures the tie-breaks read (FF-R16)."""

    score_track: int
    end_game: tuple[EndGameEntry, ...]
    goods_remaining: int
    tile_count: int

    @property
    def end_game_points(self) -> int:
        return sum(entry.points for entry in self.end_game)

    @property
    def total(self) -> int:
        """Score track plus end-game points, never below 0 (FF-R18)."""
        return max(0, self.score_track + self.end_game_points)


def score_town(town: Town) -> TownScore:
    """Score a well-formed town (one :func:`.check_town` accepts)."""
    entries = []
    for tile in town.buildings:
        effects = tile.building.effects_in(Phase.END_GAME)
        if effects:
            entries.append(_entry(town, tile, effects))
    return TownScore(town.score_track, tuple(entries), town.goods_remaining, town.tile_count)


def end_game_points(town: Town) -> int:
    """The end-game points alone: what :func:`score_town` adds to the score track."""
    return sum(building_end_game_points(town, tile) for tile in town.buildings)


def building_end_game_points(town: Town, tile: BuildingTile) -> int:
    """What ``tile``'s end-game effects score in ``town``."""
    return sum(effect_points(town, tile, effect)
               for effect in tile.building.effects_in(Phase.END_GAME))


def effect_points(town: Town, tile: BuildingTile, effect: Effect) -> int:
    """What one end-game effect of ``tile`` scores in ``town``; ``tile`` may hold other
    goods than the town's tile at its position (a reading of a doubtful count)."""
    return _points(town, tile, effect)[0]


def _entry(town: Town, tile: BuildingTile, effects: tuple[Effect, ...]) -> EndGameEntry:
    points, reasons = 0, []
    for effect in effects:
        gained, reason = _points(town, tile, effect)
        points += gained
        reasons.append(reason)
    where = f"{tile.building.name} at row {tile.position.row}, col {tile.position.col}"
    explanation = f"{where}: {'; '.join(reasons)}: {quantity(points, 'point')}"
    return EndGameEntry(tile.building.id, tile.position, points, explanation,
                        rule_of(effects[0]))


def _points(town: Town, tile: BuildingTile, effect: Effect) -> tuple[int, str]:
    """One end-game effect's points on ``tile``, and why."""
    if isinstance(effect, GainPerHeld):
        held = tile.goods.count(effect.held)
        times = effect.times(tile.goods)
        per = f"per {effect.per} {effect.held.value}" if effect.per > 1 else \
            f"per {effect.held.value}"
        return times * effect.points, (f"{held} {effect.held.value} here, {effect.points} "
                                       f"{per}: {times} × {effect.points} = "
                                       f"{times * effect.points}")
    if isinstance(effect, BonusIfHeld):
        held = tile.goods.count(effect.held)
        met = held >= effect.at_least
        return (effect.points if met else 0), (
            f"{effect.points} more for holding {effect.at_least} {effect.held.value}"
            + ("" if met else f" (not met: {held})"))
    if isinstance(effect, PerBuildingViaTrails):
        reached = town.network.buildings_via_trails(tile.position)
        names = _names(town, reached)
        return len(reached) * effect.points, (
            f"{quantity(len(reached), 'building')} reached through "
            f"trail tiles only{names}, {effect.points} each")
    if isinstance(effect, PerSurroundingProcessor):
        around = [p for p in tile.position.surrounding()
                  if (b := town.building_at(p)) is not None and b.building.processing]
        raw = len(around) * effect.points
        capped = min(raw, effect.max_points)
        cap = f", at most {effect.max_points}" if raw > effect.max_points else ""
        return capped, (f"{quantity(len(around), 'surrounding building')}"
                        f" with a processing effect{_names(town, around)}, "
                        f"{effect.points} each{cap}")
    return 0, f"{effect.kind} scores nothing at the end of the game"


def _names(town: Town, positions: tuple[Position, ...] | list[Position]) -> str:
    if not positions:
        return ""
    shown = []
    for p in positions:
        tile = town.building_at(p)
        shown.append(f"{tile.building.name if tile else '?'} ({p.row}, {p.col})")
    return " (" + ", ".join(shown) + ")"
