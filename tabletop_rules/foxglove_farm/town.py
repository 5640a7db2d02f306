"""Reading a town from the contract's JSON form, checking it, and writing it back.

:func:`parse_town` reads the plain-dict form (what the REST gateway receives, and what
the gRPC adapter may build from protobuf) and raises :class:`InvalidInputError` with one
:class:`Problem` per problem, each with a path into the JSON (``("tiles", 3, "goods",
"sheep")``). :func:`check_town` runs the same checks on a :class:`Town` built directly.

Bounds (absurd input, not game rules): rows and columns from -1000 to 1000
(:data:`MAX_COORDINATE`), at most 120 tiles (:data:`MAX_TILES`: a real
town has some 30 to 45; the planner's worst case is benchmarked at this size), a goods count at most
1000 before the slot check (:data:`MAX_GOODS_COUNT`), a score track from 0 to 10000
(:data:`.MAX_SCORE_TRACK`).
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Mapping
from typing import Any

from ..problems import InvalidInputError, Path, Problem, quoted
from ._json import (
    read_choice,
    read_goods,
    read_int,
    read_list,
    read_object,
    read_str,
    unknown_keys,
)
from .catalog import CATALOG_DOC, Catalog, builtin_catalog, catalog_to_dict, parse_catalog, \
    undocumented_problem
from .model import (
    MAX_SCORE_TRACK,
    SIDES,
    BuildingTile,
    Goods,
    Position,
    Side,
    Tile,
    TrailTile,
    Town,
    Variant,
    trail_shape,
)

MAX_COORDINATE = 1000
MAX_TILES = 120
MAX_GOODS_COUNT = 1000

PLACEMENT_RULE = "FF-R9"
HOLDING_RULE = "FF-R19"
START_RULE = "FF-R12"

_TOWN_FIELDS = ("variant", "score_track", "tiles", "catalog")
_TILE_FIELDS = ("row", "col", "building", "trail", "goods")


def parse_town(data: object, *, catalog: Catalog | None = None, path: Path = ()) -> Town:
    """A checked :class:`Town` from the contract's JSON form.

    ``catalog`` is the base catalog (the built-in one by default); the town's own
    ``catalog`` field adds to or overrides it. ``path`` prefixes every Problem's path
    (``("town",)`` for a town nested in a request). Raises :class:`InvalidInputError`
    listing every problem found.
    """
    problems: list[Problem] = []
    town = _read_town(data, catalog if catalog is not None else builtin_catalog(), problems)
    if town is not None and not problems:  # every tile read: the whole-town checks apply
        index = {position: i for i, position in enumerate(town.tiles)}
        problems.extend(_check_starting_tile(town, index))
        problems.extend(_check_one_group(town, index))
    if problems:
        raise InvalidInputError([p.under(*path) for p in problems])
    assert town is not None
    return town


def validate_town(town: Town) -> Town:
    """``town`` itself if well formed; otherwise :class:`InvalidInputError`."""
    problems = check_town(town)
    if problems:
        raise InvalidInputError(problems)
    return town


def _read_town(data: object, base: Catalog, problems: list[Problem]) -> Town | None:
    obj = read_object(data, (), problems, "a town object")
    if obj is None:
        return None
    unknown_keys(obj, _TOWN_FIELDS, (), problems, "a town")
    variant = read_choice(obj.get("variant", "standard"), ("variant",), problems,
                          (v.value for v in Variant), "a variant")
    score_track = read_int(obj.get("score_track", 0), ("score_track",), problems, 0,
                           MAX_SCORE_TRACK)
    catalog = base
    failed: set[str] = set()  # ids whose request definition was refused (already reported)
    if obj.get("catalog") is not None:
        try:
            catalog = parse_catalog(obj["catalog"], base)
        except InvalidInputError as error:
            problems.extend(error.problems)
            if isinstance(obj["catalog"], Mapping):
                failed = set(obj["catalog"])
    if "tiles" not in obj:
        problems.append(Problem(("tiles",), "list the town's tiles (at least the starting "
                                "tile's forest and mine)"))
        return None
    raw_tiles = read_list(obj["tiles"], ("tiles",), problems, "a list of tiles")
    if raw_tiles is None:
        return None
    if len(raw_tiles) > MAX_TILES:
        problems.append(Problem(("tiles",), f"at most {MAX_TILES} tiles; got {len(raw_tiles)}"))
        return None
    tiles: dict[Position, Tile] = {}
    first_at: dict[Position, int] = {}
    for i, raw in enumerate(raw_tiles):
        tile = _read_tile(raw, ("tiles", i), catalog, failed, problems)
        if tile is None:
            continue
        if tile.position in first_at:
            problems.append(Problem(("tiles", i), f"overlaps tile {first_at[tile.position]}: "
                                    f"both are at row {tile.position.row}, col "
                                    f"{tile.position.col}; a position holds one tile"))
            continue
        first_at[tile.position] = i
        tiles[tile.position] = tile
    if variant is None or score_track is None:
        return None
    return Town(tiles, catalog, Variant(variant), score_track)


def _read_tile(raw: object, path: Path, catalog: Catalog, failed: set[str],
               problems: list[Problem]) -> Tile | None:
    obj = read_object(raw, path, problems, "a tile object")
    if obj is None:
        return None
    before = len(problems)
    unknown_keys(obj, _TILE_FIELDS, path, problems, "a tile")
    row = _coordinate(obj, "row", path, problems)
    col = _coordinate(obj, "col", path, problems)
    has_building, has_trail = "building" in obj, "trail" in obj
    if has_building == has_trail:
        problems.append(Problem(path, "a tile has either \"building\" (a building id) or "
                                "\"trail\" (its open sides)" + (", not both" if has_building
                                                                 else "")))
        return None
    if has_trail:
        sides = _read_sides(obj["trail"], (*path, "trail"), problems)
        if "goods" in obj and obj["goods"] not in (None, {}):
            problems.append(Problem((*path, "goods"), "a trail tile holds no goods; goods "
                                    "sit on building tiles"))
        if sides is None or len(problems) > before or row is None or col is None:
            return None
        trail = TrailTile(Position(row, col), sides)
        problems.extend(_check_tile(trail, path))
        return trail
    building_id = read_str(obj["building"], (*path, "building"), problems, "a building id", 100)
    building = None
    if building_id in failed:
        return None
    if building_id is not None:
        building = catalog.get(building_id)
        if building is None:
            problems.append(_unknown_building(building_id, catalog, (*path, "building")))
    goods = Goods()
    if obj.get("goods") is not None:
        goods = read_goods(obj["goods"], (*path, "goods"), problems, MAX_GOODS_COUNT) or goods
    if building is None or len(problems) > before or row is None or col is None:
        return None
    tile = BuildingTile(Position(row, col), building, goods)
    problems.extend(_check_tile(tile, path))
    return tile


def _coordinate(obj: Mapping[str, Any], key: str, path: Path,
                problems: list[Problem]) -> int | None:
    if key not in obj:
        problems.append(Problem((*path, key), f"give the tile's {key}"))
        return None
    return read_int(obj[key], (*path, key), problems, -MAX_COORDINATE, MAX_COORDINATE)


def _read_sides(value: object, path: Path, problems: list[Problem]) -> frozenset[Side] | None:
    items = read_list(value, path, problems, "a list of open sides (N, E, S, W)")
    if items is None:
        return None
    sides: list[Side] = []
    for i, item in enumerate(items):
        name = read_choice(item, (*path, i), problems, (s.value for s in SIDES), "a side")
        if name is None:
            return None
        if Side(name) in sides:
            problems.append(Problem((*path, i), f"side {name} is listed twice"))
            return None
        sides.append(Side(name))
    return frozenset(sides)


def _unknown_building(building_id: str, catalog: Catalog, path: Path) -> Problem:
    close = difflib.get_close_matches(building_id, [b.id for b in catalog], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return Problem(path, f"{quoted(building_id)} is not a building the catalog knows{hint} "
                   "(ids are the tile's name in snake_case, apostrophes dropped; a tile the "
                   f"catalog lacks can be defined in the request's \"catalog\": {CATALOG_DOC})")


# -- checking a town -------------------------------------------------------------------

def check_town(town: Town) -> list[Problem]:
    """Every problem with a town's contents; paths index ``town.tiles`` in order."""
    problems: list[Problem] = []
    index = {position: i for i, position in enumerate(town.tiles)}
    if not 0 <= town.score_track <= MAX_SCORE_TRACK:
        problems.append(Problem(("score_track",), f"must be from 0 to {MAX_SCORE_TRACK}; "
                                f"got {town.score_track}"))
    if len(town.tiles) > MAX_TILES:
        problems.append(Problem(("tiles",), f"at most {MAX_TILES} tiles; got "
                                f"{len(town.tiles)}"))
        return problems
    for position, tile in town.tiles.items():
        path: Path = ("tiles", index[position])
        if tile.position != position:
            problems.append(Problem(path, "the tile's position does not match its key"))
        if max(abs(position.row), abs(position.col)) > MAX_COORDINATE:
            problems.append(Problem(path, f"row and col must be from {-MAX_COORDINATE} to "
                                    f"{MAX_COORDINATE}"))
        problems.extend(_check_tile(tile, path))
    problems.extend(_check_starting_tile(town, index))
    problems.extend(_check_one_group(town, index))
    return problems


