"""The processing phase: every effect fully, goods made onto the tile (FF-R4)."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    ConvertDistinct,
    Goods,
    Position,
    builtin_catalog,
    check_town,
    parse_catalog,
    parse_town,
    process,
    processing_outcomes,
    run_processing,
)

from .towns import b, t, town, town_dicts

P = Position
CATALOG = builtin_catalog()


def test_processing_repeats_while_inputs_remain():
    outcome = process(CATALOG["butcher"], Goods(coal=3, sheep=1))
    assert outcome.goods == Goods(coal=2) and outcome.points == 7
    outcome = process(CATALOG["baths"], Goods(coal=4))
    assert outcome.goods == Goods() and outcome.points == 10
    outcome = process(CATALOG["wheat_market"], Goods(wheat=9))
    assert outcome.goods == Goods(wheat=4) and outcome.points == 16
    outcome = process(CATALOG["smokehouse"], Goods(coal=3, sheep=2))
    assert outcome.goods == Goods(coal=1, sheep=1) and outcome.points == 11


def test_nothing_happens_without_inputs():
    town_ = town(t(1, 0, "NE"), b(1, 1, "butcher", sheep=2))
    result = run_processing(town_)
    assert result == (town_, 0, ())


@pytest.mark.parametrize(("building", "goods", "points", "left"), [
    ("market", Goods(wood=2, stone=2, sheep=2), 18, Goods()),
    ("market", Goods(wood=4, stone=1, sheep=1), 9, Goods(wood=3)),
    ("market", Goods(wood=2, stone=1), 0, Goods(wood=2, stone=1)),
    ("marketplace", Goods(wood=2, stone=2, wheat=2, coal=1, sheep=1), 28, Goods()),
    ("trading_company", Goods(wood=2, stone=2, wheat=2, coal=2, sheep=1), 20,
     Goods(wood=1, stone=1, wheat=1, coal=1)),
])
def test_different_types_make_the_most_conversions(building, goods, points, left):
    outcome = process(CATALOG[building], goods)
    assert (outcome.points, outcome.goods.total) == (points, left.total)
    if left.total == 0 or building == "trading_company":
        assert outcome.goods == left


def test_most_conversions_over_a_greedy_looking_choice():
    # wood 2, stone 2, wheat 1, coal 1 on a Market: 2 conversions (not 1), 18 points
    outcome = process(CATALOG["market"], Goods(wood=2, stone=2, wheat=1, coal=1))
    assert outcome.points == 18 and outcome.goods == Goods()


def test_every_legal_outcome_is_listed():
    outcomes = processing_outcomes(CATALOG["market"], Goods(wood=3, stone=1, wheat=1, coal=1))
    assert {o.points for o in outcomes} == {9}
    assert {o.goods for o in outcomes} == {
        Goods(wood=2, stone=1), Goods(wood=2, wheat=1), Goods(wood=2, coal=1),
        Goods(wood=3)}
    assert outcomes[0] == process(CATALOG["market"], Goods(wood=3, stone=1, wheat=1, coal=1))


def test_a_chosen_outcome():
    town_ = town(t(1, 0, "NE"), b(1, 1, "market", wood=3, stone=1, wheat=1, coal=1))
    result = run_processing(town_, {P(1, 1): Goods(wood=3)})
    assert result.town.goods_at(P(1, 1)) == Goods(wood=3) and result.points == 9
    with pytest.raises(ValueError, match="FF-R4"):
        run_processing(town_, {P(1, 1): Goods(wood=1)})


def test_fixed_conversions_have_one_outcome():
    assert len(processing_outcomes(CATALOG["charcoal_kiln"], Goods(wood=2, coal=1))) == 1


def test_a_request_building_with_chained_conversions():
    catalog = parse_catalog({"smelter": {"slots": 4, "effects": [
        {"kind": "convert", "inputs": {"coal": 1, "stone": 1}, "points": 5},
        {"kind": "convert", "inputs": {"wood": 1}, "goods": {"coal": 1}}]}})
    # wood becomes coal, which the first effect then uses: it runs again
    outcome = process(catalog["smelter"], Goods(wood=2, stone=2))
    assert outcome.goods == Goods() and outcome.points == 10
    assert [s.times for s in outcome.steps] == [2, 2]


def test_score_track_advances_by_the_points():
    town_ = town(t(1, 0, "NE"), b(1, 1, "baths", coal=2), score_track=40)
    result = run_processing(town_)
    assert result.points == 5 and result.town.score_track == 45
    assert "Baths at row 1, col 1" in result.log[0].explanation


# -- properties -------------------------------------------------------------------------

def brute_force_times(count, goods):
    """The most conversions of ``count`` different types, by trying every sequence."""
    best = 0
    stack = [(tuple(goods), 0)]
    seen = set()
    while stack:
        left, done = stack.pop()
        best = max(best, done)
        for pick in product((0, 1), repeat=5):
            if sum(pick) == count and all(n >= p for n, p in zip(left, pick)):
                nxt = tuple(n - p for n, p in zip(left, pick))
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, done + 1))
    return best


@given(st.integers(1, 5), st.lists(st.integers(0, 4), min_size=5, max_size=5))
def test_most_conversions_matches_brute_force(count, counts):
    goods = Goods(*counts)
    effect = ConvertDistinct(count, 1)
    assert effect.times(goods) == brute_force_times(count, goods)


@given(st.sampled_from(["market", "marketplace", "trading_company"]),
       st.lists(st.integers(0, 3), min_size=5, max_size=5))
def test_every_outcome_makes_the_most_conversions(building_id, counts):
    building = CATALOG[building_id]
    goods = Goods(*counts)
    effect = building.processing[0]
    most = effect.times(goods)
    for outcome in processing_outcomes(building, goods):
        assert outcome.points == most * effect.points
        assert outcome.goods.total == goods.total - most * effect.count
        assert goods.contains(outcome.goods)
        assert effect.times(outcome.goods) == 0


@given(town_dicts(max_tiles=20, trail_bias=0.3))
def test_processing_is_complete_and_keeps_towns_valid(data):
    town_ = parse_town(data)
    result = run_processing(town_)
    assert result.points >= 0
    assert result.town.score_track == town_.score_track + result.points
    assert check_town(result.town) == []
    again = run_processing(result.town)  # every effect ran fully: nothing is left to do
    assert again.points == 0 and again.log == ()
    assert sum(e.points for e in result.log) == result.points
