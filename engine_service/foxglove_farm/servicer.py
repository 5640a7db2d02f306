"""The Foxglove Farm gRPC servicer: convert, delegate to the rules, convert back."""

from __future__ import annotations

import grpc

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.readings import score_town_readings
from tabletop_rules.game import replay
from tabletop_rules.problems import InvalidInputError, Problem

from ..calls import CallLimits, deadline_of
from ..errors import translate_errors
from ..metrics import GameMeter, plan_made
from ..registration import GameRegistration, Seats
from . import convert

METER = GameMeter("foxglove-farm")


class FoxgloveFarmServicer:
    """Scores, ranks, rules on transports, plans final rounds and referees whole games;
    keeps nothing. Each method answers with the encoding of its response message (see
    :class:`GameRegistration`)."""

    def __init__(self, limits: CallLimits) -> None:
        self._limits = limits

    @translate_errors
    def ScoreTown(self, request: service_pb2.ScoreTownRequest,
                  context: grpc.ServicerContext) -> bytes:
        town, doubts, index = convert.town_readings_from_proto(request.town)
        score = fox.score_town(town)
        METER.boards_scored()
        return convert.scored_town_to_wire(
            score, score_town_readings(town, doubts, score, index=index) if doubts else None)

    @translate_errors
    def RankPlayers(self, request: service_pb2.RankPlayersRequest,
                    context: grpc.ServicerContext) -> bytes:
        ranking = fox.rank_towns(convert.players_from_proto(request.players))
        METER.boards_scored(len(ranking.standings))
        return convert.ranking_to_wire(ranking)

    @translate_errors
    def ValidateTransport(self, request: service_pb2.ValidateTransportRequest,
                          context: grpc.ServicerContext) -> bytes:
        town, move = convert.transport_from_proto(request)
        verdict = fox.validate_transport(town, move)
        METER.move_judged(verdict.legal)
        return convert.transport_verdict_to_wire(verdict)

    @translate_errors
    def PlanFinalRound(self, request: service_pb2.PlanFinalRoundRequest,
                       context: grpc.ServicerContext) -> bytes:
        town = convert.town_from_proto(request.town)
        try:
            plan = planner.plan_final_round(
                town, deadline=deadline_of(context, self._limits).within(self._limits.plan_seconds))
        except planner.UnboundedPlanError as error:  # only a request catalog can cause it
            raise InvalidInputError([Problem(("town", "catalog"), error.sentence)]) from None
        plan_made(plan.optimal)
        return convert.plan_to_wire(plan)

    @translate_errors
    def NewGame(self, request: service_pb2.NewGameRequest,
                context: grpc.ServicerContext) -> bytes:
        return convert.new_game_to_wire(GAME.new_game(convert.setup_from_proto(request.setup)))

    @translate_errors
    def ListLegalMoves(self, request: service_pb2.ListLegalMovesRequest,
                       context: grpc.ServicerContext) -> bytes:
        state = convert.state_from_proto(request.state)
        return convert.legal_moves_to_wire(state, GAME.turn(state), GAME.legal_moves(state))

    @translate_errors
    def ValidateAction(self, request: service_pb2.ValidateActionRequest,
                       context: grpc.ServicerContext) -> bytes:
        state, action = convert.state_and_action_from_proto(request.state, request.action)
        verdict = GAME.validate(state, action)
        METER.move_judged(verdict.legal)
        return convert.action_verdict_to_wire(verdict)

    @translate_errors
    def ReplayGame(self, request: service_pb2.ReplayGameRequest,
                   context: grpc.ServicerContext) -> bytes:
        setup, actions = convert.log_from_proto(request.setup, request.actions)
        return convert.replay_to_wire(replay(GAME, setup, actions))

    @translate_errors
    def GetCatalog(self, request: service_pb2.GetCatalogRequest,
                   context: grpc.ServicerContext) -> bytes:
        return CATALOG


SERVICE = service_pb2.DESCRIPTOR.services_by_name["FoxgloveFarmService"]

CATALOG = convert.catalog_to_wire(fox.builtin_catalog())
"""The built-in catalog's answer, written once: it is the same for every call."""

REGISTRATION = GameRegistration(SERVICE, FoxgloveFarmServicer,
                                {"PlanFinalRound": Seats.PLANS, "ReplayGame": Seats.REPLAYS})
