"""Ranking by DFM-R10: total, then challenges met, then the best single challenge, then shared.

Boards are built so their figures are plain to see: every space holds a bread, a
"no egg" challenge is met for the points given, a "no bread" one fails.
"""

from __future__ import annotations

import pytest

from tabletop_rules.downtown_farmers_market import rank_boards
from tabletop_rules.downtown_farmers_market.json_form import players_from_list
from tabletop_rules.problems import InvalidInputError

from .boards import JsonDict, core_rank

NO_EGG = {"type": "forbidden", "ingredients": ["egg"]}
NO_BREAD = {"type": "forbidden", "ingredients": ["bread"], "points": 7}


def standard(*met_points: int) -> JsonDict:
    """A board that meets challenges worth ``met_points`` and fails the rest."""
    challenges = [{**NO_EGG, "points": p} for p in met_points]
    challenges += [NO_BREAD] * (8 - len(met_points))
    return {"grid": [[["bread"]] * 4] * 4,
            "row_challenges": challenges[:4], "column_challenges": challenges[4:]}


def young_shopper(*tiles: tuple[int, int, list[str]]) -> JsonDict:
    """A Young Shopper board holding only ``tiles`` as (row, column, ingredients)."""
    grid: list[list[list[str] | None]] = [[None] * 4 for _ in range(4)]
    for r, c, ingredients in tiles:
        grid[r][c] = ingredients
    return {"mode": "young_shopper", "grid": grid}


def places(**boards: JsonDict) -> tuple[list[tuple[str, int]], list[str]]:
    """(name, place) best first, and the winners, for players given in this order."""
    answer = core_rank([{"name": name, "board": board} for name, board in boards.items()])
    return [(s["name"], s["place"]) for s in answer["standings"]], answer["winners"]


@pytest.mark.parametrize(("boards", "expected", "winners"), [
    ({"Ben": standard(3, 3, 3), "Ana": standard(10)}, [("Ana", 1), ("Ben", 2)], ["Ana"]),
    ({"Ana": standard(6, 6), "Ben": standard(4, 4, 4)}, [("Ben", 1), ("Ana", 2)], ["Ben"]),
    ({"Ana": standard(5), "Ben": standard(5, 0)}, [("Ben", 1), ("Ana", 2)], ["Ben"]),
    ({"Ana": standard(6, 6), "Ben": standard(7, 5)}, [("Ben", 1), ("Ana", 2)], ["Ben"]),
    ({"Ana": standard(6, 6), "Ben": standard(8, 4), "Cy": standard(4, 8), "Di": standard(5, 5)},
     [("Ben", 1), ("Cy", 1), ("Ana", 3), ("Di", 4)], ["Ben", "Cy"]),
    ({"Ana": standard(1), "Ben": standard(6, 6), "Cy": standard(6, 6)},
     [("Ben", 1), ("Cy", 1), ("Ana", 3)], ["Ben", "Cy"]),
    ({"Ana": standard(2, 2), "Ben": standard(2, 2), "Cy": standard(2, 2), "Di": standard(2, 2)},
     [("Ana", 1), ("Ben", 1), ("Cy", 1), ("Di", 1)], ["Ana", "Ben", "Cy", "Di"]),
    ({"Ana": standard()}, [("Ana", 1)], ["Ana"]),
], ids=["total beats challenges met", "then most challenges met",
        "a met challenge worth 0 still counts", "then the best single challenge",
        "a full tie shares a place and the next skips", "tied first are all winners",
        "four-way tie", "one player"])
def test_standard_tie_breaks(boards: dict[str, JsonDict], expected: list[tuple[str, int]],
                             winners: list[str]) -> None:
    assert places(**boards) == (expected, winners)


def test_standings_carry_the_tie_break_figures() -> None:
    answer = core_rank([{"name": "Ana", "board": standard(6, 0, 9)}])
    assert answer["standings"] == [{"name": "Ana", "total": 15, "challenges_met": 3,
                                    "best_challenge_points": 9, "place": 1}]


def test_young_shopper_ties_are_shared_whatever_the_lines() -> None:
    """Young Shopper has no challenges: equal totals share, however the points fell."""
    two_lines = young_shopper((0, 0, ["bread", "bread", "bread"]))  # row 3 + column 3
    six_lines = young_shopper((0, 0, ["egg"]), (1, 1, ["egg"]), (2, 2, ["egg"]))  # 6 x 1
    eight = young_shopper((0, 0, ["corn", "corn", "corn"]), (3, 3, ["milk"]))  # 3+3+1+1 = 8
    assert places(Ana=two_lines, Ben=six_lines, Cy=eight) == (
        [("Cy", 1), ("Ana", 2), ("Ben", 2)], ["Cy"])
    assert places(Ana=two_lines, Ben=six_lines) == ([("Ana", 1), ("Ben", 1)], ["Ana", "Ben"])


def test_mixed_modes_are_refused_at_each_odd_board() -> None:
    request = [{"name": "Ana", "board": standard(1)},
               {"name": "Ben", "board": young_shopper()},
               {"name": "Cy", "board": standard(2)},
               {"name": "Di", "board": young_shopper()}]
    with pytest.raises(InvalidInputError) as raised:
        rank_boards(players_from_list(request))
    assert [p.path for p in raised.value.problems] == [
        ("players", 1, "board", "mode"), ("players", 3, "board", "mode")]
