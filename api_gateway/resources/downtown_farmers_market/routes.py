"""``/v1/downtown-farmers-market``: score a board, rank players, referee a game."""

from __future__ import annotations

from pathlib import Path

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as service_grpc

from ...games import JUDGED_WHOLE, Carried, Endpoint, GameRoutes
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

ROUTES = GameRoutes(
    slug="downtown-farmers-market",
    description="Score finished (or unfinished) boards, rank players, and referee a game "
                "move by move.",
    service=service_pb2.DESCRIPTOR.services_by_name["DowntownFarmersMarketService"],
    stub=service_grpc.DowntownFarmersMarketServiceStub,
    examples=Path(__file__).with_name("examples.json"),
    endpoints=(
        Endpoint("/score", "ScoreBoard", ScoreBoardSchema, ScoreSchema,
                 "scoreDowntownFarmersMarketBoard", """
    Score one board, line by line, each line with its reason and ruling.

    A space may be a doubtful reading, ``{"candidates": [["bread"], ["corn"]]}`` (2 to 4
    tiles, the likeliest first; at most 8 such spaces): the answer is then the likeliest
    reading's, and ``uncertainty`` gives the lowest and highest totals any reading makes
    and, for each doubtful space, whether the total depends on it and the total each of
    its candidates gives.
""" + JUDGED_WHOLE, Carried("board", "score"), whole=True),
        Endpoint("/rank", "RankPlayers", RankRequestSchema, RankingSchema,
                 "rankDowntownFarmersMarketPlayers", """
    Score and place 1 to 4 players, with the rulebook's tie-breaks (DFM-R10).
""" + JUDGED_WHOLE, whole=True),
        Endpoint("/games", "NewGame", GameSetupSchema, GameStateSchema,
                 "startDowntownFarmersMarketGame",
                 "Start a game from its setup: the state before the first take.",
                 Carried("setup", "state")),
        Endpoint("/legal-moves", "ListLegalMoves", LegalMovesRequestSchema, LegalMovesSchema,
                 "listDowntownFarmersMarketLegalMoves", """
    Every legal take or discard in a state, each distinct tile once, and the `turn`:
    who acts next and what the game waits for.

    No moves at a reveal (which tiles come up is the pile's to say: the turn's
    `reveal_count` says how many to turn over) and once the game is over.
    """),
        Endpoint("/moves/validate", "ValidateMove", ValidateMoveRequestSchema,
                 MoveVerdictSchema, "validateDowntownFarmersMarketMove", """
    Judge a move: the next state, or every rule it breaks.

    An illegal move is an answer (`legal` false, with each violation's reason, rule,
    message and pointer), not an error; only a malformed state or move is a 422.
    """),
        Endpoint("/games/replay", "ReplayGame", ReplayGameRequestSchema, GameReplaySchema,
                 "replayDowntownFarmersMarketGame", """
    Replay a game's log to its end or its first illegal move; once the game is over,
    the final scores and the winners (DFM-R10)."""),
    ))
"""Every endpoint relays one RPC; the docs are the operations' summaries and
descriptions."""
