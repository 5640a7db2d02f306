"""The contract's Downtown Farmers Market JSON, read into protobuf requests and written
from protobuf answers.

These schemas check JSON types and names; what makes a board, state or move well formed
(4x4, 1 to 3 ingredients a tile, the challenges' numbers, seats and rows in range, a state
that adds up) is the rules' to say, and the engine's answers carry those problems as
pointers into the same JSON. The schemas that read a board or a state also write one, so
a state the referee answers is exactly what a client sends back with its next move.

By message family, each part on those below it: ``tiles`` (ingredients, Food tiles,
spaces), ``board`` (challenges, boards, players), ``scores`` (the scoring answers),
``game`` (states, moves and their answers). Here are the names the routes and the other
resources use.
"""

from __future__ import annotations

from .tiles import (
    ingredient,
)
from .board import (
    BoardSchema,
    CHALLENGE_SCHEMAS,
    RankRequestSchema,
    ScoreBoardSchema,
)
from .scores import (
    RankingSchema,
    ScoreSchema,
)
from .game import (
    GameReplaySchema,
    GameSetupSchema,
    GameStateSchema,
    LegalMovesRequestSchema,
    LegalMovesSchema,
    move_field,
    MoveVerdictSchema,
    ReplayGameRequestSchema,
    TakeTileSchema,
    ValidateMoveRequestSchema,
)

__all__ = [
    "BoardSchema",
    "CHALLENGE_SCHEMAS",
    "GameReplaySchema",
    "GameSetupSchema",
    "GameStateSchema",
    "ingredient",
    "LegalMovesRequestSchema",
    "LegalMovesSchema",
    "move_field",
    "MoveVerdictSchema",
    "RankingSchema",
    "RankRequestSchema",
    "ReplayGameRequestSchema",
    "ScoreBoardSchema",
    "ScoreSchema",
    "TakeTileSchema",
    "ValidateMoveRequestSchema",
]
