"""The discovery answers' JSON, written from the engine's protobuf answers.

Answers only (these endpoints take no body), written by marshmallow: they are asked for
once and cached (``routes.cacheable``), so the compiled fast path would gain nothing.
This module is no game's, so the schemas of one game's answers carry the game's name
themselves (``DowntownChallengeTypesSchema``), as its components must
(:func:`api_gateway.openapi.component_name`).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from google.protobuf import json_format, struct_pb2

from referee.downtown_farmers_market.v1 import challenge_types_pb2
from referee.v1 import referee_service_pb2
from referee_wire.struct_json import whole_numbers
from tabletop_rules.foxglove_farm.catalog import PROVENANCED_FIELDS, SOURCES, TIERS

from ...fields import AnswerSchema, ProtoEnum, SetFieldsSchema
from ...versions import rules_version_field
from ..downtown_farmers_market.schemas import ingredient
from ..foxglove_farm.schemas import GoodsField


class VersionSchema(AnswerSchema):
    """What answers here are made under: quote it with a saved score to reproduce it."""

    service = ma.fields.String(required=True, metadata={"description": "the gateway's release"})
    api = ma.fields.String(required=True, metadata={"description": "the API version: the paths' prefix"})
    engine = ma.fields.String(required=True, metadata={"description": (
        "the release of the engine that answered (one of several behind a balancer)")})
    rules = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(), required=True, metadata={
        "description": "each game's rules version, by game slug: the rules_version its "
                       "score answers and game states name"})
    catalogs = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True, metadata={
        "description": "each game's built-in catalog version, by game slug, for the games "
                       "that have one: the catalog_version its answers name"})

    @ma.pre_dump
    def from_proto(self, versions: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """``service`` and ``api`` as given, the rest from the ``engine``'s answer."""
        engine: referee_service_pb2.GetVersionResponse = versions["engine"]
        return {"service": versions["service"], "api": versions["api"],
                "engine": engine.service, "rules": dict(sorted(engine.rules.items())),
                "catalogs": dict(sorted(engine.catalogs.items()))}


class DowntownParameterValuesSchema(SetFieldsSchema):
    """The values a challenge parameter accepts: past a limit, a board is a 422 naming it.
    Bounds are present only where they apply."""

    kind = ProtoEnum(challenge_types_pb2.ValueKind, "a value kind", metadata={
        "description": "whole_number (from minimum to maximum), ingredient, list (of "
                       "min_items to max_items items) or object (ingredients as keys, "
                       "min_items to max_items of them, each value as items says)"})
    minimum = ma.fields.Integer()
    maximum = ma.fields.Integer()
    min_items = ma.fields.Integer()
    max_items = ma.fields.Integer()
    unique_items = ma.fields.Boolean(dump_default=False, metadata={
        "description": "true when a list may hold each value at most once"})
    items = ma.fields.Nested(lambda: DowntownParameterValuesSchema(), metadata={
        "description": "what each entry of a list or object accepts"})

    def get_attribute(self, obj: dict[str, Any], attr: str, default: Any) -> Any:
        """A set field's value: never the dict's own ``items`` method when it is unset."""
        return obj.get(attr, default)


class DowntownChallengeParameterSchema(AnswerSchema):
    """One field of a challenge, and the values it accepts."""

    name = ma.fields.String(required=True, metadata={"description": "the field's name in the challenge"})
    description = ma.fields.String(required=True)
    values = ma.fields.Nested(DowntownParameterValuesSchema, required=True)


class DowntownChallengeTypeSchema(AnswerSchema):
    """A challenge type: its tag, its ruling and its fields."""

    type = ma.fields.String(required=True, metadata={"description": "the challenge's type"})
    rule = ma.fields.String(required=True, metadata={"description": "the ruling its score lines cite"})
    description = ma.fields.String(required=True)
    parameters = ma.fields.List(ma.fields.Nested(DowntownChallengeParameterSchema), required=True, metadata={
        "description": "its fields besides type, all required, in the contract's order"})


