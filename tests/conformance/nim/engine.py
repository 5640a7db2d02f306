"""Nim's engine side: a servicer over the rules, and its one registration."""

from __future__ import annotations

from typing import Any

import grpc

from engine_service.errors import translate_errors
from engine_service.registration import GameRegistration, Seats

from . import rules
from .wire import nim_pb2


def _state(message: Any) -> rules.State:
    return rules.State(message.pile, message.player)


def _violations(violations: list[Any], *prefix: str | int) -> list[Any]:
    return [nim_pb2.Violation(reason=v.reason.value, rule=v.rule, message=v.message,
                              pointer=v.pointer(*prefix)) for v in violations]


class NimServicer:
    """Answers each call with its response's encoding, as every game's servicer does."""

    @translate_errors
    def NewGame(self, request: Any, context: grpc.ServicerContext) -> bytes:
        answer = nim_pb2.NewGameResponse(state=nim_pb2.GameState(pile=request.setup.pile))
        return answer.SerializeToString()

    @translate_errors
    def ListLegalMoves(self, request: Any, context: grpc.ServicerContext) -> bytes:
        answer = nim_pb2.ListLegalMovesResponse(moves=[
            nim_pb2.Move(take=take) for take in rules.legal_moves(_state(request.state))])
        return answer.SerializeToString()

    @translate_errors
    def ValidateMove(self, request: Any, context: grpc.ServicerContext) -> bytes:
        after, violations = rules.validate(_state(request.state), request.move.take)
        if after is None:
            answer = nim_pb2.ValidateMoveResponse(legal=False,
                                                  violations=_violations(violations, "move"))
        else:
            answer = nim_pb2.ValidateMoveResponse(
                legal=True, state=nim_pb2.GameState(pile=after.pile, player=after.player))
        return answer.SerializeToString()

    @translate_errors
    def ReplayGame(self, request: Any, context: grpc.ServicerContext) -> bytes:
        state, applied, violations = rules.replay(request.setup.pile,
                                                  [move.take for move in request.moves])
        answer = nim_pb2.ReplayGameResponse(
            state=nim_pb2.GameState(pile=state.pile, player=state.player),
            moves_applied=applied, violations=_violations(violations, "moves", applied),
            winner=state.winner)
        return answer.SerializeToString()


REGISTRATION = GameRegistration(nim_pb2.DESCRIPTOR.services_by_name["NimService"],
                                lambda limits: NimServicer(), {"ReplayGame": Seats.REPLAYS})
