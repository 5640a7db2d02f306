"""``/v1/downtown-farmers-market``: score a board, rank players, referee a game."""

from __future__ import annotations

from pathlib import Path

from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as service_grpc

from ... import engine
from ...blueprint import Blueprint
from ..examples import Examples
from .schemas import (
    GameReplaySchema,
    GameSetupSchema,
    GameStateSchema,
    LegalMovesRequestSchema,
    LegalMovesSchema,
    MoveVerdictSchema,
    RankingSchema,
    RankRequestSchema,
    ReplayGameRequestSchema,
    ScoreBoardSchema,
    ScoreSchema,
    ValidateMoveRequestSchema,
)

blueprint = Blueprint("downtown-farmers-market", __name__,
                      url_prefix="/v1/downtown-farmers-market",
                      description="Score finished (or unfinished) boards, rank players, "
                                  "and referee a game move by move.")

EXAMPLES = Examples(Path(__file__).with_name("examples.json"))


def _stub() -> service_grpc.DowntownFarmersMarketServiceStub:
    return engine.stub(service_grpc.DowntownFarmersMarketServiceStub)


@blueprint.json_post("/score", ScoreBoardSchema, ScoreSchema, whole=True)
@EXAMPLES.operation("scoreDowntownFarmersMarketBoard")
def score(board: board_pb2.Board) -> scoring_pb2.BoardScore:
    """Score one board, line by line, each line with its reason and ruling.

    A space may be a doubtful reading, ``{"candidates": [["bread"], ["corn"]]}`` (2 to 4
    tiles, the likeliest first; at most 8 such spaces): the answer is then the likeliest
    reading's, and ``uncertainty`` gives the lowest and highest totals any reading makes
    and, for each doubtful space, whether the total depends on it and the total each of
    its candidates gives.

    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
    answer = engine.call(_stub().ScoreBoard, service_pb2.ScoreBoardRequest(board=board),
                         strip_prefix="/board")
    return answer.score


@blueprint.json_post("/rank", RankRequestSchema, RankingSchema, whole=True)
@EXAMPLES.operation("rankDowntownFarmersMarketPlayers")
def rank(request: service_pb2.RankPlayersRequest) -> service_pb2.RankPlayersResponse:
    """Score and place 1 to 4 players, with the rulebook's tie-breaks (DFM-R10).

    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
    return engine.call(_stub().RankPlayers, request)


@blueprint.json_post("/games", GameSetupSchema, GameStateSchema)
@EXAMPLES.operation("startDowntownFarmersMarketGame")
def new_game(setup: game_pb2.Setup) -> game_pb2.GameState:
    """Start a game from its setup: the state before the first take."""
    answer = engine.call(_stub().NewGame, service_pb2.NewGameRequest(setup=setup),
                         strip_prefix="/setup")
    return answer.state


@blueprint.json_post("/legal-moves", LegalMovesRequestSchema, LegalMovesSchema)
@EXAMPLES.operation("listDowntownFarmersMarketLegalMoves")
def legal_moves(request: service_pb2.ListLegalMovesRequest
                ) -> service_pb2.ListLegalMovesResponse:
    """Every legal take or discard in a state, each distinct tile once, and the `turn`:
    who acts next and what the game waits for.

    No moves at a reveal (which tiles come up is the pile's to say: the turn's
    `reveal_count` says how many to turn over) and once the game is over.
    """
    return engine.call(_stub().ListLegalMoves, request)


@blueprint.json_post("/moves/validate", ValidateMoveRequestSchema, MoveVerdictSchema)
@EXAMPLES.operation("validateDowntownFarmersMarketMove")
def validate_move(request: service_pb2.ValidateMoveRequest
                  ) -> service_pb2.ValidateMoveResponse:
    """Judge a move: the next state, or every rule it breaks.

    An illegal move is an answer (`legal` false, with each violation's reason, rule,
    message and pointer), not an error; only a malformed state or move is a 422.
    """
    return engine.call(_stub().ValidateMove, request)


@blueprint.json_post("/games/replay", ReplayGameRequestSchema, GameReplaySchema)
@EXAMPLES.operation("replayDowntownFarmersMarketGame")
def replay_game(request: service_pb2.ReplayGameRequest) -> service_pb2.ReplayGameResponse:
    """Replay a game's log to its end or its first illegal move; once the game is over,
    the final scores and the winners (DFM-R10)."""
    return engine.call(_stub().ReplayGame, request)
