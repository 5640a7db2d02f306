"""Foxglove Farm's game requests and answers as JSON: legal moves, an action's verdict,
a replay and its solo outcome."""


from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import game_pb2
from tabletop_rules.foxglove_farm.central_board import (
    SOLO_SETUPS,
)
from tabletop_rules.foxglove_farm.farm_game import MAX_LOG_ACTIONS
from tabletop_rules.players import MAX_PLAYERS

from ....fields import AnswerSchema, ProtoEnum, SetFieldsSchema, limits
from ....violations import ViolationSchema
from ..schemas import (
    COORDINATE,
    SEAT,
    GoodsField,
    TownScoreSchema,
    TownStandingSchema,
    answered_int,
)
from .state import FoxgloveGameSetupSchema, FoxgloveGameStateSchema
from .actions import action_field

class FoxgloveLegalMovesRequestSchema(ma.Schema):
    """A state to list the legal actions of."""

    state = ma.fields.Nested(FoxgloveGameStateSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ListLegalMovesRequest:
        return service_pb2.ListLegalMovesRequest(**data)


class FoxgloveTurnSchema(SetFieldsSchema):
    """Who acts next and what the game waits for."""

    player = ma.fields.Integer(metadata={
        **limits(*SEAT),
        "description": "the seat that acts next: in construction the current player; in "
                       "production and transportation, where players act in any order, the "
                       "first still to act from the start player clockwise; absent when no "
                       "player does (tiles to draw, the game over)"})
    expected = ProtoEnum(game_pb2.Expectation, "an expectation", about=(
        "What a game waits for: produce, construct (build or pass), transport (transports, "
        "hauls, processing, ending the fourth round) or draw_tiles."),
                         dump_default=None, required=True, allow_none=True, metadata={
        "description": "what the game waits for: produce, construct (build or pass), "
                       "transport (transports, hauls, processing, ending the fourth round) "
                       "or draw_tiles; null once the game is over"})


class GoodsOnHandSchema(AnswerSchema):
    """Goods on a building: what a payment can take."""

    player = answered_int("the seat whose town it is", **limits(*SEAT))
    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    building = ma.fields.String(required=True, metadata={"description": "the building's id"})
    goods = GoodsField(required=True)


class FoxgloveLegalMovesSchema(AnswerSchema):
    """Whose turn it is, every legal action, and the goods that can pay."""

    turn = ma.fields.Nested(FoxgloveTurnSchema, required=True)
    moves = ma.fields.List(action_field(), required=True, metadata={
        "description": "every legal action, each once: passing; each building on offer the "
                       "player can pay for at each free position and each single trail built "
                       "or upgraded, both with a default payment (from the town's buildings "
                       "in order, wood before stone); each transport; the processing run with "
                       "the default choices; ending the fourth round. Several trails at once, "
                       "other payments, hauls and choices are the player's to compose. Empty "
                       "while tiles are to be drawn and once the game is over"})
    goods_on_hand = ma.fields.List(ma.fields.Nested(GoodsOnHandSchema), required=True, metadata={
        "description": "every building holding goods, in seat order then town order: what a "
                       "payment can take"})


class FoxgloveValidateActionRequestSchema(ma.Schema):
    """A state and an action to judge in it."""

    state = ma.fields.Nested(FoxgloveGameStateSchema, required=True)
    action = action_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ValidateActionRequest:
        return service_pb2.ValidateActionRequest(**data)


class FoxgloveActionVerdictSchema(SetFieldsSchema):
    """Legal, with the state after the action; or illegal, with every rule it breaks."""

    legal = ma.fields.Boolean(dump_default=False, required=True)
    state = ma.fields.Nested(FoxgloveGameStateSchema, attribute="next_state", metadata={
        "description": "when legal: the state after the action, to send with the next one"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "when illegal: every rule the action breaks, each pointing into "
                       "/action"})


class FoxgloveReplayGameRequestSchema(ma.Schema):
    """A game's setup and its log."""

    setup = ma.fields.Nested(FoxgloveGameSetupSchema, required=True)
    actions = ma.fields.List(action_field(), required=True, metadata={
        "description": f"the actions since the setup, in order; at most {MAX_LOG_ACTIONS} "
                       "(a longer log is a 422 naming the limit)",
        "maxItems": MAX_LOG_ACTIONS})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ReplayGameRequest:
        return service_pb2.ReplayGameRequest(**data)


class FoxgloveSoloOutcomeSchema(AnswerSchema):
    """How a finished solo game's total measures up to its setup's score thresholds."""

    setup = answered_int(f"the solo setup's number, 1 to {len(SOLO_SETUPS)}",
                         **limits(1, len(SOLO_SETUPS)))
    name = ma.fields.String(required=True, metadata={
        "description": "the setup's name in the rulebook (\"Food Festival\")"})
    thresholds = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "the setup's score thresholds, lowest first"})
    reached = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "the thresholds the player's total (score track plus end-game "
                       "points, as in `standings`) reached: each one it is at least, "
                       "lowest first; empty when none"})


class FoxgloveGameReplaySchema(SetFieldsSchema):
    """A log replayed: how far it is legal, the state it reaches, and once the game is
    over, the scores and winners."""

    legal = ma.fields.Boolean(dump_default=False, required=True, metadata={
        "description": "true when every action of the log is legal"})
    illegal_index = ma.fields.Integer(metadata={
        "description": "the index of the first illegal action in `actions`, if any",
        **limits(0, MAX_LOG_ACTIONS - 1)})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "the rules the first illegal action breaks, each pointing into "
                       "/actions/<index>"})
    state = ma.fields.Nested(FoxgloveGameStateSchema, metadata={
        "description": "the state after the last legal action"})
    standings = ma.fields.List(ma.fields.Nested(TownStandingSchema), metadata={
        "description": "once the game is over: the players ordered by place (FF-R16)",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    winners = ma.fields.List(ma.fields.String(), metadata={
        "description": "once the game is over: every player in first place",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    scores = ma.fields.List(ma.fields.Nested(TownScoreSchema), metadata={
        "description": "once the game is over: each town's score, end-game effects "
                       "included, in seat order", "minItems": 1, "maxItems": MAX_PLAYERS})
    solo = ma.fields.Nested(FoxgloveSoloOutcomeSchema, metadata={
        "description": "once a solo game is over: the score thresholds of its setup the "
                       "player's total reached (FF-R20); absent with 2 to 4 players and "
                       "while the game goes on"})