class DowntownChallengeTypesSchema(AnswerSchema):
    """The seven Challenge types, from the rules the referee plays."""

    challenge_types = ma.fields.List(ma.fields.Nested(DowntownChallengeTypeSchema), required=True)
    ingredients = ma.fields.List(ingredient(), required=True, metadata={
        "description": "the six ingredients, in the contract's order"})
    rules_version = rules_version_field()


def _by_name(value: Any) -> Any:
    """JSON with every object's fields sorted by name."""
    if isinstance(value, dict):
        return {key: _by_name(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_by_name(item) for item in value]
    return value


class EffectField(ma.fields.Field[struct_pb2.Struct]):
    """An effect in the catalog's effect format, written as JSON with whole numbers."""

    def __init__(self) -> None:
        super().__init__(metadata={"type": "object", "description": (
            "an effect: its kind and that kind's fields (docs/foxglove-catalog.md, "
            "Effects)")})

    def _serialize(self, value: struct_pb2.Struct | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> Any:
        """``kind`` first, then every object's fields by name: a Struct keeps no order, and
        the answer's bytes (its ETag) must be the same whichever engine wrote it."""
        if value is None:  # as marshmallow's own fields write it (no answer holds one)
            return None
        effect = _by_name(whole_numbers(json_format.MessageToDict(value)))
        return {"kind": effect.pop("kind"), **effect}


class FoxgloveProvenanceSchema(AnswerSchema):
    """Where a building's value comes from."""

    source = ma.fields.String(metadata={"enum": [s for s in SOURCES if s != "request"],
                                        "description": (
        "rulebook: stated or directly implied by the rulebook; provisional: the project's "
        "choice until the printed tile is known")})
    note = ma.fields.String(metadata={"description": "where, or how it was chosen"})


class FoxgloveCatalogBuildingSchema(AnswerSchema):
    """A building of the built-in catalog, as a request's catalog defines one
    (docs/foxglove-catalog.md)."""

    id = ma.fields.String(required=True, metadata={"description": "what towns name it by"})
    name = ma.fields.String(required=True, metadata={"description": "the printed name"})
    tiers = ma.fields.List(ma.fields.String(metadata={"enum": list(TIERS)}))
    documented = ma.fields.Boolean(required=True, metadata={"description": (
        "false for a building the rulebook only names: no slots, cost or effects; a town "
        "using it defines it in its catalog")})
    expert = ma.fields.Boolean(required=True, metadata={"description": "a C! (expert) tile"})
    slots = ma.fields.Integer()
    cost = GoodsField()
    effects = ma.fields.List(EffectField())
    text = ma.fields.String(metadata={"description": "the printed wording, for people"})
    provenance = ma.fields.Dict(keys=ma.fields.String(metadata={
        "enum": list(PROVENANCED_FIELDS)}),
        values=ma.fields.Nested(FoxgloveProvenanceSchema), required=True, metadata={
        "description": "where each value comes from (tiers only when undocumented)"})
    provisional = ma.fields.Boolean(required=True, metadata={"description": (
        "true when one of its values is provisional: a group whose printed tile differs "
        "overrides it in the request's catalog")})

    @ma.post_dump
    def in_field_order(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The provenance in the definition format's field order (a protobuf map keeps
        none, and the answer's bytes must not depend on the engine that wrote it)."""
        data["provenance"] = {name: data["provenance"][name] for name in PROVENANCED_FIELDS
                              if name in data["provenance"]}
        return data


class FoxgloveBuildingCatalogSchema(AnswerSchema):
    """The built-in building catalog."""

    catalog_version = ma.fields.String(required=True, metadata={"description": (
        "the catalog_version that score answers and game states name")})
    buildings = ma.fields.List(ma.fields.Nested(FoxgloveCatalogBuildingSchema), required=True, metadata={
        "description": "every building, by id in alphabetical order"})
