"""Brute force for the final round, a plan checker, and small random towns for both.

:func:`best_final_round` is the reference the planner is checked against. It knows
nothing of the planner: it tries every sequence of single-good moves wherever the
referee's own route rules allow (:func:`reachable` + :func:`apply_move`), hauls with
:func:`apply_haul`, runs :func:`run_processing` with every choice
:func:`processing_outcomes` allows, and scores with :func:`score_town`; memoised by the
goods on every building. :func:`replay` carries a plan out with the referee's checks.

Semantics (the planner's documented interpretations): at least one processing run; a
Hauler's Hut hauls at the start of every transportation phase, before that phase's first
move, and a run that fires nothing starts a new phase. Values are ranked as FF-R16 ranks
them: most points, then fewest goods left; when no plan scores above 0, all tie at 0
(FF-R18) and only the goods left count.
"""

from __future__ import annotations

import random
from collections import deque
from itertools import product
from typing import Any

from tabletop_rules.foxglove_farm import (
    GOODS,
    Good,
    Goods,
    Haul,
    Move,
    Pick,
    Position,
    Town,
    apply_haul,
    apply_move,
    builtin_catalog,
    check_haul,
    parse_catalog,
    processing_outcomes,
    reachable,
    run_processing,
    score_town,
    validate_transport,
)

Value = tuple[int, int]
"""(points gained from here on, including end-game points; minus goods left)."""


def replay(town: Town, answer: dict[str, Any]) -> Town:
    """Carry out a plan's steps (the contract's JSON form) with the referee's own checks,
    asserting each is legal and scores what it says, and that the answer's figures are
    what the town ends with. Returns the town at the end."""
    hauled: dict[Position, int] = {}
    moved = False
    processing = runs = 0
    for step in answer["steps"]:
        if step["action"] == "move":
            move = Move(Good(step["good"]), step["count"], _at(step["from"]), _at(step["to"]))
            check = validate_transport(town, move)
            assert check.legal, (step, check.violations)
            assert [list(p) for p in check.path] == step["path"]
            assert check.town is not None
            town, moved = check.town, True
        elif step["action"] == "haul":  # FF-R17: at a phase's start, up to the hut's count
            hut = _at(step["to"])
            picks = [Pick(Good(p["good"]), p["count"], _at(p["from"])) for p in step["picks"]]
            assert not moved, "a haul comes before the phase's first move"
            hauled[hut] = hauled.get(hut, 0) + sum(p.count for p in picks)
            tile = town.building_at(hut)
            assert tile is not None
            limit = sum(e.count for e in tile.building.effects if isinstance(e, Haul))
            assert hauled[hut] <= limit
            assert not check_haul(town, hut, picks)
            town = apply_haul(town, hut, picks)
        else:
            assert step["action"] == "process"
            choices = {_at(c): Goods.of(c["goods"]) for c in step.get("choices", [])}
            result = run_processing(town, choices or None)
            assert result.points == step["points"]
            town, processing, runs = result.town, processing + result.points, runs + 1
            hauled, moved = {}, False
    assert runs >= 1, "the final round has at least one processing run"
    score = score_town(town)
    assert processing == answer["processing_points"]
    assert score.end_game_points == answer["end_game_points"]
    assert score.goods_remaining == answer["goods_remaining"]
    assert score.total == answer["total"]
    return town


def _at(where: dict[str, int]) -> Position:
    return Position(where["row"], where["col"])


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
    "charcoal_kiln", "charcoal_kiln", "butcher", "butcher", "bakery", "grocer", "foundry",
    "furniture_store", "baths", "brewery", "market", "marketplace", "smokehouse", "tavern",
    "restaurant", "factory", "ranch", "ranch", "lambing_shed", "coal_mine", "allotment",
    "granary", "barn", "hot_spring", "grazing_land", "general_goods_store",
    "discount_store", "emporium", "haulers_hut", "community_centre", "guildhall",
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


def random_small_town(rng: random.Random, variant: str, custom: bool = False,
                      columns: int = 3, max_goods: int = 7, full: float = 0.0,
                      ) -> dict[str, Any]:
    """A town's JSON: buildings on rows 0 and 2 (the starting tile at (0, 0)-(0, 1), a few
    spaces left empty), row 1 trails of random shapes, so that towns are mostly connected
    but routes, groups and the expert variant's blocks vary. At most
    ``max_goods`` goods in all; a building is filled to its slots with probability
    ``full`` (jams: no free slot to move to)."""
    catalog = parse_catalog(CUSTOM_CATALOG) if custom else builtin_catalog()
    names = CUSTOM_BUILDINGS if custom else BUILDINGS
    tiles: list[dict[str, Any]] = [{"row": 0, "col": 0, "building": "forest"},
                                   {"row": 0, "col": 1, "building": "mine"}]
    for row, col in [(0, c) for c in range(2, columns)] + [(2, c) for c in range(columns)]:
        if rng.random() < 0.85:
            tiles.append({"row": row, "col": col, "building": rng.choice(names)})
    chain = ["NES", *["WNE", "ESW"] * columns][:columns - 1] + ["SWN"]  # joins every column
    for col in range(columns):
        shape = chain[col] if rng.random() < 0.7 else rng.choice(TRAILS)
        tiles.append({"row": 1, "col": col, "trail": list(shape)})
    budget = rng.randint(2, max_goods)
    rng.shuffle(tiles)
    for tile in tiles:
        if "building" not in tile:
            continue
        building = catalog[tile["building"]]
        kinds = sorted(g.value for g in building.depicts)
        low = 0 if building.processing else 1  # producers hold goods, processors less
        wanted = building.slots if rng.random() < full else rng.randint(low, 3)
        n = min(budget, building.slots, wanted) if kinds else 0
        cubes = [rng.choice(kinds) for _ in range(n)]
        budget -= n
        if cubes:
            tile["goods"] = {k: cubes.count(k) for k in set(cubes)}
    data: dict[str, Any] = {"variant": variant, "score_track": rng.randint(0, 40),
                            "tiles": tiles}
    if custom:
        data["catalog"] = CUSTOM_CATALOG
    return data
