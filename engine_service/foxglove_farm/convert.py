"""The one place that converts between Foxglove Farm protobufs and the rules.

Requests are read straight into rule values on the shared collecting reader
(:mod:`engine_service.reading`): it reports only what the wire form gets wrong (an enum
value unset or unknown, a tile that is neither a building nor a trail, a trail holding
goods, two tiles at one position, a move without an end), then the rules' own checks
(:func:`fox.check_town`, :func:`fox.check_move`, :func:`fox.check_players`, and for the
whole game ``check_state``, ``check_setup`` and ``check_action``) add the rest, so every
problem has the message and the path into the contract's JSON that a REST caller gets.
Where the reader could not read a part, a placeholder stands in and the rules' checks
are told to say nothing of it, so a transcribed state hears of every problem at once,
each once. Only a request's ``catalog`` (a ``google.protobuf.Struct``) is read by the
rules' catalog parser, in the documented catalog format it shares with ``catalog.json``.
Answers are built from the rules' values.

A game state's catalog is the state's: its towns carry none of their own.
"""

from __future__ import annotations

import math
from itertools import combinations, permutations
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple, TypeVar, cast

from google.protobuf import struct_pb2
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message import Message

from referee.foxglove_farm.v1 import catalog_pb2, game_pb2, planning_pb2, scoring_pb2, town_pb2, transport_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import planner
from tabletop_rules.foxglove_farm.catalog import PROVENANCED_FIELDS, TIERS
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog_version, catalog_to_dict
from tabletop_rules.foxglove_farm.effect_format import effect_to_dict
from tabletop_rules.foxglove_farm.central_board import (
    CentralBoard,
    Space,
    StacksLeft,
    solo_outcome,
)
from tabletop_rules.foxglove_farm.construction import Payment, TrailWork
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_checks import (
    MAX_DRAWN,
    MAX_PARTS,
    check_action,
    check_setup,
    check_state,
)
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.foxglove_farm.game_state import (
    RULES_VERSION,
    Action,
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GamePhase,
    GameState,
    HaulGoods,
    Pass,
    Player,
    ProcessGoods,
    Produce,
    Seat,
    Setup,
    Transport,
)
from tabletop_rules.game import ReplayResult, Turn
from tabletop_rules.players import seats_problem
from tabletop_rules.foxglove_farm.transcription import (
    MAX_BUILDING_ID_LENGTH,
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
    DoubtfulCount,
    TownReadings,
    check_town_readings,
)
from tabletop_rules.foxglove_farm._json import EXPECTED
from tabletop_rules.foxglove_farm.game_checks import (
    GAME_TOWN_CATALOG,
    NO_ACTION,
    TOO_MANY_ACTIONS,
    TOO_MANY_READ,
)
from tabletop_rules.foxglove_farm.readings import COUNTED_TWICE, ONLY_SCORED
from tabletop_rules.foxglove_farm.scoring import EffectScore
from tabletop_rules.foxglove_farm.json_form import POSITION_OBJECT
from tabletop_rules.problems import TOO_LONG, Path, PathPart, Problem, json_pointer, not_one_of
from tabletop_rules.verdicts import Verdict

from .. import wire
from ..reading import Check, Reader
from ..wording import code_of, params_to_wire, sentence_fields

Item = TypeVar("Item")

_GOOD_TO_PROTO = {g: town_pb2.Good.Value(f"GOOD_{g.name}") for g in fox.Good}
_SIDE_TO_PROTO = {s: town_pb2.Side.Value(f"SIDE_{s.name}") for s in fox.Side}
_VARIANT_TO_PROTO = {v: town_pb2.Variant.Value(f"VARIANT_{v.name}") for v in fox.Variant}
_GOODS: dict[int, fox.Good | None] = {n: g for g, n in _GOOD_TO_PROTO.items()}
_SIDES: dict[int, fox.Side | None] = {n: s for s, n in _SIDE_TO_PROTO.items()}
_VARIANTS: dict[int, fox.Variant] = {n: v for v, n in _VARIANT_TO_PROTO.items()}
_VARIANTS[town_pb2.VARIANT_UNSPECIFIED] = fox.Variant.STANDARD
_PHASE_TO_PROTO = {p: game_pb2.GamePhase.Value(f"GAME_PHASE_{p.name}") for p in GamePhase}
_PHASES: dict[int, GamePhase | None] = {n: p for p, n in _PHASE_TO_PROTO.items()}
_PHASE_ENUM, _VARIANT_ENUM, _GOOD_ENUM, _SIDE_ENUM = (cast(EnumTypeWrapper, enum) for enum in (
    game_pb2.GamePhase, town_pb2.Variant, town_pb2.Good, town_pb2.Side))  # stubs: classes

_TRAIL_SIDES: dict[tuple[int, ...], frozenset[fox.Side]] = {
    tuple(_SIDE_TO_PROTO[side] for side in sides): frozenset(sides)
    for count in range(len(fox.SIDES) + 1) for sides in permutations(fox.SIDES, count)}
"""A trail's sides by the numbers a message lists, for every list of distinct known
sides (65): what :meth:`_Reader.sides` reads from them without a problem."""

MAX_CATALOG_VERSION_LENGTH = 100
"""A catalog version is a short digest; a longer one is no version (the rules' message
would quote it whole)."""

