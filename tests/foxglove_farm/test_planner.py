"""The final-round planner on worked examples, edge cases and random towns.

Every plan is replayed through the referee's own transport, haul and processing checks
(:func:`exhaustive.replay`), which also confirms the answer's figures. Golden towns are in
tests/data/foxglove_farm/planner/, each saying why its numbers are what they are.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tabletop_rules.foxglove_farm import (
    apply_move,
    parse_move,
    parse_town,
    run_processing,
    score_town,
)
from tabletop_rules.foxglove_farm.planner import (
    FinalRoundPlan,
    ProcessStep,
    UnboundedPlanError,
    plan_final_round,
)

from .exhaustive import best_final_round, replay
from .towns import b, load, t, town_dicts

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "foxglove_farm" / "planner"
REPRODUCERS = {"packed_expert_16_tiles.json"}
"""Towns in GOLDEN too big for the brute force (test_planner_deadline.py uses them)."""
KULY = load("kuly_transport_and_processing.json")


def checked(data: dict) -> FinalRoundPlan:
    """The plan for a town's JSON, replayed and compared with the brute force."""
    town = parse_town(data)
    plan = plan_final_round(town)
    replay(town, plan.to_dict())
    assert (plan.total, plan.goods_remaining) == best_final_round(town)
    assert plan.optimal and plan.upper_bound == plan.total
    return plan


@pytest.mark.parametrize("path", sorted(p for p in GOLDEN.glob("*.json")
                                        if p.name not in REPRODUCERS), ids=lambda p: p.stem)
