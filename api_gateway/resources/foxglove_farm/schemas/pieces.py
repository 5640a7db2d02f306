"""Foxglove Farm's smallest JSON parts: coordinates, seats and names, goods and their
counts (certain or doubtful), and the building catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import marshmallow as ma
from google.protobuf import json_format, struct_pb2

from referee.foxglove_farm.v1 import town_pb2
from referee_wire.struct_json import whole_numbers
from tabletop_rules.foxglove_farm.catalog import MAX_DEFINITIONS
from tabletop_rules.messages import template
from tabletop_rules.foxglove_farm.pieces import Good
from tabletop_rules.foxglove_farm.town import MAX_COORDINATE, MAX_GOODS_COUNT
from tabletop_rules.foxglove_farm.transcription import MAX_BUILDING_ID_LENGTH
from tabletop_rules.players import MAX_NAME_LENGTH, MAX_PLAYERS
from tabletop_rules.foxglove_farm.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_COUNTS,
    MIN_CANDIDATES,
)

from ....compiled import Compiler, Dump, Loader
from ....i18n import term_names
from ....fields import (
    INT32_MAX,
    INT32_MIN,
    Component,
    NamedKeys,
    ProtoEnum,
    set_fields,
    whole_number,
)

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