NOT_A_VARIANT = not_one_of("a variant")
NOT_A_GOODS_TYPE = not_one_of("a goods type")
NOT_A_SIDE = not_one_of("a side")
NOT_A_PHASE = not_one_of("a phase")


def _names(values: Sequence[Any]) -> tuple[str, ...]:
    """The contract's names of enum ``values``, as a misread one's problem lists them."""
    return tuple(v.value for v in values)


_VARIANT_NAMES = _names(tuple(fox.Variant))
_SIDE_NAMES = _names(fox.SIDES)
_GOOD_NAMES = _names(fox.GOODS)
_PHASE_NAMES = _names(tuple(GamePhase))
"""What a misread enum's message lists, written once rather than on every read."""


# -- requests: protobuf -> rule values ---------------------------------------------------

class _ReadTown(NamedTuple):
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


class _GameCatalog(NamedTuple):
    """A game's building catalog, and the ids of the definitions it refused."""

    catalog: fox.Catalog
    refused: frozenset[str]


class _ReadState(NamedTuple):
    """A game state as read: whether its phase could be read, and each player's town."""

    state: GameState
    phase_read: bool
    towns: list[_ReadTown]
    refused: frozenset[str]

    def problems(self, *path: PathPart) -> list[Problem]:
        """What the rules find wrong with the state, under ``path`` in the request. The
        players' flags are judged against the phase, so while the phase cannot be read
        they wait; a town that could not be read whole is judged as such."""
        state = self.state
        if not self.phase_read:
            state = replace(state, players=tuple(
                replace(p, passed=False, done=False, runs=0, moved=False, hauled=frozenset())
                for p in state.players))
        found = [p.under(*path) for p in check_state(state)
                 if not self._of_unread_town(p.path)]
        for i, read in enumerate(self.towns):
            if not read.complete:
                found.extend(read.problems(*path, "players", i, "town"))
        return found

    def _of_unread_town(self, path: Path) -> bool:
        """``path`` is into a town not read whole, or into its huts (which may be among
        the tiles not read)."""
        return (len(path) > 2 and path[0] == "players" and isinstance(path[1], int)
                and path[2] in ("town", "hauled") and not self.towns[path[1]].complete)


