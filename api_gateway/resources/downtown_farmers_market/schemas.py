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

from referee.downtown_farmers_market.v1 import board_pb2, downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import game_pb2, scoring_pb2
from tabletop_rules.downtown_farmers_market.model import MAX_SETS
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_CELLS,
    MIN_CANDIDATES,
)
from tabletop_rules.players import MAX_NAME_LENGTH, MAX_PLAYERS
from tabletop_rules.downtown_farmers_market.replay import MAX_LOG_MOVES

from ...compiled import Compiler, Dump, Loader
from ...fields import (
    INT32_MIN,
    PresentNested,
    ProtoEnum,
    SetFieldsSchema,
    Tagged,
    tag,
    whole_number,
)
from ...violations import ViolationSchema

INGREDIENT_NOUN = "an ingredient"


def ingredient(**kwargs: Any) -> ProtoEnum:
    return ProtoEnum(board_pb2.Ingredient, INGREDIENT_NOUN, **kwargs)


def ingredient_list(**kwargs: Any) -> ma.fields.List:
    return ma.fields.List(ingredient(), **kwargs)


def int32(**kwargs: Any) -> ma.fields.Integer:
    """Any whole number the wire carries: the rules say which seats, rows and rounds exist."""
    return whole_number(INT32_MIN, **kwargs)


