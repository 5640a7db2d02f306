"""Foxglove Farm's answers on towns, written from rule values: towns, scores and their
readings, rankings, transport verdicts and final-round plans.

Each answer is written as its encoding (:mod:`engine_service.wire`): the parts of many
fields (a town, a score) joined by hand, the small ones built as messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from google.protobuf import struct_pb2

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import planning_pb2, scoring_pb2, town_pb2, transport_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog_version, catalog_to_dict
from tabletop_rules.foxglove_farm.game_state import RULES_VERSION
from tabletop_rules.foxglove_farm.readings import TownReadings
from tabletop_rules.foxglove_farm.scoring import EffectScore
from tabletop_rules.problems import PathPart, json_pointer

from .. import wire
from ..wording import code_of, params_to_wire, sentence_fields
from .enums import GOOD_TO_PROTO, SIDE_TO_PROTO, VARIANT_TO_PROTO


def position_to_proto(position: fox.Position) -> town_pb2.Position:
    return town_pb2.Position(row=position.row, col=position.col)


def goods_to_proto(goods: fox.Goods) -> town_pb2.Goods:
    return town_pb2.Goods(**goods.to_dict())


_VARIANT_KEY, _SCORE_TRACK_KEY, _TILES_KEY = (wire.key(town_pb2.Town.DESCRIPTOR, name)
                                             for name in ("variant", "score_track", "tiles"))
_ROW_KEY, _COL_KEY, _BUILDING_KEY, _TRAIL_KEY, _GOODS_KEY = (
    wire.key(town_pb2.Tile.DESCRIPTOR, name)
    for name in ("row", "col", "building", "trail", "goods"))
_GOOD_KEYS = tuple(wire.key(town_pb2.Goods.DESCRIPTOR, good.value) for good in fox.GOODS)
_POSITION_ROW, _POSITION_COL = (wire.key(town_pb2.Position.DESCRIPTOR, name)
                                for name in ("row", "col"))
_TRAIL_FIELDS = {
    frozenset(sides): wire.part(_TRAIL_KEY, town_pb2.Trail(
        sides=[SIDE_TO_PROTO[s] for s in fox.SIDES if s in sides]).SerializeToString())
    for count in range(len(fox.SIDES) + 1) for sides in combinations(fox.SIDES, count)}
"""A trail's field in a tile, by its sides (every set of sides: 16)."""
_LEGAL, _PATH, _TOWN = (wire.key(service_pb2.ValidateTransportResponse.DESCRIPTOR, name)
                        for name in ("legal", "path", "town"))


def position_to_wire(position: fox.Position) -> bytes:
    return wire.number(_POSITION_ROW, position.row) + wire.number(_POSITION_COL, position.col)


def _tile_to_wire(tile: fox.Tile) -> bytes:
    """A tile's encoding: where it is, then its trail's sides or its building and goods
    (held goods only: a building holding none has no goods field)."""
    where = wire.number(_ROW_KEY, tile.position.row) + wire.number(_COL_KEY, tile.position.col)
    if isinstance(tile, fox.TrailTile):
        return where + _TRAIL_FIELDS[tile.sides]
    data = where + wire.part(_BUILDING_KEY, tile.building.id.encode())
    if any(tile.goods):
        data += wire.part(_GOODS_KEY, b"".join([wire.number(key, n)
                                                for key, n in zip(_GOOD_KEYS, tile.goods)]))
    return data


_TOWN_CATALOG = wire.key(town_pb2.Town.DESCRIPTOR, "catalog")


def town_to_wire(town: fox.Town, *, with_catalog: bool = True) -> bytes:
    """A town's encoding; the buildings the request defined go back in its catalog (a
    Struct, built as a message), unless the town is in a game, whose state carries the
    catalog."""
    return b"".join([wire.number(_VARIANT_KEY, VARIANT_TO_PROTO[town.variant]),
                     wire.number(_SCORE_TRACK_KEY, town.score_track),
                     *[wire.part(_TILES_KEY, _tile_to_wire(tile))
                       for tile in town.tiles.values()],
                     requested_catalog_to_wire(_TOWN_CATALOG, town.catalog)
                     if with_catalog else b""])


def requested_catalog_to_wire(field_key: bytes, catalog: fox.Catalog) -> bytes:
    """The ``catalog`` field of a town or state: the buildings its request defined, or
    nothing when it defined none."""
    if not catalog.requested:
        return b""
    struct = struct_pb2.Struct()
    struct.update(catalog_to_dict(catalog, only_requested=True))
    return wire.message(field_key, struct)