def _check_tile(tile: Tile, path: Path) -> list[Problem]:
    if isinstance(tile, BuildingTile):
        return _check_holding(tile, path)
    if trail_shape(tile.sides) is None:
        return [_bad_trail(tile, (*path, "trail"))]
    return []


def _bad_trail(tile: TrailTile, path: Path) -> Problem:
    shown = ", ".join(s.value for s in SIDES if s in tile.sides) or "none"
    return Problem(path, f"no trail tile is open on {shown}: a trail is open on two "
                   "opposite sides (straight), two neighbouring sides (curved) or three "
                   "sides (T-junction)")


def _check_holding(tile: BuildingTile, path: Path) -> list[Problem]:
    """FF-R19: a building holds only goods its effects depict, and no more than its slots."""
    building = tile.building
    if not building.documented:
        return [undocumented_problem(building, (*path, "building"))]
    problems: list[Problem] = []
    for good, n in tile.goods.items():
        if good not in building.depicts:
            holds = ", ".join(g.value for g in sorted(building.depicts, key=lambda g: g.index))
            problems.append(Problem((*path, "goods", good.value), (
                f"a {building.name} cannot hold {good.value}: a building holds only the goods "
                f"its effects depict, here {holds or 'none'} ({HOLDING_RULE}); is this a "
                "misreading?")))
    if tile.goods.total > building.slots:
        problems.append(Problem((*path, "goods"), (
            f"a {building.name} has {building.slots} goods slot"
            f"{'s' if building.slots != 1 else ''}; this one shows {tile.goods.total} goods "
            f"({HOLDING_RULE}); is this a misreading?")))
    return problems


