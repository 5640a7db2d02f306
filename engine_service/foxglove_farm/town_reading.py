"""Reading Foxglove Farm's towns and transports from request messages into rule values.

On the shared collecting reader (:mod:`engine_service.reading`): it reports only what the
wire form gets wrong (an enum value unset or unknown, a tile that is neither a building
nor a trail, a trail holding goods, two tiles at one position, a move without an end),
then the rules' own checks (:func:`fox.check_town`, :func:`fox.check_move`,
:func:`fox.check_players`) add the rest. A request's ``catalog`` (a
``google.protobuf.Struct``) is read by the rules' catalog parser. The game's states,
setups and actions are read on the same reader by :mod:`.game_reading`.
"""

from __future__ import annotations

import math
from itertools import permutations
from collections.abc import Sequence
from typing import Any, NamedTuple

from google.protobuf import struct_pb2
from google.protobuf.message import Message

from referee.foxglove_farm.v1 import scoring_pb2, town_pb2, transport_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.players import seats_problem
from tabletop_rules.foxglove_farm.transcription import (
    ONE_KIND,
    TRAIL_HOLDS_NO_GOODS,
    ReadTiles,
    Unread,
    find_building,
    read_tiles,
    town_catalog,
    trail_sides,
)
from tabletop_rules.foxglove_farm.readings import (
    COUNTED_TWICE,
    ONLY_SCORED,
    DoubtfulCount,
    check_town_readings,
)
from tabletop_rules.foxglove_farm._json import EXPECTED
from tabletop_rules.foxglove_farm.game_checks import GAME_TOWN_CATALOG
from tabletop_rules.foxglove_farm.json_form import POSITION_OBJECT
from tabletop_rules.problems import Path, PathPart, Problem

from ..reading import Check, Reader
from .enums import (
    GOOD_BY_NUMBER,
    GOOD_ENUM,
    GOOD_NAMES,
    NOT_A_GOODS_TYPE,
    NOT_A_SIDE,
    NOT_A_VARIANT,
    SIDE_BY_NUMBER,
    SIDE_ENUM,
    SIDE_NAMES,
    SIDE_TO_PROTO,
    VARIANT_BY_NUMBER,
    VARIANT_ENUM,
    VARIANT_NAMES,
)


_TRAIL_SIDES: dict[tuple[int, ...], frozenset[fox.Side]] = {
    tuple(SIDE_TO_PROTO[side] for side in sides): frozenset(sides)
    for count in range(len(fox.SIDES) + 1) for sides in permutations(fox.SIDES, count)}
"""A trail's sides by the numbers a message lists, for every list of distinct known
sides (65): what :meth:`TownReader.sides` reads from them without a problem."""


class ReadTown(NamedTuple):
    """A town as read, its tiles as read (each one's index in the request, the squares
    of those that could not be made), and whether all of it read without a problem."""

    town: fox.Town
    tiles: ReadTiles
    complete: bool

    def problems(self, *path: PathPart) -> list[Problem]:
        """What the rules find wrong with the town, under ``path`` in the request: the
        whole town judged with the tiles that could not be made on their squares."""
        tiles = self.tiles
        return [p.under(*path) for p in fox.check_town(
            self.town, index=tiles.index, unread=tiles.unread, complete=tiles.complete)]


class GameCatalog(NamedTuple):
    """A game's building catalog, and the ids of the definitions it refused."""

    catalog: fox.Catalog
    refused: frozenset[str]


