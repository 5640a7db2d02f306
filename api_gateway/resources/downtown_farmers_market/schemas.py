"""The contract's Downtown Farmers Market JSON, read into protobuf requests and written
from protobuf answers.

These schemas check JSON types and names; what makes a board, state or move well formed
(4x4, 1 to 3 ingredients a tile, the challenges' numbers, seats and rows in range, a state
that adds up) is the rules' to say, and the engine's answers carry those problems as
pointers into the same JSON. The schemas that read a board or a state also write one, so
a state the referee answers is exactly what a client sends back with its next move.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from google.protobuf.message import Message

from referee.downtown_farmers_market.v1 import board_pb2, downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import game_pb2
from tabletop_rules.downtown_farmers_market.draft import (
    FACE_UP,
    MIN_PLAYERS,
    REVEAL_SIZE,
    ROUNDS,
    TOTAL_TILES,
)
from tabletop_rules.downtown_farmers_market.model import (
    GRID_SIZE,
    INGREDIENTS,
    MAX_CHALLENGE_POINTS,
    MAX_LINE_INGREDIENTS,
    MAX_SETS,
    MAX_TILE_INGREDIENTS,
    MIN_TILE_INGREDIENTS,
    Mode,
)
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_CELLS,
    MIN_CANDIDATES,
)
from tabletop_rules.downtown_farmers_market.replay import MAX_LOG_MOVES
from tabletop_rules.downtown_farmers_market.state import RULES_VERSION
from tabletop_rules.messages import template
from tabletop_rules.players import MAX_NAME_LENGTH, MAX_PLAYERS

from ...compiled import Compiler, Dump, Loader, attribute_read
from ...i18n import term_names
from ...fields import (
    INT32_MIN,
    AnswerSchema,
    Component,
    NamedKeys,
    PresentNested,
    ProtoEnum,
    SetFieldsSchema,
    Tagged,
    limits,
    tag,
    whole_number,
)
from ...versions import rules_version_field
from ...violations import ViolationSchema
from ...wording import ParamsField, code_field, templates_of

INGREDIENT_NOUN = "an ingredient"

SEAT = (0, MAX_PLAYERS - 1)
"""A seat's range: an index in a game's players."""

LINE = (0, GRID_SIZE - 1)
"""A row's or column's range (0 is the top row, the left column)."""


INGREDIENT_NAMES = term_names(i.value for i in INGREDIENTS)
"""The ingredients as a player may write them: "Egg", "eggs", "œuf"."""


def ingredient(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Ingredient, INGREDIENT_NOUN, spellings=INGREDIENT_NAMES, about=(
        "One of the six ingredients on the Food tiles. Written as a person writes it (any "
        "case and spacing, a plural, the French word) it is read as the one it names; "
        "answers give these names."), **kwargs)


def ingredient_list(**kwargs: Any) -> ma.fields.List[int]:
    return ma.fields.List(ingredient(), **kwargs)


def mode(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Mode, "a mode", about=(
        "standard, or young_shopper: the mode for younger children, with no challenges "
        "(DFM-R9, DFM-R13)."), **kwargs)


def int32(**kwargs: Any) -> ma.fields.Integer:
    """Any whole number the wire carries: the rules say which seats, rows and rounds exist
    (``accepted``: the range they accept, documented)."""
    return whole_number(INT32_MIN, **kwargs)


def name(**kwargs: Any) -> ma.fields.String:
    return ma.fields.String(metadata={
        "minLength": 1, "maxLength": MAX_NAME_LENGTH,
        "description": "the player's name; distinct names in one request"}, **kwargs)


FOOD_TILE = Component("DowntownFoodTile", (
    f"A Food tile: the {MIN_TILE_INGREDIENTS} to {MAX_TILE_INGREDIENTS} ingredients it shows, "
    "repeats allowed, in any order (DFM-R15)."))


DOUBTS_ONLY_SCORED = template(
    "DFM_DOUBTFUL_SPACE_NOT_RANKED",
    "a space read in doubt (its candidates) is taken only by /score, which says what each "
    "reading scores; here give the one tile the space holds")
"""A doubtful space where only one reading can be ranked (the players' boards at /rank)."""


class FoodTileField(ma.fields.List[Any]):
    """A Food tile as the contract writes it: its 1 to 3 ingredients, repeats allowed."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"component": FOOD_TILE, "minItems": MIN_TILE_INGREDIENTS,
                    "maxItems": MAX_TILE_INGREDIENTS, **kwargs.pop("metadata", {})}
        super().__init__(ingredient(), metadata=metadata, **kwargs)

    def _deserialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: Any, attr: str | None, data: Any,
            **kwargs: Any) -> board_pb2.FoodTile:
        if isinstance(value, dict) and "candidates" in value:
            raise ma.ValidationError(DOUBTS_ONLY_SCORED())
        ingredients = super()._deserialize(value, attr, data, **kwargs)
        # ingredient() reads Ingredient numbers; List's type says any value, or None
        return board_pb2.FoodTile(ingredients=ingredients)  # type: ignore[arg-type]

    def _serialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: board_pb2.FoodTile | None, attr: str | None, obj: Any,
            **kwargs: Any) -> list[str] | None:
        return None if value is None else super()._serialize(value.ingredients, attr, obj,
                                                              **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        ingredients = compiler.deserializer(self, ma.fields.List)
        load, tile = ingredients.load, board_pb2.FoodTile
        return Loader(lambda value: tile(ingredients=load(value)), ingredients.depth)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return compiler.listed_attribute(self, "ingredients")


def tile_list(**kwargs: Any) -> ma.fields.List[Any]:
    return ma.fields.List(FoodTileField(), **kwargs)


class TileCandidatesSchema(ma.Schema):
    """A doubtful space of a board to score: the tiles a reading found possible there."""

    candidates = tile_list(required=True, metadata={
        "description": f"{MIN_CANDIDATES} to {MAX_CANDIDATES} Food tiles, the likeliest "
                       "first, each of 1 to 3 ingredients (another number is a 422 naming "
                       "the limit)", "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.GridSpace:
        return board_pb2.GridSpace(candidates=data["candidates"])


class SpaceField(ma.fields.Field[board_pb2.FoodTile | board_pb2.GridSpace]):
    """A space of a board to score: null, a Food tile, or a doubtful reading,
    ``{"candidates": [["bread"], ["corn"]]}`` (read as a ``GridSpace``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tile = FoodTileField()
        self.doubtful = TileCandidatesSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> board_pb2.FoodTile | board_pb2.GridSpace:
        if isinstance(value, dict):
            # its ValidationError nests under the space
            space: board_pb2.GridSpace = self.doubtful.load(value)
            return space
        tile: board_pb2.FoodTile = self.tile.deserialize(value, attr, data, **kwargs)
        return tile

    def compiled_load(self, compiler: Compiler) -> Loader:
        """A tile as a Food tile reads; the tile reader refuses a doubtful space (an
        object), which marshmallow then reads."""
        return compiler.deserializer(self.tile)

    def openapi_alternatives(self, converter: Any) -> dict[str, Any]:
        return {"oneOf": [{"type": "null"}, converter.field2property(self.tile),
                          converter.resolve_nested_schema(TileCandidatesSchema)]}


class IngredientSetField(ma.fields.List[Any]):
    """A set of ingredients (``IngredientSet``), as a list: read as the list of their
    values, written from the message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ingredient(), metadata={"minItems": 1,
                                                 "maxItems": MAX_LINE_INGREDIENTS}, **kwargs)

    def _serialize(  # type: ignore[override]  # marshmallow types a List's value as list
            self, value: board_pb2.IngredientSet | None, attr: str | None, obj: Any,
            **kwargs: Any) -> list[str] | None:
        return None if value is None else super()._serialize(value.ingredients, attr, obj,
                                                              **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        return compiler.deserializer(self, ma.fields.List)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return compiler.listed_attribute(self, "ingredients")


class IngredientCountsField(NamedKeys):
    """Ingredients and their counts (``IngredientCount`` entries), as an object: read
    as a dict of their values, written from the entries."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(keys=ingredient(),
                         values=whole_number(accepted=(1, MAX_LINE_INGREDIENTS)), **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(None if value is None else _counts(value), attr, obj,
                                  **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        return compiler.deserializer(self, ma.fields.Dict)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        counts = compiler.serializer(self, ma.fields.Dict)
        return lambda value: None if value is None else counts(_counts(value))


def _counts(entries: Any) -> dict[int, int]:
    return {entry.ingredient: entry.count for entry in entries}


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


# Answers: every field is written in every answer (``required``), unless it says when.

def count(description: str | None = None) -> ma.fields.Integer:
    """A whole number of an answer, never negative."""
    return ma.fields.Integer(required=True, metadata={
        "minimum": 0, **({"description": description} if description else {})})


class CountedCellSchema(AnswerSchema):
    """A cell whose ingredients counted toward a line's verdict."""

    row = ma.fields.Integer(required=True, metadata={"description": "0 is the top row",
                                                     **limits(*LINE)})
    col = ma.fields.Integer(required=True, metadata={"description": "0 is the left column",
                                                     **limits(*LINE)})
    ingredients = ingredient_list(required=True, metadata={
        "description": "the ingredients of the cell's tile that counted",
        "minItems": 1, "maxItems": MAX_TILE_INGREDIENTS})


class LineScoreSchema(AnswerSchema):
    """One row or column: whether its challenge is met, its points, and why."""

    index = ma.fields.Integer(required=True, metadata={
        "description": "the row (top first) or column (left first)", **limits(*LINE)})
    met = ma.fields.Boolean(required=True, metadata={
        "description": "the challenge is met (young_shopper: the line scores points)"})
    points = count("the points the line earns")
    explanation = ma.fields.String(required=True, metadata={
        "description": "why, for the players"})
    rule = ma.fields.String(required=True, metadata={
        "description": "the ruling applied, e.g. DFM-R1"})
    code = code_field("DowntownLineExplanationCode", (
        "What a line's explanation says, for machines: one code per sentence, worded with "
        "the line's `params`."), templates_of("explanation", None, "DFM_"), required=True)
    params = ParamsField()
    cells = ma.fields.List(ma.fields.Nested(CountedCellSchema), required=True, metadata={
        "description": "the cells whose ingredients counted toward the verdict, along the "
                       "line, each with the ingredients of its tile that counted (exact_count: "
                       "the listed ingredients; forbidden: those present; exact_count_any: "
                       "the chosen one; exact_total and one_of_each: all; majority: the "
                       "challenge's ingredient and its rival; per_set: those the sets formed "
                       "use; young_shopper: the most frequent one)",
        "maxItems": GRID_SIZE})
    chosen_ingredient = ingredient(required=True, allow_none=True, metadata={
        "description": "exact_count_any: the ingredient of the player's choice (the first "
                       "of the six appearing exactly `count` times); young_shopper: the most "
                       "frequent ingredient, counted; null otherwise"})
    majority_ingredient = ingredient(required=True, allow_none=True, metadata={
        "description": "majority: the ingredient the line shows strictly more often than "
                       "every other (DFM-R1), which may be another than the challenge's; null "
                       "when none does, and for other challenges"})
    sets_formed = ma.fields.List(IngredientSetField(), required=True, metadata={
        "description": "per_set: each set formed, once for each time (their number times "
                       "the points per set is `points`); empty otherwise",
        "maxItems": MAX_LINE_INGREDIENTS})


class DoubtfulSpaceSchema(AnswerSchema):
    """What one doubtful space does to the total."""

    row = ma.fields.Integer(required=True, metadata={
        "description": "the space's row, 0 at the top", **limits(*LINE)})
    col = ma.fields.Integer(required=True, metadata={
        "description": "the space's column, 0 at the left", **limits(*LINE)})
    pointer = ma.fields.String(required=True, metadata={
        "description": "the space in the board, as a JSON Pointer (/grid/1/2)"})
    decides = ma.fields.Boolean(required=True, metadata={"description": (
        "true when the total depends on which candidate the space holds (for some reading "
        "of the other doubtful spaces): ask the player to check it; false: no candidate "
        "changes the total")})
    totals = ma.fields.List(ma.fields.Integer(metadata={"minimum": 0}), required=True,
                            metadata={
        "description": "for each candidate, in the request's order: the total with it "
                       "there and every other doubtful space at its likeliest",
        "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})


class BoardUncertaintySchema(AnswerSchema):
    """The totals a board with doubtful spaces may come to: what the readings other than
    the likeliest score."""

    readings = count("how many readings there are: the product of the spaces' candidate "
                     "counts")
    lowest_total = count("the lowest total of any reading")
    highest_total = count("the highest total of any reading")
    likely_total = count("the likeliest reading's total (each space at its first "
                         "candidate): the answer's total")
    spaces = ma.fields.List(ma.fields.Nested(DoubtfulSpaceSchema), required=True, metadata={
        "description": "each doubtful space, row by row", "minItems": 1,
        "maxItems": MAX_DOUBTFUL_CELLS})


class ScoreSchema(AnswerSchema):
    """A board's score, line by line (DFM-R1 to DFM-R9)."""

    mode = mode(required=True)
    total = count("the sum of the lines' points")
    complete = ma.fields.Boolean(required=True, metadata={
        "description": "false while any space is empty (the board is scored as it stands, "
                       "DFM-R8)"})
    challenges_met = count("lines whose challenge is met (a tie-break, DFM-R10)")
    best_challenge_points = count("the most points one met challenge earned; 0 if none "
                                  "(a tie-break, DFM-R10)")
    rows = ma.fields.List(ma.fields.Nested(LineScoreSchema), required=True, metadata={
        "description": "the rows, top to bottom", "minItems": GRID_SIZE,
        "maxItems": GRID_SIZE})
    columns = ma.fields.List(ma.fields.Nested(LineScoreSchema), required=True, metadata={
        "description": "the columns, left to right", "minItems": GRID_SIZE,
        "maxItems": GRID_SIZE})
    uncertainty = PresentNested(BoardUncertaintySchema, metadata={"description": (
        "only for a board with doubtful spaces: what the other readings score; the fields "
        "above then describe the likeliest reading")})
    rules_version = rules_version_field()


def place() -> ma.fields.Integer:
    return ma.fields.Integer(required=True, metadata={
        "description": "1 is first; ties share a place", **limits(1, MAX_PLAYERS)})


def winners() -> ma.fields.List[str]:
    return ma.fields.List(ma.fields.String(), required=True, metadata={
        "description": "every player in first place (more than one on a tie)",
        "minItems": 1, "maxItems": MAX_PLAYERS})


class StandingSchema(AnswerSchema):
    """A player's place, total and tie-breaks (DFM-R10)."""

    name = ma.fields.String(required=True)
    total = count()
    challenges_met = count()
    best_challenge_points = count()
    place = place()


def standings(description: str) -> ma.fields.List[Any]:
    return ma.fields.List(ma.fields.Nested(StandingSchema), metadata={
        "description": description, "minItems": 1, "maxItems": MAX_PLAYERS})


class RankingSchema(AnswerSchema):
    """The players ordered by place, and the winners."""

    standings = ma.fields.List(ma.fields.Nested(StandingSchema), required=True, metadata={
        "description": "the players ordered by place (DFM-R10)", "minItems": 1,
        "maxItems": MAX_PLAYERS})
    winners = winners()
    rules_version = rules_version_field()


def expected_move(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(game_pb2.Action, "an action", component="DowntownExpectedMove", about=(
        "The move a game waits for: a take, a discard, or tiles revealed from the pile."),
                     **kwargs)


class GameStateSchema(ma.Schema):
    """A game between two actions. The referee keeps nothing: send back the state it last
    answered, unchanged, with the next move."""

    class Meta:
        answered = ("mode", "discards", "game_over", "reveal_count")

    rules_version = int32(required=True, accepted=(RULES_VERSION, RULES_VERSION), metadata={
        "description": f"the rules the state follows; this referee plays version "
                       f"{RULES_VERSION}"})
    mode = mode(load_default=board_pb2.MODE_STANDARD)
    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True, metadata={
        "description": f"{MIN_PLAYERS} to {MAX_PLAYERS} players in clockwise order; a seat "
                       "is an index in this list",
        "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS})
    face_up = tile_list(required=True, metadata={
        "description": "the display: the tile left from the last round first, then the new "
                       "ones as turned over",
        "maxItems": max(FACE_UP.values())})
    pile_count = int32(required=True, accepted=(0, TOTAL_TILES), metadata={
        "description": "tiles left in the pile"})
    discards = tile_list(load_default=list, metadata={
        "description": "the tiles put back in the box, in order", "maxItems": TOTAL_TILES})
    round = int32(required=True, accepted=(1, ROUNDS), metadata={
        "description": f"1 to {ROUNDS} (Young Shopper: one turn each)"})
    first_player = int32(required=True, accepted=SEAT, metadata={
        "description": "the seat holding the First Player token"})
    current_player = int32(required=True, accepted=SEAT, metadata={
        "description": "the seat that acts next (at a reveal: takes next)"})
    expected = expected_move(required=True, allow_none=True,
                             metadata={"description": "what the game waits for; null once "
                                                      "the game is over"})
    game_over = ma.fields.Boolean(metadata={
        "readOnly": True, "description": "true once every grid is full (DFM-R14); ignored "
                                         "in requests"})
    reveal_count = ma.fields.Integer(metadata={
        "readOnly": True, **limits(0, max(REVEAL_SIZE.values())),
        "description": f"at a reveal, how many tiles to turn over from the pile "
                       f"({REVEAL_SIZE[Mode.STANDARD]} as a round begins, DFM-R11; "
                       f"{REVEAL_SIZE[Mode.YOUNG_SHOPPER]} in Young Shopper, DFM-R13); 0 "
                       f"otherwise; ignored in requests"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.GameState:
        # each player as its dict (name, board): protobuf copies the board once, not twice
        return game_pb2.GameState(
            rules_version=data["rules_version"], mode=data["mode"],
            players=data["players"], face_up=data["face_up"],
            pile_count=data["pile_count"], discards=data["discards"], round=data["round"],
            first_player=data["first_player"], current_player=data["current_player"],
            expected=data["expected"] or game_pb2.ACTION_UNSPECIFIED)


class GameSetupSchema(ma.Schema):
    """How a game begins: the players with their challenges, who holds the First Player
    token, and the tiles first turned over."""

    rules_version = int32(accepted=(RULES_VERSION, RULES_VERSION), metadata={
        "description": "the rules to play; default: the version this referee plays"})
    mode = mode(load_default=board_pb2.MODE_STANDARD)
    players = ma.fields.List(ma.fields.Nested(SetupPlayerSchema), required=True, metadata={
        "description": f"{MIN_PLAYERS} to {MAX_PLAYERS} players in clockwise order, every "
                       "board of the game's mode",
        "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS})
    first_player = int32(load_default=0, accepted=SEAT, metadata={
        "description": "the seat holding the First Player token"})
    face_up = tile_list(required=True, metadata={
        "description": f"the tiles first turned over: {FACE_UP[Mode.STANDARD]}, or "
                       f"{FACE_UP[Mode.YOUNG_SHOPPER]} in Young Shopper",
        "minItems": min(FACE_UP.values()), "maxItems": max(FACE_UP.values())})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Setup:
        return game_pb2.Setup(
            rules_version=data.get("rules_version", 0), mode=data["mode"],
            players=data["players"],  # each player's dict, as a state's
            first_player=data["first_player"], face_up=data["face_up"])


class _MoveSchema(ma.Schema):
    """What every move has: its ``action``. Seats count from 0 in the state's ``players``."""

    kind = ""
    message: Any = None
    action = ma.fields.String(required=True)  # first in the JSON; each move documents its own

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Move:
        fields = {name: value for name, value in data.items() if name != "action"}
        return game_pb2.Move(**{self.kind: self.message(**fields)})

    def get_attribute(self, obj: game_pb2.Move, attr: str, default: Any) -> Any:
        """Dumping: the action's name, or a field of the move's own message."""
        return self.kind if attr == "action" else getattr(getattr(obj, self.kind), attr)

    def compiled_attribute(self, attr: str) -> str:
        """``get_attribute`` as an expression, which compiled code reads inline."""
        return repr(self.kind) if attr == "action" else attribute_read("part", attr)

    def compiled_part(self) -> str:
        return attribute_read("obj", self.kind)


class TakeTileSchema(_MoveSchema):
    """Seat ``player`` takes a face-up ``tile`` and places it at ``row``, ``col`` of their
    own grid (DFM-R12)."""

    kind = "take"
    action = tag(kind, "what the move does")
    message = game_pb2.TakeTile
    player = int32(required=True, accepted=SEAT)
    tile = FoodTileField(required=True, metadata={"description": "its ingredients, any order"})
    row = int32(required=True, accepted=LINE, metadata={
        "description": f"0 (top) to {GRID_SIZE - 1}"})
    col = int32(required=True, accepted=LINE, metadata={
        "description": f"0 (left) to {GRID_SIZE - 1}"})


class DiscardTileSchema(_MoveSchema):
    """Seat ``player`` puts a face-up ``tile`` back in the box (2 and 3 players, DFM-R11)."""

    kind = "discard"
    action = tag(kind, "what the move does")
    message = game_pb2.DiscardTile
    player = int32(required=True, accepted=SEAT)
    tile = FoodTileField(required=True, metadata={"description": "its ingredients, any order"})


class RevealTilesSchema(_MoveSchema):
    """The tiles turned over from the pile, in the order laid out: 4 as a round begins
    (DFM-R11), 1 in Young Shopper (DFM-R13). The pile is on the table: say what came up."""

    kind = "reveal"
    action = tag(kind, "what the move does")
    message = game_pb2.RevealTiles
    tiles = tile_list(required=True, metadata={
        "minItems": 1, "maxItems": max(REVEAL_SIZE.values())})


MOVE_SCHEMAS: dict[str, type[_MoveSchema]] = {
    schema.kind: schema for schema in (TakeTileSchema, DiscardTileSchema, RevealTilesSchema)}


MOVE = Component("DowntownMove", (
    "A move, by its `action`: a take or a discard by a seat, or the tiles revealed from "
    "the pile."))


def move_field(**kwargs: Any) -> Tagged:
    return Tagged(MOVE_SCHEMAS, "an action", component=MOVE, tag="action", oneof="action",
                  **kwargs)


class LegalMovesRequestSchema(ma.Schema):
    """A state to list the legal moves of."""

    state = ma.fields.Nested(GameStateSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ListLegalMovesRequest:
        return service_pb2.ListLegalMovesRequest(**data)


class TurnSchema(SetFieldsSchema):
    """Who acts next and what the game waits for."""

    player = ma.fields.Integer(metadata={
        **limits(*SEAT),
        "description": "the seat that takes or discards next; absent at a reveal (the pile "
                       "decides what comes up) and once the game is over"})
    expected = expected_move(dump_default=None, required=True, allow_none=True, metadata={
        "description": "what the game waits for; null once the game is over"})
    reveal_count = ma.fields.Integer(dump_default=0, required=True, metadata={
        **limits(0, max(REVEAL_SIZE.values())),
        "description": "at a reveal, how many tiles to turn over from the pile; 0 otherwise"})


class LegalMovesSchema(AnswerSchema):
    """Every legal move in a state, and what the game waits for."""

    turn = ma.fields.Nested(TurnSchema, required=True)
    moves = ma.fields.List(move_field(), required=True, metadata={
        "description": "every legal take or discard, each distinct tile once; empty at a "
                       "reveal (the pile decides: `turn` says how many tiles) and once the "
                       "game is over"})


class ValidateMoveRequestSchema(ma.Schema):
    """A state and a move to judge in it."""

    state = ma.fields.Nested(GameStateSchema, required=True)
    move = move_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ValidateMoveRequest:
        return service_pb2.ValidateMoveRequest(**data)


class ReplayGameRequestSchema(ma.Schema):
    """A game's setup and its log."""

    setup = ma.fields.Nested(GameSetupSchema, required=True)
    moves = ma.fields.List(move_field(), required=True, metadata={
        "description": f"the moves since the setup, in order; at most {MAX_LOG_MOVES} (a "
                       "longer log is a 422 naming the limit)",
        "maxItems": MAX_LOG_MOVES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ReplayGameRequest:
        return service_pb2.ReplayGameRequest(**data)


class MoveVerdictSchema(SetFieldsSchema):
    """Legal, with the state after the move; or illegal, with every rule it breaks."""

    legal = ma.fields.Boolean(dump_default=False, required=True)
    state = ma.fields.Nested(GameStateSchema, attribute="next_state", metadata={
        "description": "when legal: the state after the move, to send with the next one"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "when illegal: every rule the move breaks"})


class GameReplaySchema(SetFieldsSchema):
    """A log replayed: how far it is legal, the state it reaches, and once the game is
    over, the scores and winners."""

    legal = ma.fields.Boolean(dump_default=False, required=True, metadata={
        "description": "true when every move of the log is legal"})
    illegal_index = ma.fields.Integer(metadata={
        "description": "the index of the first illegal move in `moves`, if any",
        **limits(0, MAX_LOG_MOVES - 1)})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "the rules the first illegal move breaks"})
    state = ma.fields.Nested(GameStateSchema, metadata={
        "description": "the state after the last legal move"})
    standings = standings("once the game is over: the players ordered by place (DFM-R10)")
    winners = ma.fields.List(ma.fields.String(), metadata={
        "description": "once the game is over: every player in first place",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    scores = ma.fields.List(ma.fields.Nested(ScoreSchema), metadata={
        "description": "once the game is over: each board's score, in seat order",
        "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS})
