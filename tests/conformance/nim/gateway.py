"""Nim's gateway side: its contract's schemas and its one routes table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import marshmallow as ma
from marshmallow.validate import Range

from api_gateway.fields import AnswerSchema, SetFieldsSchema
from api_gateway.games import Carried, Endpoint, GameRoutes

from .wire import nim_pb2, nim_pb2_grpc

MAX_PILE = 100


class NimSetupSchema(ma.Schema):
    pile = ma.fields.Integer(required=True, strict=True, validate=Range(1, MAX_PILE))

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.Setup(**data)


class NimStateSchema(ma.Schema):
    pile = ma.fields.Integer(required=True, strict=True, validate=Range(0, MAX_PILE))
    player = ma.fields.Integer(required=True, strict=True, validate=Range(0, 1))

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.GameState(**data)


class NimMoveSchema(ma.Schema):
    take = ma.fields.Integer(required=True, strict=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.Move(**data)


class NimStateAnswerSchema(AnswerSchema):
    pile = ma.fields.Integer(required=True)
    player = ma.fields.Integer(required=True)


class NimViolationSchema(AnswerSchema):
    reason = ma.fields.String(required=True)
    rule = ma.fields.String(required=True)
    message = ma.fields.String(required=True)
    pointer = ma.fields.String(required=True)


class NimLegalMovesRequestSchema(ma.Schema):
    state = ma.fields.Nested(NimStateSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.ListLegalMovesRequest(**data)


class NimMoveAnswerSchema(AnswerSchema):
    take = ma.fields.Integer(required=True)


class NimLegalMovesSchema(AnswerSchema):
    moves = ma.fields.List(ma.fields.Nested(NimMoveAnswerSchema), required=True)


class NimValidateMoveRequestSchema(ma.Schema):
    state = ma.fields.Nested(NimStateSchema, required=True)
    move = ma.fields.Nested(NimMoveSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.ValidateMoveRequest(**data)


class NimMoveVerdictSchema(SetFieldsSchema):
    legal = ma.fields.Boolean(required=True, dump_default=False)
    state = ma.fields.Nested(NimStateAnswerSchema)
    violations = ma.fields.List(ma.fields.Nested(NimViolationSchema), dump_default=[])


class NimReplayGameRequestSchema(ma.Schema):
    setup = ma.fields.Nested(NimSetupSchema, required=True)
    moves = ma.fields.List(ma.fields.Nested(NimMoveSchema), required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return nim_pb2.ReplayGameRequest(**data)


class NimGameReplaySchema(SetFieldsSchema):
    state = ma.fields.Nested(NimStateAnswerSchema, required=True)
    moves_applied = ma.fields.Integer(required=True, dump_default=0)
    violations = ma.fields.List(ma.fields.Nested(NimViolationSchema), dump_default=[])
    winner = ma.fields.Integer()


ROUTES = GameRoutes(
    slug="nim", description="Take 1 to 3 from the pile; who takes the last one wins.",
    service=nim_pb2.DESCRIPTOR.services_by_name["NimService"],
    stub=nim_pb2_grpc.NimServiceStub, examples=Path(__file__).with_name("examples.json"),
    endpoints=(
        Endpoint("/games", "NewGame", NimSetupSchema, NimStateAnswerSchema, "startNimGame",
                 "Start a game: the whole pile, player 0 to take.", Carried("setup", "state")),
        Endpoint("/legal-moves", "ListLegalMoves", NimLegalMovesRequestSchema, NimLegalMovesSchema,
                 "listNimLegalMoves", "Every take the pile allows."),
        Endpoint("/moves/validate", "ValidateMove", NimValidateMoveRequestSchema,
                 NimMoveVerdictSchema, "validateNimMove", "Judge a take: the next state, or "
                 "the rule it breaks."),
        Endpoint("/games/replay", "ReplayGame", NimReplayGameRequestSchema, NimGameReplaySchema,
                 "replayNimGame", "Replay a log to its end or first illegal take."),
    ))
