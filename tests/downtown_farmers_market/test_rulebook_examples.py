"""The rulebook's two worked examples, rebuilt as golden boards and checked line by line.

The expected breakdowns in the JSON files are the rulebook's own numbers (the board is a
picture in the rulebook, so each file carries a grid designed to give them). The
reference implementation is held to them too: it is what the random agreement tests
trust, so it must read the rulebook the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tabletop_rules.downtown_farmers_market import check_board
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict

from . import reference
from .boards import JsonDict, core_score, read_data

EXAMPLES = ("rulebook_standard_example.json", "rulebook_young_shopper_example.json")
SCORERS: dict[str, Callable[[JsonDict], JsonDict]] = {
    "core": core_score, "reference": reference.score}


@pytest.mark.parametrize("example", EXAMPLES)
def test_golden_board_is_well_formed(example: str) -> None:
    assert check_board(board_from_dict(read_data(example)["board"])) == []


@pytest.mark.parametrize("scorer", SCORERS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_breakdown_matches_the_rulebook(example: str, scorer: str) -> None:
    golden = read_data(example)
    expected = golden["expected"]
    answer = SCORERS[scorer](golden["board"])
    for side in ("rows", "columns"):
        for index, (line, want) in enumerate(zip(answer[side], expected[side], strict=True)):
            assert line["index"] == index
            assert (line["met"], line["points"], line["rule"]) == (
                want["met"], want["points"], want["rule"]), want["rulebook"]
    for figure in ("total", "complete", "challenges_met", "best_challenge_points"):
        if figure in expected:
            assert answer[figure] == expected[figure], figure
