"""``/v1/foxglove-farm``: score a town, rank players, rule on a transport, plan the final
round."""

from __future__ import annotations

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as service_grpc

from ... import engine
from ...blueprint import Blueprint
from .schemas import (
    FinalRoundPlanSchema,
    RankTownsSchema,
    TownRankingSchema,
    TownSchema,
    TownScoreSchema,
    TransportRequestSchema,
    TransportVerdictSchema,
)

blueprint = Blueprint("foxglove-farm", __name__, url_prefix="/v1/foxglove-farm",
                      description="Score towns, rank players, rule on transports and plan "
                                  "the final round.")


def _stub() -> service_grpc.FoxgloveFarmServiceStub:
    return service_grpc.FoxgloveFarmServiceStub(engine.channel())


@blueprint.json_post("/score", TownSchema, TownScoreSchema)
def score(town):  # type: ignore[no-untyped-def]
    """Score a town after the fourth round: score track plus each end-game effect."""
    answer = engine.call(_stub().ScoreTown, service_pb2.ScoreTownRequest(town=town),
                         strip_prefix="/town")
    return answer.score


@blueprint.json_post("/rank", RankTownsSchema, TownRankingSchema)
def rank(request):  # type: ignore[no-untyped-def]
    """Score and place 1 to 4 players, with the rulebook's tie-breaks (FF-R16)."""
    return engine.call(_stub().RankPlayers, request)


@blueprint.json_post("/transport/validate", TransportRequestSchema, TransportVerdictSchema)
def validate_transport(request):  # type: ignore[no-untyped-def]
    """Rule on one transport: an illegal move is a 200 answer with ``legal`` false."""
    return engine.call(_stub().ValidateTransport, request)


@blueprint.json_post("/final-round/plan", TownSchema, FinalRoundPlanSchema, expensive=True)
def plan_final_round(town):  # type: ignore[no-untyped-def]
    """The best total any legal sequence of transports and processing runs reaches from a
    town as the fourth round's transportation and processing begin, and a plan for it."""
    answer = engine.call(_stub().PlanFinalRound, service_pb2.PlanFinalRoundRequest(town=town),
                         strip_prefix="/town")
    return answer.plan
