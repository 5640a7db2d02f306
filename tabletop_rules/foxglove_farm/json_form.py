"""Foxglove Farm in the contract's JSON form, for library users and tests.

The readers (:func:`parse_town`, :func:`parse_move`, :func:`parse_transport_request`,
:func:`parse_players`) report what the JSON itself gets wrong (a wrong type, an unknown
field or name), then hand what they read to the rules' checks (:func:`.check_town`,
:func:`.check_move`, :func:`.check_players`), so a town read here and one read
from protobuf by the engine are refused for the same reasons, at the same paths. Each
raises :class:`InvalidInputError` listing every problem. The writers give answers back in
the contract's form. The service does not come this way: the engine reads protobuf.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..messages import choice, template
from ..problems import InvalidInputError, Path, Problem
from ..json_reading import (
    noun,
    read_choice,
    read_list,
    read_object,
    read_str,
    read_whole,
    refuse,
    unknown_keys,
)
from ._json import read_good, read_goods
from .catalog import Catalog
from .catalog_format import builtin_catalog, catalog_to_dict
from .model import (
    MAX_SCORE_TRACK,
    SIDES,
    BuildingTile,
    Good,
    Goods,
    Position,
    Side,
    Tile,
    TrailTile,
    Town,
    Variant,
)
from ..players import seats_problem
from .ranking import Ranking, check_players
from .routes import route_to_list
from .scoring import TownScore
from .town import MAX_COORDINATE, MAX_GOODS_COUNT, check_town
from .transcription import (
    BOTH_KINDS,
    ONE_KIND,
    TRAIL_HOLDS_NO_GOODS,
    ReadTiles,
    Unread,
    find_building,
    read_tiles,
    town_catalog,
    trail_sides,
)
from .transport import MAX_MOVE_COUNT, Move, TransportVerdict, check_move

_TOWN_FIELDS = ("variant", "score_track", "tiles", "catalog")
_TILE_FIELDS = ("row", "col", "building", "trail", "goods")
_MOVE_FIELDS = ("good", "count", "from", "to")
_NOWHERE = Position(0, 0)
"""Stands in for a position that could not be read (its problem already refuses it)."""

TOWN_OBJECT = noun("TOWN_OBJECT", "a town object")
A_TOWN = noun("TOWN", "a town")
A_VARIANT = noun("VARIANT", "a variant")
TILES = noun("TILES", "a list of tiles")
TILE_OBJECT = noun("TILE_OBJECT", "a tile object")
A_TILE = noun("TILE", "a tile")
BUILDING_ID = noun("BUILDING_ID", "a building id")
OPEN_SIDES = noun("OPEN_SIDES", "a list of open sides (N, E, S, W)")
A_SIDE = noun("SIDE", "a side")
POSITION_OBJECT = noun("POSITION_OBJECT", 'a position object {{"row", "col"}}')
A_POSITION = noun("POSITION", "a position")
MOVE_OBJECT = noun("MOVE_OBJECT", "a move object")
A_MOVE = noun("MOVE", "a move")
TRANSPORT_OBJECT = noun("TRANSPORT_OBJECT", 'an object with "town" and "move"')
TRANSPORT_REQUEST = noun("TRANSPORT_REQUEST", "a transport request")
RANK_OBJECT = noun("RANK_OBJECT", 'an object with "players"')
PLAYERS = noun("PLAYERS", "a list of players")
RANK_REQUEST = noun("RANK_REQUEST", "a rank request")
PLAYER_OBJECT = noun("PLAYER_OBJECT", 'a player object {{"name", "town"}}')
A_PLAYER = noun("PLAYER", "a player")
A_NAME = noun("NAME", "a name")

# The problems' sentences, each named by its code, its format fields its params.
NO_TILES = template("FF_NO_TILES",
                    "list the town's tiles (at least the starting tile's forest and mine)")
GIVE_COORDINATE = choice("FF_GIVE_COORDINATE", lambda p: str(p["key"]),
                         row="give the tile's row", col="give the tile's col")


# -- towns ----------------------------------------------------------------------------

def parse_town(data: object, *, catalog: Catalog | None = None, path: Path = ()) -> Town:
    """A checked :class:`Town` from the contract's JSON form.

    ``catalog`` is the base catalog (the built-in one by default); the town's own
    ``catalog`` field adds to or overrides it. ``path`` prefixes every Problem's path
    (``("town",)`` for a town nested in a request).
    """
    problems: list[Problem] = []
    read = _read_town(data, catalog if catalog is not None else builtin_catalog(), problems)
    if read is not None:
        town, tiles = read
        problems.extend(check_town(town, index=tiles.index, unread=tiles.unread,
                                   complete=tiles.complete))
    refuse(problems, path)
    assert read is not None
    return read[0]


def _read_town(data: object, base: Catalog, problems: list[Problem]
               ) -> tuple[Town, ReadTiles] | None:
    obj = read_object(data, (), problems, TOWN_OBJECT)
    if obj is None:
        return None
    unknown_keys(obj, _TOWN_FIELDS, (), problems, A_TOWN)
    variant = read_choice(obj.get("variant", "standard"), ("variant",), problems,
                          (v.value for v in Variant), A_VARIANT)
    score_track = read_whole(obj.get("score_track", 0), ("score_track",), problems, 0,
                             MAX_SCORE_TRACK)
    catalog, refused = town_catalog(obj.get("catalog"), base, (), problems)
    if "tiles" not in obj:
        problems.append(Problem(("tiles",), NO_TILES()))
        return None
    raw_tiles = read_list(obj["tiles"], ("tiles",), problems, TILES)
    if raw_tiles is None:
        return None
    tiles = read_tiles(
        raw_tiles, lambda raw, path: _read_tile(raw, path, catalog, refused, problems), (),
        problems)
    return Town(tiles.tiles, catalog, Variant(variant or Variant.STANDARD.value),
                score_track or 0), tiles


def _read_tile(raw: object, path: Path, catalog: Catalog, refused: frozenset[str],
               problems: list[Problem]) -> Tile | Unread | None:
    obj = read_object(raw, path, problems, TILE_OBJECT)
    if obj is None:
        return None
    before = len(problems)
    unknown_keys(obj, _TILE_FIELDS, path, problems, A_TILE)
    position, placed = _read_square(obj, path, problems)
    has_building, has_trail = "building" in obj, "trail" in obj
    if has_building == has_trail:
        problems.append(Problem(path, BOTH_KINDS() if has_building else ONE_KIND()))
        return Unread(position, placed=placed)
    if has_trail:
        sides = _read_sides(obj["trail"], (*path, "trail"), problems)
        if "goods" in obj and obj["goods"] not in (None, {}):
            problems.append(Problem((*path, "goods"), TRAIL_HOLDS_NO_GOODS()))
        if sides is None or len(problems) > before:
            return Unread(position, placed=placed)
        return TrailTile(position, sides)
    building_id = read_str(obj["building"], (*path, "building"), problems, BUILDING_ID,
                           max_length=None)
    building = None if building_id is None else find_building(
        building_id, catalog, refused, (*path, "building"), problems)
    if building_id in refused:  # its definition's problems say it all
        return Unread(position, placed=placed)
    goods = Goods()
    if obj.get("goods") is not None:
        got = read_goods(obj["goods"], (*path, "goods"), problems, MAX_GOODS_COUNT,
                         ranged=False)
        goods = got if got is not None else goods
    if building is None or len(problems) > before:
        return Unread(position, goods, placed)
    return BuildingTile(position, building, goods)


def _read_sides(value: object, path: Path, problems: list[Problem]) -> frozenset[Side] | None:
    items = read_list(value, path, problems, OPEN_SIDES)
    if items is None:
        return None
    sides: list[Side] = []
    for i, item in enumerate(items):
        name = read_choice(item, (*path, i), problems, (s.value for s in SIDES), A_SIDE)
        if name is None:
            return None
        sides.append(Side(name))
    return trail_sides(sides, path, problems)


def _read_position(obj: Mapping[str, Any], path: Path, problems: list[Problem]
                   ) -> Position:
    """``row`` and ``col`` of ``obj`` (a tile or a position object); 0 stands in for one
    that cannot be read (its problem is recorded), so the rules still check the other."""
    return _read_square(obj, path, problems)[0]


def _read_square(obj: Mapping[str, Any], path: Path, problems: list[Problem]
                 ) -> tuple[Position, bool]:
    """:func:`_read_position`, and whether both numbers could be read (a tile whose
    position could not is on no square of the town)."""
    row, col = (_coordinate(obj, key, path, problems) for key in ("row", "col"))
    return Position(row or 0, col or 0), row is not None and col is not None


def _coordinate(obj: Mapping[str, Any], key: str, path: Path,
                problems: list[Problem]) -> int | None:
    if key not in obj:
        problems.append(Problem((*path, key), GIVE_COORDINATE(key=key)))
        return None
    return read_whole(obj[key], (*path, key), problems, -MAX_COORDINATE, MAX_COORDINATE)


def parse_position(data: object, path: Path, problems: list[Problem]) -> Position | None:
    """A position object ``{"row": r, "col": c}`` (as in a move's ``from`` and ``to``),
    or ``None`` with its problems recorded; its range is :func:`.check_position`'s to
    judge."""
    before = len(problems)
    position = _read_end(data, path, problems)
    return position if len(problems) == before else None


def _read_end(data: object, path: Path, problems: list[Problem]) -> Position:
    """A move's ``from`` or ``to``; a placeholder stands in for what cannot be read."""
    obj = read_object(data, path, problems, POSITION_OBJECT)
    if obj is None:
        return _NOWHERE
    unknown_keys(obj, ("row", "col"), path, problems, A_POSITION)
    return _read_position(obj, path, problems)


def tile_to_dict(tile: Tile) -> dict[str, Any]:
    out: dict[str, Any] = {"row": tile.position.row, "col": tile.position.col}
    if isinstance(tile, TrailTile):
        out["trail"] = [s.value for s in SIDES if s in tile.sides]
    else:
        out["building"] = tile.building.id
        if any(tile.goods):
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


def score_to_dict(score: TownScore) -> dict[str, Any]:
    """The contract's answer for ``/score``."""
    return {"total": score.total, "score_track": score.score_track,
            "end_game_points": score.end_game_points,
            "end_game": [{"building": e.building, "row": e.row, "col": e.col,
                          "points": e.points, "explanation": e.explanation, "rule": e.rule}
                         for e in score.end_game],
            "goods_remaining": score.goods_remaining, "tile_count": score.tile_count}


# -- transports -----------------------------------------------------------------------

def parse_move(data: object, path: Path = ()) -> Move:
    """A :class:`Move` from ``{"good", "count", "from", "to"}`` (``count`` defaults to 1);
    paths under ``path`` (``("move",)`` in a request)."""
    problems: list[Problem] = []
    move = _read_move(data, problems)
    if move is not None:
        problems.extend(check_move(move))
    refuse(problems, path)
    assert move is not None
    return move


def _read_move(data: object, problems: list[Problem]) -> Move | None:
    """The move as written; a part that cannot be read stands in with a placeholder, so
    the rules still check the rest."""
    obj = read_object(data, (), problems, MOVE_OBJECT)
    if obj is None:
        return None
    unknown_keys(obj, _MOVE_FIELDS, (), problems, A_MOVE)
    good = read_good(obj.get("good"), ("good",), problems) or Good.WOOD
    count = read_whole(obj.get("count", 1), ("count",), problems, 1, MAX_MOVE_COUNT)
    origin, destination = (_read_end(obj.get(key), (key,), problems) for key in ("from", "to"))
    return Move(good, 1 if count is None else count, origin, destination)


def parse_transport_request(data: object) -> tuple[Town, Move]:
    """The ``/transport/validate`` body ``{"town", "move"}``, every problem at once."""
    problems: list[Problem] = []
    obj = read_object(data, (), problems, TRANSPORT_OBJECT)
    town = move = None
    if obj is not None:
        unknown_keys(obj, ("town", "move"), (), problems, TRANSPORT_REQUEST)
        try:
            town = parse_town(obj.get("town"), path=("town",))
        except InvalidInputError as error:
            problems.extend(error.problems)
        try:
            move = parse_move(obj.get("move"), path=("move",))
        except InvalidInputError as error:
            problems.extend(error.problems)
    refuse(problems)
    assert town is not None and move is not None
    return town, move


def move_to_dict(move: Move) -> dict[str, Any]:
    return {"good": move.good.value, "count": move.count,
            "from": {"row": move.origin.row, "col": move.origin.col},
            "to": {"row": move.destination.row, "col": move.destination.col}}


def transport_verdict_to_dict(check: TransportVerdict) -> dict[str, Any]:
    """The contract's answer for ``/transport/validate``."""
    if check.legal:
        assert check.town is not None
        return {"legal": True, "path": route_to_list(check.path),
                "town": town_to_dict(check.town)}
    return {"legal": False, "violations": [
        {"rule": v.rule, "reason": v.reason.value, "message": v.message,
         "pointer": v.pointer("move")} for v in check.violations]}


# -- ranking --------------------------------------------------------------------------

def parse_players(data: object, *, catalog: Catalog | None = None) -> list[tuple[str, Town]]:
    """The ``/rank`` body ``{"players": [{"name", "town"}, ...]}`` (1 to 4 players with
    distinct names)."""
    problems: list[Problem] = []
    obj = read_object(data, (), problems, RANK_OBJECT)
    items = read_list(obj.get("players"), ("players",), problems, PLAYERS) \
        if obj is not None else None
    if obj is not None:
        unknown_keys(obj, ("players",), (), problems, RANK_REQUEST)
    names: list[str | None] = [None] * len(items or ())
    players: list[tuple[str, Town]] = []
    if items is not None and seats_problem(len(items)) is None:
        for i, item in enumerate(items):
            name, town = _read_player(item, ("players", i), catalog, problems)
            names[i] = name
            if name is not None and town is not None:
                players.append((name, town))
    if items is not None:
        problems.extend(check_players(names))
    refuse(problems)
    return players


def _read_player(item: object, path: Path, catalog: Catalog | None,
                 problems: list[Problem]) -> tuple[str | None, Town | None]:
    entry = read_object(item, path, problems, PLAYER_OBJECT)
    if entry is None:
        return None, None
    unknown_keys(entry, ("name", "town"), path, problems, A_PLAYER)
    name = read_str(entry.get("name"), (*path, "name"), problems, A_NAME, max_length=None)
    try:
        return name, parse_town(entry.get("town"), catalog=catalog, path=(*path, "town"))
    except InvalidInputError as error:
        problems.extend(error.problems)
        return name, None


def ranking_to_dict(ranking: Ranking) -> dict[str, Any]:
    """The contract's answer for ``/rank``."""
    return {"standings": [{"name": s.name, "total": s.score.total,
                           "goods_remaining": s.score.goods_remaining,
                           "tile_count": s.score.tile_count, "place": s.place}
                          for s in ranking.standings],
            "winners": list(ranking.winners)}


__all__ = [
    "transport_verdict_to_dict", "move_to_dict", "parse_move", "parse_players",
    "parse_position", "parse_town", "parse_transport_request", "ranking_to_dict",
    "score_to_dict", "tile_to_dict", "town_to_dict",
]
