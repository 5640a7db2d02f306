"""A gRPC client over the engine's protobuf API."""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from referee.downtown_farmers_market.v1 import board_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as dfm_grpc
from referee.downtown_farmers_market.v1 import game_pb2 as dfm_game_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as ff_grpc
from referee.foxglove_farm.v1 import planning_pb2 as ff_planning_pb2
from referee.foxglove_farm.v1 import scoring_pb2 as ff_scoring_pb2
from referee.foxglove_farm.v1 import town_pb2 as ff_town_pb2
from referee.foxglove_farm.v1 import transport_pb2 as ff_transport_pb2

from .errors import InvalidRequestError, RefereeError


class GrpcClient:
    """Calls the engine; answers are protobuf messages, errors are :class:`RefereeError`."""

    def __init__(self, address: str = "127.0.0.1:50051", timeout: float = 10.0) -> None:
        self.timeout = timeout
        self.channel = grpc.insecure_channel(address)
        self.downtown_farmers_market = dfm_grpc.DowntownFarmersMarketServiceStub(self.channel)
        self.foxglove_farm = ff_grpc.FoxgloveFarmServiceStub(self.channel)

    def score_board(self, board: board_pb2.Board) -> scoring_pb2.BoardScore:
        """Score one Downtown Farmers Market board."""
        request = dfm_pb2.ScoreBoardRequest(board=board)
        return self._call(self.downtown_farmers_market.ScoreBoard, request).score

    def rank_players(self, players: Sequence[scoring_pb2.PlayerBoard]
                     ) -> dfm_pb2.RankPlayersResponse:
        """Rank named boards."""
        request = dfm_pb2.RankPlayersRequest(players=players)
        return self._call(self.downtown_farmers_market.RankPlayers, request)

    def new_game(self, setup: dfm_game_pb2.Setup) -> dfm_game_pb2.GameState:
        """Start a Downtown Farmers Market game: the state before the first take."""
        request = dfm_pb2.NewGameRequest(setup=setup)
        return self._call(self.downtown_farmers_market.NewGame, request).state

    def legal_moves(self, state: dfm_game_pb2.GameState) -> list[dfm_game_pb2.Move]:
        """Every legal take or discard in ``state`` (none at a reveal or once it is over)."""
        request = dfm_pb2.ListLegalMovesRequest(state=state)
        return list(self._call(self.downtown_farmers_market.ListLegalMoves, request).moves)

    def validate_move(self, state: dfm_game_pb2.GameState, move: dfm_game_pb2.Move
                      ) -> dfm_pb2.ValidateMoveResponse:
        """Judge ``move`` in ``state``: ``legal`` and the next state, or the violations."""
        request = dfm_pb2.ValidateMoveRequest(state=state, move=move)
        return self._call(self.downtown_farmers_market.ValidateMove, request)

    def replay_game(self, setup: dfm_game_pb2.Setup, moves: Sequence[dfm_game_pb2.Move]
                    ) -> dfm_pb2.ReplayGameResponse:
        """Replay a game's log to its end or first illegal move, with the result if over."""
        request = dfm_pb2.ReplayGameRequest(setup=setup, moves=moves)
        return self._call(self.downtown_farmers_market.ReplayGame, request)

    def score_town(self, town: ff_town_pb2.Town) -> ff_scoring_pb2.TownScore:
        """Score one Foxglove Farm town."""
        request = ff_pb2.ScoreTownRequest(town=town)
        return self._call(self.foxglove_farm.ScoreTown, request).score

    def rank_towns(self, players: Sequence[ff_scoring_pb2.PlayerTown]
                   ) -> ff_pb2.RankPlayersResponse:
        """Rank named towns."""
        request = ff_pb2.RankPlayersRequest(players=players)
        return self._call(self.foxglove_farm.RankPlayers, request)

    def validate_transport(self, town: ff_town_pb2.Town, move: ff_transport_pb2.Move
                           ) -> ff_pb2.ValidateTransportResponse:
        """Rule on moving goods in ``town``; an illegal move answers ``legal`` false."""
        request = ff_pb2.ValidateTransportRequest(town=town, move=move)
        return self._call(self.foxglove_farm.ValidateTransport, request)

    def plan_final_round(self, town: ff_town_pb2.Town) -> ff_planning_pb2.FinalRoundPlan:
        """The best final total reachable from ``town``, and a plan reaching it."""
        request = ff_pb2.PlanFinalRoundRequest(town=town)
        return self._call(self.foxglove_farm.PlanFinalRound, request).plan

    def ready(self) -> bool:
        """True when the engine's health service says SERVING."""
        try:
            answer = health_pb2_grpc.HealthStub(self.channel).Check(
                health_pb2.HealthCheckRequest(), timeout=self.timeout)
        except grpc.RpcError:
            return False
        return answer.status == health_pb2.HealthCheckResponse.SERVING

    def _call(self, method, request):  # type: ignore[no-untyped-def]
        try:
            return method(request, timeout=self.timeout)
        except grpc.RpcError as error:
            raise error_from_status(error) from None

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> GrpcClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def error_from_status(error: grpc.RpcError) -> RefereeError:
    code = error.code()  # type: ignore[attr-defined]
    detail = error.details() or ""  # type: ignore[attr-defined]
    if code is not grpc.StatusCode.INVALID_ARGUMENT:
        return RefereeError(code.name, code.name.replace("_", " ").capitalize(), detail)
    return InvalidRequestError(code.name, "Invalid argument", detail, field_violations(error))


def field_violations(error: grpc.RpcError) -> list[tuple[str, str]]:
    """``(JSON Pointer, description)`` for each field violation in the error's
    ``google.rpc.BadRequest`` details."""
    violations = []
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    for packed in status.details if status else ():
        bad_request = error_details_pb2.BadRequest()
        if packed.Unpack(bad_request):
            violations.extend((v.field, v.description) for v in bad_request.field_violations)
    return violations
