"""Replaying a game's log: where it first goes wrong, or how it ends and who won.

A log is a setup and the moves after it. Replaying checks each move against the state
the earlier ones made, so a client can keep only the log and ask the referee for the rest
(:func:`tabletop_rules.game.replay`, the same for every game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from .. import game
from .game import GAME, MAX_LOG_MOVES
from .legality import Reason
from .moves import Move, Setup
from .scoring import BoardScore
from .state import GameState

ReplayResult: TypeAlias = game.ReplayResult[GameState, Reason, BoardScore]
"""The state after the last legal move, the first illegal move's index and violations
(None and empty when every move is legal), and the result once the game is over."""

__all__ = ["MAX_LOG_MOVES", "ReplayResult", "replay"]


def replay(setup: Setup, moves: Sequence[Move]) -> ReplayResult:
    """Play ``moves`` from ``setup`` until the end of the log or the first illegal move.

    :class:`InvalidInputError` for a malformed setup or move, its paths under ``setup``
    or ``moves/<index>``, or at ``moves`` for a log longer than :data:`MAX_LOG_MOVES`.
    """
    return game.replay(GAME, setup, moves)
