"""Foxglove Farm's answers on towns as JSON: counted tiles, end-game effects, a town's score
and its readings in doubt, standings, rankings and a transport's verdict.

Every field is written in every answer (``required``), unless it says when."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.players import MAX_PLAYERS
from tabletop_rules.foxglove_farm.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_COUNTS,
    MIN_CANDIDATES,
)

from ....fields import (
    AnswerSchema,
    PresentNested,
    limits,
)
from ....versions import catalog_version_field, rules_version_field
from ....violations import ViolationSchema
from ....wording import ParamsField, code_field, templates_of
from .pieces import COORDINATE, good_type
from .town import PathField, PLACE_ITEMS, PlacesField, TownSchema


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
