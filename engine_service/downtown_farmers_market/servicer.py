"""The Downtown Farmers Market gRPC servicer: convert, delegate to the rules, convert back."""

from __future__ import annotations

import grpc

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.challenge_types import challenge_types
from tabletop_rules.downtown_farmers_market.readings import score_readings

from ..errors import translate_errors
from ..metrics import GameMeter
from ..registration import GameRegistration, Seats
from . import convert

METER = GameMeter("downtown-farmers-market")


class DowntownFarmersMarketServicer:
    """Scores and ranks boards, referees games; keeps nothing between calls. Each method
    answers with the encoding of its response message; the calls most made read their
    request's bytes (see :class:`GameRegistration`)."""

    @translate_errors
    def ScoreBoard(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        board, doubts = convert.score_board_request(request)
        score = dfm.score_board(board)
        METER.boards_scored()
        return convert.scored_board_to_wire(
            score, score_readings(board, doubts) if doubts else None)

    @translate_errors
    def RankPlayers(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        ranking = dfm.rank_boards(convert.rank_players_request(request))
        METER.boards_scored(len(ranking.standings))
        return convert.ranking_to_wire(ranking)

    @translate_errors
    def NewGame(self, request: service_pb2.NewGameRequest,
                context: grpc.ServicerContext) -> bytes:
        return convert.new_game_to_wire(dfm.new_game(convert.setup_from_proto(request.setup)))

    @translate_errors
    def ListLegalMoves(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        state = convert.legal_moves_request(request)
        return convert.legal_moves_to_wire(state, dfm.legal_moves(state))

    @translate_errors
    def ValidateMove(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        encodings: convert.Encodings = {}  # the request's boards, to answer unchanged ones
        state, move = convert.validate_move_request(request, encodings)
        verdict = dfm.validate(state, move)
        METER.move_judged(verdict.legal)
        return convert.verdict_to_wire(verdict, encodings)

    @translate_errors
    def ReplayGame(self, request: service_pb2.ReplayGameRequest,
                   context: grpc.ServicerContext) -> bytes:
        setup, moves = convert.log_from_proto(request.setup, request.moves)
        return convert.replay_to_wire(dfm.replay(setup, moves))

    @translate_errors
    def ListChallengeTypes(self, request: service_pb2.ListChallengeTypesRequest,
                           context: grpc.ServicerContext) -> bytes:
        return CHALLENGE_TYPES


SERVICE = service_pb2.DESCRIPTOR.services_by_name["DowntownFarmersMarketService"]

CHALLENGE_TYPES = convert.challenge_types_to_wire(challenge_types())
"""The challenge types' answer, written once: it is the same for every call."""

REGISTRATION = GameRegistration(
    SERVICE, lambda limits: DowntownFarmersMarketServicer(), {"ReplayGame": Seats.REPLAYS},
    byte_requests=frozenset({"ScoreBoard", "RankPlayers", "ListLegalMoves", "ValidateMove"}))
"""Its calls are all short (replays are bounded by the log limit), so it reads none of
the limits."""