def versions() -> dict[str, Any]:
    """The ``rules_version`` and ``catalog_version`` fields of every answer that scores: the
    rules this engine plays and the built-in catalog under a town's own definitions."""
    return {"rules_version": RULES_VERSION, "catalog_version": builtin_catalog_version()}


(_SCORE_TOTAL, _SCORE_TRACK, _SCORE_END_GAME_POINTS, _SCORE_END_GAME, _SCORE_GOODS_REMAINING,
 _SCORE_TILE_COUNT, _SCORE_RULES_VERSION, _SCORE_CATALOG_VERSION) = (
    wire.key(scoring_pb2.TownScore.DESCRIPTOR, name)
    for name in ("total", "score_track", "end_game_points", "end_game", "goods_remaining",
                 "tile_count", "rules_version", "catalog_version"))
(_ENTRY_BUILDING, _ENTRY_ROW, _ENTRY_COL, _ENTRY_POINTS, _ENTRY_EXPLANATION, _ENTRY_RULE,
 _ENTRY_CODE, _ENTRY_PARAMS, _ENTRY_EFFECTS) = (
    wire.key(scoring_pb2.EndGameEntry.DESCRIPTOR, name)
    for name in ("building", "row", "col", "points", "explanation", "rule", "code", "params",
                 "effects"))
(_EFFECT_KIND, _EFFECT_POINTS, _EFFECT_EXPLANATION, _EFFECT_RULE, _EFFECT_CODE,
 _EFFECT_PARAMS, _EFFECT_TILES) = (
    wire.key(scoring_pb2.EndGameEffect.DESCRIPTOR, name)
    for name in ("kind", "points", "explanation", "rule", "code", "params", "tiles"))
_COUNTED_ROW, _COUNTED_COL, _COUNTED_BUILDING, _COUNTED_VIA = (
    wire.key(scoring_pb2.CountedTile.DESCRIPTOR, name) for name in ("row", "col", "building", "via"))


def score_to_wire(score: fox.TownScore) -> bytes:
    """A town score's encoding: its figures, each end-game entry with its effects and the
    tiles they counted (the way a building reached along trails went), and the versions
    it was computed under."""
    return b"".join([
        wire.number(_SCORE_TOTAL, score.total),
        wire.number(_SCORE_TRACK, score.score_track),
        wire.number(_SCORE_END_GAME_POINTS, score.end_game_points),
        *[wire.part(_SCORE_END_GAME, _entry_to_wire(entry)) for entry in score.end_game],
        wire.number(_SCORE_GOODS_REMAINING, score.goods_remaining),
        wire.number(_SCORE_TILE_COUNT, score.tile_count),
        wire.number(_SCORE_RULES_VERSION, RULES_VERSION),
        wire.text(_SCORE_CATALOG_VERSION, builtin_catalog_version())])


def _entry_to_wire(entry: fox.EndGameEntry) -> bytes:
    return b"".join([
        wire.text(_ENTRY_BUILDING, entry.building),
        wire.number(_ENTRY_ROW, entry.row), wire.number(_ENTRY_COL, entry.col),
        wire.number(_ENTRY_POINTS, entry.points),
        _said_to_wire(entry.explanation, _ENTRY_EXPLANATION, _ENTRY_CODE, _ENTRY_PARAMS,
                      entry.rule, _ENTRY_RULE),
        *[wire.part(_ENTRY_EFFECTS, _effect_to_wire(effect)) for effect in entry.effects]])


def _effect_to_wire(effect: EffectScore) -> bytes:
    return b"".join([
        wire.text(_EFFECT_KIND, effect.kind), wire.number(_EFFECT_POINTS, effect.points),
        _said_to_wire(effect.explanation, _EFFECT_EXPLANATION, _EFFECT_CODE, _EFFECT_PARAMS,
                      effect.rule, _EFFECT_RULE),
        *[wire.part(_EFFECT_TILES, wire.number(_COUNTED_ROW, tile.row)
                    + wire.number(_COUNTED_COL, tile.col)
                    + wire.text(_COUNTED_BUILDING, tile.building)
                    + b"".join([wire.part(_COUNTED_VIA, position_to_wire(p))
                                for p in tile.via]))
          for tile in effect.tiles]])


def _said_to_wire(said: str, text_key: bytes, code_key: bytes, params_key: bytes, rule: str,
                  rule_key: bytes) -> bytes:
    """An explanation's fields, in field order: its words, the rule, its code and params."""
    return b"".join([wire.text(text_key, said), wire.text(rule_key, rule),
                     wire.text(code_key, code_of(said)),
                     params_to_wire(params_key, getattr(said, "params", {}))])


