"""The one place that converts between Foxglove Farm protobufs and the rules.

Requests are written out in the contract's JSON form and read by the rules' own parsers
(:func:`fox.parse_town` and friends), so every problem, whichever transport it came by,
has the same message and the same path into that JSON. An enum value the contract has no
name for (unset or unknown) is written as its protobuf name, which the parsers refuse
with its path. Answers are built from the rules' values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from google.protobuf import struct_pb2
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from referee.foxglove_farm.v1 import planning_pb2, scoring_pb2, town_pb2, transport_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.foxglove_farm.catalog import catalog_to_dict

Json = dict[str, Any]

_GOOD_TO_PROTO = {g: town_pb2.Good.Value(f"GOOD_{g.name}") for g in fox.Good}
_SIDE_TO_PROTO = {s: town_pb2.Side.Value(f"SIDE_{s.name}") for s in fox.Side}
_VARIANT_TO_PROTO = {v: town_pb2.Variant.Value(f"VARIANT_{v.name}") for v in fox.Variant}
_GOOD_NAMES = {n: g.value for g, n in _GOOD_TO_PROTO.items()}
_SIDE_NAMES = {n: s.value for s, n in _SIDE_TO_PROTO.items()}
_VARIANT_NAMES = {n: v.value for v, n in _VARIANT_TO_PROTO.items()}
_VARIANT_NAMES[town_pb2.VARIANT_UNSPECIFIED] = fox.Variant.STANDARD.value


def _name(names: dict[int, str], enum: EnumTypeWrapper, number: int) -> str:
    """The contract's name for an enum value, else a protobuf name the rules refuse."""
    if number in names:
        return names[number]
    try:
        return enum.Name(number)  # e.g. SIDE_UNSPECIFIED
    except ValueError:
        return f"{enum.DESCRIPTOR.name} number {number}"


# -- requests: protobuf -> the contract's JSON ------------------------------------------

def _plain(value: struct_pb2.Value) -> Any:
    """A Struct value as JSON; whole finite numbers as ints, as a JSON reader gives them."""
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return {key: _plain(item) for key, item in value.struct_value.fields.items()}
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if math.isfinite(number) and number.is_integer() else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None


def _position_json(position: town_pb2.Position) -> Json:
    return {"row": position.row, "col": position.col}


def _goods_json(goods: town_pb2.Goods) -> Json:
    return {field.name: count for field, count in goods.ListFields()}


def _tile_json(tile: town_pb2.Tile) -> Json:
    data: Json = {"row": tile.row, "col": tile.col}
    kind = tile.WhichOneof("kind")
    if kind == "building":
        data["building"] = tile.building
    elif kind == "trail":
        data["trail"] = [_name(_SIDE_NAMES, town_pb2.Side, s) for s in tile.trail.sides]
    if tile.HasField("goods"):
        data["goods"] = _goods_json(tile.goods)
    return data


def _town_json(town: town_pb2.Town) -> Json:
    """The contract's JSON form of a town message."""
    data: Json = {"variant": _name(_VARIANT_NAMES, town_pb2.Variant, town.variant),
                  "score_track": town.score_track,
                  "tiles": [_tile_json(tile) for tile in town.tiles]}
    if town.HasField("catalog"):
        data["catalog"] = {key: _plain(value) for key, value in town.catalog.fields.items()}
    return data


def _move_json(move: transport_pb2.Move) -> Json:
    data: Json = {"good": _name(_GOOD_NAMES, town_pb2.Good, move.good)}
    if move.HasField("count"):
        data["count"] = move.count
    for key, field in (("from", "origin"), ("to", "destination")):
        if move.HasField(field):
            data[key] = _position_json(getattr(move, field))
    return data


def town_from_proto(town: town_pb2.Town) -> fox.Town:
    """A well-formed town from the request's ``town``, or every problem under it."""
    return fox.parse_town(_town_json(town), path=("town",))


def players_from_proto(players: Sequence[scoring_pb2.PlayerTown]) -> list[tuple[str, fox.Town]]:
    """Named, well-formed towns to rank (the request's ``players``), or every problem."""
    return fox.parse_players({"players": [{"name": p.name, "town": _town_json(p.town)}
                                          for p in players]})


