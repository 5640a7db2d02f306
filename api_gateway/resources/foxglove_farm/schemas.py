"""The contract's Foxglove Farm JSON, read into protobuf requests and written from answers.

These schemas check JSON types and names, and refuse what a protobuf message cannot
carry (a tile that is both a building and a trail, numbers beyond 32 bits, a catalog that
nests absurdly deep); what makes a town well formed (the starting tile, connected tiles,
goods a building may hold, known buildings, catalog definitions) is the rules' to say, and
the engine's answers carry those problems as pointers into the same JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import marshmallow as ma
from google.protobuf import json_format, struct_pb2

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import planning_pb2, scoring_pb2, town_pb2, transport_pb2
from referee_wire.struct_json import whole_numbers
from tabletop_rules.foxglove_farm.catalog import MAX_DEFINITIONS
from tabletop_rules.messages import template
from tabletop_rules.foxglove_farm.model import MAX_SCORE_TRACK
from tabletop_rules.foxglove_farm.pieces import Good
from tabletop_rules.foxglove_farm.town import MAX_COORDINATE, MAX_GOODS_COUNT, MAX_TILES
from tabletop_rules.foxglove_farm.transcription import BOTH_KINDS, MAX_BUILDING_ID_LENGTH
from tabletop_rules.foxglove_farm.transport import MAX_MOVE_COUNT
from tabletop_rules.players import MAX_NAME_LENGTH, MAX_PLAYERS
from tabletop_rules.foxglove_farm.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_COUNTS,
    MIN_CANDIDATES,
)

from ...compiled import Compiler, Dump, Loader
from ...i18n import term_names
from ...fields import (
    INT32_MAX,
    INT32_MIN,
    AnswerSchema,
    Component,
    NamedKeys,
    PresentNested,
    ProtoEnum,
    Tagged,
    limits,
    set_fields,
    whole_number,
)
from ...versions import catalog_version_field, rules_version_field
from ...violations import ViolationSchema
from ...wording import ParamsField, code_field, templates_of

MAX_CATALOG_DEPTH = 16
"""No catalog definition nests deeper (the deepest, an effect's ``one_of``, needs 6)."""

MAX_EXACT_INTEGER = 2**53
"""Catalog numbers travel as doubles (``google.protobuf.Struct``); larger ones do not fit."""


COORDINATE = (-MAX_COORDINATE, MAX_COORDINATE)
"""A town's rows and columns: the table's extent."""

SEAT = (0, MAX_PLAYERS - 1)
"""A seat's range: an index in a game's players."""


def int32(**kwargs: Any) -> ma.fields.Integer:
    """Any whole number the wire carries; the rules say which are in range (``accepted``:
    the range they accept, documented)."""
    return whole_number(INT32_MIN, INT32_MAX, **kwargs)


def coordinate(**kwargs: Any) -> ma.fields.Integer:
    return int32(accepted=COORDINATE, **kwargs)


GOOD_NAMES = term_names(good.value for good in Good)
"""The goods types as a player may write them: "Wood", "sheep ", "bois"."""


def good_type(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(town_pb2.Good, "a goods type", spellings=GOOD_NAMES, about=(
        "A type of goods. Written as a person writes it (any case and spacing, a plural, the "
        "French word) it is read as the one it names; answers give these names."), **kwargs)


def side(**kwargs: Any) -> ProtoEnum:
    """A side of a tile, named N, E, S or W as the contract does."""
    return ProtoEnum(town_pb2.Side, "a side", upper_case=True, about=(
        "A side of a tile: N toward row - 1, S toward row + 1, W toward col - 1, E toward "
        "col + 1."), **kwargs)


def variant(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(town_pb2.Variant, "a variant", about=(
        "The transport rule a town plays by: standard, or expert (the Expert Variant, "
        "FF-R2)."), **kwargs)


def building_name(**kwargs: Any) -> ma.fields.String:
    metadata = {"maxLength": MAX_BUILDING_ID_LENGTH, **kwargs.pop("metadata", {})}
    return ma.fields.String(metadata=metadata, **kwargs)


def player_name(**kwargs: Any) -> ma.fields.String:
    return ma.fields.String(metadata={
        "minLength": 1, "maxLength": MAX_NAME_LENGTH,
        "description": "the player's name; distinct names in one request"}, **kwargs)


GOODS = Component("FoxgloveGoods", (
    "Goods by type, e.g. {\"wood\": 2, \"sheep\": 8}: a type left out is none."))


class GoodsField(NamedKeys):
    """A goods object, ``{"wood": 2}``: absent types are none, and none are left out."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"component": GOODS, **kwargs.pop("metadata", {})}
        super().__init__(keys=good_type(),
                         values=whole_number(accepted=(0, MAX_GOODS_COUNT)),
                         metadata=metadata, **kwargs)

    def _deserialize(  # type: ignore[override]  # marshmallow types a Dict's value as dict
            self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
            **kwargs: Any) -> town_pb2.Goods:
        counts = super()._deserialize(value, attr, data, **kwargs)
        names = self.key_field.by_number  # type: ignore[union-attr]
        return town_pb2.Goods(**{names[number]: n for number, n in counts.items()})

    def _serialize(  # type: ignore[override]  # marshmallow types a Dict's value as dict
            self, value: town_pb2.Goods | None, attr: str | None, obj: Any,
            **kwargs: Any) -> dict[str, int] | None:
        return None if value is None else set_fields(value)

    def compiled_load(self, compiler: Compiler) -> Loader:
        counts = compiler.deserializer(self, ma.fields.Dict)
        load, names, goods = counts.load, self.key_field.by_number, town_pb2.Goods  # type: ignore[union-attr]
        return Loader(lambda value: goods(**{names[number]: n for number, n
                                             in load(value).items()}), counts.depth)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return lambda value: None if value is None else set_fields(value)


def goods_count() -> ma.fields.Integer:
    """A building's count of one good."""
    return whole_number(accepted=(0, MAX_GOODS_COUNT))


class CountCandidatesSchema(ma.Schema):
    """A goods count read in doubt: the counts it may be."""

    candidates = ma.fields.List(goods_count(), required=True, metadata={
        "description": f"{MIN_CANDIDATES} to {MAX_CANDIDATES} counts, the likeliest first "
                       "(another number is a 422 naming the limit)",
        "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> tuple[int, ...]:
        return tuple(data["candidates"])


class CountField(ma.fields.Field[int | tuple[int, ...]]):
    """A goods count of a town to score: a whole number, or a doubtful reading,
    ``{"candidates": [7, 8]}`` (read as a tuple of counts)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = goods_count()
        self.doubtful = CountCandidatesSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> int | tuple[int, ...]:
        if isinstance(value, dict):
            candidates: tuple[int, ...] = self.doubtful.load(value)  # nests its errors
            return candidates
        count: int = self.count.deserialize(value, attr, data, **kwargs)
        return count

    def compiled_load(self, compiler: Compiler) -> Loader:
        """A count as a whole number reads; its reader refuses a doubtful count (an
        object), which marshmallow then reads."""
        return compiler.field_loader(self.count)

    def openapi_alternatives(self, converter: Any) -> dict[str, Any]:
        return {"oneOf": [converter.field2property(self.count),
                          converter.resolve_nested_schema(CountCandidatesSchema)]}


class ReadGoods(NamedTuple):
    """A building's goods as a town to score gives them: the counts, and those in doubt."""

    goods: town_pb2.Goods
    doubtful: list[town_pb2.DoubtfulGoods]


SCORE_GOODS = Component("FoxgloveScoreGoods", (
    "Goods by type on a building of a town to score, each count a whole number or a "
    "doubtful reading, e.g. {\"wood\": 2, \"sheep\": {\"candidates\": [7, 8]}}: a type "
    f"left out is none; at most {MAX_DOUBTFUL_COUNTS} doubtful counts in a town (more is a "
    "422 naming the limit)."))


class DoubtfulGoodsField(NamedKeys):
    """The goods of a building of a town to score, each count a whole number or a
    doubtful reading: ``{"wood": 2, "sheep": {"candidates": [7, 8]}}``."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"component": SCORE_GOODS, **kwargs.pop("metadata", {})}
        super().__init__(keys=good_type(), values=CountField(), metadata=metadata, **kwargs)

    def _deserialize(  # type: ignore[override]  # marshmallow types a Dict's value as dict
            self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
            **kwargs: Any) -> ReadGoods:
        return self._read(super()._deserialize(value, attr, data, **kwargs))

    def _read(self, counts: dict[town_pb2.Good.ValueType, int | tuple[int, ...]]
              ) -> ReadGoods:
        names = self.key_field.by_number  # type: ignore[union-attr]
        return ReadGoods(
            town_pb2.Goods(**{names[g]: n for g, n in counts.items() if type(n) is int}),
            [town_pb2.DoubtfulGoods(good=g, candidates=n) for g, n in counts.items()
             if type(n) is tuple])

    def compiled_load(self, compiler: Compiler) -> Loader:
        counts = compiler.deserializer(self, ma.fields.Dict)
        load, read = counts.load, self._read
        return Loader(lambda value: read(load(value)), counts.depth)


CATALOG_TOO_DEEP = template(
    "CATALOG_TOO_DEEP", "nested more than {limit} levels deep in the catalog; no definition "
    "is (see docs/foxglove-catalog.md)")
NUMBER_TOO_BIG = template("NUMBER_TOO_BIG", "must be from {min} to {max}")
EXPECTED_CATALOG = template("EXPECTED_CATALOG",
                            "expected a JSON object of building definitions by id")


def _unfit(value: Any, depth: int) -> Any:
    """What in ``value`` a Struct cannot carry, as marshmallow's nested messages, or None."""
    if isinstance(value, dict | list) and depth > MAX_CATALOG_DEPTH:
        return [CATALOG_TOO_DEEP(limit=MAX_CATALOG_DEPTH)]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_EXACT_INTEGER:
        return [NUMBER_TOO_BIG(min=-MAX_EXACT_INTEGER, max=MAX_EXACT_INTEGER)]
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    found = {key: problem for key, item in items
             if (problem := _unfit(item, depth + 1)) is not None}
    return found or None


CATALOG = Component("FoxgloveCatalog", (
    "Building definitions by id that add to or override the built-in catalog, in the "
    f"format of docs/foxglove-catalog.md; at most {MAX_DEFINITIONS}."))


class CatalogField(ma.fields.Field[struct_pb2.Struct]):
    """The town's ``catalog``: building definitions by id, carried as JSON to the engine."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={"type": "object", "component": CATALOG,
                                   "maxProperties": MAX_DEFINITIONS,
                                   **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> struct_pb2.Struct:
        if not isinstance(value, dict):
            raise ma.ValidationError(EXPECTED_CATALOG())
        unfit = _unfit(value, 1)
        if unfit is not None:
            raise ma.ValidationError(unfit)
        struct = struct_pb2.Struct()
        struct.update(value)
        return struct

    def _serialize(self, value: struct_pb2.Struct | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> dict[str, Any] | None:
        return None if value is None else whole_numbers(json_format.MessageToDict(value))

    def compiled_load(self, compiler: Compiler) -> Loader:
        """Read as marshmallow reads it; what it accepts nests at most
        ``MAX_CATALOG_DEPTH`` levels. (Written by marshmallow too: a request catalog's
        numbers may be floats, which only the standard encoder writes as before.)"""
        return Loader(lambda value: self._deserialize(value, None, None), MAX_CATALOG_DEPTH)


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


# Answers: every field is written in every answer (``required``), unless it says when.

def answered_int(description: str | None = None, **metadata: Any) -> ma.fields.Integer:
    """A whole number every answer holds."""
    if description:
        metadata["description"] = description
    return ma.fields.Integer(required=True, metadata=metadata)


def count(description: str | None = None) -> ma.fields.Integer:
    """A whole number every answer holds, never negative."""
    return answered_int(description, minimum=0)


def end_game_code() -> ma.fields.String:
    return code_field("FoxgloveEndGameExplanationCode", (
        "What an end-game explanation says, for machines, worded with its `params`. An "
        "entry's is FF_END_GAME, whose `{effects}` are its effects' explanations joined by "
        "\"; \"; each effect's is its own."), templates_of("explanation", None, "FF_"),
        required=True)


class CountedTileSchema(AnswerSchema):
    """A tile an end-game effect counted."""

    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    building = ma.fields.String(required=True, metadata={"description": "the building's id"})
    via = PlacesField(required=True, metadata={"description": (
        "for a building reached along trails (FF-R6): the trail tiles of a shortest way "
        "to it as [row, col], from the counting building's side on; empty otherwise"),
        "type": "array", "items": PLACE_ITEMS, "maxItems": MAX_TILES})


class EndGameEffectSchema(AnswerSchema):
    """What one end-game effect scores, why, and the tiles it counted."""

    kind = ma.fields.String(required=True, metadata={
        "description": "the effect's kind, e.g. per_building_via_trails"})
    points = answered_int()
    explanation = ma.fields.String(required=True, metadata={"description": "why, for the players"})
    rule = ma.fields.String(required=True, metadata={
        "description": "the ruling applied, e.g. FF-R6"})
    code = end_game_code()
    params = ParamsField()
    tiles = ma.fields.List(ma.fields.Nested(CountedTileSchema), required=True, metadata={
        "description": "the tiles it counted: the buildings a Community Centre reached (with "
                       "the trails by which), a Guildhall's surrounding processors, the "
                       "building itself for the goods it holds; empty when it counted none",
        "maxItems": MAX_TILES})


class DoubtfulCountSchema(AnswerSchema):
    """What one doubtful goods count does to the total."""

    row = answered_int("the building's row", **limits(*COORDINATE))
    col = answered_int("the building's column", **limits(*COORDINATE))
    good = good_type(required=True, metadata={"description": "the good counted"})
    pointer = ma.fields.String(required=True, metadata={
        "description": "the count in the town, as a JSON Pointer (/tiles/3/goods/sheep)"})
    decides = ma.fields.Boolean(required=True, metadata={"description": (
        "true when the total depends on which candidate the count is (for some possible "
        "reading of the other doubtful counts): ask the player to check it")})
    totals = ma.fields.List(ma.fields.Integer(metadata={"minimum": 0}), required=True,
                            metadata={
        "description": "for each candidate, in the request's order: the total with it "
                       "there and every other doubtful count at its likeliest",
        "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})


class TownUncertaintySchema(AnswerSchema):
    """The totals a town with doubtful goods counts may come to: what the readings other
    than the likeliest score."""

    readings = count("how many possible readings there are: those where every building "
                     "holds what it may (FF-R19)")
    lowest_total = count("the lowest total of any possible reading")
    highest_total = count("the highest total of any possible reading")
    likely_total = count("the likeliest reading's total (each count at its first "
                         "candidate): the answer's total")
    counts = ma.fields.List(ma.fields.Nested(DoubtfulCountSchema), required=True, metadata={
        "description": "each doubtful count, in the town's order", "minItems": 1,
        "maxItems": MAX_DOUBTFUL_COUNTS})


class EndGameEntrySchema(AnswerSchema):
    """What one building's end-game effect scores (FF-R6 to FF-R8), and why."""

    building = ma.fields.String(required=True, metadata={"description": "the building's id"})
    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    points = answered_int()
    explanation = ma.fields.String(required=True, metadata={"description": "why, for the players"})
    rule = ma.fields.String(required=True, metadata={
        "description": "the ruling applied, e.g. FF-R7"})
    code = end_game_code()
    params = ParamsField()
    effects = ma.fields.List(ma.fields.Nested(EndGameEffectSchema), required=True, metadata={
        "description": "each end-game effect of the building, in the catalog's order",
        "minItems": 1})


class TownScoreSchema(AnswerSchema):
    """A town's final total: its score track plus each end-game effect."""

    total = count("score track + end-game points, never below 0 (FF-R18)")
    score_track = count()
    end_game_points = answered_int("the end-game effects' points")
    end_game = ma.fields.List(ma.fields.Nested(EndGameEntrySchema), required=True, metadata={
        "description": "each end-game effect, in town order"})
    goods_remaining = count("goods left in the town (a tie-break, FF-R16)")
    tile_count = count("building and trail tiles, the starting tile as two (a tie-break, "
                       "FF-R16)")
    uncertainty = PresentNested(TownUncertaintySchema, metadata={"description": (
        "only for a town with doubtful goods counts: what the other readings score; the "
        "fields above then describe the likeliest reading")})
    rules_version = rules_version_field()
    catalog_version = catalog_version_field()


class TownStandingSchema(AnswerSchema):
    """A player's place, total and tie-breaks (FF-R16)."""

    name = ma.fields.String(required=True)
    total = count()
    goods_remaining = count()
    tile_count = count()
    place = answered_int("1 is first; ties share a place", **limits(1, MAX_PLAYERS))


class TownRankingSchema(AnswerSchema):
    """The players ordered by place, and the winners."""

    standings = ma.fields.List(ma.fields.Nested(TownStandingSchema), required=True, metadata={
        "description": "the players ordered by place (FF-R16)", "minItems": 1,
        "maxItems": MAX_PLAYERS})
    winners = ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "every player in first place (more than one on a tie)",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    rules_version = rules_version_field()
    catalog_version = catalog_version_field()


class TransportVerdictSchema(AnswerSchema):
    """Legal, with the route and the town after; or illegal, with every violation."""

    legal = ma.fields.Boolean(required=True)
    path = PathField(metadata={"description": "when legal: the route the goods take"})
    town = ma.fields.Nested(TownSchema, metadata={
        "description": "when legal: the town after the move, with the request's catalog, "
                       "to send with the next one"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "when illegal: every rule the move breaks", "minItems": 1})

    @ma.pre_dump
    def from_proto(self, answer: service_pb2.ValidateTransportResponse, **kwargs: Any
                   ) -> dict[str, Any]:
        if answer.legal:
            return {"legal": True, "path": answer.path, "town": answer.town}
        return {"legal": False, "violations": answer.violations}


def step_action(kind: str) -> ma.fields.Constant[str]:
    """A plan step's ``action``: always ``kind``."""
    return ma.fields.Constant(kind, required=True, metadata={"type": "string", "const": kind})


class _StepSchema(AnswerSchema):
    """A plan step: the :class:`Tagged` field hands over the whole ``PlanStep``, and the
    schema named by its ``action`` writes that member."""

    kind = ""

    @ma.pre_dump
    def member(self, step: planning_pb2.PlanStep, **kwargs: Any) -> Any:
        return getattr(step, self.kind)


class MoveStepSchema(_StepSchema):
    """Move goods along the trails (FF-R2, FF-R3)."""

    kind = "move"
    action = step_action(kind)
    good = good_type(required=True)
    count = answered_int(**limits(1, MAX_MOVE_COUNT))
    origin = position(data_key="from", required=True)
    destination = position(data_key="to", required=True)
    path = PathField(required=True)


class ProcessChoiceSchema(AnswerSchema):
    """A building's goods after a processing run, where FF-R4 leaves a choice."""

    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    goods = GoodsField(required=True, metadata={"description": "what the building is left with"})


class ProcessStepSchema(_StepSchema):
    """A processing run, every effect executed fully (FF-R4); ``choices`` only where FF-R4
    leaves one."""

    kind = "process"
    action = step_action(kind)
    points = count("the points the run scores")
    choices = ma.fields.List(ma.fields.Nested(ProcessChoiceSchema), metadata={
        "description": "only where FF-R4 leaves a choice", "minItems": 1})

    @ma.pre_dump
    def member(self, step: planning_pb2.PlanStep, **kwargs: Any) -> dict[str, Any]:
        run = step.process
        return {"points": run.points, **({"choices": run.choices} if run.choices else {})}


class HaulPickSchema(AnswerSchema):
    """Goods a Hauler's Hut takes from a building."""

    good = good_type(required=True)
    count = answered_int(minimum=1)
    origin = position(data_key="from", required=True)


class HaulStepSchema(_StepSchema):
    """Goods placed on a Hauler's Hut at a transportation phase's start (FF-R17)."""

    kind = "haul"
    action = step_action(kind)
    hut = position(data_key="to", required=True)
    picks = ma.fields.List(ma.fields.Nested(HaulPickSchema), required=True)


PLAN_STEP = Component("FoxglovePlanStep", (
    "A step of a final-round plan, by its `action`: goods moved, a processing run, or goods "
    "hauled onto a Hauler's Hut."))


class FinalRoundPlanSchema(AnswerSchema):
    """The best final total any legal sequence of transports and processing runs reaches,
    and a plan that reaches it."""

    total = count("score_track + processing_points + end_game_points, never below 0 "
                  "(FF-R18)")
    processing_points = count()
    end_game_points = answered_int()
    goods_remaining = count("the fewest any plan with the best total leaves (FF-R16)")
    steps = ma.fields.List(Tagged({s.kind: s for s in (MoveStepSchema, ProcessStepSchema,
                                                        HaulStepSchema)},
                                  "a plan step", component=PLAN_STEP, tag="action",
                                  oneof="action"), required=True, metadata={
        "description": "the plan's steps, in order"})
    optimal = ma.fields.Boolean(required=True, metadata={"description": (
        "true when the total is proven the best; false when the planner's time ran out "
        "first and this is the best plan it found (never worse than a greedy plan)")})
    upper_bound = ma.fields.Integer(required=True, metadata={"description": (
        "the most any legal final round can total: total when optimal, otherwise the "
        "proven bound, so upper_bound - total is the most the plan could be improved")})
    rules_version = rules_version_field()
    catalog_version = catalog_version_field()