class TownReader(Reader):
    """Reads request messages into rule values, noting each wire-shape problem and
    where a placeholder stands in for what could not be read (:attr:`unread`: the rules'
    checks say nothing there, the reader having said it)."""

    def __init__(self) -> None:
        super().__init__()
        self.unread: list[Path] = []

    def done(self, check: Check | None = None, *, partial: bool = False) -> None:
        """As :meth:`Reader.done`, leaving out what the check finds where a placeholder
        stands in."""
        if check is None:
            return super().done()
        unread = tuple(self.unread)

        def judged() -> list[Problem]:
            return [p for p in check() if not any(p.path[:len(u)] == u for u in unread)]

        super().done(judged, partial=partial)

    def town(self, message: town_pb2.Town, path: Path, game: GameCatalog | None = None,
             doubts: list[DoubtfulCount] | None = None) -> ReadTown:
        """A town; in a ``game`` its buildings are the game's catalog's, so the town
        carries no catalog of its own, and a tile naming a refused definition leaves the
        town incomplete (the definition's problems say why). Doubtful goods counts are
        read into ``doubts``, given only for a town being scored."""
        before = len(self.problems)
        variant = self.variant(message.variant, (*path, "variant"))
        struct = struct_to_json(message.catalog) if message.HasField("catalog") else None
        if game is None:
            catalog, refused = town_catalog(struct, fox.builtin_catalog(), path, self.problems)
        else:
            catalog, refused = game
            if struct is not None:
                self.problem((*path, "catalog"), GAME_TOWN_CATALOG())
        known = _known_tiles(message.tiles, catalog, refused)
        tiles = known if known is not None else read_tiles(
            message.tiles, lambda tile, where: self.tile(tile, where, catalog, refused, doubts),
            path, self.problems)
        unread = bool(refused) and any(t.building in refused for t in message.tiles
                                       if t.WhichOneof("kind") == "building")
        return ReadTown(fox.Town(tiles.tiles, catalog, variant, message.score_track), tiles,
                         complete=len(self.problems) == before and not unread)

    def variant(self, number: int, path: Path) -> fox.Variant:
        return self.enum(number, VARIANT_BY_NUMBER, fox.Variant.STANDARD, path, NOT_A_VARIANT,
                         VARIANT_NAMES, VARIANT_ENUM)

    def tile(self, message: town_pb2.Tile, path: Path, catalog: fox.Catalog,
             refused: frozenset[str], doubts: list[DoubtfulCount] | None = None
             ) -> fox.Tile | Unread:
        position = fox.Position(message.row, message.col)
        kind = message.WhichOneof("kind")
        known = _known_tile(message, kind, position, catalog, refused)
        if known is not None:
            return known
        if kind == "building":
            building = find_building(message.building, catalog, refused, (*path, "building"),
                                     self.problems)
            if message.building in refused:  # its definition's problems say it all
                return Unread(position)
            goods = goods_from_proto(message.goods)
            if message.doubtful_goods:  # of a building not read: kept, not judged
                goods = self.doubtful_goods(message.doubtful_goods, (*path, "goods"), goods,
                                            position, [] if building is None and
                                            doubts is not None else doubts)
            return Unread(position, goods) if building is None else fox.BuildingTile(
                position, building, goods)
        if kind != "trail":
            self.problem(path, ONE_KIND())
            return Unread(position)
        sides = self.sides(message.trail.sides, (*path, "trail"))
        if (message.HasField("goods") and message.goods.ListFields()) or message.doubtful_goods:
            self.problem((*path, "goods"), TRAIL_HOLDS_NO_GOODS())
            return Unread(position)
        return Unread(position) if sides is None else fox.TrailTile(position, sides)

    def doubtful_goods(self, messages: Sequence[town_pb2.DoubtfulGoods], path: Path,
                       goods: fox.Goods, position: fox.Position,
                       doubts: list[DoubtfulCount] | None) -> fox.Goods:
        """``goods`` with each doubtful count at its likeliest candidate, the count read
        into ``doubts``; refused where none is given (not a town being scored)."""
        if doubts is None:
            self.problem(path, ONLY_SCORED())
        doubtful: set[fox.Good] = set()
        for message in messages:
            good = self.enum(message.good, GOOD_BY_NUMBER, None, path, NOT_A_GOODS_TYPE, GOOD_NAMES,
                             GOOD_ENUM)
            if good is None:
                continue
            if good in doubtful or goods.count(good):
                self.problem((*path, good.value), COUNTED_TWICE())
                continue
            doubtful.add(good)
            candidates = tuple(message.candidates)
            goods = goods.add(good, candidates[0] if candidates else 0)
            if doubts is not None:
                doubts.append(DoubtfulCount(position, good, candidates))
        return goods

    def sides(self, numbers: Sequence[int], path: Path) -> frozenset[fox.Side] | None:
        """A trail's sides, up to the first that cannot be read (as the JSON reader does)."""
        sides = []
        for i, number in enumerate(numbers):
            side = self.enum(number, SIDE_BY_NUMBER, None, (*path, i), NOT_A_SIDE, SIDE_NAMES,
                             SIDE_ENUM)
            if side is None:
                return None
            sides.append(side)
        return trail_sides(sides, path, self.problems)

    def move(self, message: transport_pb2.Move, path: Path) -> fox.Move:
        """The move; an unreadable part stands in as a placeholder (its problem refuses
        the request), so the rules still check the rest."""
        good = self.good(message.good, (*path, "good"))
        ends = [self.position(message, field, (*path, key))
                for field, key in (("origin", "from"), ("destination", "to"))]
        return fox.Move(good, message.count if message.HasField("count") else 1, *ends)

    def position(self, message: Message, field: str, path: Path) -> fox.Position:
        """The position in ``message``'s ``field``, which must be set."""
        if not message.HasField(field):
            self.problem(path, EXPECTED(what=POSITION_OBJECT.key, got="null"))
        end = getattr(message, field)
        return fox.Position(end.row, end.col)

    def good(self, number: int, path: Path) -> fox.Good:
        # WOOD stands in for an unreadable good: its problem already refuses the request
        return self.enum(number, GOOD_BY_NUMBER, None, path, NOT_A_GOODS_TYPE, GOOD_NAMES,
                         GOOD_ENUM) or fox.Good.WOOD


