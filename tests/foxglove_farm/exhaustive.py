"""Brute force for the final round: every sequence of single-good moves, hauls and runs.

The reference the planner is checked against. It knows nothing of the planner: it moves
goods one at a time wherever the referee's own route rules allow
(:func:`reachable` + :func:`apply_move`), hauls with :func:`apply_haul`, runs
:func:`run_processing` with every choice :func:`processing_outcomes` allows, and scores
with :func:`score_town`. Memoised by the goods on every building.

Semantics (the planner's documented interpretations): at least one processing run; a
Hauler's Hut hauls at the start of every transportation phase, before that phase's first
move, and a run that fires nothing starts a new phase. Values are ranked as FF-R16 ranks
them: most points, then fewest goods left; when no plan scores above 0, all tie at 0
(FF-R18) and only the goods left count.
"""

from __future__ import annotations

from collections import deque
from itertools import product

from tabletop_rules.foxglove_farm import (
    GOODS,
    Goods,
    Haul,
    Move,
    Pick,
    Town,
    apply_haul,
    apply_move,
    processing_outcomes,
    reachable,
    run_processing,
    score_town,
)

Value = tuple[int, int]
"""(points gained from here on, including end-game points; minus goods left)."""


class TooBig(Exception):
    """The town has more states than the brute force is allowed to visit."""


def best_final_round(town: Town, limit: int = 200_000) -> tuple[int, int]:
    """``(total, goods_remaining)`` of the best final round from ``town``."""
    gained, minus_goods = _Exhaustive(town, limit, True).phase((town.goods_state(), False),
                                                               town)
    if town.score_track + gained > 0:
        return town.score_track + gained, -minus_goods
    _, minus_goods = _Exhaustive(town, limit, False).phase((town.goods_state(), False), town)
    return 0, -minus_goods


class _Exhaustive:
    def __init__(self, town: Town, limit: int, points_matter: bool) -> None:
        self.points_matter = points_matter
        self.huts = [(tile.position, sum(e.count for e in tile.building.effects
                                         if isinstance(e, Haul)))
                     for tile in town.buildings
                     if any(isinstance(e, Haul) for e in tile.building.effects)]
        self.memo: dict[tuple[tuple[Goods, ...], bool], Value] = {}
        self.limit = limit
        self.visited = 0

    def phase(self, key: tuple[tuple[Goods, ...], bool], town: Town) -> Value:
        """Best value from the start of a transportation phase (``key[1]``: a run has
        happened)."""
        if key in self.memo:
            return self.memo[key]
        best: Value | None = None
        start = (town.goods_state(), tuple(n for _, n in self.huts), key[1])
        towns = {start: town}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            self.visited += 1
            if self.visited > self.limit:
                raise TooBig
            current, hauls, ran = towns[here], here[1], here[2]
            if ran:
                score = score_town(current)
                value = (score.end_game_points if self.points_matter else 0,
                         -score.goods_remaining)
                best = value if best is None else max(best, value)
            for after, points in self.runs(current):
                if after.goods_state() == current.goods_state():  # fired nothing
                    nxt = (here[0], tuple(n for _, n in self.huts), True)
                    if nxt not in towns:
                        towns[nxt] = current
                        queue.append(nxt)
                    continue
                child = self.phase((after.goods_state(), True), after)
                value = (child[0] + points if self.points_matter else 0, child[1])
                best = value if best is None else max(best, value)
            for nxt_town, nxt_hauls in self.transports(current, hauls):
                nxt = (nxt_town.goods_state(), nxt_hauls, ran)
                if nxt not in towns:
                    towns[nxt] = nxt_town
                    queue.append(nxt)
        assert best is not None  # a run always leads somewhere that may end
        self.memo[key] = best
        return best

    @staticmethod
    def runs(town: Town) -> list[tuple[Town, int]]:
        """Every result of one processing run, one per combination of FF-R4's choices."""
        options = []
        for tile in town.buildings:
            if tile.building.processing:
                outcomes = processing_outcomes(tile.building, tile.goods)
                options.append([(tile.position, o.goods) for o in outcomes])
        results = []
        for combo in product(*options):
            result = run_processing(town, dict(combo))
            results.append((result.town, result.points))
        return results

    def transports(self, town: Town, hauls: tuple[int, ...],
                   ) -> list[tuple[Town, tuple[int, ...]]]:
        found = []
        for n, (hut, _) in enumerate(self.huts):
            left = hauls[n]
            if not left:
                continue
            spent = hauls[:n] + (left - 1,) + hauls[n + 1:]
            for tile in town.buildings:
                if tile.position == hut:
                    continue
                for good in GOODS:
                    if tile.goods.count(good):
                        try:
                            found.append((apply_haul(town, hut, [Pick(good, 1, tile.position)]),
                                          spent))
                        except ValueError:  # the hut is full
                            pass
        idle = (0,) * len(self.huts)
        for tile in town.buildings:
            for good in GOODS:
                if not tile.goods.count(good):
                    continue
                for destination in reachable(town, tile.position, good):
                    target = town.building_at(destination)
                    if target is not None and target.free_slots > 0:
                        found.append((apply_move(town, Move(good, 1, tile.position,
                                                            destination)), idle))
        return found


