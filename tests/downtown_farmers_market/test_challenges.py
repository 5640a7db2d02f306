"""Each challenge type met and not met at its edges, as the rulings read them.

Lines are written as their tiles, e.g. ``line("corn corn", "egg", None, None)``: a tile
of two corns, a tile with an egg, two empty spaces. Expected verdicts are worked out by
hand from the ruling cited beside each case.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tabletop_rules.downtown_farmers_market import (
    Challenge,
    ExactCount,
    ExactCountAny,
    ExactTotal,
    FoodTile,
    Forbidden,
    Ingredient,
    Majority,
    OneOfEach,
    PerSet,
    count_ingredients,
    score_board,
)

from tabletop_rules.downtown_farmers_market.sets import most_sets
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict
from tabletop_rules.downtown_farmers_market.model import INGREDIENTS

from .boards import read_data

BREAD, CARROT, CORN, CHEESE, MILK, EGG = Ingredient


def line(*tiles: str | None) -> Counter[Ingredient]:
    """The ingredient counts of a line given as its tiles (None is an empty space)."""
    return count_ingredients(tuple(None if t is None else FoodTile.of(*t.split())
                                   for t in tiles))


def sets(*shown: str) -> tuple[tuple[Ingredient, ...], ...]:
    """PerSet's sets from strings such as ``"bread milk"``."""
    return tuple(tuple(Ingredient(name) for name in s.split()) for s in shown)


TWELVE_BREADS = ("bread bread bread",) * 4

CASES: list[tuple[str, Challenge, tuple[str | None, ...], bool, int]] = [
    # DFM-R1: strictly more often than each other ingredient.
    ("majority tie is no majority", Majority(CARROT, 4),
     ("carrot carrot", "corn", "corn", "egg"), False, 0),
    ("majority by one", Majority(CARROT, 4), ("carrot carrot", "corn", "carrot", "corn"), True, 4),
    ("majority is a plurality, not half", Majority(CARROT, 4),
     ("carrot carrot", "corn", "milk", "egg"), True, 4),
    ("majority with others tied below", Majority(CARROT, 4),
     ("carrot carrot carrot", "corn corn", "milk milk", None), True, 4),
    ("majority counts repeats on a tile", Majority(CARROT, 4),
     ("carrot carrot carrot", "corn", "corn", None), True, 4),
    ("majority with none of it", Majority(CARROT, 4), ("corn", "milk", "egg", "bread"), False, 0),
    ("majority on an empty line", Majority(CARROT, 4), (None, None, None, None), False, 0),
    ("majority, sole ingredient", Majority(CARROT, 4), ("carrot", None, None, None), True, 4),
    ("majority lost by one", Majority(CARROT, 4),
     ("carrot carrot", "egg egg egg", None, None), False, 0),
    # DFM-R2: every listed ingredient exactly; others ignored.
    ("exact count ignores others", ExactCount(((CORN, 2), (CARROT, 1)), 6),
     ("corn egg", "corn milk milk", "carrot", "bread"), True, 6),
    ("exact count, one too many", ExactCount(((CORN, 2), (CARROT, 1)), 6),
     ("corn", "corn", "corn", "carrot"), False, 0),
    ("exact count, one missing", ExactCount(((CORN, 2), (CARROT, 1)), 6),
     ("corn corn", "egg", None, None), False, 0),
    ("exact count from one tile", ExactCount(((CORN, 2),), 3), ("corn corn", None, None, None),
     True, 3),
    ("exact count of 12 on a full line", ExactCount(((BREAD, 12),), 9), TWELVE_BREADS, True, 9),
    ("exact count of 12, one short", ExactCount(((BREAD, 12),), 9),
     ("bread bread bread",) * 3 + ("bread bread egg",), False, 0),
    # DFM-R3: some ingredient exactly n times.
    ("any: several qualify, scored once", ExactCountAny(2, 5),
     ("corn corn", "egg", "egg", "milk"), True, 5),
    ("any: more than n is not n", ExactCountAny(7, 10),
     ("egg egg egg", "egg egg egg", "egg egg", "carrot"), False, 0),
    ("any: exactly 7 beside others", ExactCountAny(7, 10),
     ("egg egg egg", "egg egg egg", "egg carrot", "carrot"), True, 10),
    ("any: 12 of one", ExactCountAny(12, 3), TWELVE_BREADS, True, 3),
    ("any: once, on an empty line", ExactCountAny(1, 3), (None, None, None, None), False, 0),
    ("any: ignores other counts", ExactCountAny(1, 3), ("corn corn", "egg", None, None), True, 3),
    # DFM-R4: all ingredients, repeats counted.
    ("total counts ingredients, not tiles", ExactTotal(5, 11),
     ("carrot", "corn", "bread", "milk egg"), True, 11),
    ("total of tiles is not enough", ExactTotal(4, 11),
     ("carrot", "corn", "bread", "milk egg"), False, 0),
    ("total with an empty space", ExactTotal(5, 11), ("egg egg egg", "corn corn", None, None),
     True, 11),
    ("total of 12", ExactTotal(12, 2), TWELVE_BREADS, True, 2),
    ("total of 11 against 12", ExactTotal(11, 2), TWELVE_BREADS, False, 0),
    # DFM-R5: all six ingredients.
    ("all six on two tiles", OneOfEach(5), ("bread carrot corn", "cheese milk egg", None, None),
     True, 5),
    ("five of six with repeats", OneOfEach(5),
     ("bread carrot corn", "cheese milk milk", "bread bread", "corn"), False, 0),
    ("all six among 12", OneOfEach(5),
     ("bread bread carrot", "corn corn cheese", "milk milk egg", "egg egg egg"), True, 5),
    # DFM-R6: none of them present.
    ("forbidden, none present", Forbidden((CHEESE, MILK, CORN), 8),
     ("egg egg egg", "bread", "carrot bread", "egg"), True, 8),
    ("forbidden, one hidden on a tile", Forbidden((CHEESE, MILK, CORN), 8),
     ("egg egg milk", "bread", "carrot", "egg"), False, 0),
    ("forbidden on an empty line", Forbidden((CHEESE,), 4), (None, None, None, None), True, 4),
    # DFM-R7: points per set formed; each ingredient in at most one set.
    ("one point per bread", PerSet(sets("bread"), 1),
     ("bread carrot", "bread bread", "bread", "bread"), True, 5),
    ("a set across tiles", PerSet(sets("bread milk"), 3), ("bread", "egg", "milk", None), True, 3),
    ("an ingredient in one set only", PerSet(sets("bread milk"), 3),
     ("bread bread bread", "milk", None, None), True, 3),
    ("no set formed", PerSet(sets("bread milk"), 3), ("bread bread", "egg", None, None), False, 0),
    ("a set with a repeat", PerSet(sets("corn corn"), 2), ("corn corn corn", None, None, None),
     True, 2),
    ("competing sets: the most sets, not the first", PerSet(sets("bread milk", "milk egg", "bread"),
                                                            2),
     ("bread", "milk", "egg", None), True, 4),
    ("competing sets: three from five", PerSet(sets("bread milk", "milk egg", "bread"), 2),
     ("bread bread", "milk milk", "egg", None), True, 6),
    ("competing sets: the long set loses", PerSet(sets("bread carrot corn", "bread", "corn"), 1),
     ("bread carrot corn", "bread", "corn", None), True, 4),
    ("a bread cannot serve two sets", PerSet(sets("bread", "bread milk"), 5),
     ("bread milk", None, None, None), True, 5),
    ("a cycle of pairs", PerSet(sets("bread milk", "milk egg", "egg bread"), 1),
     ("bread milk egg", None, None, None), True, 1),
    ("a cycle of pairs, doubled", PerSet(sets("bread milk", "milk egg", "egg bread"), 1),
     ("bread milk egg", "bread milk egg", None, None), True, 3),
    ("six sets of 12", PerSet(sets("bread milk"), 2),
     ("bread milk bread", "milk bread milk", "bread bread milk", "milk milk bread"), True, 12),
]