def _known_tiles(messages: Sequence[town_pb2.Tile], catalog: fox.Catalog,
                 refused: frozenset[str]) -> ReadTiles | None:
    """What :func:`read_tiles` makes of a town's tiles (each by position, and each
    position's index; none unread) when each is read the common way
    (:func:`_known_tile`), no two share a position and they are not too many; otherwise
    None, for the reader."""
    if len(messages) > MAX_TILES:
        return None
    tiles: dict[fox.Position, fox.Tile] = {}
    index: dict[fox.Position, int] = {}
    for i, message in enumerate(messages):
        tile = _known_tile(message, message.WhichOneof("kind"),
                           fox.Position(message.row, message.col), catalog, refused)
        if tile is None or tile.position in tiles:
            return None
        tiles[tile.position] = tile
        index[tile.position] = i
    return ReadTiles(tiles, index, {})


def _known_tile(message: town_pb2.Tile, kind: str | None, position: fox.Position,
                catalog: fox.Catalog, refused: frozenset[str]) -> fox.Tile | None:
    """The tile, if it is one the reader reads without a problem in the common way: a
    building the catalog defines (so its id is short) and no refused definition names, or
    a trail without goods whose sides are distinct and known, neither with doubtful goods
    counts; otherwise None, for the reader to read and report on."""
    if message.doubtful_goods:  # read (or refused) by the reader, at their pointers
        return None
    if kind == "building":
        building = catalog.get(message.building)
        if building is not None and message.building not in refused:
            return fox.BuildingTile(position, building, goods_from_proto(message.goods)
                                    if message.HasField("goods") else fox.NO_GOODS)
    elif kind == "trail" and not message.HasField("goods"):
        sides = _TRAIL_SIDES.get(tuple(message.trail.sides))
        if sides is not None:
            return fox.TrailTile(position, sides)
    return None


def struct_to_json(struct: struct_pb2.Struct) -> dict[str, Any]:
    return {key: _plain(value) for key, value in struct.fields.items()}


def _plain(value: struct_pb2.Value) -> Any:
    """A Struct value as JSON; whole finite numbers as ints, as a JSON reader gives them."""
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return struct_to_json(value.struct_value)
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if math.isfinite(number) and number.is_integer() else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None


def goods_from_proto(message: town_pb2.Goods) -> fox.Goods:
    return fox.Goods(message.wood, message.stone, message.wheat, message.coal, message.sheep)


def town_from_proto(message: town_pb2.Town) -> fox.Town:
    """A well-formed town from the request's ``town``, or every problem under it."""
    reader = TownReader()
    read = reader.town(message, ("town",))
    reader.done(lambda: read.problems("town"), partial=True)
    return read.town


def town_readings_from_proto(message: town_pb2.Town
                             ) -> tuple[fox.Town, tuple[DoubtfulCount, ...], dict[fox.Position, int]]:
    """A town to score from the request's ``town``, its doubtful goods counts (the town
    holding each at its likeliest) and each tile's index in the request, or every
    problem under ``town``."""
    reader = TownReader()
    doubts: list[DoubtfulCount] = []
    read = reader.town(message, ("town",), doubts=doubts)
    tiles = read.tiles
    reader.done(lambda: [p.under("town") for p in check_town_readings(
        read.town, doubts, index=tiles.index, unread=tiles.unread, complete=tiles.complete)],
        partial=True)
    return read.town, tuple(doubts), tiles.index


def players_from_proto(players: Sequence[scoring_pb2.PlayerTown]) -> list[tuple[str, fox.Town]]:
    """Named, well-formed towns to rank (the request's ``players``), or every problem."""
    reader = TownReader()
    towns = [] if seats_problem(len(players)) else [
        reader.town(p.town, ("players", i, "town")) for i, p in enumerate(players)]
    reader.done(lambda: fox.check_players([p.name for p in players]) + [
        problem for i, read in enumerate(towns) for problem in read.problems("players", i,
                                                                             "town")],
                partial=True)
    return [(p.name, read.town) for p, read in zip(players, towns)]


def transport_from_proto(request: service_pb2.ValidateTransportRequest
                         ) -> tuple[fox.Town, fox.Move]:
    """The town and the move to rule on, or every problem with either."""
    reader = TownReader()
    town = reader.town(request.town, ("town",))
    move = reader.move(request.move, ("move",))
    reader.done(lambda: town.problems("town") + [p.under("move")
                                                 for p in fox.check_move(move)],
                partial=True)
    return town.town, move
