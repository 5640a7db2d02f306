"""Downtown Farmers Market's boards as JSON: the Challenge tiles of each type, the grid,
a board to score, a setup's board, the players and the ranking request."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from google.protobuf.message import Message

from referee.downtown_farmers_market.v1 import board_pb2, downtown_farmers_market_service_pb2 as service_pb2
from tabletop_rules.downtown_farmers_market.model import (
    GRID_SIZE,
    INGREDIENTS,
    MAX_CHALLENGE_POINTS,
    MAX_LINE_INGREDIENTS,
    MAX_SETS,
)
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_CELLS,
    MIN_CANDIDATES,
)
from tabletop_rules.players import MAX_PLAYERS

from ....compiled import Compiler, Dump, Loader, attribute_read
from ....fields import (
    Component,
    Tagged,
    tag,
    whole_number,
)
from .tiles import FoodTileField, ingredient, ingredient_list, IngredientCountsField, IngredientSetField, mode, name, SpaceField

def challenge_type(kind: str) -> ma.fields.String:
    return tag(kind, "the challenge type")


class _ChallengeSchema(ma.Schema):
    """What every challenge has: its ``type`` and the points on its wooden crate."""

    kind = ""
    type = ma.fields.String(required=True)  # first in the JSON; each type documents its own
    points = whole_number(required=True, accepted=(0, MAX_CHALLENGE_POINTS), metadata={
        "description": f"0 to {MAX_CHALLENGE_POINTS}: the number on the wooden crate "
                       "(per_set: per set)"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        """The type-specific part of the protobuf challenge."""
        return {}

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Challenge:
        # the type's part as a dict: protobuf takes one for a message (its stubs do not)
        return board_pb2.Challenge(
            points=data["points"],
            **{self.kind: self.body(data)})  # type: ignore[arg-type]  # a dict for a message

    def get_attribute(self, obj: board_pb2.Challenge, attr: str, default: Any) -> Any:
        """Dumping: the type's name, the points, or a field of the type's own part (of
        the same name: each field writes its protobuf value)."""
        if attr == "type":
            return self.kind
        return obj.points if attr == "points" else getattr(getattr(obj, self.kind), attr)

    def compiled_attribute(self, attr: str) -> str:
        """``get_attribute`` as an expression, which compiled code reads inline."""
        if attr == "type":
            return repr(self.kind)
        return attribute_read("obj", attr) if attr == "points" else attribute_read("part", attr)

    def compiled_part(self) -> str:
        return attribute_read("obj", self.kind)


class ExactCountSchema(_ChallengeSchema):
    """Every listed ingredient appears exactly its count; others are ignored (DFM-R2)."""

    kind = "exact_count"
    type = challenge_type(kind)
    counts = IngredientCountsField(required=True, metadata={
        "description": f"ingredient -> count (1 to {MAX_LINE_INGREDIENTS})",
        "minProperties": 1, "maxProperties": len(INGREDIENTS)})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"counts": [{"ingredient": i, "count": n} for i, n in data["counts"].items()]}


class ForbiddenSchema(_ChallengeSchema):
    """None of the listed ingredients appears (DFM-R6)."""

    kind = "forbidden"
    type = challenge_type(kind)
    ingredients = ingredient_list(required=True, metadata={
        "description": "the forbidden ingredients, each once", "minItems": 1,
        "maxItems": len(INGREDIENTS), "uniqueItems": True})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"ingredients": data["ingredients"]}


class ExactCountAnySchema(_ChallengeSchema):
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3)."""

    kind = "exact_count_any"
    type = challenge_type(kind)
    count = whole_number(required=True, accepted=(1, MAX_LINE_INGREDIENTS), metadata={
        "description": f"1 to {MAX_LINE_INGREDIENTS}"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"count": data["count"]}


class ExactTotalSchema(ExactCountAnySchema):
    """The line holds exactly ``count`` ingredients in all (DFM-R4)."""

    kind = "exact_total"
    type = challenge_type(kind)


class OneOfEachSchema(_ChallengeSchema):
    """All six ingredients appear (DFM-R5)."""

    kind = "one_of_each"
    type = challenge_type(kind)


class MajoritySchema(_ChallengeSchema):
    """``ingredient`` appears strictly more often than each other one (DFM-R1)."""

    kind = "majority"
    type = challenge_type(kind)
    ingredient = ingredient(required=True)

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"ingredient": data["ingredient"]}


class PerSetSchema(_ChallengeSchema):
    """``points`` for each set formed, an ingredient in at most one set (DFM-R7)."""

    kind = "per_set"
    type = challenge_type(kind)
    sets = ma.fields.List(IngredientSetField(), required=True, metadata={
        "description": "the sets shown; a one-ingredient set is 'points per ingredient'; "
                       f"at most {MAX_SETS} sets (a longer list is a 422 naming the "
                       f"limit), each of 1 to {MAX_LINE_INGREDIENTS} ingredients",
        "minItems": 1, "maxItems": MAX_SETS})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"sets": [{"ingredients": s} for s in data["sets"]]}


CHALLENGE_SCHEMAS: dict[str, type[_ChallengeSchema]] = {
    schema.kind: schema for schema in (ExactCountSchema, ForbiddenSchema, ExactCountAnySchema,
                                       ExactTotalSchema, OneOfEachSchema, MajoritySchema,
                                       PerSetSchema)
}