@pytest.mark.parametrize(("challenge", "tiles", "met", "points"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_verdict(challenge: Challenge, tiles: tuple[str | None, ...], met: bool,
                 points: int) -> None:
    verdict = challenge.evaluate(line(*tiles))
    assert (verdict.met, verdict.points) == (met, points)
    assert verdict.explanation


RULES = [(Majority(CARROT, 1), "DFM-R1"), (ExactCount(((CORN, 1),), 1), "DFM-R2"),
         (ExactCountAny(1, 1), "DFM-R3"), (ExactTotal(1, 1), "DFM-R4"),
         (OneOfEach(1), "DFM-R5"), (Forbidden((EGG,), 1), "DFM-R6"),
         (PerSet(sets("egg"), 1), "DFM-R7")]


@pytest.mark.parametrize("tiles", [("egg",), ("corn",), ("bread carrot corn", "cheese milk egg")])
@pytest.mark.parametrize(("challenge", "rule"), RULES, ids=[rule for _, rule in RULES])
def test_every_verdict_cites_its_ruling(challenge: Challenge, rule: str,
                                        tiles: tuple[str, ...]) -> None:
    assert challenge.evaluate(line(*tiles)).rule == rule


def test_repeats_on_one_tile_are_counted() -> None:
    assert line("corn corn corn", "corn egg", None) == Counter({CORN: 4, EGG: 1})


def young_shopper_row(*tiles: list[str] | None) -> tuple[bool, int, str]:
    """(met, points, rule) of the top row of a Young Shopper board holding only ``tiles``."""
    grid = [list(tiles)] + [[None] * 4 for _ in range(3)]
    verdict = score_board(board_from_dict({"mode": "young_shopper", "grid": grid})).rows[0].verdict
    return verdict.met, verdict.points, verdict.rule


@pytest.mark.parametrize(("tiles", "points"), [
    ((["egg", "egg"], ["egg", "carrot", "carrot"], ["milk", "milk"], None), 3),  # rulebook line
    ((["egg", "egg", "egg"], ["carrot", "carrot", "carrot"], None, None), 3),  # a tie counts once
    ((["bread"], ["corn"], ["milk"], ["egg"]), 1),
    ((["corn"] * 3,) * 4, 12),
])
def test_young_shopper_scores_the_most_frequent_ingredient(tiles: tuple[list[str] | None, ...],
                                                            points: int) -> None:
    assert young_shopper_row(*tiles) == (True, points, "DFM-R9")


def test_young_shopper_empty_line_scores_nothing() -> None:
    assert young_shopper_row(None, None, None, None) == (False, 0, "DFM-R9")


def young_shopper_explanation(*tiles: list[str] | None) -> str:
    grid = [list(tiles)] + [[None] * 4 for _ in range(3)]
    return score_board(board_from_dict({"mode": "young_shopper", "grid": grid})).rows[0].verdict.explanation


@pytest.mark.parametrize(("tiles", "explanation"), [
    ((None,) * 4, "No ingredients on the line yet: 0 points"),
    ((["milk"], None, None, None), "Most frequent ingredient: milk, 1 time: 1 point"),
    ((["egg", "egg"], ["egg", "carrot", "carrot"], ["milk", "milk"], None),
     "Most frequent ingredient: egg, 3 times: 3 points"),
    ((["egg", "egg"], ["carrot", "carrot"], ["bread", "bread"], None),
     "Most frequent ingredient: bread, 2 times (tied with carrot, egg, counted once): 2 points"),
    ((["egg"], ["milk"], None, None),
     "Most frequent ingredient: milk, 1 time (tied with egg, counted once): 1 point"),
], ids=["empty", "one", "rulebook line", "three-way tie", "two-way tie"])
def test_young_shopper_explanations(tiles: tuple[list[str] | None, ...],
                                    explanation: str) -> None:
    """The sentence an app shows a child at the table: exact, ties named in board order."""
    assert young_shopper_explanation(*tiles) == explanation


def test_incomplete_board_is_scored_as_it_stands() -> None:
    """DFM-R8: empty spaces hold nothing; each challenge judges what is there."""
    board = {
        "row_challenges": [
            {"type": "forbidden", "ingredients": ["cheese"], "points": 4},
            {"type": "exact_total", "count": 2, "points": 3},
            {"type": "majority", "ingredient": "egg", "points": 2},
            {"type": "one_of_each", "points": 5}],
        "column_challenges": [
            {"type": "per_set", "sets": [["egg"]], "points": 1},
            {"type": "exact_count_any", "count": 1, "points": 2},
            {"type": "exact_count", "counts": {"egg": 1}, "points": 3},
            {"type": "forbidden", "ingredients": ["egg"], "points": 6}],
        "grid": [[None] * 4, [["egg", "egg"], None, None, None], [None] * 4, [None] * 4],
    }
    score = score_board(board_from_dict(board))
    assert [line.points for line in score.rows] == [4, 3, 0, 0]
    assert [line.points for line in score.columns] == [2, 0, 0, 6]
    assert (score.total, score.challenges_met, score.best_challenge_points) == (15, 4, 6)
    assert score.complete is False


def test_most_sets_is_not_exponential_in_the_sets() -> None:
    """83 distinct sets once cost seconds, and 461 overflowed the recursion: the search is over what is left of the line, not the sets."""
    many = tuple(s for size in range(3, 7)
                 for s in itertools.combinations_with_replacement(INGREDIENTS, size))
    assert len(many) > 461
    counts = Counter({i: 2 for i in INGREDIENTS})
    assert most_sets(many, counts) == 4  # 12 ingredients, three at a time at best


def test_most_sets_drops_sets_that_hold_another() -> None:
    """bread+milk holds bread: never better, so two breads and a milk form two sets."""
    counts = Counter({Ingredient.BREAD: 2, Ingredient.MILK: 1})
    assert most_sets(sets("bread milk", "bread"), counts) == 2
    assert most_sets(sets("bread milk", "milk egg"), counts) == 1


EXPLANATIONS = read_data("explanations.json")["cases"]


@pytest.mark.parametrize("case", EXPLANATIONS, ids=lambda c: f"{c['challenge']['type']}: "
                                                          f"{c['explanation'][:40]}")
def test_each_challenge_explains_its_line_word_for_word(case: dict) -> None:
    """The sentences an app shows beside a line (golden data: one case per branch)."""
    filler = {"type": "forbidden", "ingredients": ["bread"], "points": 0}
    grid = [[t.split() if t else None for t in case["line"]]] + [[None] * 4] * 3
    board = board_from_dict({"grid": grid, "row_challenges": [case["challenge"], *[filler] * 3],
                        "column_challenges": [filler] * 4})
    verdict = score_board(board).rows[0].verdict
    assert (verdict.met, verdict.points, verdict.explanation, verdict.rule) == (
        case["met"], case["points"], case["explanation"], case["rule"])
