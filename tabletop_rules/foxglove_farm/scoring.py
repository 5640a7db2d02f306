"""Final scoring of a town: the score track plus end-game effects (FF-R6 to FF-R8, FF-R18).

A town is scored as it stands when the fourth round's transportation and processing are
over. Each building with an end-game effect gives one :class:`EndGameEntry` (0 points
included, so a player sees why); the total is never below 0 (FF-R18).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dataclasses import dataclass

from ..messages import LABEL, Param, Say, part, template
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

def _named(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """The buildings an effect counted, " (Forest at row 0, col 0; Butcher at row 2, col
    0)", or nothing: each at its position as every message words one (:data:`LABEL`)."""
    names = [say(LABEL, building=b, row=r, col=c) for b, r, c in zip(
        params["buildings"], params["rows"], params["cols"])]
    return {"named": f" ({'; '.join(names)})" if names else ""}


END_GAME = template(
    "FF_END_GAME", "{building} at row {row}, col {col}: {effects}: {points:# point|# points}", kind="explanation")
"""An entry's sentence: its effects' sentences (``effects``) joined by :data:`EFFECTS_JOINED`."""
EFFECTS_JOINED = part("FF_PART_EFFECTS_JOINED", "; ")
GAIN_PER_HELD = template(
    "FF_GAIN_PER_HELD", "{held} {good:term=held} here, {each} per {good:term}: "
    "{times} × {each} = {points}", kind="explanation")
GAIN_PER_HELD_GROUP = template(
    "FF_GAIN_PER_HELD_GROUP", "{held} {good:term=held} here, {each} per {per} "
    "{good:term=per}: {times} × {each} = {points}", kind="explanation")
BONUS_IF_HELD = template(
    "FF_BONUS_IF_HELD", "{bonus} more for holding {at_least} {good:term=at_least}", kind="explanation")
BONUS_IF_HELD_NOT_MET = template(
    "FF_BONUS_IF_HELD_NOT_MET", "{bonus} more for holding {at_least} {good:term=at_least} "
    "(not met: {held})", kind="explanation")
COMMUNITY_CENTRE = template(
    "FF_COMMUNITY_CENTRE", "{count:# building|# buildings} reached through trail tiles "
    "only{named}, {each} each", derive=_named, kind="explanation")
GUILDHALL = template(
    "FF_GUILDHALL", "{count:# surrounding building|# surrounding buildings} with a "
    "processing effect{named}, {each} each", derive=_named, kind="explanation")
GUILDHALL_CAPPED = template(
    "FF_GUILDHALL_CAPPED", "{count:# surrounding building|# surrounding buildings} with a "
    "processing effect{named}, {each} each, at most {most}", derive=_named, kind="explanation")
SCORES_NOTHING = template(
    "FF_SCORES_NOTHING", "{kind} scores nothing at the end of the game", kind="explanation")


@dataclass(frozen=True, slots=True)
class CountedTile:
    """A tile an end-game effect counted: the building there (its id), and for a building
    reached along trails (FF-R6), the trail tiles the way goes through."""

    position: Position
    building: str
    via: tuple[Position, ...] = ()

    @property
    def row(self) -> int:
        return self.position.row

    @property
    def col(self) -> int:
        return self.position.col


@dataclass(frozen=True, slots=True)
class EffectScore:
    """What one end-game effect scores: its points, why (a Sentence with code and
    params), the rule applied, and the tiles it counted."""

    kind: str
    points: int
    explanation: str
    rule: str
    tiles: tuple[CountedTile, ...] = ()


