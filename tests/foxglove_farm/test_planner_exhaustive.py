"""The planner against brute force on many small random towns, both variants.

Each town is seeded (``random.Random(seed)``), so a failure names the seed that
reproduces it: ``random_small_town(random.Random(seed), variant, ...)``. Three families:
built-in buildings; request-defined buildings that stress the effect language (a
conversion that makes goods another effect spends, a smaller Ranch whose bonus is within
reach, an end-game loss, "two different types", a second hauler); and jams (buildings
filled to their slots), where the counting bound is often out of reach and the exact
search has to prove what is. Every plan is also replayed through the referee's checks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop_rules.foxglove_farm import parse_town
from tabletop_rules.foxglove_farm.planner import plan_final_round

from .exhaustive import TooBig, best_final_round, random_small_town, replay

CHUNK = 25
FAMILIES: dict[str, tuple[int, dict[str, Any]]] = {
    # name: (towns, random_small_town keyword arguments)
    "builtin": (150, {"columns": 4, "max_goods": 8, "full": 0.2}),
    "custom": (150, {"custom": True, "columns": 3, "max_goods": 8, "full": 0.3}),
    "jammed": (100, {"columns": 3, "max_goods": 9, "full": 0.7}),
}


BRUTE_FORCE_LIMIT = 30_000
"""States the brute force may visit per town; the rare bigger town is only replayed."""


@pytest.mark.parametrize("family,first", [
    (name, first) for name, (count, _) in FAMILIES.items()
    for first in range(0, count, CHUNK)])
def test_planner_matches_brute_force(family: str, first: int) -> None:
    count, options = FAMILIES[family]
    too_big = 0
    for seed in range(first, min(first + CHUNK, count)):
        rng = random.Random(f"{family}-{seed}")
        variant = rng.choice(["standard", "expert"])
        town = parse_town(random_small_town(rng, variant, **options))
        plan = plan_final_round(town)
        replay(town, plan.to_dict())
        assert plan.optimal, (family, seed)
        try:
            best = best_final_round(town, BRUTE_FORCE_LIMIT)
        except TooBig:
            too_big += 1
            continue
        assert (plan.total, plan.goods_remaining) == best, (family, seed)
    assert too_big <= 2