class _Reader(Reader):
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

    def town(self, message: town_pb2.Town, path: Path, game: _GameCatalog | None = None,
             doubts: list[DoubtfulCount] | None = None) -> _ReadTown:
        """A town; in a ``game`` its buildings are the game's catalog's, so the town
        carries no catalog of its own, and a tile naming a refused definition leaves the
        town incomplete (the definition's problems say why). Doubtful goods counts are
        read into ``doubts``, given only for a town being scored."""
        before = len(self.problems)
        variant = self.variant(message.variant, (*path, "variant"))
        struct = _struct(message.catalog) if message.HasField("catalog") else None
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
        return _ReadTown(fox.Town(tiles.tiles, catalog, variant, message.score_track), tiles,
                         complete=len(self.problems) == before and not unread)

    def variant(self, number: int, path: Path) -> fox.Variant:
        return self.enum(number, _VARIANTS, fox.Variant.STANDARD, path, NOT_A_VARIANT,
                         _VARIANT_NAMES, _VARIANT_ENUM)

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
            goods = _goods_from(message.goods)
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
            good = self.enum(message.good, _GOODS, None, path, NOT_A_GOODS_TYPE, _GOOD_NAMES,
                             _GOOD_ENUM)
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
            side = self.enum(number, _SIDES, None, (*path, i), NOT_A_SIDE, _SIDE_NAMES,
                             _SIDE_ENUM)
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
        return self.enum(number, _GOODS, None, path, NOT_A_GOODS_TYPE, _GOOD_NAMES,
                         _GOOD_ENUM) or fox.Good.WOOD

    # -- the game: states, setups and actions -------------------------------------------

    def game_catalog(self, message: game_pb2.GameState | game_pb2.Setup, path: Path
                     ) -> _GameCatalog:
        """The game's catalog: the built-in one with the definitions in the ``catalog``
        of the message at ``path``, and the ids whose definition was refused (what names
        them is not reported again)."""
        struct = _struct(message.catalog) if message.HasField("catalog") else None
        return _GameCatalog(*town_catalog(struct, fox.builtin_catalog(), path, self.problems))

    def building_id(self, building: str, path: Path, refused: frozenset[str]) -> str:
        """A building id as given; one too long to quote, or whose definition was refused,
        is left to the problem already said (the rules' checks do not repeat it)."""
        problem = _too_long(building, path)
        if problem is not None:
            self.problems.append(problem)
        if problem is not None or building in refused:
            self.unread.append(path)
        return building

    def limited(self, items: Sequence[Item], path: Path, what: str) -> Sequence[Item]:
        """``items``, or none with a problem when they are more than
        :data:`.game_checks.MAX_PARTS`, the rules' own bound: the engine does not read
        what the rules would refuse anyway (their checks then say nothing of them)."""
        if len(items) <= MAX_PARTS:
            return items
        self.problem(path, TOO_MANY_READ(what=what, limit=MAX_PARTS, tiles=MAX_TILES,
                                         count=len(items)))
        self.unread.append(path)
        return ()

    def catalog_version(self, version: str, path: Path) -> str:
        if len(version) > MAX_CATALOG_VERSION_LENGTH:
            self.problem(path, TOO_LONG(limit=MAX_CATALOG_VERSION_LENGTH, length=len(version)))
            self.unread.append(path)
        return version

    def state(self, message: game_pb2.GameState, path: Path) -> _ReadState:
        """A state as sent, with what the rules' check must not judge: the flags when
        the phase could not be read (they mean something only in their phase), and the
        towns that could not be read whole."""
        game = self.game_catalog(message, path)
        phase = self.enum(message.phase, _PHASES, None, (*path, "phase"), NOT_A_PHASE,
                          _PHASE_NAMES, _PHASE_ENUM)
        players, towns = [], []
        for i, player in enumerate(message.players):
            where = (*path, "players", i)
            read = self.town(player.town, (*where, "town"), game)
            towns.append(read)
            hauled = self.limited(player.hauled, (*where, "hauled"), "hauled")
            players.append(Player(player.name, read.town, player.passed, player.done,
                                  player.runs, player.moved,
                                  frozenset(fox.Position(h.row, h.col) for h in hauled)))
        board = self.board(message.board, (*path, "board"), game.refused)
        state = GameState(
            message.rules_version,
            self.catalog_version(message.catalog_version, (*path, "catalog_version")),
            game.catalog, tuple(players),
            message.round, phase or GamePhase.PRODUCTION, message.start_player,
            message.current_player, board, message.solo if message.HasField("solo") else None)
        return _ReadState(state, phase is not None, towns, game.refused)

    def board(self, message: game_pb2.CentralBoard, path: Path, refused: frozenset[str]
              ) -> CentralBoard:
        def spaces(area: str) -> tuple[Space | None, ...]:
            return tuple(
                Space(self.building_id(space.stack.building, (*path, area, i, "building"),
                                       refused), space.stack.count)
                if space.HasField("stack") else None
                for i, space in enumerate(getattr(message, area)))

        stacks = message.stacks
        return CentralBoard(spaces("offer"), spaces("c_spaces"),
                            StacksLeft(stacks.a, stacks.b, stacks.c))

    def setup(self, message: game_pb2.Setup, path: Path) -> Setup:
        game = self.game_catalog(message, path)
        seats = tuple(Seat(seat.name, self.variant(seat.variant, (*path, "players", i,
                                                                  "variant")))
                      for i, seat in enumerate(message.players))
        a_tiles, c_tiles = (tuple(self.building_id(b, (*path, name, i), game.refused)
                                  for i, b in enumerate(getattr(message, name)))
                            for name in ("a_tiles", "c_tiles"))
        return Setup(seats, message.start_player, a_tiles, c_tiles,
                     message.solo if message.HasField("solo") else None,
                     game.catalog if message.HasField("catalog") else None)

    def action(self, message: game_pb2.Action, path: Path, refused: frozenset[str]
               ) -> Action:
        """An action as sent; one with no kind stands in as drawing no tiles, and the
        rules' check leaves it alone (its problem already refuses the request)."""
        kind = message.WhichOneof("action")
        if kind is None:
            self.problem((*path, "action"), NO_ACTION(
                expected=tuple(f.name for f in game_pb2.Action.DESCRIPTOR.fields)))
            self.unread.append(path)
            return DrawTiles(())
        body = getattr(message, kind)
        match kind:
            case "produce":
                return Produce(body.player, self.choices(body.choices, (*path, "choices")))
            case "build_building":
                return self.build_building(body, path, refused)
            case "build_trails":
                return self.build_trails(body, path)
            case "pass":
                return Pass(body.player)
            case "transport":
                return Transport(body.player, self.good(body.good, (*path, "good")),
                                 body.count if body.HasField("count") else 1,
                                 self.position(body, "origin", (*path, "from")),
                                 self.position(body, "destination", (*path, "to")))
            case "haul":
                return self.haul(body, path)
            case "process":
                return ProcessGoods(body.player, self.choices(body.choices,
                                                              (*path, "choices")))
            case "end_round":
                return EndRound(body.player)
        return self.draw_tiles(body, path, refused)

    def build_building(self, body: game_pb2.BuildBuilding, path: Path,
                       refused: frozenset[str]) -> BuildBuilding:
        return BuildBuilding(
            body.player, self.building_id(body.building, (*path, "building"), refused),
            self.position(body, "position", (*path, "position")),
            self.payment(body.payment, (*path, "payment")),
            _goods_from(body.gain) if body.HasField("gain") else None)

    def build_trails(self, body: game_pb2.BuildTrails, path: Path) -> BuildTrails:
        works = []
        for i, work in enumerate(self.limited(body.trails, (*path, "trails"), "trails")):
            where = (*path, "trails", i)
            sides = self.sides(work.sides, (*where, "sides"))
            if sides is None:  # its problem is said; the shape check would only repeat it
                self.unread.append((*where, "sides"))
            works.append(TrailWork(self.position(work, "position", (*where, "position")),
                                   sides or frozenset(), work.upgrade))
        return BuildTrails(body.player, tuple(works),
                           self.payment(body.payment, (*path, "payment")))

    def haul(self, body: game_pb2.HaulGoods, path: Path) -> HaulGoods:
        picks = tuple(fox.Pick(self.good(pick.good, (*path, "picks", i, "good")), pick.count,
                               self.position(pick, "origin", (*path, "picks", i, "from")))
                      for i, pick in enumerate(self.limited(body.picks, (*path, "picks"),
                                                            "picks")))
        return HaulGoods(body.player, self.position(body, "hut", (*path, "to")), picks)

    def draw_tiles(self, body: game_pb2.DrawTiles, path: Path, refused: frozenset[str]
                   ) -> DrawTiles:
        if len(body.tiles) > MAX_DRAWN:  # the rules' check says so; no tile is read
            return DrawTiles(tuple(body.tiles))
        return DrawTiles(tuple(self.building_id(b, (*path, "tiles", i), refused)
                               for i, b in enumerate(body.tiles)))

    def choices(self, parts: Sequence[game_pb2.BuildingGoods], path: Path
                ) -> tuple[tuple[fox.Position, fox.Goods], ...]:
        return tuple((fox.Position(p.row, p.col), _goods_from(p.goods))
                     for p in self.limited(parts, path, "choices"))

    def payment(self, parts: Sequence[game_pb2.BuildingGoods], path: Path
                ) -> tuple[Payment, ...]:
        return tuple(Payment(fox.Position(p.row, p.col), _goods_from(p.goods))
                     for p in self.limited(parts, path, "payment"))


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
            return fox.BuildingTile(position, building, _goods_from(message.goods)
                                    if message.HasField("goods") else fox.NO_GOODS)
    elif kind == "trail" and not message.HasField("goods"):
        sides = _TRAIL_SIDES.get(tuple(message.trail.sides))
        if sides is not None:
            return fox.TrailTile(position, sides)
    return None


