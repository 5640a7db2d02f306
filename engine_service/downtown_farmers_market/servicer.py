"""The Downtown Farmers Market gRPC servicer: convert, delegate to the rules, convert back."""

from __future__ import annotations

import grpc

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as service_grpc
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.challenge_types import challenge_types
from tabletop_rules.downtown_farmers_market.readings import score_readings

from ..calls import CallLimits
from ..errors import translate_errors
from ..metrics import GameMeter
from ..registration import GameRegistration, Seats
from . import convert

METER = GameMeter("downtown-farmers-market")


class DowntownFarmersMarketServicer(service_grpc.DowntownFarmersMarketServiceServicer):
    """Scores and ranks boards, referees games; keeps nothing between calls."""

    @translate_errors
    def ScoreBoard(self, request: service_pb2.ScoreBoardRequest,
                   context: grpc.ServicerContext) -> service_pb2.ScoreBoardResponse:
        board, doubts = convert.transcription_from_proto(request.board, ("board",))
        answer = service_pb2.ScoreBoardResponse()
        convert.board_score_to_proto(dfm.score_board(board), answer.score)
        if doubts:
            convert.readings_to_proto(score_readings(board, doubts), answer.score.uncertainty)
        METER.boards_scored()
        return answer

    @translate_errors
    def RankPlayers(self, request: service_pb2.RankPlayersRequest,
                    context: grpc.ServicerContext) -> service_pb2.RankPlayersResponse:
        ranking = dfm.rank_boards(convert.players_from_proto(request.players))
        METER.boards_scored(len(ranking.standings))
        return service_pb2.RankPlayersResponse(
            standings=convert.standings_to_proto(ranking), winners=ranking.winners,
            rules_version=dfm.RULES_VERSION)

    @translate_errors
    def NewGame(self, request: service_pb2.NewGameRequest,
                context: grpc.ServicerContext) -> service_pb2.NewGameResponse:
        answer = service_pb2.NewGameResponse()
        convert.state_to_proto(dfm.new_game(convert.setup_from_proto(request.setup)), answer.state)
        return answer

    @translate_errors
    def ListLegalMoves(self, request: service_pb2.ListLegalMovesRequest,
                       context: grpc.ServicerContext) -> service_pb2.ListLegalMovesResponse:
        state = convert.state_from_proto(request.state)
        return convert.legal_moves_to_proto(state, dfm.legal_moves(state))

    @translate_errors
    def ValidateMove(self, request: service_pb2.ValidateMoveRequest,
                     context: grpc.ServicerContext) -> service_pb2.ValidateMoveResponse:
        encodings: convert.Encodings = {}  # the request's boards, to answer unchanged ones
        state, move = convert.state_and_move_from_proto(request.state, request.move, encodings)
        answer = convert.verdict_to_proto(dfm.validate(state, move), encodings)
        METER.move_judged(answer.legal)
        return answer

    @translate_errors
    def ReplayGame(self, request: service_pb2.ReplayGameRequest,
                   context: grpc.ServicerContext) -> service_pb2.ReplayGameResponse:
        setup, moves = convert.log_from_proto(request.setup, request.moves)
        return convert.replay_to_proto(dfm.replay(setup, moves))

    @translate_errors
    def ListChallengeTypes(self, request: service_pb2.ListChallengeTypesRequest,
                           context: grpc.ServicerContext
                           ) -> service_pb2.ListChallengeTypesResponse:
        return CHALLENGE_TYPES


SERVICE = service_pb2.DESCRIPTOR.services_by_name["DowntownFarmersMarketService"]

CHALLENGE_TYPES = convert.challenge_types_to_proto(challenge_types())
"""The challenge types' answer, made once: it is the same for every call."""


def _add_servicer(server: grpc.Server, limits: CallLimits) -> None:
    """Its calls are all short (replays are bounded by the log limit), so it reads none
    of ``limits``."""
    service_grpc.add_DowntownFarmersMarketServiceServicer_to_server(
        DowntownFarmersMarketServicer(), server)


REGISTRATION = GameRegistration(SERVICE, _add_servicer, {"ReplayGame": Seats.REPLAYS})
