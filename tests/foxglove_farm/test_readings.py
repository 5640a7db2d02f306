"""Doubtful goods counts: every reading's total at once, agreeing with scoring each one."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import Good, Goods, Position, Town, check_town, parse_town, score_town
from tabletop_rules.foxglove_farm.readings import (
    MAX_DOUBTFUL_COUNTS,
    DoubtfulCount,
    TownReadings,
    check_town_readings,
    score_town_readings,
)

from .towns import b, t, town_data

LEDGER = {"slots": 6, "effects": [
    {"kind": "gain_per_held", "when": "end_game", "held": "coal", "per": 2, "points": -7},
    {"kind": "gain_per_held", "when": "end_game", "held": "wood", "points": 2},
    {"kind": "bonus_if_held", "when": "end_game", "held": "stone", "at_least": 2,
     "points": 5}]}
"""A request-defined building whose end-game points read three goods, one a loss."""

SPOTS = [(1, 0), (1, 1), (-1, 0), (-1, 1)]
"""Squares beside the starting tile for the buildings under test."""


def readings_one_by_one(town: Town, doubts: list[DoubtfulCount]
                        ) -> dict[tuple[int, ...], int | None]:
    """Each reading's total, None where a building would hold what it may not (FF-R19)."""
    totals: dict[tuple[int, ...], int | None] = {}
    for reading in product(*(range(len(d.candidates)) for d in doubts)):
        goods = {d.position: town.goods_at(d.position) for d in doubts}
        for doubt, k in zip(doubts, reading):
            held = goods[doubt.position]
            goods[doubt.position] = held.add(doubt.good, doubt.candidates[k]
                                             - held.count(doubt.good))
        read = town.with_goods(goods)
        totals[reading] = None if check_town(read) else score_town(read).total
    return totals


def assert_agrees(readings: TownReadings, town: Town, doubts: list[DoubtfulCount]) -> None:
    totals = readings_one_by_one(town, doubts)
    possible = [total for total in totals.values() if total is not None]
    likeliest = (0,) * len(doubts)
    assert readings.count == len(possible)
    assert readings.likely_total == totals[likeliest] == score_town(town).total
    assert (readings.lowest_total, readings.highest_total) == (min(possible), max(possible))
    for i, count in enumerate(readings.counts):
        assert (count.position, count.good) == (doubts[i].position, doubts[i].good)
        others = len(doubts) - i - 1
        assert count.totals == tuple(totals[(0,) * i + (k,) + (0,) * others]
                                     for k in range(len(doubts[i].candidates)))
        assert count.decides == any(
            totals[r] is not None and totals[s] is not None and totals[r] != totals[s]
            for r in totals for k in range(len(doubts[i].candidates))
            if (s := (*r[:i], k, *r[i + 1:])) != r), i


