"""Ranking players' boards at the end of a game, with the rulebook's tie-breaks (DFM-R10)."""

from __future__ import annotations

from collections.abc import Sequence

from ..problems import InvalidInputError
from .. import standings
from .model import Board, Mode
from .scoring import BoardScore, score_board
from .validation import check_players

RANKING_RULE = "DFM-R10"


Standing = standings.Standing[BoardScore]
Ranking = standings.Ranking[BoardScore]


def tie_break_key(score: BoardScore) -> tuple[int, ...]:
    """Highest total; then most challenges met; then best single challenge (DFM-R10).

    Young Shopper boards compare totals only, then share the victory.
    """
    if score.mode is Mode.YOUNG_SHOPPER:
        return (score.total,)
    return (score.total, score.challenges_met, score.best_challenge_points)


def rank_boards(players: Sequence[tuple[str, Board]]) -> Ranking:
    """Score and place each ``(name, board)``; :class:`InvalidInputError` lists every
    problem (see :func:`.validation.check_players`), mixed modes included."""
    problems = check_players(players)
    if problems:
        raise InvalidInputError(problems)
    return standings.rank([(name, score_board(board)) for name, board in players],
                          tie_break_key)
