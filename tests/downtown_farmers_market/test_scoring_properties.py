"""Properties the scorer must have on any well-formed board.

Each one is something a plausible wrong scorer breaks: reading a line in tile order,
letting one tile's change leak into other lines, counting a tie twice, using an
ingredient in two sets, or placing players out of order.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.downtown_farmers_market import (
    Ingredient,
    Majority,
    PerSet,
    rank_boards,
    tie_break_key,
)
from tabletop_rules.downtown_farmers_market.json_form import players_from_list

from .boards import JsonDict, core_score
from .random_boards import boards, players, random_tile
from .reference import SIX

indices = st.integers(0, 3)


def verdicts(answer: JsonDict, side: str) -> list[tuple[bool, int, str]]:
    return [(line["met"], line["points"], line["rule"]) for line in answer[side]]


def lines_of(board: JsonDict) -> list[tuple[str, int, list[list[str] | None]]]:
    """Each line of a board as (side, index, spaces), side as in the score answer."""
    grid = board["grid"]
    return [("rows", i, grid[i]) for i in range(4)] + \
        [("columns", i, [row[i] for row in grid]) for i in range(4)]


def count_on(spaces: list[list[str] | None]) -> Counter[str]:
    return Counter(name for tile in spaces if tile for name in tile)


@given(boards())
def test_figures_follow_from_the_lines(board: JsonDict) -> None:
    answer = core_score(board)
    lines = answer["rows"] + answer["columns"]
    assert answer["total"] == sum(line["points"] for line in lines)
    if answer["mode"] == "young_shopper":
        assert (answer["challenges_met"], answer["best_challenge_points"]) == (0, 0)
    else:
        met = [line["points"] for line in lines if line["met"]]
        assert answer["challenges_met"] == len(met)
        assert answer["best_challenge_points"] == max(met, default=0)
    grid = board["grid"]
    assert answer["complete"] == all(space is not None for row in grid for space in row)


@given(boards(), indices, st.permutations(range(4)), st.randoms(use_true_random=False))
def test_order_within_a_line_does_not_matter(board: JsonDict, r: int, order: list[int],
                                             rng: random.Random) -> None:
    """A line is judged on what it holds, not where: shuffling the ingredients on each
    tile changes nothing, and permuting one row's tiles keeps every row's verdict."""
    before = core_score(board)
    shuffled = copy.deepcopy(board)
    for tile in (tile for row in shuffled["grid"] for tile in row if tile):
        rng.shuffle(tile)
    assert core_score(shuffled) == before
    permuted = copy.deepcopy(board)
    permuted["grid"][r] = [board["grid"][r][c] for c in order]
    assert verdicts(core_score(permuted), "rows") == verdicts(before, "rows")


@given(boards(mode="standard"), st.permutations(range(4)))
def test_reordering_rows_with_their_challenges_moves_only_the_rows(board: JsonDict,
                                                                   order: list[int]) -> None:
    before = core_score(board)
    moved = {**board, "grid": [board["grid"][r] for r in order],
             "row_challenges": [board["row_challenges"][r] for r in order]}
    after = core_score(moved)
    assert verdicts(after, "rows") == [verdicts(before, "rows")[r] for r in order]
    assert verdicts(after, "columns") == verdicts(before, "columns")


@given(boards(), indices, indices, st.randoms(use_true_random=False))
def test_a_tile_only_affects_its_row_and_column(board: JsonDict, r: int, c: int,
                                                rng: random.Random) -> None:
    before = core_score(board)
    changed = copy.deepcopy(board)
    changed["grid"][r][c] = random_tile(rng, list(SIX)) if rng.random() < 0.8 else None
    after = core_score(changed)
    for side, kept in (("rows", r), ("columns", c)):
        assert [v for i, v in enumerate(verdicts(after, side)) if i != kept] == \
            [v for i, v in enumerate(verdicts(before, side)) if i != kept]


def without(row: list[list[str] | None], names: list[str]) -> list[list[str] | None]:
    """``row`` with ``names`` taken off its tiles; a tile left bare becomes an empty space."""
    return [[i for i in tile if i not in names] or None if tile else None for tile in row]


@given(boards(kind="forbidden"), indices, st.lists(st.sampled_from(SIX), max_size=3))
def test_removing_ingredients_never_unmeets_a_forbidden_challenge(
        board: JsonDict, r: int, removed: list[str]) -> None:
    """Taking ingredients off a row can only help "no X"; taking every X off meets it."""
    forbidden = board["row_challenges"][r]["ingredients"]
    row = board["grid"][r]
    was_met = core_score(board)["rows"][r]["met"]
    board["grid"][r] = without(row, removed)
    assert core_score(board)["rows"][r]["met"] or not was_met
    board["grid"][r] = without(row, forbidden)
    assert core_score(board)["rows"][r]["met"]


@given(boards(mode="young_shopper"))
def test_young_shopper_line_scores_its_largest_count(board: JsonDict) -> None:
    answer = core_score(board)
    for side, i, spaces in lines_of(board):
        most = max(count_on(spaces).values(), default=0)
        assert (answer[side][i]["points"], answer[side][i]["met"]) == (most, most > 0)


@given(boards(kind="per_set"))
def test_per_set_points_are_whole_sets(board: JsonDict) -> None:
    """Points are a multiple of the crate; no more sets than the line's ingredients allow."""
    answer = core_score(board)
    for side, i, spaces in lines_of(board):
        challenge = board[f"{side[:-1]}_challenges"][i]
        if not challenge["points"]:
            continue
        sets, left = divmod(answer[side][i]["points"], challenge["points"])
        assert left == 0
        assert sets <= count_on(spaces).total() // min(len(s) for s in challenge["sets"])
        assert answer[side][i]["met"] == (sets > 0)


ingredient_lists = st.lists(st.sampled_from(list(Ingredient)), max_size=11)
shown_sets = st.lists(st.lists(st.sampled_from(list(Ingredient)), min_size=1, max_size=3)
                      .map(tuple), min_size=1, max_size=4).map(tuple)


@given(shown_sets, ingredient_lists, st.sampled_from(list(Ingredient)))
def test_one_more_ingredient_forms_at_most_one_more_set(
        sets: tuple[tuple[Ingredient, ...], ...], line: list[Ingredient],
        extra: Ingredient) -> None:
    """Never fewer sets (the old sets still stand); never two more (drop the set that used
    the new ingredient and the rest was formable before)."""
    challenge = PerSet(sets, points=1)
    before = challenge.evaluate(Counter(line)).points
    after = challenge.evaluate(Counter([*line, extra])).points
    assert before <= after <= before + 1


@given(ingredient_lists)
def test_majority_is_met_exactly_when_one_ingredient_leads(line: list[Ingredient]) -> None:
    """DFM-R1 is strict: two ingredients tied for most are both refused."""
    counts = Counter(line)
    met = [i for i in Ingredient if Majority(i, points=1).evaluate(counts).met]
    top = [*sorted(counts.values(), reverse=True)[:2], 0, 0]
    assert len(met) == (1 if top[0] > top[1] else 0)


@given(players())
def test_places_are_monotone(request: list[JsonDict]) -> None:
    standings = rank_boards(players_from_list(request)).standings
    keys = [tie_break_key(s.score) for s in standings]
    assert standings[0].place == 1
    for position, (standing, key) in enumerate(zip(standings, keys, strict=True)):
        beaten_by = sum(other > key for other in keys)
        assert standing.place == beaten_by + 1
        if position:
            assert keys[position - 1] >= key
            assert (standing.place == standings[position - 1].place) == \
                (keys[position - 1] == key)