class FoodTileField(ma.fields.List):
    """A Food tile as the contract writes it: its 1 to 3 ingredients, repeats allowed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(ingredient(), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> board_pb2.FoodTile:
        return board_pb2.FoodTile(ingredients=super()._deserialize(value, attr, data, **kwargs))

    def _serialize(self, value: board_pb2.FoodTile | None, attr: str | None, obj: Any,
                   **kwargs: Any) -> list[str] | None:
        return None if value is None else super()._serialize(value.ingredients, attr, obj,
                                                              **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        ingredients = compiler.deserializer(self, ma.fields.List)
        load, tile = ingredients.load, board_pb2.FoodTile
        return Loader(lambda value: tile(ingredients=load(value)), ingredients.depth)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        ingredients = compiler.serializer(self, ma.fields.List)
        return lambda value: None if value is None else ingredients(value.ingredients)


def tile_list(**kwargs: Any) -> ma.fields.List:
    return ma.fields.List(FoodTileField(), **kwargs)


class CandidatesSchema(ma.Schema):
    """A doubtful space of a board to score: the tiles a reading found possible there."""

    candidates = tile_list(required=True, metadata={
        "description": f"{MIN_CANDIDATES} to {MAX_CANDIDATES} Food tiles, the likeliest "
                       "first, each of 1 to 3 ingredients (another number is a 422 naming "
                       "the limit)", "minItems": MIN_CANDIDATES, "maxItems": MAX_CANDIDATES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.GridSpace:
        return board_pb2.GridSpace(candidates=data["candidates"])


class SpaceField(ma.fields.Field):
    """A space of a board to score: null, a Food tile, or a doubtful reading,
    ``{"candidates": [["bread"], ["corn"]]}`` (read as a ``GridSpace``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tile = FoodTileField()
        self.doubtful = CandidatesSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> board_pb2.FoodTile | board_pb2.GridSpace:
        if isinstance(value, dict):
            return self.doubtful.load(value)  # its ValidationError nests under the space
        return self.tile.deserialize(value, attr, data, **kwargs)

    def compiled_load(self, compiler: Compiler) -> Loader:
        """A tile as a Food tile reads; the tile reader refuses a doubtful space (an
        object), which marshmallow then reads."""
        return compiler.deserializer(self.tile)

    def openapi_alternatives(self, converter: Any) -> dict[str, Any]:
        return {"oneOf": [{"type": "null"}, converter.field2property(self.tile),
                          converter.resolve_nested_schema(CandidatesSchema)]}


def challenge_type(kind: str) -> ma.fields.String:
    return tag(kind, "the challenge type")


class _ChallengeSchema(ma.Schema):
    """What every challenge has: its ``type`` and the points on its wooden crate."""

    kind = ""
    type = ma.fields.String(required=True)  # first in the JSON; each type documents its own
    points = whole_number(required=True, metadata={
        "description": "0 to 100: the number on the wooden crate (per_set: per set)"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        """The type-specific part of the protobuf challenge."""
        return {}

    def body_fields(self, body: Any) -> dict[str, Any]:
        """The type-specific fields, from the protobuf challenge's part for this type."""
        return {}

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Challenge:
        return board_pb2.Challenge(points=data["points"], **{self.kind: self.body(data)})

    @ma.pre_dump
    def from_proto(self, message: board_pb2.Challenge, **kwargs: Any) -> dict[str, Any]:
        return {"type": self.kind, "points": message.points,
                **self.body_fields(getattr(message, self.kind))}


class ExactCountSchema(_ChallengeSchema):
    """Every listed ingredient appears exactly its count; others are ignored (DFM-R2)."""

    kind = "exact_count"
    type = challenge_type(kind)
    counts = ma.fields.Dict(keys=ingredient(), values=whole_number(), required=True,
                            metadata={"description": "ingredient -> count (1 to 12)"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"counts": [{"ingredient": i, "count": n} for i, n in data["counts"].items()]}

    def body_fields(self, body: board_pb2.ExactCountChallenge) -> dict[str, Any]:
        return {"counts": {c.ingredient: c.count for c in body.counts}}


class ForbiddenSchema(_ChallengeSchema):
    """None of the listed ingredients appears (DFM-R6)."""

    kind = "forbidden"
    type = challenge_type(kind)
    ingredients = ingredient_list(required=True)

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"ingredients": data["ingredients"]}

    def body_fields(self, body: board_pb2.ForbiddenChallenge) -> dict[str, Any]:
        return {"ingredients": body.ingredients}


class ExactCountAnySchema(_ChallengeSchema):
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3)."""

    kind = "exact_count_any"
    type = challenge_type(kind)
    count = whole_number(required=True, metadata={"description": "1 to 12"})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"count": data["count"]}

    def body_fields(self, body: board_pb2.ExactCountAnyChallenge) -> dict[str, Any]:
        return {"count": body.count}


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

    def body_fields(self, body: board_pb2.MajorityChallenge) -> dict[str, Any]:
        return {"ingredient": body.ingredient}


class PerSetSchema(_ChallengeSchema):
    """``points`` for each set formed, an ingredient in at most one set (DFM-R7)."""

    kind = "per_set"
    type = challenge_type(kind)
    sets = ma.fields.List(ingredient_list(), required=True, metadata={
        "description": "the sets shown; a one-ingredient set is 'points per ingredient'; "
                       f"at most {MAX_SETS} sets (a longer list is a 422 naming the limit)",
        "maxItems": MAX_SETS})

    def body(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"sets": [{"ingredients": s} for s in data["sets"]]}

    def body_fields(self, body: board_pb2.PerSetChallenge) -> dict[str, Any]:
        return {"sets": [s.ingredients for s in body.sets]}


CHALLENGE_SCHEMAS: dict[str, type[_ChallengeSchema]] = {
    schema.kind: schema for schema in (ExactCountSchema, ForbiddenSchema, ExactCountAnySchema,
                                       ExactTotalSchema, OneOfEachSchema, MajoritySchema,
                                       PerSetSchema)
}


def challenge_list() -> ma.fields.List:
    return ma.fields.List(Tagged(CHALLENGE_SCHEMAS, "a challenge type"), load_default=list)


def grid_field(**kwargs: Any) -> ma.fields.List:
    return ma.fields.List(ma.fields.List(FoodTileField(allow_none=True)), metadata={
        "description": "grid[r][c]: null for an empty space, or the Food tile's 1 to 3 "
                       "ingredients"}, **kwargs)


class BoardSchema(ma.Schema):
    """One player's board: the 4x4 grid and the Challenge tiles around it."""

    mode = ProtoEnum(board_pb2.Mode, "a mode", load_default=board_pb2.MODE_STANDARD)
    row_challenges = challenge_list()
    column_challenges = challenge_list()
    grid = grid_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Board:
        # the rows and spaces as dicts: protobuf builds them in one call, faster
        return board_pb2.Board(
            mode=data["mode"], row_challenges=data["row_challenges"],
            column_challenges=data["column_challenges"],
            grid=[{"spaces": [{} if tile is None else {"tile": tile} for tile in row]}
                  for row in data["grid"]])

    @ma.pre_dump
    def from_proto(self, message: board_pb2.Board, **kwargs: Any) -> dict[str, Any]:
        return {"mode": message.mode, "row_challenges": message.row_challenges,
                "column_challenges": message.column_challenges,
                "grid": [[space.tile if space.HasField("tile") else None
                          for space in row.spaces] for row in message.grid]}


class ScoreBoardSchema(BoardSchema):
    """A board to score, whose spaces may be doubtful readings: the answer then gives the
    likeliest reading's score and what the other readings score (``uncertainty``)."""

    grid = ma.fields.List(ma.fields.List(SpaceField(allow_none=True)), required=True, metadata={
        "description": "grid[r][c]: null for an empty space, the Food tile's 1 to 3 "
                       "ingredients, or a doubtful reading {\"candidates\": [tile, ...]}, "
                       f"the likeliest first; at most {MAX_DOUBTFUL_CELLS} doubtful spaces "
                       "(more is a 422 naming the limit)"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> board_pb2.Board:
        return board_pb2.Board(
            mode=data["mode"], row_challenges=data["row_challenges"],
            column_challenges=data["column_challenges"],
            grid=[{"spaces": [{} if space is None else {"tile": space}
                              if type(space) is board_pb2.FoodTile else space
                              for space in row]} for row in data["grid"]])


class SetupBoardSchema(BoardSchema):
    """A board as a game begins: the challenges chosen and the grid empty, so the grid
    may be left out."""

    grid = grid_field(load_default=lambda: [[None] * 4 for _ in range(4)])


class PlayerSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"maxLength": MAX_NAME_LENGTH})
    board = ma.fields.Nested(BoardSchema, required=True)


class SetupPlayerSchema(PlayerSchema):
    board = ma.fields.Nested(SetupBoardSchema, required=True)


class RankRequestSchema(ma.Schema):
    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True, metadata={
        "description": f"1 to {MAX_PLAYERS} players, all of one mode",
        "minItems": 1, "maxItems": MAX_PLAYERS})

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


class DoubtfulSpaceSchema(ma.Schema):
    """What one doubtful space does to the total."""

    row = ma.fields.Integer()
    col = ma.fields.Integer()
    pointer = ma.fields.String(metadata={"description": "the space in the board, as a JSON "
                                                        "Pointer (/grid/1/2)"})
    decides = ma.fields.Boolean(metadata={"description": (
        "true when the total depends on which candidate the space holds (for some reading "
        "of the other doubtful spaces): ask the player to check it; false: no candidate "
        "changes the total")})
    totals = ma.fields.List(ma.fields.Integer(), metadata={"description": (
        "for each candidate, in the request's order: the total with it there and every "
        "other doubtful space at its likeliest")})


class BoardUncertaintySchema(ma.Schema):
    """The totals a board with doubtful spaces may come to."""

    readings = ma.fields.Integer(metadata={"description": (
        "how many readings there are: the product of the spaces' candidate counts")})
    lowest_total = ma.fields.Integer()
    highest_total = ma.fields.Integer()
    likely_total = ma.fields.Integer(metadata={"description": (
        "the likeliest reading's total (each space at its first candidate): the answer's "
        "total")})
    spaces = ma.fields.List(ma.fields.Nested(DoubtfulSpaceSchema), metadata={
        "description": "each doubtful space, row by row"})


class ScoreSchema(ma.Schema):
    mode = ProtoEnum(board_pb2.Mode, "a mode")
    total = ma.fields.Integer()
    complete = ma.fields.Boolean(metadata={"description": "false while any space is empty"})
    challenges_met = ma.fields.Integer()
    best_challenge_points = ma.fields.Integer()
    rows = ma.fields.List(ma.fields.Nested(LineScoreSchema))
    columns = ma.fields.List(ma.fields.Nested(LineScoreSchema))
    uncertainty = PresentNested(BoardUncertaintySchema, metadata={"description": (
        "only for a board with doubtful spaces: what the other readings score; the fields "
        "above describe the likeliest reading")})


class StandingSchema(ma.Schema):
    name = ma.fields.String()
    total = ma.fields.Integer()
    challenges_met = ma.fields.Integer()
    best_challenge_points = ma.fields.Integer()
    place = ma.fields.Integer(metadata={"description": "1 is first; ties share a place"})


class RankingSchema(ma.Schema):
    standings = ma.fields.List(ma.fields.Nested(StandingSchema))
    winners = ma.fields.List(ma.fields.String())


class GameStateSchema(ma.Schema):
    """A game between two actions. The referee keeps nothing: send back the state it last
    answered, unchanged, with the next move."""

    rules_version = int32(required=True, metadata={
        "description": "the rules the state follows; this referee plays version 1"})
    mode = ProtoEnum(board_pb2.Mode, "a mode", load_default=board_pb2.MODE_STANDARD)
    players = ma.fields.List(ma.fields.Nested(PlayerSchema), required=True, metadata={
        "description": "2 to 4 players in clockwise order; a seat is an index in this list"})
    face_up = tile_list(required=True, metadata={
        "description": "the display: the tile left from the last round first, then the new "
                       "ones as turned over"})
    pile_count = int32(required=True, metadata={"description": "tiles left in the pile"})
    discards = tile_list(load_default=list, metadata={
        "description": "the tiles put back in the box, in order"})
    round = int32(required=True, metadata={
        "description": "1 to 16 (Young Shopper: one turn each)"})
    first_player = int32(required=True, metadata={
        "description": "the seat holding the First Player token"})
    current_player = int32(required=True, metadata={
        "description": "the seat that acts next (at a reveal: takes next)"})
    expected = ProtoEnum(game_pb2.Action, "an action", required=True, allow_none=True,
                         metadata={"description": "what the game waits for; null once the "
                                                  "game is over"})
    game_over = ma.fields.Boolean(metadata={
        "readOnly": True, "description": "true once every grid is full (DFM-R14); ignored "
                                         "in requests"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.GameState:
        return game_pb2.GameState(
            rules_version=data["rules_version"], mode=data["mode"],
            players=[game_pb2.Player(**p) for p in data["players"]], face_up=data["face_up"],
            pile_count=data["pile_count"], discards=data["discards"], round=data["round"],
            first_player=data["first_player"], current_player=data["current_player"],
            expected=data["expected"] or game_pb2.ACTION_UNSPECIFIED)


class GameSetupSchema(ma.Schema):
    """How a game begins: the players with their challenges, who holds the First Player
    token, and the tiles first turned over."""

    rules_version = int32(metadata={
        "description": "the rules to play; default: the version this referee plays"})
    mode = ProtoEnum(board_pb2.Mode, "a mode", load_default=board_pb2.MODE_STANDARD)
    players = ma.fields.List(ma.fields.Nested(SetupPlayerSchema), required=True, metadata={
        "description": "2 to 4 players in clockwise order, every board of the game's mode"})
    first_player = int32(load_default=0, metadata={
        "description": "the seat holding the First Player token"})
    face_up = tile_list(required=True, metadata={
        "description": "the tiles first turned over: 5, or 3 in Young Shopper"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Setup:
        return game_pb2.Setup(
            rules_version=data.get("rules_version", 0), mode=data["mode"],
            players=[game_pb2.Player(**p) for p in data["players"]],
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


class TakeTileSchema(_MoveSchema):
    """Seat ``player`` takes a face-up ``tile`` and places it at ``row``, ``col`` of their
    own grid (DFM-R12)."""

    kind = "take"
    action = tag(kind, "what the move does")
    message = game_pb2.TakeTile
    player = int32(required=True)
    tile = FoodTileField(required=True, metadata={"description": "its ingredients, any order"})
    row = int32(required=True, metadata={"description": "0 (top) to 3"})
    col = int32(required=True, metadata={"description": "0 (left) to 3"})


class DiscardTileSchema(_MoveSchema):
    """Seat ``player`` puts a face-up ``tile`` back in the box (2 and 3 players, DFM-R11)."""

    kind = "discard"
    action = tag(kind, "what the move does")
    message = game_pb2.DiscardTile
    player = int32(required=True)
    tile = FoodTileField(required=True, metadata={"description": "its ingredients, any order"})


class RevealTilesSchema(_MoveSchema):
    """The tiles turned over from the pile, in the order laid out: 4 as a round begins
    (DFM-R11), 1 in Young Shopper (DFM-R13). The pile is on the table: say what came up."""

    kind = "reveal"
    action = tag(kind, "what the move does")
    message = game_pb2.RevealTiles
    tiles = tile_list(required=True)


MOVE_SCHEMAS: dict[str, type[_MoveSchema]] = {
    schema.kind: schema for schema in (TakeTileSchema, DiscardTileSchema, RevealTilesSchema)}


def move_field(**kwargs: Any) -> Tagged:
    return Tagged(MOVE_SCHEMAS, "an action", tag="action", oneof="action", **kwargs)


class LegalMovesRequestSchema(ma.Schema):
    state = ma.fields.Nested(GameStateSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ListLegalMovesRequest:
        return service_pb2.ListLegalMovesRequest(**data)


class LegalMovesSchema(ma.Schema):
    moves = ma.fields.List(move_field(), metadata={
        "description": "every legal take or discard, each distinct tile once; empty at a "
                       "reveal (the pile decides) and once the game is over"})


class ValidateMoveRequestSchema(ma.Schema):
    state = ma.fields.Nested(GameStateSchema, required=True)
    move = move_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ValidateMoveRequest:
        return service_pb2.ValidateMoveRequest(**data)


class ReplayGameRequestSchema(ma.Schema):
    setup = ma.fields.Nested(GameSetupSchema, required=True)
    moves = ma.fields.List(move_field(), required=True, metadata={
        "description": f"the moves since the setup, in order; at most {MAX_LOG_MOVES} (a "
                       "longer log is a 422 naming the limit)",
        "maxItems": MAX_LOG_MOVES})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ReplayGameRequest:
        return service_pb2.ReplayGameRequest(**data)


class MoveVerdictSchema(SetFieldsSchema):
    legal = ma.fields.Boolean(dump_default=False)
    state = ma.fields.Nested(GameStateSchema, attribute="next_state", metadata={
        "description": "when legal: the state after the move, to send with the next one"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "when illegal: every rule the move breaks"})


class GameReplaySchema(SetFieldsSchema):
    legal = ma.fields.Boolean(dump_default=False, metadata={
        "description": "true when every move of the log is legal"})
    illegal_index = ma.fields.Integer(metadata={
        "description": "the index of the first illegal move in `moves`, if any"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "the rules the first illegal move breaks"})
    state = ma.fields.Nested(GameStateSchema, metadata={
        "description": "the state after the last legal move"})
    standings = ma.fields.List(ma.fields.Nested(StandingSchema), metadata={
        "description": "once the game is over: the players ordered by place (DFM-R10)"})
    winners = ma.fields.List(ma.fields.String(), metadata={
        "description": "once the game is over: every player in first place"})
    scores = ma.fields.List(ma.fields.Nested(ScoreSchema), metadata={
        "description": "once the game is over: each board's score, in seat order"})
