"""``/v1/foxglove-farm``: score a town, rank players, rule on a transport, plan the final
round, and referee a whole game action by action."""

from __future__ import annotations

from pathlib import Path

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as service_grpc

from ...games import JUDGED_WHOLE, Carried, Endpoint, GameRoutes
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

ROUTES = GameRoutes(
    slug="foxglove-farm",
    description="Score towns, rank players, rule on transports, plan the final round, and "
                "referee a game of four rounds action by action.",
    service=service_pb2.DESCRIPTOR.services_by_name["FoxgloveFarmService"],
    stub=service_grpc.FoxgloveFarmServiceStub,
    examples=Path(__file__).with_name("examples.json"),
    endpoints=(
        Endpoint("/score", "ScoreTown", ScoreTownSchema, TownScoreSchema,
                 "scoreFoxgloveFarmTown", """
    Score a town after the fourth round: score track plus each end-game effect.

    A building's goods count may be a doubtful reading, ``{"candidates": [7, 8]}`` (2 to
    4 counts, the likeliest first; at most 8 in a town): the answer is then the likeliest
    reading's, and ``uncertainty`` gives the lowest and highest totals any possible
    reading makes (one where every building holds what it may, FF-R19) and, for each
    doubtful count, whether the total depends on it and the total each candidate gives.
""" + JUDGED_WHOLE, Carried("town", "score"), whole=True),
        Endpoint("/rank", "RankPlayers", RankTownsSchema, TownRankingSchema,
                 "rankFoxgloveFarmPlayers", """
    Score and place 1 to 4 players, with the rulebook's tie-breaks (FF-R16).
""" + JUDGED_WHOLE, whole=True),
        Endpoint("/transport/validate", "ValidateTransport", TransportRequestSchema,
                 TransportVerdictSchema, "validateFoxgloveFarmTransport", """
    Rule on one transport: an illegal move is a 200 answer with ``legal`` false.
""" + JUDGED_WHOLE, whole=True),
        Endpoint("/final-round/plan", "PlanFinalRound", TownSchema, FinalRoundPlanSchema,
                 "planFoxgloveFarmFinalRound", """
    The best total any legal sequence of transports and processing runs reaches from a
    town as the fourth round's transportation and processing begin, and a plan for it.""",
                 Carried("town", "plan")),
        Endpoint("/games", "NewGame", FoxgloveGameSetupSchema, FoxgloveGameStateSchema,
                 "startFoxgloveFarmGame", "Start a game of four rounds from its setup: the "
                 "state before the first production.", Carried("setup", "state")),
        Endpoint("/legal-moves", "ListLegalMoves", FoxgloveLegalMovesRequestSchema,
                 FoxgloveLegalMovesSchema, "listFoxgloveFarmLegalMoves", """
    Whose turn it is, every legal action, and the goods on each building.

    Builds come with a default payment and trails one at a time; `goods_on_hand` shows what
    else can pay. Empty while tiles are to be drawn and once the game is over.
    """),
        Endpoint("/actions/validate", "ValidateAction", FoxgloveValidateActionRequestSchema,
                 FoxgloveActionVerdictSchema, "validateFoxgloveFarmAction", """
    Judge an action: the next state, or every rule it breaks.

    An illegal action is an answer (`legal` false, with each violation's reason, rule,
    message and pointer into `/action`), not an error; only a malformed state or action
    is a 422.
    """),
        Endpoint("/games/replay", "ReplayGame", FoxgloveReplayGameRequestSchema,
                 FoxgloveGameReplaySchema, "replayFoxgloveFarmGame", """
    Replay a game's log to its end or its first illegal action; once the game is over,
    the final scores and the winners (FF-R16)."""),
    ))
"""Every endpoint relays one RPC; the docs are the operations' summaries and
descriptions."""
