"""Building towns for tests: compact tile helpers, the golden data, hypothesis strategies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tabletop_rules.foxglove_farm import Town, builtin_catalog, parse_town

DATA = Path(__file__).resolve().parent.parent / "data" / "foxglove_farm"

STRAIGHT = (("N", "S"), ("E", "W"))
CURVED = (("N", "E"), ("E", "S"), ("S", "W"), ("W", "N"))
T_JUNCTIONS = (("N", "E", "S"), ("E", "S", "W"), ("S", "W", "N"), ("W", "N", "E"))
TRAIL_SHAPES = STRAIGHT + CURVED + T_JUNCTIONS


def load(name: str) -> dict[str, Any]:
    """A golden data file from tests/data/foxglove_farm/."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def b(row: int, col: int, building: str, **goods: int) -> dict[str, Any]:
    """A building tile in the contract's form: ``b(0, 2, "butcher", sheep=2)``."""
    tile: dict[str, Any] = {"row": row, "col": col, "building": building}
    if goods:
        tile["goods"] = goods
    return tile


def t(row: int, col: int, sides: str) -> dict[str, Any]:
    """A trail tile: ``t(1, 0, "NE")``."""
    return {"row": row, "col": col, "trail": list(sides)}


START = [b(0, 0, "forest"), b(0, 1, "mine")]


def town_data(*tiles: dict[str, Any], start: bool = True, **fields: Any) -> dict[str, Any]:
    """A town's JSON: the starting tile at (0, 0)-(0, 1) unless ``start=False``."""
    return {"tiles": [*(START if start else []), *tiles], **fields}


def town(*tiles: dict[str, Any], start: bool = True, **fields: Any) -> Town:
    return parse_town(town_data(*tiles, start=start, **fields))


PLACEABLE = sorted((b for b in builtin_catalog() if b.documented and "start" not in b.tiers),
                   key=lambda b: b.id)
"""The buildings a player can add to a town: documented, and not the starting tile."""


@st.composite
def town_dicts(draw: st.DrawFn, max_tiles: int = 24, variant: str | None = None,
               trail_bias: float = 0.5) -> dict[str, Any]:
    """A valid town's JSON: the starting tile, then tiles placed one by one orthogonally
    next to the town, buildings holding goods they depict within their slots."""
    placed: dict[tuple[int, int], dict[str, Any]] = {}
    forest_goods = draw(st.integers(0, 5))
    placed[(0, 0)] = b(0, 0, "forest", **({"wood": forest_goods} if forest_goods else {}))
    mine_goods = draw(st.integers(0, 3))
    placed[(0, 1)] = b(0, 1, "mine", **({"stone": mine_goods} if mine_goods else {}))
    for _ in range(draw(st.integers(0, max_tiles))):
        frontier = sorted({(r + dr, c + dc) for (r, c) in placed
                           for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} - set(placed))
        row, col = draw(st.sampled_from(frontier))
        if draw(st.floats(0, 1)) < trail_bias:
            placed[(row, col)] = t(row, col, "".join(draw(st.sampled_from(TRAIL_SHAPES))))
            continue
        building = draw(st.sampled_from(PLACEABLE))
        kinds = sorted(g.value for g in building.depicts)
        cubes = draw(st.lists(st.sampled_from(kinds), max_size=building.slots)) if kinds else []
        goods = {k: cubes.count(k) for k in set(cubes)}
        placed[(row, col)] = b(row, col, building.id, **goods)
    data: dict[str, Any] = {"tiles": list(placed.values()),
                            "score_track": draw(st.integers(0, 150))}
    data["variant"] = variant or draw(st.sampled_from(["standard", "expert"]))
    return data
