"""``/v1/downtown-farmers-market``: score a board, rank players."""

from __future__ import annotations

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as service_grpc

from ... import engine
from ...blueprint import Blueprint
from .schemas import BoardSchema, RankingSchema, RankRequestSchema, ScoreSchema

blueprint = Blueprint("downtown-farmers-market", __name__,
                      url_prefix="/v1/downtown-farmers-market",
                      description="Score finished (or unfinished) boards and rank players.")

PROBLEMS = (400, 413, 422, 503, 504)


def _stub() -> service_grpc.DowntownFarmersMarketServiceStub:
    return service_grpc.DowntownFarmersMarketServiceStub(engine.channel())


@blueprint.post("/score")
@blueprint.arguments(BoardSchema, as_kwargs=False)
@blueprint.response(200, ScoreSchema)
@blueprint.problem_responses(*PROBLEMS)
def score(board):  # type: ignore[no-untyped-def]
    """Score one board, line by line, each line with its reason and ruling."""
    answer = engine.call(_stub().ScoreBoard, service_pb2.ScoreBoardRequest(board=board),
                         strip_prefix="/board")
    return answer.score


@blueprint.post("/rank")
@blueprint.arguments(RankRequestSchema, as_kwargs=False)
@blueprint.response(200, RankingSchema)
@blueprint.problem_responses(*PROBLEMS)
def rank(request):  # type: ignore[no-untyped-def]
    """Score and place 1 to 4 players, with the rulebook's tie-breaks (DFM-R10)."""
    return engine.call(_stub().RankPlayers, request)
