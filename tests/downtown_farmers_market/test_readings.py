"""Doubtful cells: every reading's total at once, agreeing with scoring each one by one."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules.downtown_farmers_market import Board, FoodTile, score_board
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict
from tabletop_rules.downtown_farmers_market.readings import (
    MAX_CANDIDATES,
    MAX_DOUBTFUL_CELLS,
    DoubtfulCell,
    Readings,
    check_readings,
    score_readings,
)

from .random_boards import random_board, random_tile
from .reference import SIX

Totals = dict[tuple[int, ...], int]


def one_by_one(board: Board, doubts: list[DoubtfulCell]) -> Totals:
    """Every reading scored on its own: each doubtful cell's candidate put on the grid."""
    totals = {}
    for reading in product(*(range(len(d.candidates)) for d in doubts)):
        grid = [list(row) for row in board.grid]
        for doubt, k in zip(doubts, reading):
            grid[doubt.row][doubt.col] = doubt.candidates[k]
        totals[reading] = score_board(replace(board, grid=tuple(map(tuple, grid)))).total
    return totals


def assert_agrees(readings: Readings, board: Board, doubts: list[DoubtfulCell]) -> None:
    totals = one_by_one(board, doubts)
    likeliest = (0,) * len(doubts)
    assert readings.count == len(totals)
    assert readings.likely_total == totals[likeliest] == score_board(board).total
    assert (readings.lowest_total, readings.highest_total) == (min(totals.values()),
                                                              max(totals.values()))
    for i, cell in enumerate(readings.cells):
        assert (cell.row, cell.col) == (doubts[i].row, doubts[i].col)
        others = len(doubts) - i - 1
        assert cell.totals == tuple(totals[(0,) * i + (k,) + (0,) * others]
                                    for k in range(len(doubts[i].candidates)))
        changes_alone = any(totals[r] != totals[(*r[:i], k, *r[i + 1:])] for r in totals
                            for k in range(len(doubts[i].candidates)))
        assert cell.decides == changes_alone, i


def doubtful(rng: random.Random, cells: int, candidates: int = MAX_CANDIDATES
             ) -> tuple[Board, list[DoubtfulCell]]:
    """A random well-formed board with ``cells`` doubtful cells of 2 to ``candidates``
    distinct tiles each, drawn from a few ingredients so that they change verdicts."""
    data = random_board(rng)
    palette = rng.sample(SIX, rng.randint(1, 4))
    doubts = []
    for row, col in rng.sample([(r, c) for r in range(4) for c in range(4)], cells):
        tiles: list[tuple[str, ...]] = []
        wanted = rng.randint(2, candidates)
        for _ in range(50):
            if len(tiles) == wanted:
                break
            tile = tuple(sorted(random_tile(rng, palette)))
            if tile not in tiles:
                tiles.append(tile)
        if len(tiles) < 2:
            tiles = [("bread",), ("corn",)]
        doubts.append(DoubtfulCell(row, col, tuple(FoodTile.of(*t) for t in tiles)))
        data["grid"][row][col] = list(tiles[0])
    board = board_from_dict(data)
    assert check_readings(board, doubts) == []
    return board, doubts


@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), cells=st.integers(1, 3))
def test_every_reading_agrees_with_scoring_it_alone(rng: random.Random, cells: int) -> None:
    """The property the answer rests on: lowest, highest and likeliest totals, each
    candidate's total and which cells decide, as scoring every reading one by one says."""
    board, doubts = doubtful(rng, cells)
    assert_agrees(score_readings(board, doubts), board, doubts)


@pytest.mark.parametrize("seed", range(12))
def test_many_doubtful_cells_agree_too(seed: int) -> None:
    """Up to the limit's worth of cells (fewer candidates, to keep one by one quick)."""
    rng = random.Random(seed)
    board, doubts = doubtful(rng, rng.randint(4, MAX_DOUBTFUL_CELLS), candidates=3)
    assert_agrees(score_readings(board, doubts), board, doubts)


