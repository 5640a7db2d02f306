"""Time the final-round planner on large towns with goods on every building.

    .venv/bin/python benchmarks/bench_planner.py [--seeds 5] [--columns 6 12] [--variant both]

A town here is a grid: even rows are buildings, odd rows trails, so every building row
is linked to the next through T-junctions whose orientation alternates, and the whole
town is one connected group (the hardest case for the standard variant: one cluster).
Buildings are drawn at random from the built-in catalog (processing buildings, producers,
Ranches, a Hauler's Hut now and then) and each is filled with 50-100% of its slots. As
when the final round starts (round 3's processing has just run), a processing building
holds leftovers that make no complete batch; ``--loaded`` drops that, so buildings start
with complete batches too (the planner must then choose which to let fire and which to
break up, with little room to move goods around).
``--columns 6`` gives 60 tiles (30 buildings); ``12`` gives 120 (60 buildings).

Prints, per size and variant, the median and worst wall time of ``plan_final_round``
over the seeds, how many towns needed the exact search, and how many of those it could
not finish within the default search budget (the plan is then not proven optimal).

Then packed towns (``tests/foxglove_farm/packed_towns.py``: every building full,
processors holding complete batches, Hauler's Huts mixed in) of 12, 60 and 120 tiles,
planned with the deadline the engine gives a call (``--deadline``, 0.8 s): the median and
worst time, how many answers are proven optimal, and the gap ``upper_bound - total``
(median and worst) of the others.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop_rules.deadline import Deadline  # noqa: E402
from tabletop_rules.foxglove_farm import Goods, Town, builtin_catalog, parse_town  # noqa: E402
from tabletop_rules.foxglove_farm import process  # noqa: E402
from tabletop_rules.foxglove_farm import planner  # noqa: E402
from tests.foxglove_farm.packed_towns import packed_town  # noqa: E402

ROWS = 10
BUILDINGS = (
    "charcoal_kiln", "charcoal_kiln", "butcher", "bakery", "grocer", "cafe", "foundry",
    "furniture_store", "baths", "brewery", "market", "marketplace", "trading_company",
    "distillery", "factory", "farmyard", "restaurant", "smokehouse", "stonemason",
    "tavern", "wheat_market", "ranch", "ranch", "allotment", "alpine_meadow", "barn",
    "coal_mine", "coal_shed", "fertile_plot", "granary", "hot_spring", "industrial_farm",
    "lambing_shed", "bakehouse", "discount_store", "emporium", "foragers_camp",
    "general_goods_store", "grazing_land", "sheepfold", "scrapyard", "woolmill",
)


def grid_town(seed: int, columns: int, variant: str, hut: bool, loaded: bool = False,
              ) -> dict[str, Any]:
    """A ``ROWS`` x ``columns`` town as described in the module docstring."""
    rng = random.Random(seed)
    catalog = builtin_catalog()
    tiles = []
    for row in range(ROWS):
        for col in range(columns):
            if row % 2:  # trails: up, down and to one side, pairing columns
                east = (col + row // 2) % 2 == 0
                sides = "NES" if east else "SWN"
                tiles.append({"row": row, "col": col, "trail": list(sides)})
                continue
            if (row, col) == (0, 0):
                name = "forest"
            elif (row, col) == (0, 1):
                name = "mine"
            elif hut and (row, col) == (ROWS // 2 - 1, columns // 2):
                name = "haulers_hut"
            else:
                name = rng.choice(BUILDINGS)
            building = catalog[name]
            kinds = sorted(g.value for g in building.depicts)
            n = rng.randint(building.slots // 2, building.slots) if kinds else 0
            cubes = [rng.choice(kinds) for _ in range(n)]
            while not loaded and cubes and process(building, Goods.of(
                    {k: cubes.count(k) for k in set(cubes)})).steps:
                cubes.pop()  # leftovers of a processing run make no complete batch
            tile: dict[str, Any] = {"row": row, "col": col, "building": name}
            if cubes:
                tile["goods"] = {k: cubes.count(k) for k in set(cubes)}
            tiles.append(tile)
    return {"variant": variant, "score_track": 60, "tiles": tiles}


def time_plan(town: Town) -> tuple[float, bool, planner.FinalRoundPlan]:
    """Seconds taken, whether the exact search ran, and the plan."""
    searched = False
    original = planner.search

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal searched
        searched = True
        return original(*args, **kwargs)

    planner.search = counting  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        plan = planner.plan_final_round(town)
        return time.perf_counter() - start, searched, plan
    finally:
        planner.search = original  # type: ignore[assignment]


def packed_rows(seeds: int, deadline: float) -> None:
    """The packed towns' table (see the module docstring)."""
    print(f"\npacked towns, deadline {deadline} s")
    print(f"{'tiles':>5} {'variant':>8} {'median ms':>9} {'worst ms':>8} {'optimal':>7} "
          f"{'gap median':>10} {'gap worst':>9}")
    for tiles in (12, 60, 120):
        for variant in ("standard", "expert"):
            times, optimal, gaps = [], 0, []
            for seed in range(seeds):
                town = parse_town(packed_town(seed, tiles, variant, huts=seed % 3))
                start = time.perf_counter()
                plan = planner.plan_final_round(town, deadline=Deadline(deadline))
                times.append((time.perf_counter() - start) * 1000)
                optimal += plan.optimal
                gaps.append(plan.upper_bound - plan.total)
            print(f"{tiles:>5} {variant:>8} {statistics.median(times):>9.1f} {max(times):>8.1f} "
                  f"{optimal:>4}/{seeds:<2} {statistics.median(gaps):>10.0f} {max(gaps):>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--columns", type=int, nargs="+", default=[6, 12])
    parser.add_argument("--variant", choices=["standard", "expert", "both"], default="both")
    parser.add_argument("--loaded", action="store_true",
                        help="processing buildings may start with complete batches")
    parser.add_argument("--deadline", type=float, default=0.8,
                        help="seconds per packed town (the engine's default for a call)")
    args = parser.parse_args()
    variants = ["standard", "expert"] if args.variant == "both" else [args.variant]
    print(f"{'tiles':>5} {'bldgs':>5} {'goods':>5} {'variant':>8} {'hut':>3} "
          f"{'median ms':>9} {'worst ms':>8} {'searched':>8} {'unproven':>8} {'steps':>5}")
    for columns in args.columns:
        for variant in variants:
            for hut in (False, True):
                times, searched, unproven, steps, goods = [], 0, 0, 0, 0
                for seed in range(args.seeds):
                    town = parse_town(grid_town(seed, columns, variant, hut, args.loaded))
                    seconds, did_search, plan = time_plan(town)
                    times.append(seconds * 1000)
                    searched += did_search
                    unproven += not plan.optimal
                    steps = max(steps, len(plan.steps))
                    goods = max(goods, town.goods_remaining)
                print(f"{ROWS * columns:>5} {ROWS * columns // 2:>5} {goods:>5} {variant:>8} "
                      f"{'yes' if hut else 'no':>3} {statistics.median(times):>9.1f} "
                      f"{max(times):>8.1f} {searched:>8} {unproven:>8} {steps:>5}")
    packed_rows(args.seeds, args.deadline)


if __name__ == "__main__":
    main()