_SCORE_ANSWER = wire.key(service_pb2.ScoreTownResponse.DESCRIPTOR, "score")
_SCORE_UNCERTAINTY = wire.key(scoring_pb2.TownScore.DESCRIPTOR, "uncertainty")


def scored_town_to_wire(score: fox.TownScore, readings: TownReadings | None) -> bytes:
    """The answer to ScoreTown: the score, and with ``readings`` (a town transcribed with
    doubtful goods counts) the totals its other readings would give."""
    uncertainty = b"" if readings is None else wire.message(
        _SCORE_UNCERTAINTY, _town_readings_to_proto(readings))
    return wire.part(_SCORE_ANSWER, score_to_wire(score) + uncertainty)


def _town_readings_to_proto(readings: TownReadings) -> scoring_pb2.TownUncertainty:
    return scoring_pb2.TownUncertainty(
        readings=readings.count, lowest_total=readings.lowest_total,
        highest_total=readings.highest_total, likely_total=readings.likely_total,
        counts=[scoring_pb2.DoubtfulCount(
            row=count.position.row, col=count.position.col, good=GOOD_TO_PROTO[count.good],
            pointer=json_pointer(count.path), decides=count.decides, totals=count.totals)
            for count in readings.counts])


def standings_to_proto(ranking: fox.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 goods_remaining=s.score.goods_remaining,
                                 tile_count=s.score.tile_count, place=s.place)
            for s in ranking.standings]


def ranking_to_wire(ranking: fox.Ranking) -> bytes:
    """The answer to RankPlayers (a few fields a player: built as a message)."""
    return service_pb2.RankPlayersResponse(standings=standings_to_proto(ranking),
                                           winners=ranking.winners,
                                           **versions()).SerializeToString()


def violations_to_proto(violations: Sequence[fox.Violation], *where: PathPart
                ) -> list[transport_pb2.Violation]:
    """``where`` is the place of the move or action in the request (``("move",)``,
    ``("actions", 7)``)."""
    return [transport_pb2.Violation(rule=v.rule, reason=v.reason.value, message=v.message,
                                    pointer=v.pointer(*where), **sentence_fields(v.message))
            for v in violations]


_VIOLATIONS = wire.key(service_pb2.ValidateTransportResponse.DESCRIPTOR, "violations")


def transport_verdict_to_wire(check: fox.TransportVerdict) -> bytes:
    """The answer to ValidateTransport: the violations, or the path and the town after."""
    if not check.legal:
        return wire.messages(_VIOLATIONS, violations_to_proto(check.violations, "move"))
    assert check.town is not None  # a legal check carries the town after
    return b"".join([wire.number(_LEGAL, True),
                     *[wire.part(_PATH, position_to_wire(position)) for position in check.path],
                     wire.part(_TOWN, town_to_wire(check.town))])


def _step(step: planner.PlanStep) -> planning_pb2.PlanStep:
    if isinstance(step, planner.MoveStep):
        return planning_pb2.PlanStep(move=planning_pb2.MoveStep(
            good=GOOD_TO_PROTO[step.good], count=step.count, origin=position_to_proto(step.origin),
            destination=position_to_proto(step.destination), path=[position_to_proto(p) for p in step.path]))
    if isinstance(step, planner.HaulStep):
        return planning_pb2.PlanStep(haul=planning_pb2.HaulStep(
            hut=position_to_proto(step.hut),
            picks=[planning_pb2.HaulPick(good=GOOD_TO_PROTO[p.good], count=p.count,
                                         origin=position_to_proto(p.origin)) for p in step.picks]))
    return planning_pb2.PlanStep(process=planning_pb2.ProcessStep(
        points=step.points,
        choices=[planning_pb2.ProcessChoice(row=p.row, col=p.col, goods=goods_to_proto(g))
                 for p, g in step.choices]))


def plan_to_wire(plan: planner.FinalRoundPlan) -> bytes:
    """The answer to PlanFinalRound (tens of steps of few fields: built as a message)."""
    return service_pb2.PlanFinalRoundResponse(plan=_plan_to_proto(plan)).SerializeToString()


def _plan_to_proto(plan: planner.FinalRoundPlan) -> planning_pb2.FinalRoundPlan:
    return planning_pb2.FinalRoundPlan(
        total=plan.total, processing_points=plan.processing_points,
        end_game_points=plan.end_game_points, goods_remaining=plan.goods_remaining,
        steps=[_step(s) for s in plan.steps], optimal=plan.optimal,
        upper_bound=plan.upper_bound, **versions())
