"""Foxglove Farm's towns as JSON: positions and paths, town tiles, a town to score, the
players' towns to rank and a transport to validate."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import scoring_pb2, town_pb2, transport_pb2
from tabletop_rules.foxglove_farm.model import MAX_SCORE_TRACK
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.foxglove_farm.transcription import BOTH_KINDS
from tabletop_rules.foxglove_farm.transport import MAX_MOVE_COUNT
from tabletop_rules.players import MAX_PLAYERS
from tabletop_rules.foxglove_farm.readings import (
    MAX_DOUBTFUL_COUNTS,
)

from ....compiled import Compiler, Dump
from ....fields import (
    Component,
    limits,
    whole_number,
)
from .pieces import building_name, CatalogField, coordinate, COORDINATE, DoubtfulGoodsField, good_type, GoodsField, int32, player_name, ReadGoods, side, variant

class TownPositionSchema(ma.Schema):
    """A square of the town: ``row`` grows to the south, ``col`` to the east."""

    row = coordinate(required=True)
    col = coordinate(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> town_pb2.Position:
        return town_pb2.Position(**data)


def position(**kwargs: Any) -> ma.fields.Nested:
    return ma.fields.Nested(TownPositionSchema, **kwargs)


PATH = Component("FoxglovePath", (
    "A route along the trails, [[row, col], ...], origin and destination included."))


PLACE_ITEMS = {"type": "array", "items": {"type": "integer", **limits(*COORDINATE)},
               "minItems": 2, "maxItems": 2}
"""A place as the contract writes it in an answer: ``[row, col]``."""


class PlacesField(ma.fields.Field[Any]):
    """Places (``Position`` messages) as the contract writes them: ``[[row, col], ...]``,
    each from its own message."""

    def _serialize(self, value: Any, attr: str | None, obj: Any,
                   **kwargs: Any) -> list[list[int]] | None:
        return None if value is None else [[p.row, p.col] for p in value]

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return lambda value: None if value is None else [[p.row, p.col] for p in value]


class PathField(PlacesField):
    """A route: its places, both ends included."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"type": "array", "component": PATH, "minItems": 2,
                                   "items": PLACE_ITEMS, **kwargs.pop("metadata", {})},
                         **kwargs)


class TownTileSchema(ma.Schema):
    """A building tile (its id and goods) or a trail tile (its open sides) at a position."""

    row = coordinate(required=True)
    col = coordinate(required=True)
    building = building_name(metadata={"description": (
        "a building: its id (the rulebook's name in snake_case, apostrophes dropped: "
        "charcoal_kiln) or its printed name (Charcoal Kiln), in any case and spacing; "
        "answers give the id")})
    trail = ma.fields.List(side(), metadata={"description": (
        "the open sides: two opposite, two neighbouring, or three"), "minItems": 2,
        "maxItems": 3, "uniqueItems": True})
    goods: ma.fields.Dict = GoodsField(  # a DoubtfulGoodsField in ScoreTownTileSchema
        allow_none=True, metadata={"description": "goods on a building"})

    @ma.validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "building" in data and "trail" in data:
            raise ma.ValidationError(BOTH_KINDS())

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> town_pb2.Tile:
        fields = {"row": data["row"], "col": data["col"]}  # one constructor call: faster
        if "building" in data:
            fields["building"] = data["building"]
        if "trail" in data:
            fields["trail"] = {"sides": data["trail"]}  # present even with no sides
        if data.get("goods") is not None:
            fields["goods"] = data["goods"]
        return town_pb2.Tile(**fields)

    @ma.pre_dump
    def from_proto(self, tile: town_pb2.Tile, **kwargs: Any) -> dict[str, Any]:
        """The contract's keys, only those the tile has."""
        data: dict[str, Any] = {"row": tile.row, "col": tile.col}
        kind = tile.WhichOneof("kind")
        if kind == "building":
            data["building"] = tile.building
        elif kind == "trail":
            data["trail"] = tile.trail.sides
        if tile.HasField("goods"):
            data["goods"] = tile.goods
        return data


class ScoreTownTileSchema(TownTileSchema):
    """A tile of a town to score, whose goods counts may be doubtful readings."""

    goods = DoubtfulGoodsField(allow_none=True, metadata={"description": (
        "goods on a building; a count read in doubt is {\"candidates\": [7, 8]}, the "
        f"likeliest first (at most {MAX_DOUBTFUL_COUNTS} in a town)")})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> town_pb2.Tile:
        read: ReadGoods | None = data.get("goods")
        tile: town_pb2.Tile = TownTileSchema.to_proto(
            self, {**data, "goods": read and read.goods}, **kwargs)
        if read is not None and read.doubtful:
            tile.doubtful_goods.extend(read.doubtful)
        return tile


class TownSchema(ma.Schema):
    """One player's town: its variant, score track, tiles and catalog additions."""

    variant = variant(load_default=town_pb2.VARIANT_STANDARD)
    score_track = whole_number(load_default=0, accepted=(0, MAX_SCORE_TRACK), metadata={
        "description": "the points on the score track, laps counted"})
    tiles = ma.fields.List(ma.fields.Nested(TownTileSchema), required=True, metadata={
        "description": f"every tile (at most {MAX_TILES}; more is a 422 naming the limit); "
                       "exactly one forest and one mine, side by side",
        "maxItems": MAX_TILES})
    catalog = CatalogField(allow_none=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> town_pb2.Town:
        return town_pb2.Town(variant=data["variant"], score_track=data["score_track"],
                             tiles=data["tiles"], catalog=data.get("catalog"))

    @ma.pre_dump
    def from_proto(self, town: town_pb2.Town, **kwargs: Any) -> dict[str, Any]:
        data = {"variant": town.variant, "score_track": town.score_track, "tiles": town.tiles}
        return {**data, "catalog": town.catalog} if town.HasField("catalog") else data


class ScoreTownSchema(TownSchema):
    """A town to score, whose goods counts may be doubtful readings: the answer then gives
    the likeliest reading's score and what the other readings score (``uncertainty``)."""

    tiles = ma.fields.List(ma.fields.Nested(ScoreTownTileSchema), required=True, metadata={
        "description": f"every tile (at most {MAX_TILES}; more is a 422 naming the limit); "
                       "exactly one forest and one mine, side by side",
        "maxItems": MAX_TILES})


class TownPlayerSchema(ma.Schema):
    """A named player's town."""

    name = player_name(required=True)
    town = ma.fields.Nested(TownSchema, required=True)


class RankTownsSchema(ma.Schema):
    """The players to rank."""

    players = ma.fields.List(ma.fields.Nested(TownPlayerSchema), required=True, metadata={
        "description": f"1 to {MAX_PLAYERS} players with distinct names",
        "minItems": 1, "maxItems": MAX_PLAYERS})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.RankPlayersRequest:
        return service_pb2.RankPlayersRequest(players=[
            scoring_pb2.PlayerTown(name=p["name"], town=p["town"]) for p in data["players"]])


class TransportMoveSchema(ma.Schema):
    """Goods to move from one building to another along the trails."""

    good = good_type(required=True)
    count = int32(accepted=(1, MAX_MOVE_COUNT), metadata={"description": "how many (default 1)"})
    origin = position(required=True, data_key="from")
    destination = position(required=True, data_key="to")

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> transport_pb2.Move:
        return transport_pb2.Move(**data)


class TransportRequestSchema(ma.Schema):
    """A town and a move to rule on."""

    town = ma.fields.Nested(TownSchema, required=True)
    move = ma.fields.Nested(TransportMoveSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ValidateTransportRequest:
        return service_pb2.ValidateTransportRequest(**data)
