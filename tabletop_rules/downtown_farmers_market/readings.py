"""Scoring a doubtful transcription: every reading of its doubtful cells at once.

A photo's reading may leave a cell in doubt ("bread or corn"): a :class:`DoubtfulCell`
lists the tiles it may hold, the likeliest first, and the board carries the likeliest in
that space, so scoring the board (:func:`.score_board`) scores the likeliest reading.
:func:`score_readings` adds what the other readings do: the lowest and highest totals,
and for each doubtful cell whether the total depends on it at all (so the player is asked
to check only those) and the total each of its candidates gives.

How, without scoring the readings one by one (up to 4^8 = 65,536 of them):

* A line's points depend only on its own four spaces. A line without a doubtful cell is
  judged once. A line with doubtful cells is judged once for each combination of their
  candidates (at most 4^4 = 256), into a table; the total of a reading is the fixed
  lines' points plus one entry of each table.
* A cell decides the total exactly when its row's and its column's points together
  change with it for some reading of the other doubtful cells of that row and column:
  the two tables say so directly (the differences a candidate makes in one line must be
  undone by the other line, whatever the others hold), so no reading is enumerated.
  A cell that decides nothing stays at its likeliest for what follows.
* The lowest and highest totals: cells that share no line are independent, so each
  group of cells linked through lines is taken apart; within a group, each table is
  spread over every reading of the group's deciding cells as one integer, a few bits a
  reading (repeating byte strings, in C), the tables are added as integers, and the
  readings' totals are read back as an array whose minimum and maximum are taken in C.
  The worst board within the limits (8 deciding cells of 4 candidates in one group) is
  65,536 readings of 8 lines: a few milliseconds (``benchmarks/bench_uncertain.py``).

Limits (:data:`MAX_DOUBTFUL_CELLS`, :data:`MAX_CANDIDATES`) are checked by
:func:`check_readings` with the board's own checks, every problem at once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Literal

from ..messages import template
from ..problems import Path, Problem
from .line_verdict import LineVerdict
from .model import GRID_SIZE, INGREDIENTS, Board, FoodTile, Mode, Tally
from .scoring import _young_shopper
from .validation import check_board, check_tile

MAX_DOUBTFUL_CELLS = 8
"""The most doubtful cells a board may carry: a photo's reading rarely doubts more than
two or three, and 8 cells of 4 candidates (65,536 readings) still answer in
milliseconds."""
MIN_CANDIDATES = 2
MAX_CANDIDATES = 4
"""A doubtful cell lists 2 to 4 candidate tiles, the likeliest first."""

# The problems' sentences, each named by its code, its format fields its params.
TOO_MANY_DOUBTFUL_CELLS = template(
    "TOO_MANY_DOUBTFUL_CELLS", "at most {limit} doubtful cells on a board (the limit); "
                               "got {count}")
CANDIDATE_COUNT = template(
    "DOUBTFUL_CELL_CANDIDATES", "a doubtful cell lists {minimum} to {limit} candidate "
                                "tiles, the likeliest first; got {count}")
CANDIDATE_REPEATED = template("DOUBTFUL_CELL_REPEATED", "the same tile as candidate {index}")
# Said by the engine's protobuf reader, declared with the rules so that the gateway, which
# words a 422 detail again in the caller's language, knows them too.
ONLY_SCORED = template("DFM_ONLY_SCORED", "only a board being scored may list candidates for a "
                                          "space; give the tile it holds")
TILE_OR_CANDIDATES = template("DFM_TILE_OR_CANDIDATES",
                              "a space holds a tile or its candidates, not both")


@dataclass(frozen=True, slots=True)
class DoubtfulCell:
    """A grid space read as one of several tiles, the likeliest first."""

    row: int
    col: int
    candidates: tuple[FoodTile, ...]

    @property
    def path(self) -> Path:
        """Where the space is in the board's JSON form: ``("grid", row, col)``."""
        return ("grid", self.row, self.col)


@dataclass(frozen=True, slots=True)
class CellReadings:
    """What one doubtful cell does to the total."""

    row: int
    col: int
    decides: bool
    """The total depends on it: some reading of the other doubtful cells scores
    differently with another of its candidates."""
    totals: tuple[int, ...]
    """For each candidate, in order: the total with it there and every other doubtful
    cell at its likeliest."""

    @property
    def path(self) -> Path:
        return ("grid", self.row, self.col)


@dataclass(frozen=True, slots=True)
class Readings:
    """The totals a doubtful transcription may come to."""

    count: int
    """How many readings there are: the product of the cells' candidate counts."""
    lowest_total: int
    highest_total: int
    likely_total: int
    """The likeliest reading's total (each cell at its first candidate): the score's."""
    cells: tuple[CellReadings, ...]