def _struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    return {key: _plain(value) for key, value in struct.fields.items()}


def _plain(value: struct_pb2.Value) -> Any:
    """A Struct value as JSON; whole finite numbers as ints, as a JSON reader gives them."""
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return _struct(value.struct_value)
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if math.isfinite(number) and number.is_integer() else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None


def _goods_from(message: town_pb2.Goods) -> fox.Goods:
    return fox.Goods(message.wood, message.stone, message.wheat, message.coal, message.sheep)


def _too_long(building: str, path: Path) -> Problem | None:
    """A building id longer than any (the rules' messages quote an id whole)."""
    if len(building) <= MAX_BUILDING_ID_LENGTH:
        return None
    return Problem(path, TOO_LONG(limit=MAX_BUILDING_ID_LENGTH, length=len(building)))


def town_from_proto(message: town_pb2.Town) -> fox.Town:
    """A well-formed town from the request's ``town``, or every problem under it."""
    reader = _Reader()
    read = reader.town(message, ("town",))
    reader.done(lambda: read.problems("town"), partial=True)
    return read.town


def town_readings_from_proto(message: town_pb2.Town
                             ) -> tuple[fox.Town, tuple[DoubtfulCount, ...], dict[fox.Position, int]]:
    """A town to score from the request's ``town``, its doubtful goods counts (the town
    holding each at its likeliest) and each tile's index in the request, or every
    problem under ``town``."""
    reader = _Reader()
    doubts: list[DoubtfulCount] = []
    read = reader.town(message, ("town",), doubts=doubts)
    tiles = read.tiles
    reader.done(lambda: [p.under("town") for p in check_town_readings(
        read.town, doubts, index=tiles.index, unread=tiles.unread, complete=tiles.complete)],
        partial=True)
    return read.town, tuple(doubts), tiles.index


def players_from_proto(players: Sequence[scoring_pb2.PlayerTown]) -> list[tuple[str, fox.Town]]:
    """Named, well-formed towns to rank (the request's ``players``), or every problem."""
    reader = _Reader()
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
    reader = _Reader()
    town = reader.town(request.town, ("town",))
    move = reader.move(request.move, ("move",))
    reader.done(lambda: town.problems("town") + [p.under("move")
                                                 for p in fox.check_move(move)],
                partial=True)
    return town.town, move


def setup_from_proto(message: game_pb2.Setup) -> Setup:
    """A setup ``GAME.new_game`` accepts (the request's ``setup``), or every problem."""
    reader = _Reader()
    setup = reader.setup(message, ("setup",))
    reader.done(lambda: [p.under("setup") for p in check_setup(setup)], partial=True)
    return setup


def state_from_proto(message: game_pb2.GameState) -> GameState:
    """A state play can go on from (the request's ``state``), or every problem."""
    reader = _Reader()
    read = reader.state(message, ("state",))
    reader.done(lambda: read.problems("state"), partial=True)
    return read.state


def state_and_action_from_proto(state_message: game_pb2.GameState,
                                action_message: game_pb2.Action) -> tuple[GameState, Action]:
    """A valid state and a well-formed action to judge in it (the request's ``state``
    and ``action``), or every problem with either."""
    reader = _Reader()
    read = reader.state(state_message, ("state",))
    action = reader.action(action_message, ("action",), read.refused)
    reader.done(lambda: read.problems("state") + [
        p.under("action") for p in check_action(read.state, action)],
        partial=True)
    return read.state, action


