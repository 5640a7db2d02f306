"""Scoring a board: each row and column against its challenge, or by Young Shopper rules.

An incomplete board is scored as it stands and says so (DFM-R8).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from ..messages import template
from .line_verdict import EVERY, Counted, LineVerdict, counting
from .model import GRID_SIZE, INGREDIENTS, Board, Ingredient, Mode, Space, Tally, line_tallies

YOUNG_SHOPPER_RULE = "DFM-R9"

_INDICES = range(GRID_SIZE)
_AT = {ingredient: k for k, ingredient in enumerate(INGREDIENTS)}

YOUNG_SHOPPER_EMPTY = template(
    "DFM_YOUNG_SHOPPER_EMPTY", "No ingredients on the line yet: 0 points", kind="explanation")
YOUNG_SHOPPER = template(
    "DFM_YOUNG_SHOPPER", "Most frequent ingredient: {ingredient:term}, "
    "{count:# time|# times}: {count:# point|# points}", kind="explanation")
YOUNG_SHOPPER_TIED = template(
    "DFM_YOUNG_SHOPPER_TIED", "Most frequent ingredient: {ingredient:term}, "
    "{count:# time|# times} (tied with {tied:term}, counted once): {count:# point|# points}", kind="explanation")


class CountedCell(NamedTuple):
    """A space of a line whose ingredients counted toward its verdict, and which did (a
    named tuple: made for most lines an answer lists)."""

    row: int
    col: int
    ingredients: tuple[Ingredient, ...]


class LineScore(NamedTuple):
    """The verdict on one row or column, with its index (0 is the top row / left column),
    and the line's spaces (``column``: a column's, top to bottom; else a row's). A named
    tuple: eight are made for every board scored, and a tuple is made in C."""

    index: int  # type: ignore[assignment]  # the contract's name; shadows tuple.index
    verdict: LineVerdict
    spaces: tuple[Space, ...] = ()
    column: bool = False

    @property
    def cells(self) -> tuple[CountedCell, ...]:
        """The cells whose ingredients counted, along the line, each with the ingredients
        of its tile that did: the verdict's :attr:`~LineVerdict.counted` taken from the
        tiles in line order. Worked out when asked (a ranking never asks)."""
        counted = self.verdict.counted
        index, column = self.index, self.column
        every = _EVERY_OF.get(counted)
        if every is None:  # a number of some ingredient counted (per_set): taken in order
            return _taken(counted, self.spaces, index, column)
        if not every:
            return ()
        if len(every) == len(INGREDIENTS):
            return tuple([_cell(CountedCell, (k if column else index, index if column else k,
                                              tile.ingredients))
                          for k, tile in enumerate(self.spaces) if tile is not None])
        cells = []
        for k, tile in enumerate(self.spaces):
            if tile is not None:
                took = _took(every, tile.ingredients)
                if took:
                    cells.append(_cell(CountedCell, (k if column else index,
                                                     index if column else k, took)))
        return tuple(cells)

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
    grid = board.grid
    return BoardScore(board.mode, tuple(map(LineScore, _INDICES, row_verdicts, grid)),
                      tuple(map(LineScore, _INDICES, column_verdicts, zip(*grid), _COLUMNS)),
                      board.is_complete)


_COLUMNS = (True,) * GRID_SIZE
_cell = tuple.__new__
"""A :class:`CountedCell` made from its three values at C speed (its ``__new__`` is a
Python function)."""
_EVERY_OF: dict[Counted, frozenset[Ingredient]] = {
    tuple([EVERY if k & 1 << at else 0 for at in range(len(INGREDIENTS))]):
        frozenset([i for at, i in enumerate(INGREDIENTS) if k & 1 << at])
    for k in range(1 << len(INGREDIENTS))}
"""The ingredients each verdict that counts every one of some ingredients (and none of
the others) counts: all but per_set's."""


@lru_cache(maxsize=4096)
def _took(every: frozenset[Ingredient], ingredients: tuple[Ingredient, ...]
          ) -> tuple[Ingredient, ...]:
    """The ingredients of a tile showing ``ingredients`` that are among ``every``, in the
    tile's order: once for each kind of tile and verdict."""
    return tuple([i for i in ingredients if i in every])


def _taken(counted: Counted, spaces: tuple[Space, ...], index: int, column: bool
           ) -> tuple[CountedCell, ...]:
    """The cells holding ``counted`` ingredients, each taken from the first tiles along
    the line that hold it (:data:`.line_verdict.EVERY`: every one)."""
    left = list(counted)
    cells = []
    for k, tile in enumerate(spaces):
        if tile is None:
            continue
        took = []
        for ingredient in tile.ingredients:
            at = _AT[ingredient]
            if left[at]:
                if left[at] != EVERY:
                    left[at] -= 1
                took.append(ingredient)
        if took:
            cells.append(CountedCell(k if column else index, index if column else k,
                                     tuple(took)))
    return tuple(cells)


def _young_shopper(tally: Tally) -> LineVerdict:
    """The count of the line's most frequent ingredient; a tie counts once (DFM-R9)."""
    most = max(tally)
    if not most:
        return LineVerdict(False, 0, YOUNG_SHOPPER_EMPTY.later(), YOUNG_SHOPPER_RULE)
    leaders = [i for i, n in zip(INGREDIENTS, tally) if n == most]
    first = leaders[0]
    said = (YOUNG_SHOPPER_TIED.later(ingredient=first.value, count=most,
                                     tied=tuple([i.value for i in leaders[1:]]))
            if len(leaders) > 1 else YOUNG_SHOPPER.later(ingredient=first.value, count=most))
    return LineVerdict(True, most, said, YOUNG_SHOPPER_RULE, counting(first), first,
                       first if len(leaders) == 1 else None)