CHALLENGE = Component("DowntownChallenge", (
    "A Challenge tile, by its `type` (DFM-R1 to DFM-R7); `points` is the number on its "
    "wooden crate."))

GRID = Component("DowntownGrid", (
    f"A player's {GRID_SIZE}x{GRID_SIZE} grid, top row first: grid[r][c] is null for an "
    "empty space, or the Food tile there."))


def challenge_list(side: str) -> ma.fields.List[Message]:
    return ma.fields.List(Tagged(CHALLENGE_SCHEMAS, "a challenge type", component=CHALLENGE),
                          load_default=list, metadata={
        "description": f"the {GRID_SIZE} Challenge tiles beside the {side}s, in order; none "
                       "(absent or empty) in young_shopper mode",
        "maxItems": GRID_SIZE})


class GridField(ma.fields.List[Any]):
    """A grid as the contract writes it, rows of Food tiles or null: read as those rows,
    written from the protobuf grid's rows of spaces (one comprehension for the whole grid,
    compiled)."""

    def __init__(self, **kwargs: Any) -> None:
        row = ma.fields.List(FoodTileField(allow_none=True),
                             metadata={"minItems": GRID_SIZE, "maxItems": GRID_SIZE})
        super().__init__(row, metadata={"component": GRID, "minItems": GRID_SIZE,
                                        "maxItems": GRID_SIZE}, **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        tiles = None if value is None else [
            [space.tile if space.HasField("tile") else None for space in row.spaces]
            for row in value]
        return super()._serialize(tiles, attr, obj, **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        return compiler.deserializer(self, ma.fields.List)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        tile = compiler.serializer(self.inner.inner)  # type: ignore[attr-defined]
        return lambda value: None if value is None else [
            [tile(space.tile) if space.HasField("tile") else None for space in row.spaces]
            for row in value]


def grid_field(**kwargs: Any) -> ma.fields.List[Any]:
    return GridField(**kwargs)


class BoardSchema(ma.Schema):
    """One player's board: the 4x4 grid and the Challenge tiles around it."""

    mode = mode(load_default=board_pb2.MODE_STANDARD)
    row_challenges = challenge_list("row")
    column_challenges = challenge_list("column")
    grid = grid_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Board:
        # the rows and spaces as dicts: protobuf builds them in one call, faster (its
        # stubs say messages only: hence the ignore)
        return board_pb2.Board(
            mode=data["mode"], row_challenges=data["row_challenges"],
            column_challenges=data["column_challenges"],
            grid=[{"spaces": [{} if tile is None else {"tile": tile}  # type: ignore[misc]
                              for tile in row]} for row in data["grid"]])


SCORE_GRID = Component("DowntownScoreGrid", (
    f"A {GRID_SIZE}x{GRID_SIZE} grid to score, top row first: grid[r][c] is null for an "
    "empty space, the Food tile there, or a doubtful reading of it, {\"candidates\": "
    "[tile, ...]} "
    f"({MIN_CANDIDATES} to {MAX_CANDIDATES} Food tiles, the likeliest first); "
    f"at most {MAX_DOUBTFUL_CELLS} doubtful spaces (more is a 422 naming the limit)."))


class ScoreBoardSchema(BoardSchema):
    """A board to score, whose spaces may be doubtful readings: the answer then gives the
    likeliest reading's score and what the other readings score (``uncertainty``)."""

    grid = ma.fields.List(
        ma.fields.List(SpaceField(allow_none=True),
                       metadata={"minItems": GRID_SIZE, "maxItems": GRID_SIZE}),
        required=True, metadata={"component": SCORE_GRID, "minItems": GRID_SIZE,
                                 "maxItems": GRID_SIZE})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Board:
        return board_pb2.Board(
            mode=data["mode"], row_challenges=data["row_challenges"],
            column_challenges=data["column_challenges"],
            # dicts for messages, as in BoardSchema.to_proto
            grid=[{"spaces": [{} if space is None else {"tile": space}  # type: ignore[misc]
                              if type(space) is board_pb2.FoodTile else space
                              for space in row]} for row in data["grid"]])


class SetupBoardSchema(BoardSchema):
    """A board as a game begins: the challenges chosen and the grid empty, so the grid
    may be left out."""

    grid = grid_field(load_default=lambda: [[None] * 4 for _ in range(4)])


class PlayerSchema(ma.Schema):
    """A named player's board."""

    name = name(required=True)
    board = ma.fields.Nested(BoardSchema, required=True)


class SetupPlayerSchema(PlayerSchema):
    """A player as a game begins: the name, and the board's challenges."""

    board = ma.fields.Nested(SetupBoardSchema, required=True)


class RankRequestSchema(ma.Schema):
    """The players to rank, each with a board."""

    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True, metadata={
        "description": f"1 to {MAX_PLAYERS} players with distinct names, all of one mode",
        "minItems": 1, "maxItems": MAX_PLAYERS})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.RankPlayersRequest:
        # each player as its dict (name, board): protobuf copies the board once, not twice
        return service_pb2.RankPlayersRequest(players=data["players"])
