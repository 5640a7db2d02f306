"""Packed towns: every building full, processors holding complete batches (a jam).

The planner's hardest inputs: nothing can move until a run frees slots, and a run fires
everything in place (FF-R4), so the plan must choose what to let fire. A town is a grid
like the reproducer's (``tests/data/foxglove_farm/planner/packed_expert_16_tiles.json``):
even rows are buildings, odd rows T-junction trails pairing columns, so every building
is in one connected group. Used by the planner's tests and ``benchmarks/bench_planner.py``;
:func:`greedy_total` is a plan built without the planner, replayed through the referee's
own :func:`apply_move` and :func:`run_processing`, that the planner must never lose to.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import (
    GOODS,
    Move,
    Position,
    Town,
    apply_move,
    builtin_catalog,
    processing_outcomes,
    reachable,
    run_processing,
    score_town,
)

CONVERTERS = (
    "charcoal_kiln", "butcher", "bakery", "grocer", "cafe", "foundry", "furniture_store",
    "baths", "brewery", "market", "marketplace", "trading_company", "distillery", "factory",
    "farmyard", "restaurant", "smokehouse", "stonemason", "tavern", "wheat_market")
OTHERS = ("ranch", "allotment", "alpine_meadow", "barn", "coal_mine", "coal_shed",
          "fertile_plot", "granary", "hot_spring", "lambing_shed", "emporium",
          "general_goods_store", "grazing_land", "scrapyard", "guildhall")
SHAPES = {12: (4, 3), 16: (4, 4), 20: (4, 5), 30: (6, 5), 60: (10, 6), 120: (10, 12)}
"""Tiles: (rows, columns) of the grid."""


def packed_town(seed: int, tiles: int, variant: str, huts: int = 1, converters: float = 0.85,
                ) -> dict[str, Any]:
    """A packed town's JSON: ``tiles`` one of :data:`SHAPES`, about two buildings in
    three converters, up to ``huts`` Hauler's Huts."""
    rng = random.Random(f"packed-{seed}-{tiles}-{variant}-{huts}")
    rows, columns = SHAPES[tiles]
    catalog = builtin_catalog()
    spots = [(r, c) for r in range(0, rows, 2) for c in range(columns)][2:]
    hut_spots = set(rng.sample(spots, min(huts, len(spots))))
    out: list[dict[str, Any]] = []
    for row in range(rows):
        for col in range(columns):
            if row % 2:
                east = (col + row // 2) % 2 == 0
                out.append({"row": row, "col": col, "trail": list("NES" if east else "SWN")})
                continue
            if (row, col) in ((0, 0), (0, 1)):
                name = ("forest", "mine")[col]
            elif (row, col) in hut_spots:
                name = "haulers_hut"
            else:
                name = rng.choice(CONVERTERS if rng.random() < converters else OTHERS)
            building = catalog[name]
            tile: dict[str, Any] = {"row": row, "col": col, "building": name}
            kinds = sorted(g.value for g in building.depicts)
            if kinds:
                cubes = [rng.choice(kinds) for _ in range(building.slots)]
                tile["goods"] = {k: cubes.count(k) for k in sorted(set(cubes))}
            out.append(tile)
    return {"variant": variant, "score_track": rng.randint(0, 30), "tiles": out}


@st.composite
def packed_towns(draw: st.DrawFn, sizes: tuple[int, ...] = (12, 16, 20)) -> dict[str, Any]:
    """Hypothesis strategy over :func:`packed_town`."""
    return packed_town(draw(st.integers(0, 10**6)), draw(st.sampled_from(sizes)),
                       draw(st.sampled_from(["standard", "expert"])), draw(st.integers(0, 2)))


def greedy_total(town: Town) -> int:
    """The total of a simple greedy final round: before each run, fill processors one
    batch at a time, the best-scoring batch first, with goods brought along legal routes
    from non-processing buildings (never unloading anything); run; stop when a run scores
    nothing; then move sheep onto end-game tiles that count them. Independent of the
    planner: every step goes through the referee's own rules."""
    while True:
        town = _load(town)
        result = run_processing(town)
        town = result.town
        if not result.points:
            break
    return score_town(_settle(town)).total


def _load(town: Town) -> Town:
    loaded: set[Position] = set()
    while True:
        best: tuple[int, Position, Town] | None = None
        for tile in town.buildings:
            if tile.position in loaded or not tile.building.processing:
                continue
            for effect in tile.building.processing:
                inputs = getattr(effect, "inputs", None)
                if inputs is None or effect.points <= 0 or (best and effect.points <= best[0]):
                    continue
                after = _bring(town, tile.position, inputs)
                if after is not None:
                    best = (effect.points, tile.position, after)
        if best is None:
            return town
        loaded.add(best[1])
        town = best[2]


def _bring(town: Town, where: Position, inputs: Any) -> Town | None:
    """``town`` after bringing onto ``where`` what it lacks of ``inputs``, or None."""
    lacking = inputs.minus(town.goods_at(where))
    for good, n in zip(GOODS, lacking):
        for _ in range(max(n, 0)):
            source = next((t.position for t in town.buildings if t.goods.count(good)
                           and not t.building.processing and t.position != where
                           and where in reachable(town, t.position, good)), None)
            tile = town.building_at(where)
            if source is None or tile is None or tile.free_slots <= 0:
                return None
            town = apply_move(town, Move(good, 1, source, where))
    tile = town.building_at(where)
    assert tile is not None
    fires = processing_outcomes(tile.building, tile.goods)[0].points > 0
    return town if fires else None


def _settle(town: Town) -> Town:
    for tile in town.buildings:
        if tile.building.id != "ranch":
            continue
        for other in town.buildings:
            good = GOODS[4]
            while (other.position != tile.position and other.goods.count(good)
                   and town.building_at(tile.position).free_slots > 0  # type: ignore[union-attr]
                   and tile.position in reachable(town, other.position, good)):
                town = apply_move(town, Move(good, 1, other.position, tile.position))
                other = town.building_at(other.position)  # type: ignore[assignment]
    return town