def _check_starting_tile(town: Town, index: dict[Position, int]) -> list[Problem]:
    problems: list[Problem] = []
    halves: dict[str, list[Position]] = {"forest": [], "mine": []}
    for tile in town.buildings:
        if tile.building.id in halves:
            halves[tile.building.id].append(tile.position)
    for name, found in halves.items():
        if not found:
            problems.append(Problem(("tiles",), f"the town has no {name}: every town has the "
                                    f"starting tile, a forest and a mine side by side "
                                    f"({START_RULE})"))
        for extra in found[1:]:
            problems.append(Problem(("tiles", index[extra], "building"), (
                f"a second {name}: a town has one starting tile, so exactly one forest "
                f"and one mine ({START_RULE})")))
    if len(halves["forest"]) == 1 and len(halves["mine"]) == 1:
        forest, mine = halves["forest"][0], halves["mine"][0]
        if mine not in forest.neighbours():
            problems.append(Problem(("tiles", index[mine]), (
                f"the mine (row {mine.row}, col {mine.col}) must be orthogonally next to the "
                f"forest (row {forest.row}, col {forest.col}): they are the two halves of "
                f"the starting tile ({START_RULE})")))
    return problems


def _check_one_group(town: Town, index: dict[Position, int]) -> list[Problem]:
    """Every tile was placed orthogonally next to the town (FF-R9): one connected group."""
    remaining = set(town.tiles)
    groups: list[list[Position]] = []
    for start in town.tiles:
        if start not in remaining:
            continue
        remaining.discard(start)
        group, queue = [start], deque([start])
        while queue:
            for nxt in queue.popleft().neighbours():
                if nxt in remaining:
                    remaining.discard(nxt)
                    group.append(nxt)
                    queue.append(nxt)
        groups.append(group)
    if len(groups) <= 1:
        return []
    main = max(groups, key=len)
    problems = []
    for group in groups:
        if group is main:
            continue
        first = min(group, key=index.__getitem__)
        problems.append(Problem(("tiles", index[first]), (
            f"this tile (row {first.row}, col {first.col})"
            + (f" and {len(group) - 1} other{'s' if len(group) > 2 else ''} beside it do"
               if len(group) > 1 else " does")
            + " not touch the rest of the town: every tile is placed orthogonally next "
            f"to a tile of the town ({PLACEMENT_RULE}), so a town is one group")))
    return problems


# -- writing a town back ---------------------------------------------------------------

def tile_to_dict(tile: Tile) -> dict[str, Any]:
    out: dict[str, Any] = {"row": tile.position.row, "col": tile.position.col}
    if isinstance(tile, TrailTile):
        out["trail"] = [s.value for s in SIDES if s in tile.sides]
    else:
        out["building"] = tile.building.id
        if tile.goods:
            out["goods"] = tile.goods.to_dict()
    return out


def town_to_dict(town: Town) -> dict[str, Any]:
    """The contract's JSON form of ``town`` (request-defined buildings in ``catalog``)."""
    out: dict[str, Any] = {
        "variant": town.variant.value,
        "score_track": town.score_track,
        "tiles": [tile_to_dict(t) for t in town.tiles.values()],
    }
    if town.catalog.requested:
        out["catalog"] = catalog_to_dict(town.catalog, only_requested=True)
    return out


def parse_position(data: object, path: Path, problems: list[Problem]) -> Position | None:
    """A position object ``{"row": r, "col": c}`` (as in a move's ``from`` and ``to``)."""
    obj = read_object(data, path, problems, "a position object {\"row\", \"col\"}")
    if obj is None:
        return None
    unknown_keys(obj, ("row", "col"), path, problems, "a position")
    row = _coordinate(obj, "row", path, problems)
    col = _coordinate(obj, "col", path, problems)
    return Position(row, col) if row is not None and col is not None else None
