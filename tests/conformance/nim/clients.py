"""Nim's namespaces in the clients: one per transport, on the shared bases."""

from __future__ import annotations

from typing import Any

from tabletop_referee_clients.grpc_client import GameGrpc
from tabletop_referee_clients.rest_client import GameRest, Json

from .wire import nim_pb2, nim_pb2_grpc


class NimRest(GameRest):
    SLUG = "nim"

    def legal_moves(self, state: Json) -> list[Json]:
        moves: list[Json] = self._post("/legal-moves", {"state": state})["moves"]
        return moves

    def validate_move(self, state: Json, move: Json) -> Json:
        verdict: Json = self._post("/moves/validate", {"state": state, "move": move})
        return verdict


class NimGrpc(GameGrpc):
    STUB = nim_pb2_grpc.NimServiceStub

    def legal_moves(self, state: Any) -> Any:
        return self._call(self._stub.ListLegalMoves, nim_pb2.ListLegalMovesRequest, "moves",
                          state=state)

    def validate_move(self, state: Any, move: Any) -> Any:
        return self._call(self._stub.ValidateMove, nim_pb2.ValidateMoveRequest, None,
                          state=state, move=move)
