"""Replaying a game's log: where it first goes wrong, or how it ends and who won.

A log is a setup and the moves after it. Replaying checks each move against the state
the earlier ones made, so a client can keep only the log and ask the referee for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..problems import InvalidInputError, Problem
from .legality import Violation, validate
from .moves import Move, Setup, check_move
from .ranking import Ranking, rank_boards
from .setup import new_game
from .state import GameState


MAX_LOG_MOVES = 1000
"""The longest log a replay reads: a legal game has at most about 130 moves (65 tiles
each taken or discarded once, and the reveals that bring them out), so this is a wide
margin that still keeps a replay to milliseconds."""


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The state after the last legal move, and what stopped the replay, if anything.

    ``illegal_index`` is the index in the log of the first illegal move (None when every
    move is legal) and ``violations`` what it breaks. ``ranking`` is the result once the
    game is over (DFM-R10), None before.
    """

    state: GameState
    illegal_index: int | None
    violations: tuple[Violation, ...]
    ranking: Ranking | None

    @property
    def legal(self) -> bool:
        return self.illegal_index is None


def replay(setup: Setup, moves: Sequence[Move]) -> ReplayResult:
    """Play ``moves`` from ``setup`` until the end of the log or the first illegal move.

    :class:`InvalidInputError` for a malformed setup or move, its paths under ``setup``
    or ``moves/<index>``, or at ``moves`` for a log longer than :data:`MAX_LOG_MOVES`.
    """
    if len(moves) > MAX_LOG_MOVES:
        raise InvalidInputError([Problem(("moves",), f"at most {MAX_LOG_MOVES} moves (the "
                                         f"limit); got {len(moves)}")])
    try:
        state = new_game(setup)
    except InvalidInputError as error:
        raise error.under("setup") from None
    for index, move in enumerate(moves):
        problems = check_move(move, len(state.players))
        if problems:
            raise InvalidInputError([p.under("moves", index) for p in problems])
        verdict = validate(state, move)
        if verdict.next_state is None:
            return ReplayResult(state, index, verdict.violations, _ranking(state))
        state = verdict.next_state
    return ReplayResult(state, None, (), _ranking(state))


def _ranking(state: GameState) -> Ranking | None:
    if not state.game_over:
        return None
    return rank_boards([(p.name, p.board) for p in state.players])