@dataclass(frozen=True, slots=True)
class EndGameEntry:
    """What one building's end-game effects score; ``explanation`` (code
    :data:`END_GAME`) words the building and its ``effects`` together."""

    building: str
    position: Position
    points: int
    explanation: str
    rule: str
    effects: tuple[EffectScore, ...] = ()

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
    goods than the town's tile at its position (a reading of a doubtful count). The
    points of :func:`_score`, with no words nor tiles: readings weigh it by the
    thousand."""
    if isinstance(effect, GainPerHeld):
        return effect.times(tile.goods) * effect.points
    if isinstance(effect, BonusIfHeld):
        return effect.points if tile.goods.count(effect.held) >= effect.at_least else 0
    if isinstance(effect, PerBuildingViaTrails):
        return len(town.network.buildings_via_trails(tile.position)) * effect.points
    if isinstance(effect, PerSurroundingProcessor):
        around = sum(1 for p in tile.position.surrounding()
                     if (b := town.building_at(p)) is not None and b.building.processing)
        return min(around * effect.points, effect.max_points)
    return 0


def _entry(town: Town, tile: BuildingTile, effects: tuple[Effect, ...]) -> EndGameEntry:
    scored = tuple([_score(town, tile, effect) for effect in effects])
    points = sum(effect.points for effect in scored)
    explanation = END_GAME.given(
        {"effects": EFFECTS_JOINED.english.join(scored_one.explanation for scored_one in scored)},
        building=tile.building.name, row=tile.position.row, col=tile.position.col,
        points=points)
    return EndGameEntry(tile.building.id, tile.position, points, explanation,
                        rule_of(effects[0]), scored)


def _score(town: Town, tile: BuildingTile, effect: Effect) -> EffectScore:
    """One end-game effect's points on ``tile``, why, and the tiles it counted."""
    rule, itself = rule_of(effect), (CountedTile(tile.position, tile.building.id),)
    if isinstance(effect, GainPerHeld):
        held, times = tile.goods.count(effect.held), effect.times(tile.goods)
        points = times * effect.points
        said = (GAIN_PER_HELD_GROUP(held=held, good=effect.held.value, each=effect.points,
                                    per=effect.per, times=times, points=points)
                if effect.per > 1 else
                GAIN_PER_HELD(held=held, good=effect.held.value, each=effect.points,
                              times=times, points=points))
        return EffectScore(effect.kind, points, said, rule, itself)
    if isinstance(effect, BonusIfHeld):
        held = tile.goods.count(effect.held)
        wording: dict[str, Param] = {"bonus": effect.points, "at_least": effect.at_least,
                                     "good": effect.held.value}
        if held >= effect.at_least:
            return EffectScore(effect.kind, effect.points, BONUS_IF_HELD(**wording), rule, itself)
        return EffectScore(effect.kind, 0, BONUS_IF_HELD_NOT_MET(**wording, held=held), rule,
                           itself)
    if isinstance(effect, PerBuildingViaTrails):
        reached = town.network.trails_to_buildings(tile.position)
        tiles = tuple([CountedTile(p, _building(town, p), via) for p, via in reached.items()])
        said = COMMUNITY_CENTRE(count=len(tiles), each=effect.points, **_where(town, tiles))
        return EffectScore(effect.kind, len(tiles) * effect.points, said, rule, tiles)
    if isinstance(effect, PerSurroundingProcessor):
        tiles = tuple([CountedTile(p, b.building.id) for p in tile.position.surrounding()
                       if (b := town.building_at(p)) is not None and b.building.processing])
        raw = len(tiles) * effect.points
        wording = {"count": len(tiles), "each": effect.points,
                                     **_where(town, tiles)}
        said = (GUILDHALL_CAPPED(**wording, most=effect.max_points)
                if raw > effect.max_points else GUILDHALL(**wording))
        return EffectScore(effect.kind, min(raw, effect.max_points), said, rule, tiles)
    return EffectScore(effect.kind, 0, SCORES_NOTHING(kind=effect.kind), rule)


def _building(town: Town, position: Position) -> str:
    tile = town.building_at(position)
    return tile.building.id if tile else ""


def _where(town: Town, tiles: tuple[CountedTile, ...]) -> dict[str, Param]:
    """The params naming the counted buildings: their names, rows and columns."""
    names = []
    for counted in tiles:
        tile = town.building_at(counted.position)
        names.append(tile.building.name if tile else "?")
    return {"buildings": tuple(names), "rows": tuple([t.row for t in tiles]),
            "cols": tuple([t.col for t in tiles])}
