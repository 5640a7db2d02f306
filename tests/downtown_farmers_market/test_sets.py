"""The most sets a line forms (DFM-R7), against an exhaustive search, whichever way the
line is counted: packed as scoring packs it, or from a Counter."""

from __future__ import annotations

import gc
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.downtown_farmers_market import INGREDIENTS, Ingredient, PerSet
from tabletop_rules.downtown_farmers_market.sets import most_sets, packed_sets

Sets = tuple[tuple[Ingredient, ...], ...]

shown_sets = st.lists(st.lists(st.sampled_from(INGREDIENTS), min_size=1, max_size=3).map(tuple),
                      min_size=1, max_size=4).map(tuple)
lines = st.lists(st.sampled_from(INGREDIENTS), max_size=12)


def exhaustive(sets: Sets, counts: Counter[Ingredient]) -> int:
    """Every way of forming one more set, tried."""
    best = 0
    for shown in sets:
        need = Counter(shown)
        if all(counts[i] >= n for i, n in need.items()):
            best = max(best, 1 + exhaustive(sets, counts - need))
    return best


@given(shown_sets, lines)
def test_the_most_sets_are_found(sets: Sets, line: list[Ingredient]) -> None:
    counts = Counter(line)
    assert most_sets(sets, counts) == exhaustive(sets, counts)


@given(shown_sets, lines, st.integers(0, 12))
def test_a_packed_line_is_judged_as_its_counts_are(sets: Sets, line: list[Ingredient],
                                                    points: int) -> None:
    tally = bytes(line.count(i) for i in INGREDIENTS)
    challenge = PerSet(sets, points)
    assert challenge.judge(tally) == challenge.evaluate(Counter(line))


def test_sets_too_big_to_pack_are_searched_unpacked() -> None:
    bread = Ingredient.BREAD
    sets = ((bread,) * 200, (bread,) * 3)
    assert packed_sets(sets) is None
    assert PerSet(sets, 1).judge(bytes([250, 0, 0, 0, 0, 0])).points == 83
    assert most_sets(sets, Counter({bread: 600})) == 200


def test_counts_below_none_form_nothing() -> None:
    bread, egg = Ingredient.BREAD, Ingredient.EGG
    assert most_sets(((bread,), (egg, egg)), Counter({bread: -2, egg: 5})) == 2


@given(shown_sets, lines)
def test_the_search_leaves_no_garbage_for_the_collector(sets: Sets, line: list[Ingredient]
                                                        ) -> None:
    """A search (and the sets formed read back) is freed as soon as it is done: nothing
    is left in a reference cycle, which only the garbage collector's passes would free,
    holding the interpreter's lock meanwhile (the engine scores boards by the thousand)."""
    tally = bytes(line.count(i) for i in INGREDIENTS)
    gc.collect()
    gc.disable()
    try:
        verdict = PerSet(sets, 1).judge(tally)
        assert verdict.sets is not None
        del verdict
        assert gc.collect() == 0
    finally:
        gc.enable()