def test_a_cell_whose_row_and_column_cancel_out_decides_nothing() -> None:
    """Corn or cheese in row 0 and column 0: corn meets the row's majority (4 points)
    and breaks the column's forbidden corn (4 points lost); cheese the other way round.
    Either way the total is the same, so the cell does not decide it."""
    data: dict[str, Any] = {
        "row_challenges": [{"type": "majority", "ingredient": "corn", "points": 4}]
        + [{"type": "one_of_each", "points": 9}] * 3,
        "column_challenges": [{"type": "forbidden", "ingredients": ["corn"], "points": 4}]
        + [{"type": "one_of_each", "points": 9}] * 3,
        "grid": [[["corn"], None, None, None]] + [[None] * 4] * 3}
    board = board_from_dict(data)
    doubts = [DoubtfulCell(0, 0, (FoodTile.of("corn"), FoodTile.of("cheese")))]
    readings = score_readings(board, doubts)
    assert (readings.count, readings.lowest_total, readings.highest_total) == (2, 4, 4)
    (cell,) = readings.cells
    assert cell.decides is False and cell.totals == (4, 4)


def test_two_doubtful_cells_on_the_rulebook_board() -> None:
    """The rulebook's 43-point board, two of its tiles read in doubt."""
    import json
    from pathlib import Path
    path = Path(__file__).parents[1] / "data" / "downtown_farmers_market"
    data = json.loads((path / "rulebook_standard_example.json").read_text())["board"]
    board = board_from_dict(data)
    grid = board.grid
    doubts = [DoubtfulCell(0, 0, (grid[0][0], FoodTile.of("cheese"))),
              DoubtfulCell(2, 3, (grid[2][3], FoodTile.of("egg", "egg"), FoodTile.of("milk")))]
    readings = score_readings(board, doubts)
    assert readings.likely_total == 43 and readings.count == 6
    assert_agrees(readings, board, doubts)


def test_limits_and_candidates_are_checked_with_the_board() -> None:
    rng = random.Random(7)
    board, _ = doubtful(rng, 1)
    two = (FoodTile.of("bread"), FoodTile.of("corn"))
    many = [DoubtfulCell(r, c, two) for r in range(3) for c in range(3)]
    assert [(p.path, p.message) for p in check_readings(board, many)] == [
        (("grid",), f"at most {MAX_DOUBTFUL_CELLS} doubtful cells on a board (the limit); "
                    "got 9")]
    odd = [DoubtfulCell(0, 0, two[:1]),
           DoubtfulCell(0, 1, two * 3),
           DoubtfulCell(1, 1, (FoodTile.of("corn", "egg"), FoodTile.of("egg", "corn"))),
           DoubtfulCell(2, 2, (FoodTile.of("corn"), FoodTile(()), FoodTile.of(*["egg"] * 4)))]
    problems = {p.path: p.message for p in check_readings(board, odd)}
    assert problems == {
        ("grid", 0, 0, "candidates"): "a doubtful cell lists 2 to 4 candidate tiles, the "
                                      "likeliest first; got 1",
        ("grid", 0, 1, "candidates"): "a doubtful cell lists 2 to 4 candidate tiles, the "
                                      "likeliest first; got 6",
        ("grid", 1, 1, "candidates", 1): "the same tile as candidate 0",
        ("grid", 2, 2, "candidates", 1): "a Food tile shows 1 to 3 ingredients (DFM-R15); "
                                         "this one has 0",
        ("grid", 2, 2, "candidates", 2): "a Food tile shows 1 to 3 ingredients (DFM-R15); "
                                         "this one has 4"}


def test_a_likeliest_candidate_is_judged_once_where_it_was_sent() -> None:
    """The board holds each cell's first candidate: its problem is said at the candidate,
    not again at the space."""
    board, _ = doubtful(random.Random(3), 1)
    bad = FoodTile.of(*["egg"] * 4)
    grid = [list(row) for row in board.grid]
    grid[3][3] = bad
    board = replace(board, grid=tuple(map(tuple, grid)))
    doubts = [DoubtfulCell(3, 3, (bad, FoodTile.of("egg")))]
    assert [p.path for p in check_readings(board, doubts)] == [("grid", 3, 3, "candidates", 0)]
