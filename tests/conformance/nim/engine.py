"""Nim's engine side: a servicer over the rules, and its one registration."""

from __future__ import annotations

from typing import Any

import grpc

from engine_service.calls import CallLimits
from engine_service.errors import translate_errors
from engine_service.registration import GameRegistration, Seats

from . import rules
from .wire import nim_pb2, nim_pb2_grpc


def _state(message: Any) -> rules.State:
    return rules.State(message.pile, message.player)


def _violations(violations: list[Any], *prefix: str | int) -> list[Any]:
    return [nim_pb2.Violation(reason=v.reason.value, rule=v.rule, message=v.message,
                              pointer=v.pointer(*prefix)) for v in violations]


class NimServicer(nim_pb2_grpc.NimServiceServicer):
    @translate_errors
    def NewGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        return nim_pb2.NewGameResponse(state=nim_pb2.GameState(pile=request.setup.pile))

    @translate_errors
    def ListLegalMoves(self, request: Any, context: grpc.ServicerContext) -> Any:
        return nim_pb2.ListLegalMovesResponse(moves=[
            nim_pb2.Move(take=take) for take in rules.legal_moves(_state(request.state))])

    @translate_errors
    def ValidateMove(self, request: Any, context: grpc.ServicerContext) -> Any:
        after, violations = rules.validate(_state(request.state), request.move.take)
        if after is None:
            return nim_pb2.ValidateMoveResponse(legal=False,
                                                violations=_violations(violations, "move"))
        return nim_pb2.ValidateMoveResponse(
            legal=True, state=nim_pb2.GameState(pile=after.pile, player=after.player))

    @translate_errors
    def ReplayGame(self, request: Any, context: grpc.ServicerContext) -> Any:
        state, applied, violations = rules.replay(request.setup.pile,
                                                  [move.take for move in request.moves])
        return nim_pb2.ReplayGameResponse(
            state=nim_pb2.GameState(pile=state.pile, player=state.player),
            moves_applied=applied, violations=_violations(violations, "moves", applied),
            winner=state.winner)


def _add_servicer(server: grpc.Server, limits: CallLimits) -> None:
    nim_pb2_grpc.add_NimServiceServicer_to_server(NimServicer(), server)


REGISTRATION = GameRegistration(nim_pb2.DESCRIPTOR.services_by_name["NimService"],
                                _add_servicer, {"ReplayGame": Seats.REPLAYS})
