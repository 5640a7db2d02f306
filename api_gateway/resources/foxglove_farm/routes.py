"""``/v1/foxglove-farm``: score a town, rank players, rule on a transport, plan the final
round, and referee a whole game action by action."""

from __future__ import annotations

from pathlib import Path

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import game_pb2, planning_pb2, scoring_pb2, town_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as service_grpc

from ... import engine
from ...blueprint import Blueprint
from ..examples import Examples
from .game_schemas import (
    FoxgloveActionVerdictSchema,
    FoxgloveGameReplaySchema,
    FoxgloveGameSetupSchema,
    FoxgloveGameStateSchema,
    FoxgloveLegalMovesRequestSchema,
    FoxgloveLegalMovesSchema,
    FoxgloveReplayGameRequestSchema,
    FoxgloveValidateActionRequestSchema,
)
from .schemas import (
    FinalRoundPlanSchema,
    RankTownsSchema,
    ScoreTownSchema,
    TownRankingSchema,
    TownSchema,
    TownScoreSchema,
    TransportRequestSchema,
    TransportVerdictSchema,
)

blueprint = Blueprint("foxglove-farm", __name__, url_prefix="/v1/foxglove-farm",
                      description="Score towns, rank players, rule on transports, plan "
                                  "the final round, and referee a game of four rounds action "
                                  "by action.")

EXAMPLES = Examples(Path(__file__).with_name("examples.json"))


def _stub() -> service_grpc.FoxgloveFarmServiceStub:
    return engine.stub(service_grpc.FoxgloveFarmServiceStub)


@blueprint.json_post("/score", ScoreTownSchema, TownScoreSchema, whole=True)
@EXAMPLES.operation("scoreFoxgloveFarmTown")
def score(town: town_pb2.Town) -> scoring_pb2.TownScore:
    """Score a town after the fourth round: score track plus each end-game effect.

    A building's goods count may be a doubtful reading, ``{"candidates": [7, 8]}`` (2 to
    4 counts, the likeliest first; at most 8 in a town): the answer is then the likeliest
    reading's, and ``uncertainty`` gives the lowest and highest totals any possible
    reading makes (one where every building holds what it may, FF-R19) and, for each
    doubtful count, whether the total depends on it and the total each candidate gives.

    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
    answer = engine.call(_stub().ScoreTown, service_pb2.ScoreTownRequest(town=town),
                         strip_prefix="/town")
    return answer.score


@blueprint.json_post("/rank", RankTownsSchema, TownRankingSchema, whole=True)
@EXAMPLES.operation("rankFoxgloveFarmPlayers")
def rank(request: service_pb2.RankPlayersRequest) -> service_pb2.RankPlayersResponse:
    """Score and place 1 to 4 players, with the rulebook's tie-breaks (FF-R16).

    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
    return engine.call(_stub().RankPlayers, request)


@blueprint.json_post("/transport/validate", TransportRequestSchema, TransportVerdictSchema,
                     whole=True)
@EXAMPLES.operation("validateFoxgloveFarmTransport")
def validate_transport(request: service_pb2.ValidateTransportRequest
                       ) -> service_pb2.ValidateTransportResponse:
    """Rule on one transport: an illegal move is a 200 answer with ``legal`` false.

    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
    return engine.call(_stub().ValidateTransport, request)


@blueprint.json_post("/final-round/plan", TownSchema, FinalRoundPlanSchema)
@EXAMPLES.operation("planFoxgloveFarmFinalRound")
def plan_final_round(town: town_pb2.Town) -> planning_pb2.FinalRoundPlan:
    """The best total any legal sequence of transports and processing runs reaches from a
    town as the fourth round's transportation and processing begin, and a plan for it."""
    answer = engine.call(_stub().PlanFinalRound, service_pb2.PlanFinalRoundRequest(town=town),
                         strip_prefix="/town")
    return answer.plan


@blueprint.json_post("/games", FoxgloveGameSetupSchema, FoxgloveGameStateSchema)
@EXAMPLES.operation("startFoxgloveFarmGame")
def new_game(setup: game_pb2.Setup) -> game_pb2.GameState:
    """Start a game of four rounds from its setup: the state before the first production."""
    answer = engine.call(_stub().NewGame, service_pb2.NewGameRequest(setup=setup),
                         strip_prefix="/setup")
    return answer.state


@blueprint.json_post("/legal-moves", FoxgloveLegalMovesRequestSchema, FoxgloveLegalMovesSchema)
@EXAMPLES.operation("listFoxgloveFarmLegalMoves")
def legal_moves(request: service_pb2.ListLegalMovesRequest
                ) -> service_pb2.ListLegalMovesResponse:
    """Whose turn it is, every legal action, and the goods on each building.

    Builds come with a default payment and trails one at a time; `goods_on_hand` shows what
    else can pay. Empty while tiles are to be drawn and once the game is over.
    """
    return engine.call(_stub().ListLegalMoves, request)


@blueprint.json_post("/actions/validate", FoxgloveValidateActionRequestSchema,
                     FoxgloveActionVerdictSchema)
@EXAMPLES.operation("validateFoxgloveFarmAction")
def validate_action(request: service_pb2.ValidateActionRequest
                    ) -> service_pb2.ValidateActionResponse:
    """Judge an action: the next state, or every rule it breaks.

    An illegal action is an answer (`legal` false, with each violation's reason, rule,
    message and pointer into `/action`), not an error; only a malformed state or action
    is a 422.
    """
    return engine.call(_stub().ValidateAction, request)


@blueprint.json_post("/games/replay", FoxgloveReplayGameRequestSchema,
                     FoxgloveGameReplaySchema)
@EXAMPLES.operation("replayFoxgloveFarmGame")
def replay_game(request: service_pb2.ReplayGameRequest) -> service_pb2.ReplayGameResponse:
    """Replay a game's log to its end or its first illegal action; once the game is over,
    the final scores and the winners (FF-R16)."""
    return engine.call(_stub().ReplayGame, request)