def check_readings(board: Board, doubts: Sequence[DoubtfulCell]) -> list[Problem]:
    """Every problem with a transcription whose doubtful cells hold their likeliest
    candidate in ``board``: the board's own (but for those spaces, whose candidates are
    judged here), and the doubtful cells' limits and candidates."""
    doubtful = {doubt.path for doubt in doubts}
    problems = [p for p in check_board(board) if p.path not in doubtful]
    if len(doubts) > MAX_DOUBTFUL_CELLS:
        problems.append(Problem(("grid",), TOO_MANY_DOUBTFUL_CELLS(
            limit=MAX_DOUBTFUL_CELLS, count=len(doubts))))
    for doubt in doubts:
        problems.extend(_check_candidates(doubt))
    return problems


def _check_candidates(doubt: DoubtfulCell) -> list[Problem]:
    where = (*doubt.path, "candidates")
    count = len(doubt.candidates)
    if not MIN_CANDIDATES <= count <= MAX_CANDIDATES:  # none read one by one
        return [Problem(where, CANDIDATE_COUNT(minimum=MIN_CANDIDATES,
                                                       limit=MAX_CANDIDATES, count=count))]
    problems: list[Problem] = []
    seen: dict[tuple[int, ...], int] = {}
    for k, tile in enumerate(doubt.candidates):
        found = check_tile(tile)
        problems.extend(p.under(*where, k) for p in found)
        shown = tuple(sorted(INGREDIENTS.index(i) for i in tile.ingredients))
        if not found and shown in seen:
            problems.append(Problem((*where, k), CANDIDATE_REPEATED(index=seen[shown])))
        seen.setdefault(shown, k)
    return problems


Judge = Callable[[Tally], LineVerdict]


@dataclass(frozen=True, slots=True)
class _Table:
    """A line's points for every combination of its doubtful cells' candidates: entry
    ``sum(k[j] * weights[j])`` for candidate ``k[j]`` of ``cells[j]``."""

    cells: tuple[int, ...]
    radices: tuple[int, ...]
    """How many candidates each cell has."""
    weights: tuple[int, ...]
    points: tuple[int, ...]

    def weight(self, cell: int) -> int:
        """The step between entries that differ in ``cell``'s candidate (0: not here)."""
        return self.weights[self.cells.index(cell)] if cell in self.cells else 0

    def radix(self, cell: int) -> int:
        return self.radices[self.cells.index(cell)]


def score_readings(board: Board, doubts: Sequence[DoubtfulCell]) -> Readings:
    """What the readings of ``doubts`` score, for a transcription
    :func:`check_readings` accepts (``board`` holding each cell's likeliest candidate)."""
    fixed, tables = _tables(board, doubts)
    likely = fixed + sum(table.points[0] for table in tables)
    lines_of: list[list[_Table]] = [[] for _ in doubts]
    for table in tables:
        for cell in table.cells:
            lines_of[cell].append(table)
    cells = []
    for i, doubt in enumerate(doubts):
        row, column = lines_of[i]  # every space lies in one row and one column
        cells.append(CellReadings(doubt.row, doubt.col, _decides(i, row, column), tuple(
            likely + sum(line.points[k * line.weight(i)] - line.points[0]
                         for line in (row, column))
            for k in range(len(doubt.candidates)))))
    deciding = [i for i, cell in enumerate(cells) if cell.decides]
    lowest, highest = _extremes(tables, deciding, [len(d.candidates) for d in doubts])
    return Readings(prod(len(d.candidates) for d in doubts), fixed + lowest,
                    fixed + highest, likely, tuple(cells))


def _tables(board: Board, doubts: Sequence[DoubtfulCell]) -> tuple[int, list[_Table]]:
    """The points of the lines without a doubtful cell, and a table for each other."""
    at = {(doubt.row, doubt.col): i for i, doubt in enumerate(doubts)}
    packed = [[0 if space is None else space.packed for space in row] for row in board.grid]
    lines = ([[(r, c) for c in range(GRID_SIZE)] for r in range(GRID_SIZE)]
             + [[(r, c) for r in range(GRID_SIZE)] for c in range(GRID_SIZE)])
    fixed, tables = 0, []
    for judge, squares in zip(_judges(board), lines):
        cells = tuple(at[square] for square in squares if square in at)
        base = sum(packed[r][c] for r, c in squares if (r, c) not in at)
        if not cells:
            fixed += judge(_tally(base)).points
            continue
        options = [[tile.packed for tile in doubts[cell].candidates] for cell in cells]
        radices = tuple(map(len, options))
        weights = tuple(prod(radices[:j]) for j in range(len(radices)))
        # product() turns its last iterable fastest: the first cell's candidate is the
        # fastest-changing digit of the entry's index, as weights say
        points = tuple(judge(_tally(base + sum(combination))).points
                       for combination in product(*reversed(options)))
        tables.append(_Table(cells, radices, weights, points))
    return fixed, tables


