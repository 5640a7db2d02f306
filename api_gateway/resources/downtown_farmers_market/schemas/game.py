"""Downtown Farmers Market's games as JSON: states and setups, the moves, and the
requests and answers of legal moves, validation and replay."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

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
    Mode,
)
from tabletop_rules.downtown_farmers_market.replay import MAX_LOG_MOVES
from tabletop_rules.downtown_farmers_market.state import RULES_VERSION
from tabletop_rules.players import MAX_PLAYERS

from ....compiled import attribute_read
from ....fields import (
    AnswerSchema,
    Component,
    ProtoEnum,
    SetFieldsSchema,
    Tagged,
    limits,
    tag,
)
from ....violations import ViolationSchema
from .tiles import FoodTileField, int32, LINE, mode, SEAT, tile_list
from .board import PlayerSchema, SetupPlayerSchema
from .scores import ScoreSchema, standings

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
