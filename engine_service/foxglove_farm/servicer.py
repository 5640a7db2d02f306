"""The Foxglove Farm gRPC servicer: convert, delegate to the rules, convert back."""

from __future__ import annotations

import grpc

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as service_grpc
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.problems import InvalidInputError, Problem

from ..calls import CallLimits, deadline_of
from ..errors import translate_errors
from . import convert


class FoxgloveFarmServicer(service_grpc.FoxgloveFarmServiceServicer):
    """Scores, ranks, rules on transports and plans final rounds; keeps nothing."""

    def __init__(self, limits: CallLimits) -> None:
        self._limits = limits

    @translate_errors
    def ScoreTown(self, request: service_pb2.ScoreTownRequest,
                  context: grpc.ServicerContext) -> service_pb2.ScoreTownResponse:
        town = convert.town_from_proto(request.town)
        return service_pb2.ScoreTownResponse(score=convert.score_to_proto(fox.score_town(town)))

    @translate_errors
    def RankPlayers(self, request: service_pb2.RankPlayersRequest,
                    context: grpc.ServicerContext) -> service_pb2.RankPlayersResponse:
        return convert.ranking_to_proto(
            fox.rank_towns(convert.players_from_proto(request.players)))

    @translate_errors
    def ValidateTransport(self, request: service_pb2.ValidateTransportRequest,
                          context: grpc.ServicerContext
                          ) -> service_pb2.ValidateTransportResponse:
        town, move = convert.transport_from_proto(request)
        return convert.transport_verdict_to_proto(fox.validate_transport(town, move))

    @translate_errors
    def PlanFinalRound(self, request: service_pb2.PlanFinalRoundRequest,
                       context: grpc.ServicerContext) -> service_pb2.PlanFinalRoundResponse:
        town = convert.town_from_proto(request.town)
        try:
            plan = planner.plan_final_round(
                town, deadline=deadline_of(context, self._limits).within(self._limits.plan_seconds))
        except planner.UnboundedPlanError as error:  # only a request catalog can cause it
            raise InvalidInputError([Problem(("town", "catalog"), str(error))]) from None
        return service_pb2.PlanFinalRoundResponse(plan=convert.plan_to_proto(plan))


SERVICE = service_pb2.DESCRIPTOR.services_by_name["FoxgloveFarmService"]


def register(server: grpc.Server, limits: CallLimits) -> str:
    """Add the servicer to ``server``; returns its full service name."""
    service_grpc.add_FoxgloveFarmServiceServicer_to_server(FoxgloveFarmServicer(limits), server)
    return SERVICE.full_name