def log_from_proto(setup_message: game_pb2.Setup, action_messages: Sequence[game_pb2.Action]
                   ) -> tuple[Setup, list[Action]]:
    """A game's log (the request's ``setup`` and ``actions``), or every problem in it.

    Every action's shape is checked up front, in the game the setup starts (its seats
    and catalog never change), so a malformed action is refused even when an earlier
    illegal one would stop the replay before it; that check waits for a sound setup.
    """
    reader = _Reader()
    setup = reader.setup(setup_message, ("setup",))
    actions: list[Action] = []
    if len(action_messages) > GAME.max_log_moves:
        reader.problem(("actions",), TOO_MANY_ACTIONS(limit=GAME.max_log_moves,
                                                      count=len(action_messages)))
    else:
        actions = [reader.action(m, ("actions", i), frozenset())
                   for i, m in enumerate(action_messages)]
    setup_read = not any(p.path[:1] == ("setup",) for p in reader.problems)

    def check() -> list[Problem]:
        problems = [p.under("setup") for p in check_setup(setup)]
        if problems or not setup_read:
            return problems
        first = GAME.new_game(setup)
        return [p.under("actions", i) for i, action in enumerate(actions)
                for p in check_action(first, action)]

    reader.done(check, partial=True)
    return setup, actions


# -- answers: rule values -> protobuf ---------------------------------------------------

def _position(position: fox.Position) -> town_pb2.Position:
    return town_pb2.Position(row=position.row, col=position.col)


def _goods(goods: fox.Goods) -> town_pb2.Goods:
    return town_pb2.Goods(**goods.to_dict())


_VARIANT_KEY, _SCORE_TRACK_KEY, _TILES_KEY = (wire.key(town_pb2.Town.DESCRIPTOR, name)
                                             for name in ("variant", "score_track", "tiles"))
_ROW_KEY, _COL_KEY, _BUILDING_KEY, _TRAIL_KEY, _GOODS_KEY = (
    wire.key(town_pb2.Tile.DESCRIPTOR, name)
    for name in ("row", "col", "building", "trail", "goods"))
_GOOD_KEYS = tuple(wire.key(town_pb2.Goods.DESCRIPTOR, good.value) for good in fox.GOODS)
_POSITION_ROW, _POSITION_COL = (wire.key(town_pb2.Position.DESCRIPTOR, name)
                                for name in ("row", "col"))
_TRAIL_FIELDS = {
    frozenset(sides): wire.part(_TRAIL_KEY, town_pb2.Trail(
        sides=[_SIDE_TO_PROTO[s] for s in fox.SIDES if s in sides]).SerializeToString())
    for count in range(len(fox.SIDES) + 1) for sides in combinations(fox.SIDES, count)}
"""A trail's field in a tile, by its sides (every set of sides: 16)."""
_LEGAL, _PATH, _TOWN = (wire.key(service_pb2.ValidateTransportResponse.DESCRIPTOR, name)
                        for name in ("legal", "path", "town"))


def _position_to_wire(position: fox.Position) -> bytes:
    return wire.number(_POSITION_ROW, position.row) + wire.number(_POSITION_COL, position.col)


def _tile_to_wire(tile: fox.Tile) -> bytes:
    """A tile's encoding: where it is, then its trail's sides or its building and goods
    (held goods only: a building holding none has no goods field)."""
    where = wire.number(_ROW_KEY, tile.position.row) + wire.number(_COL_KEY, tile.position.col)
    if isinstance(tile, fox.TrailTile):
        return where + _TRAIL_FIELDS[tile.sides]
    data = where + wire.part(_BUILDING_KEY, tile.building.id.encode())
    if any(tile.goods):
        data += wire.part(_GOODS_KEY, b"".join([wire.number(key, n)
                                                for key, n in zip(_GOOD_KEYS, tile.goods)]))
    return data


def _town_to_wire(town: fox.Town) -> bytes:
    """A town's encoding, without its catalog (a Struct, written field by field)."""
    return b"".join([wire.number(_VARIANT_KEY, _VARIANT_TO_PROTO[town.variant]),
                     wire.number(_SCORE_TRACK_KEY, town.score_track),
                     *[wire.part(_TILES_KEY, _tile_to_wire(tile))
                       for tile in town.tiles.values()]])


def town_to_proto(town: fox.Town, *, with_catalog: bool = True) -> town_pb2.Town:
    """A town message, written as its encoding (:func:`_town_to_wire`) and parsed at once;
    the buildings the request defined go back in its catalog (unless the town is in a
    game, whose state carries the catalog)."""
    message = town_pb2.Town.FromString(_town_to_wire(town))
    if with_catalog and town.catalog.requested:
        message.catalog.update(catalog_to_dict(town.catalog, only_requested=True))
    return message


def versions() -> dict[str, Any]:
    """The ``rules_version`` and ``catalog_version`` fields of every answer that scores: the
    rules this engine plays and the built-in catalog under a town's own definitions."""
    return {"rules_version": RULES_VERSION, "catalog_version": builtin_catalog_version()}


def score_to_proto(score: fox.TownScore) -> scoring_pb2.TownScore:
    """A town's score, written as its encoding (:func:`_score_to_wire`) and parsed at once."""
    return scoring_pb2.TownScore.FromString(_score_to_wire(score))