# -- small random towns the brute force can handle -----------------------------------------

BUILDINGS = (
    "charcoal_kiln", "butcher", "bakery", "grocer", "foundry", "furniture_store", "baths",
    "brewery", "market", "marketplace", "smokehouse", "tavern", "restaurant", "factory",
    "ranch", "ranch", "lambing_shed", "coal_mine", "allotment", "granary", "barn",
    "hot_spring", "grazing_land", "general_goods_store", "discount_store", "emporium",
    "haulers_hut", "community_centre", "guildhall",
)
TRAILS = ("NS", "EW", "NE", "ES", "SW", "WN", "NES", "ESW", "SWN", "WNE")

CUSTOM_CATALOG = {
    "ranch": {"slots": 4, "effects": [
        {"kind": "gain_per_held", "when": "end_game", "held": "sheep", "points": 3},
        {"kind": "bonus_if_held", "when": "end_game", "held": "sheep", "at_least": 3,
         "points": 6}]},
    "spinnery": {"slots": 3, "effects": [
        {"kind": "convert", "inputs": {"wheat": 2}, "goods": {"sheep": 1}, "points": 1},
        {"kind": "convert", "inputs": {"sheep": 1, "wood": 1}, "points": 5}]},
    "coal_tax": {"slots": 2, "effects": [
        {"kind": "gain_per_held", "when": "end_game", "held": "coal", "points": -2},
        {"kind": "gain", "when": "production", "goods": {"coal": 1}}]},
    "bazaar": {"slots": 3, "effects": [{"kind": "convert_distinct", "count": 2,
                                        "points": 4}]},
    "depot": {"slots": 2, "effects": [{"kind": "haul", "count": 2}]},
}
CUSTOM_BUILDINGS = ("spinnery", "coal_tax", "bazaar", "depot", "ranch", "charcoal_kiln",
                    "butcher", "grocer", "market", "lambing_shed", "allotment", "granary")


def random_small_town(rng, variant: str, custom: bool = False, buildings: int = 4,
                      max_goods: int = 7, full: float = 0.0) -> dict:
    """A town's JSON with the starting tile, ``buildings`` more buildings and some trails
    placed next to the town at random, and at most ``max_goods`` goods in all; a building
    is filled to its slots with probability ``full`` (jams: no free slot to move to)."""
    from tabletop_rules.foxglove_farm import builtin_catalog, parse_catalog

    catalog = parse_catalog(CUSTOM_CATALOG) if custom else builtin_catalog()
    names = CUSTOM_BUILDINGS if custom else BUILDINGS
    placed: dict[tuple[int, int], dict] = {
        (0, 0): {"row": 0, "col": 0, "building": "forest"},
        (0, 1): {"row": 0, "col": 1, "building": "mine"}}
    added = 0
    while added < buildings:
        frontier = sorted({(r + dr, c + dc) for (r, c) in placed
                           for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} - set(placed))
        row, col = rng.choice(frontier)
        if rng.random() < 0.55:
            placed[(row, col)] = {"row": row, "col": col, "trail": list(rng.choice(TRAILS))}
        else:
            placed[(row, col)] = {"row": row, "col": col, "building": rng.choice(names)}
            added += 1
    budget = rng.randint(2, max_goods)
    tiles = list(placed.values())
    rng.shuffle(tiles)
    for tile in tiles:
        if "building" not in tile:
            continue
        building = catalog[tile["building"]]
        kinds = sorted(g.value for g in building.depicts)
        wanted = building.slots if rng.random() < full else rng.randint(0, 3)
        n = min(budget, building.slots, wanted) if kinds else 0
        cubes = [rng.choice(kinds) for _ in range(n)]
        budget -= n
        if cubes:
            tile["goods"] = {k: cubes.count(k) for k in set(cubes)}
    data = {"variant": variant, "score_track": rng.randint(0, 40), "tiles": tiles}
    if custom:
        data["catalog"] = CUSTOM_CATALOG
    return data
