"""Scoring a board: each row and column against its challenge, or by Young Shopper rules.

An incomplete board is scored as it stands and says so (DFM-R8).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..problems import quantity
from .challenges import Challenge, LineVerdict
from .model import GRID_SIZE, INGREDIENTS, Board, Mode, Space, count_ingredients

YOUNG_SHOPPER_RULE = "DFM-R9"


@dataclass(frozen=True, slots=True)
class LineScore:
    """The verdict on one row or column, with its index (0 is the top row / left column)."""

    index: int
    verdict: LineVerdict

    @property
    def met(self) -> bool:
        return self.verdict.met

    @property
    def points(self) -> int:
        return self.verdict.points


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A board's score, line by line, and the figures the tie-breaks read (DFM-R10)."""

    mode: Mode
    rows: tuple[LineScore, ...]
    columns: tuple[LineScore, ...]
    complete: bool

    @property
    def lines(self) -> tuple[LineScore, ...]:
        return self.rows + self.columns

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    @property
    def challenges_met(self) -> int:
        """Challenges met; a Young Shopper board has no challenges, so 0."""
        if self.mode is Mode.YOUNG_SHOPPER:
            return 0
        return sum(line.met for line in self.lines)

    @property
    def best_challenge_points(self) -> int:
        """The most points one met challenge earned (0 if none, and in Young Shopper)."""
        if self.mode is Mode.YOUNG_SHOPPER:
            return 0
        return max((line.points for line in self.lines if line.met), default=0)


def score_board(board: Board) -> BoardScore:
    """Score a well-formed board (see :func:`.validation.check_board`)."""
    rows = tuple(range(GRID_SIZE))
    if board.mode is Mode.YOUNG_SHOPPER:
        return BoardScore(
            board.mode,
            tuple(LineScore(r, _young_shopper(board.row(r))) for r in rows),
            tuple(LineScore(c, _young_shopper(board.column(c))) for c in rows),
            board.is_complete,
        )
    return BoardScore(
        board.mode,
        tuple(LineScore(r, _challenge(board.row_challenges[r], board.row(r))) for r in rows),
        tuple(LineScore(c, _challenge(board.column_challenges[c], board.column(c)))
              for c in rows),
        board.is_complete,
    )


def _challenge(challenge: Challenge, line: tuple[Space, ...]) -> LineVerdict:
    return challenge.evaluate(count_ingredients(line))


def _young_shopper(line: tuple[Space, ...]) -> LineVerdict:
    """The count of the line's most frequent ingredient; a tie counts once (DFM-R9)."""
    counts = count_ingredients(line)
    most = max(counts.values(), default=0)
    if not most:
        return LineVerdict(False, 0, "No ingredients on the line yet: 0 points",
                           YOUNG_SHOPPER_RULE)
    leaders = [i.value for i in INGREDIENTS if counts[i] == most]
    tie = f" (tied with {', '.join(leaders[1:])}, counted once)" if len(leaders) > 1 else ""
    return LineVerdict(True, most, f"Most frequent ingredient: {leaders[0]}, "
                       f"{quantity(most, 'time')}{tie}: {quantity(most, 'point')}",
                       YOUNG_SHOPPER_RULE)