(_SCORE_TOTAL, _SCORE_TRACK, _SCORE_END_GAME_POINTS, _SCORE_END_GAME, _SCORE_GOODS_REMAINING,
 _SCORE_TILE_COUNT, _SCORE_RULES_VERSION, _SCORE_CATALOG_VERSION) = (
    wire.key(scoring_pb2.TownScore.DESCRIPTOR, name)
    for name in ("total", "score_track", "end_game_points", "end_game", "goods_remaining",
                 "tile_count", "rules_version", "catalog_version"))
(_ENTRY_BUILDING, _ENTRY_ROW, _ENTRY_COL, _ENTRY_POINTS, _ENTRY_EXPLANATION, _ENTRY_RULE,
 _ENTRY_CODE, _ENTRY_PARAMS, _ENTRY_EFFECTS) = (
    wire.key(scoring_pb2.EndGameEntry.DESCRIPTOR, name)
    for name in ("building", "row", "col", "points", "explanation", "rule", "code", "params",
                 "effects"))
(_EFFECT_KIND, _EFFECT_POINTS, _EFFECT_EXPLANATION, _EFFECT_RULE, _EFFECT_CODE,
 _EFFECT_PARAMS, _EFFECT_TILES) = (
    wire.key(scoring_pb2.EndGameEffect.DESCRIPTOR, name)
    for name in ("kind", "points", "explanation", "rule", "code", "params", "tiles"))
_COUNTED_ROW, _COUNTED_COL, _COUNTED_BUILDING, _COUNTED_VIA = (
    wire.key(scoring_pb2.CountedTile.DESCRIPTOR, name) for name in ("row", "col", "building", "via"))


def _score_to_wire(score: fox.TownScore) -> bytes:
    """A town score's encoding: its figures, each end-game entry with its effects and the
    tiles they counted (the way a building reached along trails went), and the versions
    it was computed under."""
    return b"".join([
        wire.number(_SCORE_TOTAL, score.total),
        wire.number(_SCORE_TRACK, score.score_track),
        wire.number(_SCORE_END_GAME_POINTS, score.end_game_points),
        *[wire.part(_SCORE_END_GAME, _entry_to_wire(entry)) for entry in score.end_game],
        wire.number(_SCORE_GOODS_REMAINING, score.goods_remaining),
        wire.number(_SCORE_TILE_COUNT, score.tile_count),
        wire.number(_SCORE_RULES_VERSION, RULES_VERSION),
        wire.text(_SCORE_CATALOG_VERSION, builtin_catalog_version())])


def _entry_to_wire(entry: fox.EndGameEntry) -> bytes:
    return b"".join([
        wire.text(_ENTRY_BUILDING, entry.building),
        wire.number(_ENTRY_ROW, entry.row), wire.number(_ENTRY_COL, entry.col),
        wire.number(_ENTRY_POINTS, entry.points),
        _said_to_wire(entry.explanation, _ENTRY_EXPLANATION, _ENTRY_CODE, _ENTRY_PARAMS,
                      entry.rule, _ENTRY_RULE),
        *[wire.part(_ENTRY_EFFECTS, _effect_to_wire(effect)) for effect in entry.effects]])


def _effect_to_wire(effect: EffectScore) -> bytes:
    return b"".join([
        wire.text(_EFFECT_KIND, effect.kind), wire.number(_EFFECT_POINTS, effect.points),
        _said_to_wire(effect.explanation, _EFFECT_EXPLANATION, _EFFECT_CODE, _EFFECT_PARAMS,
                      effect.rule, _EFFECT_RULE),
        *[wire.part(_EFFECT_TILES, wire.number(_COUNTED_ROW, tile.row)
                    + wire.number(_COUNTED_COL, tile.col)
                    + wire.text(_COUNTED_BUILDING, tile.building)
                    + b"".join([wire.part(_COUNTED_VIA, _position_to_wire(p))
                                for p in tile.via]))
          for tile in effect.tiles]])


def _said_to_wire(said: str, text_key: bytes, code_key: bytes, params_key: bytes, rule: str,
                  rule_key: bytes) -> bytes:
    """An explanation's fields, in field order: its words, the rule, its code and params."""
    return b"".join([wire.text(text_key, said), wire.text(rule_key, rule),
                     wire.text(code_key, code_of(said)),
                     params_to_wire(params_key, getattr(said, "params", {}))])


def town_readings_to_proto(readings: TownReadings, message: scoring_pb2.TownUncertainty
                           ) -> None:
    """Write ``readings`` into ``message``, an answer's field (so nothing is copied)."""
    message.readings = readings.count
    message.lowest_total = readings.lowest_total
    message.highest_total = readings.highest_total
    message.likely_total = readings.likely_total
    for count in readings.counts:
        message.counts.add(row=count.position.row, col=count.position.col,
                           good=_GOOD_TO_PROTO[count.good], pointer=json_pointer(count.path),
                           decides=count.decides, totals=count.totals)


def _standings(ranking: fox.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 goods_remaining=s.score.goods_remaining,
                                 tile_count=s.score.tile_count, place=s.place)
            for s in ranking.standings]


def ranking_to_proto(ranking: fox.Ranking) -> service_pb2.RankPlayersResponse:
    return service_pb2.RankPlayersResponse(standings=_standings(ranking),
                                           winners=ranking.winners, **versions())