def test_golden_towns(path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    plan = checked(golden["town"])
    expected = golden["expected"]
    assert {"total": plan.total, "processing_points": plan.processing_points,
            "end_game_points": plan.end_game_points,
            "goods_remaining": plan.goods_remaining} == expected


def test_kuly_example_as_a_final_round() -> None:
    """The rulebook's example (moves A-C, one run: 14 points, then the Ranch's sheep: 3)
    is a legal final round; nothing beats it, since the Butcher's group has only two
    sheep and the Lambing Shed's sheep can only reach the Ranch. The planner finds the
    same 17 and leaves 4 goods (the wood, or the coal the Kiln makes of it, and the
    Ranch's sheep)."""
    town = parse_town(KULY["town"])
    rulebook = town
    for step in KULY["transportation"]:
        rulebook = apply_move(rulebook, parse_move(step["move"]))
    result = run_processing(rulebook)
    assert result.points == KULY["processing"]["points"] == 14
    example = score_town(result.town)
    assert example.total == 17

    plan = checked(KULY["town"])
    assert plan.total == 17 and plan.processing_points == 14 and plan.end_game_points == 3
    assert plan.goods_remaining == 4


def test_plan_answer_has_the_contract_fields() -> None:
    answer = plan_final_round(parse_town(KULY["town"])).to_dict()
    assert set(answer) == {"total", "processing_points", "end_game_points",
                           "goods_remaining", "optimal", "upper_bound", "steps"}
    move = answer["steps"][0]
    assert move == {"action": "move", "good": "coal", "count": 2,
                    "from": {"row": 1, "col": 1}, "to": {"row": 1, "col": 3},
                    "path": [[1, 1], [1, 2], [1, 3]]}
    assert {"action": "process", "points": 14} in answer["steps"]


def test_a_town_with_nothing_to_do_still_runs_processing_once() -> None:
    plan = checked({"tiles": [b(0, 0, "forest", wood=2), b(0, 1, "mine", stone=1)],
                    "score_track": 12})
    assert plan.steps == (ProcessStep(0),)
    assert (plan.total, plan.goods_remaining) == (12, 3)


def test_goods_waiting_on_a_processor_are_moved_off_when_they_are_worth_more_elsewhere(
        ) -> None:
    """The Grocer holds a wheat and a sheep: left there they make 7 at the first run.
    Moving the sheep to the Ranch first leaves 8 sheep there: 24 + 6 = 30 instead of
    7 + 21 (FF-R4's mandatory run is avoided by transporting first)."""
    plan = checked({"tiles": [
        b(0, 0, "forest"), b(0, 1, "mine"), t(1, 0, "NES"), t(1, 1, "SWN"),
        b(2, 0, "grocer", wheat=1, sheep=1), b(2, 1, "ranch", sheep=7)]})
    assert plan.end_game_points == 30 and plan.processing_points == 0


def test_fewest_goods_break_a_tie() -> None:
    """Three wood: the Kiln's coal scores nothing, but the Butcher takes one coal and the
    only sheep (7); converting the other two wood changes nothing, so either is best,
    and both leave 2 goods."""
    plan = checked({"tiles": [
        b(0, 0, "forest", wood=3), b(0, 1, "mine"), t(1, 0, "NE"), b(1, 1, "charcoal_kiln"),
        t(1, 2, "WE"), b(1, 3, "butcher", sheep=1)]})
    assert (plan.processing_points, plan.goods_remaining) == (7, 2)


def test_negative_end_game_points_floor_the_total_at_zero() -> None:
    """FF-R18: with a request-defined tile losing 5 points per coal and no score, every
    plan totals 0, so the one leaving fewest goods wins (the Baths spend both coal)."""
    catalog = {"tax_office": {"slots": 2, "effects": [
        {"kind": "gain_per_held", "when": "end_game", "held": "coal", "points": -5}]}}
    plan = checked({"catalog": catalog, "score_track": 0, "tiles": [
        b(0, 0, "forest"), b(0, 1, "mine"), t(1, 0, "NE"), b(1, 1, "tax_office", coal=2),
        t(1, 2, "WE"), b(1, 3, "baths")]})
    assert plan.total == 5 and plan.goods_remaining == 0
    stuck = checked({"catalog": catalog, "score_track": 3, "tiles": [
        b(0, 0, "forest"), b(0, 1, "mine"), t(1, 0, "NE"), b(1, 1, "tax_office", coal=2)]})
    assert (stuck.total, stuck.goods_remaining) == (0, 2)


def test_conversions_that_cycle_and_score_have_no_best_plan() -> None:
    catalog = {"smelter": {"slots": 2, "effects": [
                   {"kind": "convert", "inputs": {"wood": 1}, "goods": {"coal": 1},
                    "points": 1}]},
               "sawmill": {"slots": 2, "effects": [
                   {"kind": "convert", "inputs": {"coal": 1}, "goods": {"wood": 1}}]}}
    town = parse_town({"catalog": catalog, "tiles": [
        b(0, 0, "forest", wood=1), b(0, 1, "mine"), t(1, 0, "NE"), b(1, 1, "smelter"),
        t(1, 2, "WE"), b(1, 3, "sawmill")]})
    with pytest.raises(UnboundedPlanError):
        plan_final_round(town)


def test_a_search_budget_too_small_still_gives_a_legal_plan() -> None:
    """The jammed Butcher again, with a Coal Shed the coal can move to and fro: the exact
    search must look at several arrangements, more than a budget of 1 allows."""
    data = {"score_track": 5, "tiles": [
        b(0, 0, "forest"), b(0, 1, "mine"), t(1, 0, "NE"), b(1, 1, "butcher", sheep=4),
        t(1, 2, "WES"), b(1, 3, "coal_mine", coal=2), b(2, 2, "coal_shed")]}
    town = parse_town(data)
    plan = plan_final_round(town, search_budget=1)
    replay(town, plan.to_dict())
    assert not plan.optimal and plan.total == 5
    assert checked(data).total == 5


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(town_dicts(max_tiles=16))
def test_plans_for_random_towns_are_legal_and_score_what_they_say(data: dict) -> None:
    """Any town: the plan replays legally to its claimed figures, and is never worse than
    running processing once and stopping (a legal final round)."""
    town = parse_town(data)
    plan = plan_final_round(town)
    replay(town, plan.to_dict())
    once = score_town(run_processing(town).town)
    assert (plan.total, -plan.goods_remaining) >= (once.total, -once.goods_remaining)
