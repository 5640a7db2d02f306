"""Reading Foxglove Farm's game states, setups, actions and logs from request messages.

The towns in them are read as :mod:`.town_reading` reads any town, on the same reader;
the rules' ``check_state``, ``check_setup`` and ``check_action`` add what the wire form
cannot get wrong. A game state's catalog is the state's: its towns carry none of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple, TypeVar

from referee.foxglove_farm.v1 import game_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm.central_board import CentralBoard, Space, StacksLeft
from tabletop_rules.foxglove_farm.construction import Payment, TrailWork
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_checks import (
    MAX_DRAWN,
    MAX_PARTS,
    NO_ACTION,
    TOO_MANY_ACTIONS,
    TOO_MANY_READ,
    check_action,
    check_setup,
    check_state,
)
from tabletop_rules.foxglove_farm.town import MAX_TILES
from tabletop_rules.foxglove_farm.game_state import (
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
from tabletop_rules.foxglove_farm.transcription import MAX_BUILDING_ID_LENGTH, town_catalog
from tabletop_rules.problems import TOO_LONG, Path, PathPart, Problem

from .enums import NOT_A_PHASE, PHASE_BY_NUMBER, PHASE_ENUM, PHASE_NAMES
from .town_reading import GameCatalog, ReadTown, TownReader, goods_from_proto, struct_to_json


Item = TypeVar("Item")

MAX_CATALOG_VERSION_LENGTH = 100
"""A catalog version is a short digest; a longer one is no version (the rules' message
would quote it whole)."""


class _ReadState(NamedTuple):
    """A game state as read: whether its phase could be read, and each player's town."""

    state: GameState
    phase_read: bool
    towns: list[ReadTown]
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


class GameReader(TownReader):
    """A :class:`.TownReader` that also reads the game: states, setups and actions."""

    def game_catalog(self, message: game_pb2.GameState | game_pb2.Setup, path: Path
                     ) -> GameCatalog:
        """The game's catalog: the built-in one with the definitions in the ``catalog``
        of the message at ``path``, and the ids whose definition was refused (what names
        them is not reported again)."""
        struct = struct_to_json(message.catalog) if message.HasField("catalog") else None
        return GameCatalog(*town_catalog(struct, fox.builtin_catalog(), path, self.problems))

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
        phase = self.enum(message.phase, PHASE_BY_NUMBER, None, (*path, "phase"), NOT_A_PHASE,
                          PHASE_NAMES, PHASE_ENUM)
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
            goods_from_proto(body.gain) if body.HasField("gain") else None)

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
        return tuple((fox.Position(p.row, p.col), goods_from_proto(p.goods))
                     for p in self.limited(parts, path, "choices"))

    def payment(self, parts: Sequence[game_pb2.BuildingGoods], path: Path
                ) -> tuple[Payment, ...]:
        return tuple(Payment(fox.Position(p.row, p.col), goods_from_proto(p.goods))
                     for p in self.limited(parts, path, "payment"))


def _too_long(building: str, path: Path) -> Problem | None:
    """A building id longer than any (the rules' messages quote an id whole)."""
    if len(building) <= MAX_BUILDING_ID_LENGTH:
        return None
    return Problem(path, TOO_LONG(limit=MAX_BUILDING_ID_LENGTH, length=len(building)))


def setup_from_proto(message: game_pb2.Setup) -> Setup:
    """A setup ``GAME.new_game`` accepts (the request's ``setup``), or every problem."""
    reader = GameReader()
    setup = reader.setup(message, ("setup",))
    reader.done(lambda: [p.under("setup") for p in check_setup(setup)], partial=True)
    return setup


def state_from_proto(message: game_pb2.GameState) -> GameState:
    """A state play can go on from (the request's ``state``), or every problem."""
    reader = GameReader()
    read = reader.state(message, ("state",))
    reader.done(lambda: read.problems("state"), partial=True)
    return read.state


def state_and_action_from_proto(state_message: game_pb2.GameState,
                                action_message: game_pb2.Action) -> tuple[GameState, Action]:
    """A valid state and a well-formed action to judge in it (the request's ``state``
    and ``action``), or every problem with either."""
    reader = GameReader()
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
    reader = GameReader()
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
