"""Scoring a board: each row and column against its challenge, or by Young Shopper rules.

An incomplete board is scored as it stands and says so (DFM-R8).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..problems import quantity
from .challenges import LineVerdict
from .model import GRID_SIZE, INGREDIENTS, Board, Mode, Tally, line_tallies

YOUNG_SHOPPER_RULE = "DFM-R9"

_INDICES = range(GRID_SIZE)


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
        return sum([line.verdict.points for line in self.lines])

    @property
    def challenges_met(self) -> int:
        """Challenges met; a Young Shopper board has no challenges, so 0."""
        if self.mode is Mode.YOUNG_SHOPPER:
            return 0
        return sum([line.verdict.met for line in self.lines])

    @property
    def best_challenge_points(self) -> int:
        """The most points one met challenge earned (0 if none, and in Young Shopper)."""
        if self.mode is Mode.YOUNG_SHOPPER:
            return 0
        return max([line.verdict.points for line in self.lines if line.verdict.met], default=0)


def score_board(board: Board) -> BoardScore:
    """Score a well-formed board (see :func:`.validation.check_board`).

    Each tile's ingredients are counted once, as the tile is made; a line's tally is its
    tiles' counts added up."""
    rows, columns = line_tallies(board.grid)
    if board.mode is Mode.YOUNG_SHOPPER:
        row_verdicts = [_young_shopper(tally) for tally in rows]
        column_verdicts = [_young_shopper(tally) for tally in columns]
    else:
        row_verdicts = [c.judge(tally) for c, tally in zip(board.row_challenges, rows)]
        column_verdicts = [c.judge(tally) for c, tally in zip(board.column_challenges, columns)]
    return BoardScore(board.mode, tuple(map(LineScore, _INDICES, row_verdicts)),
                      tuple(map(LineScore, _INDICES, column_verdicts)), board.is_complete)


def _young_shopper(tally: Tally) -> LineVerdict:
    """The count of the line's most frequent ingredient; a tie counts once (DFM-R9)."""
    most = max(tally)
    if not most:
        return LineVerdict(False, 0, "No ingredients on the line yet: 0 points",
                           YOUNG_SHOPPER_RULE)
    leaders = [i.value for i, n in zip(INGREDIENTS, tally) if n == most]
    tie = f" (tied with {', '.join(leaders[1:])}, counted once)" if len(leaders) > 1 else ""
    return LineVerdict(True, most, f"Most frequent ingredient: {leaders[0]}, "
                       f"{quantity(most, 'time')}{tie}: {quantity(most, 'point')}",
                       YOUNG_SHOPPER_RULE)