def _violations(violations: Sequence[fox.Violation], *where: PathPart
                ) -> list[transport_pb2.Violation]:
    """``where`` is the place of the move or action in the request (``("move",)``,
    ``("actions", 7)``)."""
    return [transport_pb2.Violation(rule=v.rule, reason=v.reason.value, message=v.message,
                                    pointer=v.pointer(*where), **sentence_fields(v.message))
            for v in violations]


def transport_verdict_to_proto(check: fox.TransportVerdict
                               ) -> service_pb2.ValidateTransportResponse:
    if not check.legal:
        return service_pb2.ValidateTransportResponse(
            legal=False, violations=_violations(check.violations, "move"))
    assert check.town is not None  # a legal check carries the town after
    answer = service_pb2.ValidateTransportResponse.FromString(b"".join([
        wire.number(_LEGAL, True),
        *[wire.part(_PATH, _position_to_wire(position)) for position in check.path],
        wire.part(_TOWN, _town_to_wire(check.town))]))
    if check.town.catalog.requested:
        answer.town.catalog.update(catalog_to_dict(check.town.catalog, only_requested=True))
    return answer


def _step(step: planner.PlanStep) -> planning_pb2.PlanStep:
    if isinstance(step, planner.MoveStep):
        return planning_pb2.PlanStep(move=planning_pb2.MoveStep(
            good=_GOOD_TO_PROTO[step.good], count=step.count, origin=_position(step.origin),
            destination=_position(step.destination), path=[_position(p) for p in step.path]))
    if isinstance(step, planner.HaulStep):
        return planning_pb2.PlanStep(haul=planning_pb2.HaulStep(
            hut=_position(step.hut),
            picks=[planning_pb2.HaulPick(good=_GOOD_TO_PROTO[p.good], count=p.count,
                                         origin=_position(p.origin)) for p in step.picks]))
    return planning_pb2.PlanStep(process=planning_pb2.ProcessStep(
        points=step.points,
        choices=[planning_pb2.ProcessChoice(row=p.row, col=p.col, goods=_goods(g))
                 for p, g in step.choices]))


def plan_to_proto(plan: planner.FinalRoundPlan) -> planning_pb2.FinalRoundPlan:
    return planning_pb2.FinalRoundPlan(
        total=plan.total, processing_points=plan.processing_points,
        end_game_points=plan.end_game_points, goods_remaining=plan.goods_remaining,
        steps=[_step(s) for s in plan.steps], optimal=plan.optimal,
        upper_bound=plan.upper_bound, **versions())


# -- the game's answers ------------------------------------------------------------------

_EXPECTATIONS: dict[str | None, game_pb2.Expectation.ValueType] = {
    None if number == 0 else name.removeprefix("EXPECTATION_").lower(): number
    for name, number in game_pb2.Expectation.items()}
"""The rules' :class:`Turn` ``expected`` names (``"draw_tiles"``) to the enum."""


def _board(board: CentralBoard) -> game_pb2.CentralBoard:
    def spaces(area: Sequence[Space | None]) -> list[game_pb2.BoardSpace]:
        return [game_pb2.BoardSpace() if space is None else game_pb2.BoardSpace(
            stack=game_pb2.TileStack(building=space.building, count=space.count))
            for space in area]

    stacks = board.stacks
    return game_pb2.CentralBoard(offer=spaces(board.offer), c_spaces=spaces(board.c_spaces),
                                 stacks=game_pb2.StacksLeft(a=stacks.A, b=stacks.B, c=stacks.C))


def state_to_proto(state: GameState) -> game_pb2.GameState:
    """A state message; the request's catalog definitions go back in it, once."""
    message = game_pb2.GameState(
        rules_version=state.rules_version, catalog_version=state.catalog_version,
        players=[game_pb2.Player(name=p.name, town=town_to_proto(p.town, with_catalog=False),
                                 passed=p.passed, done=p.done, runs=p.runs, moved=p.moved,
                                 hauled=[_position(h) for h in sorted(p.hauled)])
                 for p in state.players],
        round=state.round, phase=_PHASE_TO_PROTO[state.phase],
        start_player=state.start_player, current_player=state.current_player,
        board=_board(state.board))
    if state.catalog.requested:
        message.catalog.update(catalog_to_dict(state.catalog, only_requested=True))
    if state.solo is not None:
        message.solo = state.solo
    return message


def _placed(parts: Sequence[tuple[fox.Position, fox.Goods]]) -> list[game_pb2.BuildingGoods]:
    return [game_pb2.BuildingGoods(row=position.row, col=position.col, goods=_goods(goods))
            for position, goods in parts]


def _paid(payment: Sequence[Payment]) -> list[game_pb2.BuildingGoods]:
    return _placed([(part.position, part.goods) for part in payment])


def _trail_work(work: TrailWork) -> game_pb2.TrailWork:
    return game_pb2.TrailWork(position=_position(work.position),
                              sides=[_SIDE_TO_PROTO[s] for s in fox.SIDES if s in work.sides],
                              upgrade=work.upgrade)