def transport_from_proto(request: service_pb2.ValidateTransportRequest
                         ) -> tuple[fox.Town, fox.Move]:
    """The town and the move to rule on, or every problem with either."""
    return fox.parse_transport_request({"town": _town_json(request.town),
                                        "move": _move_json(request.move)})


# -- answers: rule values -> protobuf ---------------------------------------------------

def _position(position: fox.Position) -> town_pb2.Position:
    return town_pb2.Position(row=position.row, col=position.col)


def _goods(goods: fox.Goods) -> town_pb2.Goods:
    return town_pb2.Goods(**goods.to_dict())


def _tile(tile: fox.Tile) -> town_pb2.Tile:
    where = {"row": tile.position.row, "col": tile.position.col}
    if isinstance(tile, fox.TrailTile):
        return town_pb2.Tile(**where, trail=town_pb2.Trail(
            sides=[_SIDE_TO_PROTO[s] for s in fox.SIDES if s in tile.sides]))
    message = town_pb2.Tile(**where, building=tile.building.id)
    if tile.goods:
        message.goods.CopyFrom(_goods(tile.goods))
    return message


def town_to_proto(town: fox.Town) -> town_pb2.Town:
    """A town message; the buildings the request defined go back in its catalog."""
    message = town_pb2.Town(variant=_VARIANT_TO_PROTO[town.variant],
                            score_track=town.score_track,
                            tiles=[_tile(t) for t in town.tiles.values()])
    if town.catalog.requested:
        message.catalog.update(catalog_to_dict(town.catalog, only_requested=True))
    return message


def score_to_proto(score: fox.TownScore) -> scoring_pb2.TownScore:
    return scoring_pb2.TownScore(
        total=score.total, score_track=score.score_track,
        end_game_points=score.end_game_points,
        end_game=[scoring_pb2.EndGameEntry(building=e.building, row=e.row, col=e.col,
                                           points=e.points, explanation=e.explanation,
                                           rule=e.rule) for e in score.end_game],
        goods_remaining=score.goods_remaining, tile_count=score.tile_count)


def ranking_to_proto(ranking: fox.Ranking) -> service_pb2.RankPlayersResponse:
    return service_pb2.RankPlayersResponse(
        standings=[scoring_pb2.Standing(name=s.name, total=s.score.total,
                                        goods_remaining=s.score.goods_remaining,
                                        tile_count=s.score.tile_count, place=s.place)
                   for s in ranking.standings],
        winners=ranking.winners)


def move_check_to_proto(check: fox.MoveCheck) -> service_pb2.ValidateTransportResponse:
    if not check.legal:
        return service_pb2.ValidateTransportResponse(legal=False, violations=[
            transport_pb2.Violation(rule=v.rule, reason=v.reason.value, message=v.message,
                                    pointer=v.pointer("move"))
            for v in check.violations])
    assert check.town is not None  # a legal check carries the town after
    return service_pb2.ValidateTransportResponse(
        legal=True, path=[_position(p) for p in check.path], town=town_to_proto(check.town))


def _step(step: planner.PlanStep) -> planning_pb2.PlanStep:
    if isinstance(step, planner.MoveStep):
        return planning_pb2.PlanStep(move=planning_pb2.MoveStep(
            good=_GOOD_TO_PROTO[step.good], count=step.count, origin=_position(step.origin),
            destination=_position(step.destination), path=[_position(p) for p in step.path]))
    if isinstance(step, planner.HaulStep):
        return planning_pb2.PlanStep(haul=planning_pb2.HaulStep(
            hut=_position(step.hut),
            picks=[planning_pb2.HaulPick(good=_GOOD_TO_PROTO[p.good], count=p.count,
                                         origin=_position(p.origin)) for p in step.picks]))
    return planning_pb2.PlanStep(process=planning_pb2.ProcessStep(
        points=step.points,
        choices=[planning_pb2.ProcessChoice(row=p.row, col=p.col, goods=_goods(g))
                 for p, g in step.choices]))


def plan_to_proto(plan: planner.FinalRoundPlan) -> planning_pb2.FinalRoundPlan:
    return planning_pb2.FinalRoundPlan(
        total=plan.total, processing_points=plan.processing_points,
        end_game_points=plan.end_game_points, goods_remaining=plan.goods_remaining,
        steps=[_step(s) for s in plan.steps], optimal=plan.optimal,
        upper_bound=plan.upper_bound)
