"""Ranking players' boards at the end of a game, with the rulebook's tie-breaks (DFM-R10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..problems import InvalidInputError
from ..standings import place
from .model import Board, Mode
from .scoring import BoardScore, score_board
from .validation import check_players

RANKING_RULE = "DFM-R10"


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    score: BoardScore
    place: int


@dataclass(frozen=True, slots=True)
class Ranking:
    standings: tuple[Standing, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        """Everyone in first place: tied players share the victory."""
        return tuple(s.name for s in self.standings if s.place == 1)


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
    scored = [(name, score_board(board)) for name, board in players]
    placed = place(scored, key=lambda entry: tie_break_key(entry[1]))
    return Ranking(tuple(Standing(p.entry[0], p.entry[1], p.place) for p in placed))
