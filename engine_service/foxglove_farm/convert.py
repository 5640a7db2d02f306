"""The one place that converts between Foxglove Farm protobufs and the rules.

Requests are read straight into rule values on the shared collecting reader
(:mod:`engine_service.reading`): it reports only what the wire form gets wrong (an enum
value unset or unknown, a tile that is neither a building nor a trail, a trail holding
goods, two tiles at one position, a move without an end), then the rules' own checks
(:func:`fox.check_town`, :func:`fox.check_move`, :func:`fox.check_players`) add
the rest, so every problem has the message and the path into the contract's JSON that
a REST caller gets. Only a request's ``catalog`` (a ``google.protobuf.Struct``) is read
by the rules' catalog parser, in the documented catalog format it shares with
``catalog.json``. Answers are built from the rules' values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from google.protobuf import struct_pb2

from referee.foxglove_farm.v1 import planning_pb2, scoring_pb2, town_pb2, transport_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.foxglove_farm.catalog_format import catalog_to_dict
from tabletop_rules.players import seats_problem
from tabletop_rules.foxglove_farm.transcription import (
    ONE_KIND,
    TRAIL_HOLDS_NO_GOODS,
    Unread,
    find_building,
    read_tiles,
    town_catalog,
    trail_sides,
)
from tabletop_rules.problems import Path, PathPart, Problem

from ..reading import Reader

_GOOD_TO_PROTO = {g: town_pb2.Good.Value(f"GOOD_{g.name}") for g in fox.Good}
_SIDE_TO_PROTO = {s: town_pb2.Side.Value(f"SIDE_{s.name}") for s in fox.Side}
_VARIANT_TO_PROTO = {v: town_pb2.Variant.Value(f"VARIANT_{v.name}") for v in fox.Variant}
_GOODS: dict[int, fox.Good | None] = {n: g for g, n in _GOOD_TO_PROTO.items()}
_SIDES: dict[int, fox.Side | None] = {n: s for s, n in _SIDE_TO_PROTO.items()}
_VARIANTS = {n: v for v, n in _VARIANT_TO_PROTO.items()}
_VARIANTS[town_pb2.VARIANT_UNSPECIFIED] = fox.Variant.STANDARD


def _one_of(values: Sequence[Any]) -> str:
    return "one of " + ", ".join(v.value for v in values)


# -- requests: protobuf -> rule values ---------------------------------------------------

class _ReadTown(NamedTuple):
    """A town as read, each tile's index in the request, and whether all of it read."""

    town: fox.Town
    index: dict[fox.Position, int]
    complete: bool

    def problems(self, *path: PathPart) -> list[Problem]:
        """What the rules find wrong with the town, under ``path`` in the request."""
        return [p.under(*path) for p in fox.check_town(self.town, index=self.index,
                                                       complete=self.complete)]


