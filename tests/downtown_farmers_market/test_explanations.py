"""What an app draws from a scored line: the counted cells of each line are cells of that
line holding those ingredients, and they reproduce the verdict (DFM-R1 to DFM-R9); every
sentence's params word it again exactly; the rulebook's 43-point board names its cells."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given

from tabletop_rules.downtown_farmers_market import (
    INGREDIENTS,
    ExactCountAny,
    Majority,
    PerSet,
    score_board,
)
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict
from tabletop_rules.downtown_farmers_market.scoring import LineScore
from tabletop_rules.messages import find, render

from .random_boards import boards

DATA = Path(__file__).resolve().parents[1] / "data" / "downtown_farmers_market"


def lines(board: Any) -> list[tuple[LineScore, Any]]:
    score = score_board(board)
    challenges = board.row_challenges + board.column_challenges or (None,) * 8
    return list(zip(score.rows + score.columns, challenges))


def line_cells(line: LineScore) -> set[tuple[int, int]]:
    return {(k, line.index) if line.column else (line.index, k) for k in range(4)}


@given(boards())
def test_counted_cells_are_the_lines_own_and_reproduce_the_verdict(data: Any) -> None:
    board = board_from_dict(data)
    for line, challenge in lines(board):
        verdict, cells = line.verdict, line.cells
        assert {(c.row, c.col) for c in cells} <= line_cells(line)
        for cell in cells:  # a cell's counted ingredients are on its tile
            tile = board.grid[cell.row][cell.col]
            assert tile is not None and not Counter(cell.ingredients) - Counter(tile.ingredients)
        counted = Counter(i for c in cells for i in c.ingredients)
        if isinstance(challenge, PerSet):
            formed = Counter(i for s in verdict.sets for i in s)
            assert len(verdict.sets) * challenge.points == verdict.points
            assert counted == formed and all(s in challenge.sets for s in verdict.sets)
        if isinstance(challenge, Majority):
            mine = counted[challenge.ingredient]
            others = [n for i, n in Counter(i for t in line.spaces if t for i in t.ingredients
                                            ).items() if i is not challenge.ingredient]
            assert verdict.met == (mine > max(others, default=0))
            seen = Counter(i for tile in line.spaces if tile for i in tile.ingredients)
            leaders = [i for i in INGREDIENTS if seen[i] and seen[i] == max(seen.values())]
            # the majority found: the line's one most frequent ingredient, if one is
            assert verdict.majority is (leaders[0] if len(leaders) == 1 else None)
        if isinstance(challenge, ExactCountAny) and verdict.met:
            assert verdict.chosen is not None and counted == Counter(
                {verdict.chosen: challenge.count})


def test_a_per_set_line_counts_its_tiles_past_an_empty_space() -> None:
    """A per_set line's counted cells are taken along the whole line (DFM-R7)."""
    breads = {"type": "per_set", "points": 1, "sets": [["bread"]]}
    board = board_from_dict({
        "mode": "standard", "row_challenges": [breads] * 4, "column_challenges": [breads] * 4,
        "grid": [[None, ["bread"], None, ["milk", "bread"]], [None] * 4, [None] * 4,
                 [None] * 4]})
    top = score_board(board).rows[0]
    assert top.points == 2
    assert [(c.row, c.col, [i.value for i in c.ingredients]) for c in top.cells] == [
        (0, 1, ["bread"]), (0, 3, ["bread"])]


@given(boards(mode="young_shopper"))
def test_a_young_shopper_line_names_its_most_frequent_ingredient(data: Any) -> None:
    """DFM-R9: the ingredient a line scores is its most frequent, the first in ingredient
    order where several tie, and it is the line's majority only when none ties it."""
    for line, _ in lines(board_from_dict(data)):
        seen = Counter(i for tile in line.spaces if tile for i in tile.ingredients)
        verdict = line.verdict
        if not seen:
            assert (verdict.chosen, verdict.majority, verdict.points) == (None, None, 0)
            continue
        most = max(seen.values())
        leaders = [i for i in INGREDIENTS if seen[i] == most]
        assert verdict.chosen is leaders[0] and verdict.points == most
        assert verdict.majority is (leaders[0] if len(leaders) == 1 else None)
        assert Counter(i for c in line.cells for i in c.ingredients) == {leaders[0]: most}


@given(boards())
def test_every_sentence_is_worded_again_from_its_code_and_params(data: Any) -> None:
    for line, _ in lines(board_from_dict(data)):
        said = line.verdict.explanation
        made = find(said.code)
        assert made is not None and render(made, said.params) == said


def test_the_rulebook_board_names_its_cells() -> None:
    example = json.loads((DATA / "rulebook_standard_example.json").read_text())
    score = score_board(board_from_dict(example["board"]))
    assert score.total == 43
    drawn = {(line.column, line.index): [(c.row, c.col, [i.value for i in c.ingredients])
                                         for c in line.cells]
             for line in score.rows + score.columns}
    # line 2: all 5 ingredients of its 4 tiles; line 3: its 5 breads, one point each
    assert drawn[(False, 1)] == [(1, 0, ["carrot"]), (1, 1, ["corn"]), (1, 2, ["bread"]),
                                 (1, 3, ["milk", "egg"])]
    assert drawn[(False, 2)] == [(2, 0, ["bread"]), (2, 1, ["bread", "bread"]),
                                 (2, 2, ["bread"]), (2, 3, ["bread"])]
    assert [s for s in score.rows[2].verdict.sets] == [(board_from_dict(
        example["board"]).row_challenges[2].sets[0])] * 5
    # column 1: the carrots that make the majority; column 2: its two corns and carrot
    assert drawn[(True, 0)] == [(0, 0, ["carrot", "carrot"]), (1, 0, ["carrot"]),
                                (2, 0, ["carrot"]), (3, 0, ["carrot"])]
    assert score.columns[0].verdict.majority is not None
    assert drawn[(True, 1)] == [(0, 1, ["corn"]), (1, 1, ["corn"]), (3, 1, ["carrot"])]
    # column 3 has none of its forbidden ingredients: no cell counts against it
    assert drawn[(True, 2)] == [] and score.columns[2].verdict.code == "DFM_FORBIDDEN_MET"