def _judges(board: Board) -> list[Judge]:
    """Each row's then each column's judge of a tally."""
    if board.mode is Mode.YOUNG_SHOPPER:
        return [_young_shopper] * (2 * GRID_SIZE)
    return [c.judge for c in (*board.row_challenges, *board.column_challenges)]


def _tally(packed: int) -> bytes:
    return packed.to_bytes(len(INGREDIENTS), "little")


def _decides(cell: int, row: _Table, column: _Table) -> bool:
    """Whether the total depends on ``cell``: only its row and its column do, and their
    sum is the same for each of its candidates, whatever the other cells hold, exactly
    when the row changes by one same vector of differences for every reading of its
    other cells, the column by one same vector, and the two cancel."""
    row_changes, column_changes = _changes(cell, row), _changes(cell, column)
    if len(row_changes) > 1 or len(column_changes) > 1:
        return True
    (by_row,), (by_column,) = row_changes, column_changes
    return any(a + b for a, b in zip(by_row, by_column))


def _changes(cell: int, table: _Table) -> set[tuple[int, ...]]:
    """For each reading of the line's other cells, how the line's points change from
    ``cell``'s first candidate to each of its others."""
    step = table.weight(cell)
    span = step * table.radix(cell)
    points = table.points
    return {tuple([points[start + k] - points[start] for k in range(step, span, step)])
            for start in range(len(points)) if start % span < step}


def _extremes(tables: Sequence[_Table], deciding: Sequence[int], radices: Sequence[int]
              ) -> tuple[int, int]:
    """The lowest and highest sum of one entry of each table over every reading, each
    cell not ``deciding`` at its first candidate (it changes no sum)."""
    groups = _groups(tables, deciding)
    lowest = highest = sum(table.points[0] for table in tables if not
                           any(cell in groups for cell in table.cells))
    for members in {id(g): g for g in groups.values()}.values():
        linked = [t for t in tables if any(cell in members for cell in t.cells)]
        low, high = _group_extremes(linked, members, [radices[c] for c in members])
        lowest, highest = lowest + low, highest + high
    return lowest, highest


def _groups(tables: Sequence[_Table], deciding: Sequence[int]) -> dict[int, list[int]]:
    """Each deciding cell's group: the deciding cells linked to it through lines, one
    list shared by the group's cells."""
    group = {cell: [cell] for cell in deciding}
    for table in tables:
        linked = [cell for cell in table.cells if cell in group]
        for cell in linked[1:]:
            first, other = group[linked[0]], group[cell]
            if first is not other:
                first.extend(other)
                for member in other:
                    group[member] = first
    for members in group.values():
        members.sort()
    return group


_LANE_FORMATS: dict[int, Literal["B", "H", "I", "Q"]] = {1: "B", 2: "H", 4: "I", 8: "Q"}
"""The array format of a lane of each width in bytes."""


def _group_extremes(tables: Sequence[_Table], cells: Sequence[int], radices: Sequence[int]
                    ) -> tuple[int, int]:
    """The lowest and highest sum over every reading of ``cells`` (digit ``j`` of a
    reading's number is ``cells[j]``'s candidate, the first the fastest), one lane of a
    big integer per reading: each table's entries, less its least, spread over the
    readings and added, then read back as an array."""
    floor = sum(min(table.points) for table in tables)
    spread = sum(max(table.points) - min(table.points) for table in tables)
    width = next(w for w in sorted(_LANE_FORMATS) if spread < 1 << 8 * w)
    order = sys.byteorder
    total = 0
    for table in tables:
        least = min(table.points)
        lanes = [(p - least).to_bytes(width, order) for p in table.points]
        weights = [table.weight(cell) for cell in cells]
        total += int.from_bytes(_spread(lanes, weights, radices, len(cells) - 1, 0), order)
    readings = memoryview(total.to_bytes(width * prod(radices), order)).cast(
        _LANE_FORMATS[width])
    return floor + min(readings), floor + max(readings)


def _spread(lanes: Sequence[bytes], weights: Sequence[int], radices: Sequence[int],
            digit: int, entry: int) -> bytes:
    """The lanes of every reading of digits ``0..digit``, the digits above fixed (they
    add ``entry`` to the table's index): a digit the table does not read repeats the
    lanes below it, one it reads joins them for each of its candidates."""
    if digit < 0:
        return lanes[entry]
    weight = weights[digit]
    if not weight:
        return _spread(lanes, weights, radices, digit - 1, entry) * radices[digit]
    return b"".join([_spread(lanes, weights, radices, digit - 1, entry + k * weight)
                     for k in range(radices[digit])])