class _Reader(Reader):
    """Reads request messages into rule values, noting each wire-shape problem."""

    def town(self, message: town_pb2.Town, path: Path) -> _ReadTown:
        before = len(self.problems)
        variant = self.enum(message.variant, _VARIANTS, fox.Variant.STANDARD,
                            (*path, "variant"), "a variant", _one_of(fox.Variant),
                            town_pb2.Variant)
        catalog, refused = town_catalog(
            _struct(message.catalog) if message.HasField("catalog") else None,
            fox.builtin_catalog(), path, self.problems)
        tiles, index = read_tiles(
            message.tiles, lambda tile, where: self.tile(tile, where, catalog, refused), path,
            self.problems)
        return _ReadTown(fox.Town(tiles, catalog, variant, message.score_track), index,
                         complete=len(self.problems) == before)

    def tile(self, message: town_pb2.Tile, path: Path, catalog: fox.Catalog,
             refused: frozenset[str]) -> fox.Tile | Unread:
        position = fox.Position(message.row, message.col)
        kind = message.WhichOneof("kind")
        if kind == "building":
            building = find_building(message.building, catalog, refused, (*path, "building"),
                                     self.problems)
            if message.building in refused:  # its definition's problems say it all
                return Unread(position)
            goods = fox.Goods(*(getattr(message.goods, g.value) for g in fox.GOODS))
            return Unread(position, goods) if building is None else fox.BuildingTile(
                position, building, goods)
        if kind != "trail":
            self.problem(path, ONE_KIND)
            return Unread(position)
        sides = self.sides(message.trail.sides, (*path, "trail"))
        if message.goods.ListFields():
            self.problem((*path, "goods"), TRAIL_HOLDS_NO_GOODS)
            return Unread(position)
        return Unread(position) if sides is None else fox.TrailTile(position, sides)

    def sides(self, numbers: Sequence[int], path: Path) -> frozenset[fox.Side] | None:
        """A trail's sides, up to the first that cannot be read (as the JSON reader does)."""
        sides = []
        for i, number in enumerate(numbers):
            side = self.enum(number, _SIDES, None, (*path, i), "a side", _one_of(fox.SIDES),
                             town_pb2.Side)
            if side is None:
                return None
            sides.append(side)
        return trail_sides(sides, path, self.problems)

    def move(self, message: transport_pb2.Move, path: Path) -> fox.Move:
        """The move; an unreadable part stands in as a placeholder (its problem refuses
        the request), so the rules still check the rest."""
        good = self.enum(message.good, _GOODS, None, (*path, "good"), "a goods type",
                         _one_of(fox.GOODS), town_pb2.Good)
        ends = [self.position(message, field, (*path, key))
                for field, key in (("origin", "from"), ("destination", "to"))]
        return fox.Move(good or fox.Good.WOOD, message.count if message.HasField("count") else 1,
                        *ends)

    def position(self, message: transport_pb2.Move, field: str, path: Path) -> fox.Position:
        if not message.HasField(field):
            self.problem(path, 'expected a position object {"row", "col"}; got null')
        end = getattr(message, field)
        return fox.Position(end.row, end.col)


def _struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    return {key: _plain(value) for key, value in struct.fields.items()}


def _plain(value: struct_pb2.Value) -> Any:
    """A Struct value as JSON; whole finite numbers as ints, as a JSON reader gives them."""
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return _struct(value.struct_value)
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if math.isfinite(number) and number.is_integer() else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None


def town_from_proto(message: town_pb2.Town) -> fox.Town:
    """A well-formed town from the request's ``town``, or every problem under it."""
    reader = _Reader()
    read = reader.town(message, ("town",))
    reader.done(lambda: read.problems("town"), partial=True)
    return read.town


def players_from_proto(players: Sequence[scoring_pb2.PlayerTown]) -> list[tuple[str, fox.Town]]:
    """Named, well-formed towns to rank (the request's ``players``), or every problem."""
    reader = _Reader()
    towns = [] if seats_problem(len(players)) else [
        reader.town(p.town, ("players", i, "town")) for i, p in enumerate(players)]
    reader.done(lambda: fox.check_players([p.name for p in players]) + [
        problem for i, read in enumerate(towns) for problem in read.problems("players", i,
                                                                             "town")],
                partial=True)
    return [(p.name, read.town) for p, read in zip(players, towns)]


def transport_from_proto(request: service_pb2.ValidateTransportRequest
                         ) -> tuple[fox.Town, fox.Move]:
    """The town and the move to rule on, or every problem with either."""
    reader = _Reader()
    town = reader.town(request.town, ("town",))
    move = reader.move(request.move, ("move",))
    reader.done(lambda: town.problems("town") + [p.under("move")
                                                 for p in fox.check_move(move)],
                partial=True)
    return town.town, move


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


def transport_verdict_to_proto(check: fox.TransportVerdict
                               ) -> service_pb2.ValidateTransportResponse:
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