def action_to_proto(action: Action) -> game_pb2.Action:
    match action:
        case Produce(player=player, choices=choices):
            return game_pb2.Action(produce=game_pb2.Produce(player=player,
                                                            choices=_placed(choices)))
        case BuildBuilding():
            build = game_pb2.BuildBuilding(
                player=action.player, building=action.building,
                position=_position(action.position), payment=_paid(action.payment))
            if action.gain is not None:
                build.gain.CopyFrom(_goods(action.gain))
            return game_pb2.Action(build_building=build)
        case BuildTrails(player=player, trails=trails, payment=payment):
            return game_pb2.Action(build_trails=game_pb2.BuildTrails(
                player=player, trails=[_trail_work(w) for w in trails], payment=_paid(payment)))
        case Pass(player=player):  # "pass" is a Python keyword: the field is reached by name
            message = game_pb2.Action()
            getattr(message, "pass").player = player
            getattr(message, "pass").SetInParent()
            return message
        case Transport():
            return game_pb2.Action(transport=game_pb2.Transport(
                player=action.player, good=_GOOD_TO_PROTO[action.good], count=action.count,
                origin=_position(action.origin), destination=_position(action.destination)))
        case HaulGoods(player=player, hut=hut, picks=picks):
            return game_pb2.Action(haul=game_pb2.HaulGoods(
                player=player, hut=_position(hut),
                picks=[planning_pb2.HaulPick(good=_GOOD_TO_PROTO[p.good], count=p.count,
                                             origin=_position(p.origin)) for p in picks]))
        case ProcessGoods(player=player, choices=choices):
            return game_pb2.Action(process=game_pb2.ProcessGoods(player=player,
                                                                 choices=_placed(choices)))
        case EndRound(player=player):
            return game_pb2.Action(end_round=game_pb2.EndRound(player=player))
        case DrawTiles(tiles=tiles):
            return game_pb2.Action(draw_tiles=game_pb2.DrawTiles(tiles=tiles))
    raise TypeError(f"not a Foxglove Farm action: {action!r}")


def turn_to_proto(turn: Turn) -> game_pb2.Turn:
    message = game_pb2.Turn(expected=_EXPECTATIONS[turn.expected])
    if turn.player is not None:
        message.player = turn.player
    return message


def legal_moves_to_proto(state: GameState, turn: Turn, moves: Sequence[Action]
                         ) -> service_pb2.ListLegalMovesResponse:
    """The turn, the legal actions, and every building holding goods: what can pay."""
    return service_pb2.ListLegalMovesResponse(
        turn=turn_to_proto(turn), moves=[action_to_proto(m) for m in moves],
        goods_on_hand=[game_pb2.GoodsOnHand(player=seat, row=tile.position.row,
                                            col=tile.position.col, building=tile.building.id,
                                            goods=_goods(tile.goods))
                       for seat, player in enumerate(state.players)
                       for tile in player.town.buildings if any(tile.goods)])


def action_verdict_to_proto(verdict: Verdict[GameState, fox.Reason]
                            ) -> service_pb2.ValidateActionResponse:
    answer = service_pb2.ValidateActionResponse(
        legal=verdict.legal, violations=_violations(verdict.violations, "action"))
    if verdict.next_state is not None:
        answer.next_state.CopyFrom(state_to_proto(verdict.next_state))
    return answer


def replay_to_proto(result: ReplayResult[GameState, fox.Reason, fox.TownScore]
                    ) -> service_pb2.ReplayGameResponse:
    answer = service_pb2.ReplayGameResponse(legal=result.legal,
                                            state=state_to_proto(result.state))
    if result.illegal_index is not None:
        answer.illegal_index = result.illegal_index
        answer.violations.extend(_violations(result.violations, "actions",
                                             result.illegal_index))
    if result.ranking is not None:
        answer.standings.extend(_standings(result.ranking))
        answer.winners.extend(result.ranking.winners)
        by_name = {s.name: s.score for s in result.ranking.standings}
        answer.scores.extend(score_to_proto(by_name[p.name]) for p in result.state.players)
        if result.state.solo is not None:  # one player: the one standing's total
            solo = solo_outcome(result.state.solo, result.ranking.standings[0].score.total)
            answer.solo.CopyFrom(service_pb2.SoloOutcome(
                setup=solo.setup, name=solo.name, thresholds=solo.thresholds,
                reached=solo.reached))
    return answer


# -- the catalog --------------------------------------------------------------------------

def catalog_to_proto(catalog: fox.Catalog) -> service_pb2.GetCatalogResponse:
    """The built-in ``catalog``, by id, each building as the definition format has it."""
    return service_pb2.GetCatalogResponse(
        catalog_version=builtin_catalog_version(),
        buildings=[_catalog_building(catalog[id_]) for id_ in sorted(catalog.buildings)])


def _catalog_building(building: fox.Building) -> catalog_pb2.CatalogBuilding:
    fields = PROVENANCED_FIELDS if building.documented else ("tiers",)
    message = catalog_pb2.CatalogBuilding(
        id=building.id, name=building.name,
        tiers=sorted(building.tiers, key=TIERS.index), documented=building.documented,
        expert=building.expert, slots=building.slots, cost=_goods(building.cost),
        text=building.text, provisional=building.provisional,
        provenance={name: catalog_pb2.Provenance(source=building.source_of(name).source,
                                                 note=building.source_of(name).note)
                    for name in fields})
    for effect in building.effects:
        message.effects.add().update(effect_to_dict(effect))
    return message
