"""Downtown Farmers Market as a :class:`tabletop_rules.game.Game`: the draft's states and
moves behind the protocol every game follows."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game, Turn
from ..problems import Problem
from .draft import Action
from .legality import Reason, Verdict, legal_moves, validate
from .moves import Move, Setup, check_move
from .ranking import Ranking, rank_boards
from .scoring import BoardScore
from .setup import new_game
from .state import GameState

MAX_LOG_MOVES = 1000
"""The longest log a replay reads: a legal game has at most about 130 moves (65 tiles
each taken or discarded once, and the reveals that bring them out), so this is a wide
margin that still keeps a replay to milliseconds."""


class DowntownFarmersMarket:
    """The game's rules; stateless, so the one instance :data:`GAME` serves everyone."""

    slug = "downtown-farmers-market"
    max_log_moves = MAX_LOG_MOVES

    def new_game(self, setup: Setup) -> GameState:
        return new_game(setup)

    def turn(self, state: GameState) -> Turn:
        """At a reveal no player acts: the pile decides which tiles come up."""
        if state.expected is None:
            return Turn(None, None)
        seat = None if state.expected is Action.REVEAL else state.current_player
        return Turn(seat, state.expected.value)

    def legal_moves(self, state: GameState) -> Sequence[Move]:
        return legal_moves(state)

    def check_move(self, state: GameState, move: Move) -> list[Problem]:
        return check_move(move, len(state.players))

    def validate(self, state: GameState, move: Move) -> Verdict:
        return validate(state, move)

    def standings(self, state: GameState) -> Ranking | None:
        if not state.game_over:
            return None
        return rank_boards([(p.name, p.board) for p in state.players])


GAME: Game[Setup, GameState, Move, Reason, BoardScore] = DowntownFarmersMarket()
"""The game, as the engine, the conformance tests and library users drive it (typed as
the protocol, so mypy checks that the class follows it)."""
