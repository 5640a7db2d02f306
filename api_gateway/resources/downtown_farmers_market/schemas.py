"""The contract's Downtown Farmers Market JSON, read into protobuf requests.

These schemas check JSON types and names; what makes a board well formed (4x4, 1 to 3
ingredients a tile, the challenges' numbers) is the rules' to say, and the engine's
answers carry those problems as pointers into the same JSON.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.downtown_farmers_market.v1 import board_pb2, downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import scoring_pb2

from ...fields import ProtoEnum, Tagged, whole_number

INGREDIENT_NOUN = "an ingredient"


def ingredient(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Ingredient, INGREDIENT_NOUN, **kwargs)


def ingredient_list(**kwargs: Any) -> ma.fields.List:
    return ma.fields.List(ingredient(), **kwargs)


class _ChallengeSchema(ma.Schema):
    """What every challenge has: its ``type`` and the points on its wooden crate."""

    kind = ""
    type = ma.fields.String(required=True, metadata={"description": "the challenge type"})
    points = whole_number(required=True, metadata={
        "description": "0 to 100: the number on the wooden crate (per_set: per set)"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        """The type-specific part of the protobuf challenge."""
        return {}

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Challenge:
        return board_pb2.Challenge(points=data["points"], **{self.kind: self.body(data)})


class ExactCountSchema(_ChallengeSchema):
    """Every listed ingredient appears exactly its count; others are ignored (DFM-R2)."""

    kind = "exact_count"
    counts = ma.fields.Dict(keys=ingredient(), values=whole_number(), required=True,
                            metadata={"description": "ingredient -> count (1 to 12)"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"counts": [board_pb2.IngredientCount(ingredient=i, count=n)
                           for i, n in data["counts"].items()]}


class ForbiddenSchema(_ChallengeSchema):
    """None of the listed ingredients appears (DFM-R6)."""

    kind = "forbidden"
    ingredients = ingredient_list(required=True)

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"ingredients": data["ingredients"]}


class ExactCountAnySchema(_ChallengeSchema):
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3)."""

    kind = "exact_count_any"
    count = whole_number(required=True, metadata={"description": "1 to 12"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"count": data["count"]}


class ExactTotalSchema(ExactCountAnySchema):
    """The line holds exactly ``count`` ingredients in all (DFM-R4)."""

    kind = "exact_total"


class OneOfEachSchema(_ChallengeSchema):
    """All six ingredients appear (DFM-R5)."""

    kind = "one_of_each"


class MajoritySchema(_ChallengeSchema):
    """``ingredient`` appears strictly more often than each other one (DFM-R1)."""

    kind = "majority"
    ingredient = ingredient(required=True)

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"ingredient": data["ingredient"]}


class PerSetSchema(_ChallengeSchema):
    """``points`` for each set formed, an ingredient in at most one set (DFM-R7)."""

    kind = "per_set"
    sets = ma.fields.List(ingredient_list(), required=True, metadata={
        "description": "the sets shown; a one-ingredient set is 'points per ingredient'"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"sets": [board_pb2.IngredientSet(ingredients=s) for s in data["sets"]]}


CHALLENGE_SCHEMAS: dict[str, type[_ChallengeSchema]] = {
    schema.kind: schema for schema in (ExactCountSchema, ForbiddenSchema, ExactCountAnySchema,
                                       ExactTotalSchema, OneOfEachSchema, MajoritySchema,
                                       PerSetSchema)
}


def challenge_list() -> ma.fields.List:
    return ma.fields.List(Tagged(CHALLENGE_SCHEMAS, "a challenge type"), load_default=list)


class BoardSchema(ma.Schema):
    """One player's board: the 4x4 grid and the Challenge tiles around it."""

    mode = ProtoEnum(board_pb2.Mode, "a mode", load_default=board_pb2.MODE_STANDARD)
    row_challenges = challenge_list()
    column_challenges = challenge_list()
    grid = ma.fields.List(ma.fields.List(ingredient_list(allow_none=True)), required=True,
                          metadata={"description": "grid[r][c]: null for an empty space, "
                                                   "or the Food tile's 1 to 3 ingredients"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Board:
        return board_pb2.Board(
            mode=data["mode"], row_challenges=data["row_challenges"],
            column_challenges=data["column_challenges"],
            grid=[board_pb2.GridRow(spaces=[
                board_pb2.GridSpace() if tile is None
                else board_pb2.GridSpace(tile=board_pb2.FoodTile(ingredients=tile))
                for tile in row]) for row in data["grid"]])


class PlayerSchema(ma.Schema):
    name = ma.fields.String(required=True)
    board = ma.fields.Nested(BoardSchema, required=True)


class RankRequestSchema(ma.Schema):
    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True,
                             metadata={"description": "1 to 4 players, all of one mode"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.RankPlayersRequest:
        return service_pb2.RankPlayersRequest(players=[
            scoring_pb2.PlayerBoard(name=p["name"], board=p["board"]) for p in data["players"]])


class LineScoreSchema(ma.Schema):
    index = ma.fields.Integer()
    met = ma.fields.Boolean()
    points = ma.fields.Integer()
    explanation = ma.fields.String()
    rule = ma.fields.String(metadata={"description": "the ruling applied, e.g. DFM-R1"})


class ScoreSchema(ma.Schema):
    mode = ProtoEnum(board_pb2.Mode, "a mode")
    total = ma.fields.Integer()
    complete = ma.fields.Boolean(metadata={"description": "false while any space is empty"})
    challenges_met = ma.fields.Integer()
    best_challenge_points = ma.fields.Integer()
    rows = ma.fields.List(ma.fields.Nested(LineScoreSchema))
    columns = ma.fields.List(ma.fields.Nested(LineScoreSchema))


class StandingSchema(ma.Schema):
    name = ma.fields.String()
    total = ma.fields.Integer()
    challenges_met = ma.fields.Integer()
    best_challenge_points = ma.fields.Integer()
    place = ma.fields.Integer(metadata={"description": "1 is first; ties share a place"})


class RankingSchema(ma.Schema):
    standings = ma.fields.List(ma.fields.Nested(StandingSchema))
    winners = ma.fields.List(ma.fields.String())