@st.composite
def doubtful_towns(draw: st.DrawFn) -> tuple[Town, list[DoubtfulCount]]:
    """A town of ranches and ledgers beside the starting tile, with 1 to 4 doubtful
    counts of goods they hold (some candidates overflowing their slots)."""
    buildings = draw(st.lists(st.sampled_from(["ranch", "ledger"]), min_size=1, max_size=4))
    tiles: list[dict[str, Any]] = []
    wanted: list[tuple[int, str]] = []
    for (row, col), building in zip(SPOTS, buildings):
        kinds = ["sheep"] if building == "ranch" else ["coal", "wood", "stone"]
        slots = 8 if building == "ranch" else 6
        goods = {}
        for good in draw(st.lists(st.sampled_from(kinds), unique=True, min_size=1)):
            goods[good] = draw(st.integers(0, slots // len(kinds) // 2 + 1))
            if draw(st.booleans()):
                wanted.append((len(tiles), good))
        tiles.append(b(row, col, building, **goods))
    assume(wanted)
    data = town_data(*tiles, score_track=draw(st.integers(0, 30)),
                     catalog={"ledger": LEDGER})
    town = parse_town(data)
    doubts = []
    for i, good in wanted[:4]:
        tile = tiles[i]
        first = tile["goods"][good]
        others = draw(st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True))
        candidates = (first, *[n for n in others if n != first])
        assume(len(candidates) >= 2)
        doubts.append(DoubtfulCount(Position(tile["row"], tile["col"]), Good(good),
                                    candidates))
    assume(check_town_readings(town, doubts) == [])
    return town, doubts


@settings(max_examples=200, deadline=None)
@given(doubtful_towns())
def test_every_reading_agrees_with_scoring_it_alone(case: tuple[Town, list[DoubtfulCount]]
                                                    ) -> None:
    town, doubts = case
    assert_agrees(score_town_readings(town, doubts, score_town(town)), town, doubts)


def test_the_ranch_example_read_as_7_or_8_sheep() -> None:
    """8 sheep score 3 x 8 + 6 = 30 (FF-R7); 7 sheep 21: the count decides."""
    town = parse_town(town_data(t(1, 0, "NE"), b(1, 1, "ranch", sheep=8), score_track=64))
    doubts = [DoubtfulCount(Position(1, 1), Good.SHEEP, (8, 7))]
    assert check_town_readings(town, doubts) == []
    readings = score_town_readings(town, doubts, score_town(town))
    assert (readings.count, readings.lowest_total, readings.highest_total,
            readings.likely_total) == (2, 85, 94, 94)
    (count,) = readings.counts
    assert count.decides and count.totals == (94, 85)
    assert count.path == ("tiles", 3, "goods", "sheep")


def test_below_the_floor_no_count_decides() -> None:
    """A loss that keeps the total under 0 either way changes nothing (FF-R18)."""
    town = parse_town(town_data(b(1, 0, "ledger", coal=4), catalog={"ledger": LEDGER}))
    doubts = [DoubtfulCount(Position(1, 0), Good.COAL, (4, 6))]
    readings = score_town_readings(town, doubts, score_town(town))
    assert (readings.lowest_total, readings.highest_total) == (0, 0)
    assert not readings.counts[0].decides


def test_limits_and_candidates_are_checked_with_the_town() -> None:
    town = parse_town(town_data(b(1, 0, "ranch", sheep=2), b(1, 1, "ledger", wood=1),
                                catalog={"ledger": LEDGER}))
    ranch, ledger = Position(1, 0), Position(1, 1)
    nine = [DoubtfulCount(ranch, Good.SHEEP, (2, n)) for n in range(3, 12)]
    assert [(p.path, p.message) for p in check_town_readings(town, nine)
            if p.path == ("tiles",)] == [
        (("tiles",), f"at most {MAX_DOUBTFUL_COUNTS} doubtful goods counts in a town (the "
                     "limit); got 9")]
    odd = [DoubtfulCount(ranch, Good.SHEEP, (2,)),
           DoubtfulCount(ledger, Good.WOOD, (1, 1, -1, 9)),
           DoubtfulCount(ledger, Good.SHEEP, (0, 1))]
    problems = {p.path: p.message for p in check_town_readings(town, odd)}
    assert problems.keys() == {
        ("tiles", 2, "goods", "sheep", "candidates"),
        ("tiles", 3, "goods", "wood", "candidates", 1),
        ("tiles", 3, "goods", "wood", "candidates", 2),
        ("tiles", 3, "goods", "wood", "candidates", 3),
        ("tiles", 3, "goods", "sheep", "candidates", 1)}
    assert problems[("tiles", 3, "goods", "wood", "candidates", 1)] == (
        "the same count as candidate 0")
    assert "6 goods slots" in problems[("tiles", 3, "goods", "wood", "candidates", 3)]
    assert "cannot hold sheep" in problems[("tiles", 3, "goods", "sheep", "candidates", 1)]


@pytest.mark.parametrize("sheep, problem", [(9, ("tiles", 2, "goods")),
                                            (-1, ("tiles", 2, "goods", "sheep",
                                                  "candidates", 0))])
def test_the_likeliest_count_is_judged_as_the_town_s_own(sheep: int,
                                                         problem: tuple[Any, ...]) -> None:
    """Past the slots, the likeliest reading is the town's slot problem; out of range,
    its number's problem is said at the candidate."""
    town = parse_town(town_data(b(1, 0, "ranch"))).with_goods({Position(1, 0): Goods(sheep=sheep)})
    doubts = [DoubtfulCount(Position(1, 0), Good.SHEEP, (sheep, 2))]
    assert [p.path for p in check_town_readings(town, doubts)] == [problem]
