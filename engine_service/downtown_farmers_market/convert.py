"""The one place that converts between Downtown Farmers Market protobufs and rule values.

Reading a message on the shared collecting reader (:mod:`engine_service.reading`) collects
every problem (unset or unknown enum values, a challenge or move with no type) with its
path in the contract's JSON form, then the rules' own validation adds what is wrong with
the board, state, setup or move as a whole, so the rules are only ever called on input
they accept.

Boards and Food tiles are first read straight from their encoding, which is many times
faster than walking their fields: ``SerializeToString()`` encodes a message canonically
(fields by number, lists packed, unknown fields last), so a tile, a grid space or a
challenge is looked up by its bytes. That fast path reads only what the reader would
read without a problem, into the same values; at anything else it gives up, and the
reader reads the message field by field, naming every problem. A game state is written
the same way round (:func:`state_to_proto`): its encoding is joined from the tiles',
spaces' and challenges' encodings (:mod:`engine_service.wire`) and parsed into the answer
at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Any, cast

from google.protobuf.internal.containers import RepeatedScalarFieldContainer
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from referee.downtown_farmers_market.v1 import board_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import challenge_types_pb2, game_pb2, scoring_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.challenge_types import ChallengeType, Values
from tabletop_rules.downtown_farmers_market.model import MAX_TILE_INGREDIENTS, MIN_TILE_INGREDIENTS
from tabletop_rules.downtown_farmers_market.readings import (
    DoubtfulCell,
    Readings,
    check_readings,
)
from tabletop_rules.downtown_farmers_market.moves import NO_MOVE_ACTION
from tabletop_rules.downtown_farmers_market.readings import ONLY_SCORED, TILE_OR_CANDIDATES
from tabletop_rules.downtown_farmers_market.validation import NO_CHALLENGE_TYPE
from tabletop_rules.messages import Wording
from tabletop_rules.problems import Path, Problem, json_pointer, not_one_of

from .. import wire
from ..reading import Reader
from ..wording import code_of, params_to_wire, sentence_fields

_INGREDIENT_FROM_PROTO: dict[int, dfm.Ingredient] = {
    board_pb2.Ingredient.Value(f"INGREDIENT_{i.name}"): i for i in dfm.Ingredient
}
_MODE_FROM_PROTO: dict[int, dfm.Mode] = {
    board_pb2.Mode.Value(f"MODE_{m.name}"): m for m in dfm.Mode}
_MODE_FROM_PROTO[board_pb2.MODE_UNSPECIFIED] = dfm.Mode.STANDARD
_MODE_TO_PROTO = {m: board_pb2.Mode.Value(f"MODE_{m.name}") for m in dfm.Mode}
_INGREDIENT_TO_PROTO = {i: board_pb2.Ingredient.ValueType(n)
                        for n, i in _INGREDIENT_FROM_PROTO.items()}
_ACTION_FROM_PROTO: dict[int, dfm.Action | None] = {
    game_pb2.Action.Value(f"ACTION_{a.name}"): a for a in dfm.Action}
_ACTION_FROM_PROTO[game_pb2.ACTION_UNSPECIFIED] = None  # nothing expected: the game is over
_ACTION_TO_PROTO = {a: n for n, a in _ACTION_FROM_PROTO.items()}

_TILE_BY_WIRE = {
    board_pb2.FoodTile(ingredients=numbers).SerializeToString():
        dfm.FoodTile(tuple(_INGREDIENT_FROM_PROTO[n] for n in numbers))
    for size in range(MIN_TILE_INGREDIENTS, MAX_TILE_INGREDIENTS + 1)
    for numbers in product(_INGREDIENT_TO_PROTO.values(), repeat=size)}
"""Every well-formed Food tile by its encoding (a few hundred)."""
_SPACE_IN_ROW: dict[bytes, dfm.Space] = {
    board_pb2.GridRow(spaces=[board_pb2.GridSpace()]).SerializeToString(): None,
    **{board_pb2.GridRow(spaces=[board_pb2.GridSpace(tile=board_pb2.FoodTile.FromString(data))]
                         ).SerializeToString(): tile for data, tile in _TILE_BY_WIRE.items()}}
"""Every grid space, empty or holding a well-formed tile, by its encoding in a row: its
tag, a one-byte length and the space."""
_WIRE_OF_SPACE = {None if space is None else space.ingredients: data
                  for data, space in _SPACE_IN_ROW.items()}
_WIRE_OF_TILE = {tile.ingredients: data for data, tile in _TILE_BY_WIRE.items()}
_BOARD_MODE, _ROW_CHALLENGE_KEY, _COLUMN_CHALLENGE_KEY, _GRID_ROW_KEY = (
    wire.key(board_pb2.Board.DESCRIPTOR, name)
    for name in ("mode", "row_challenges", "column_challenges", "grid"))
_MODE, _ROW_CHALLENGE, _COLUMN_CHALLENGE, _GRID_ROW = (
    key[0] for key in (_BOARD_MODE, _ROW_CHALLENGE_KEY, _COLUMN_CHALLENGE_KEY, _GRID_ROW_KEY))
"""A board's field keys, and as the one byte each is, read from a board's encoding."""
_PLAYER_NAME, _PLAYER_BOARD = (wire.key(game_pb2.Player.DESCRIPTOR, name)
                               for name in ("name", "board"))
(_RULES_VERSION, _STATE_MODE, _PLAYERS, _FACE_UP, _PILE_COUNT, _DISCARDS, _ROUND,
 _FIRST_PLAYER, _CURRENT_PLAYER, _EXPECTED, _GAME_OVER, _REVEAL_COUNT) = (
    wire.key(game_pb2.GameState.DESCRIPTOR, name)
    for name in ("rules_version", "mode", "players", "face_up", "pile_count", "discards",
                 "round", "first_player", "current_player", "expected", "game_over",
                 "reveal_count"))
"""The keys of the fields an answer's state is written with (:func:`state_to_proto`)."""
_TAKE, _DISCARD, _REVEAL = (wire.key(game_pb2.Move.DESCRIPTOR, name)
                            for name in ("take", "discard", "reveal"))
_TAKE_PLAYER, _TAKE_TILE, _TAKE_ROW, _TAKE_COL = (
    wire.key(game_pb2.TakeTile.DESCRIPTOR, name) for name in ("player", "tile", "row", "col"))
_TAKE_PLAYER_FIELDS, _TAKE_ROW_FIELDS, _TAKE_COL_FIELDS = (
    wire.numbers(key) for key in (_TAKE_PLAYER, _TAKE_ROW, _TAKE_COL))
_TILE_IN_TAKE = {ingredients: wire.part(_TAKE_TILE, data)
                 for ingredients, data in _WIRE_OF_TILE.items()}
_DISCARD_PLAYER, _DISCARD_TILE = (wire.key(game_pb2.DiscardTile.DESCRIPTOR, name)
                                  for name in ("player", "tile"))
_REVEAL_TILES = wire.key(game_pb2.RevealTiles.DESCRIPTOR, "tiles")
_MOVES, _TURN = (wire.key(service_pb2.ListLegalMovesResponse.DESCRIPTOR, name)
                 for name in ("moves", "turn"))
"""The keys of a move's fields (:func:`move_to_proto`), and a take's numbers and tiles
as fields, looked up as legal moves are written."""


Encodings = dict[int, tuple[dfm.Board, bytes]]
"""Boards read from an encoding that is exactly what :func:`_board_to_wire` writes for
them, by identity (each with the board, which keeps its identity from being reused): an
answer that holds such a board unchanged (most of a state after a move) writes it back
as it came, instead of writing it again."""


NOT_AN_INGREDIENT = not_one_of("an ingredient")
NOT_A_MODE = not_one_of("a mode")
NOT_AN_ACTION = not_one_of("an action")
_INGREDIENT_VALUES = tuple(i.value for i in dfm.Ingredient)
_MODE_VALUES = tuple(m.value for m in dfm.Mode)
_ACTION_VALUES = (*(a.value for a in dfm.Action), "none")
"""What a misread enum's problem lists (``none``: nothing expected, the game is over)."""
_INGREDIENT_ENUM, _MODE_ENUM, _ACTION_ENUM = (cast(EnumTypeWrapper, enum) for enum in (
    board_pb2.Ingredient, board_pb2.Mode, game_pb2.Action))  # their stubs type them as classes
_CHALLENGE_TYPES = tuple(f.name for f in board_pb2.Challenge.DESCRIPTOR.oneofs_by_name[
    "kind"].fields)
_MOVE_KINDS = tuple(f.name for f in game_pb2.Move.DESCRIPTOR.oneofs_by_name["action"].fields)


class _Reader(Reader):
    """Reads messages into rule values, noting problems instead of stopping at the first;
    boards read as written are kept in ``encodings``, if given.

    What cannot be read stands in as a placeholder the rules' checks find nothing wrong
    with (an unknown ingredient as bread, a challenge whose type or ingredients cannot be
    read as one with its points only), so those checks still judge the rest; where a
    placeholder could mislead them (an unknown mode: how many challenges a board has),
    the paths they must not judge are noted in :attr:`unjudged` (a doubtful space one of
    whose candidates cannot be read: whether its candidates repeat one another)."""

    def __init__(self, encodings: Encodings | None = None) -> None:
        super().__init__()
        self.encodings = encodings
        self.unjudged: set[Path] = set()

    def judged(self, problems: Sequence[Problem], path: Path) -> list[Problem]:
        """``problems`` (of the rules' check, relative to ``path``) under ``path``, less
        those at a path not to judge."""
        placed = [p.under(*path) for p in problems]
        return [p for p in placed if p.path not in self.unjudged]

    def ingredient(self, value: int, path: Path) -> dfm.Ingredient:
        # BREAD is a placeholder for an unknown value; the problem already refuses the input
        return self.enum(value, _INGREDIENT_FROM_PROTO, dfm.Ingredient.BREAD, path,
                         NOT_AN_INGREDIENT, _INGREDIENT_VALUES, _INGREDIENT_ENUM)

    def ingredients(self, values: RepeatedScalarFieldContainer[int] | Sequence[int],
                    path: Path) -> tuple[dfm.Ingredient, ...]:
        known = tuple([i for i in map(_INGREDIENT_FROM_PROTO.get, values) if i is not None])
        if len(known) == len(values):  # each a known ingredient: no problem, no path to name
            return known
        return tuple(self.ingredient(v, (*path, i)) for i, v in enumerate(values))

    def tile(self, message: board_pb2.FoodTile, path: Path) -> dfm.FoodTile:
        tile = _TILE_BY_WIRE.get(message.SerializeToString())
        if tile is not None:
            return tile
        return dfm.FoodTile(self.ingredients(message.ingredients, path))

    def tiles(self, messages: Sequence[board_pb2.FoodTile], path: Path
              ) -> tuple[dfm.FoodTile, ...]:
        return tuple(self.tile(m, (*path, i)) for i, m in enumerate(messages))

    def mode(self, value: int, path: Path) -> dfm.Mode:
        return self.enum(value, _MODE_FROM_PROTO, dfm.Mode.STANDARD, path, NOT_A_MODE,
                         _MODE_VALUES, _MODE_ENUM)

    def challenge(self, message: board_pb2.Challenge, path: Path) -> dfm.Challenge:
        """The challenge; one that cannot be read stands in as one with its points only
        (its problems are said; the rules still judge its points and count it)."""
        before = len(self.problems)
        challenge = self._challenge(message, path)
        if challenge is None or len(self.problems) > before:
            return dfm.OneOfEach(message.points)
        return challenge

    def _challenge(self, message: board_pb2.Challenge, path: Path) -> dfm.Challenge | None:
        kind = message.WhichOneof("kind")
        points = message.points
        if kind == "exact_count":
            counts = []
            for entry in message.exact_count.counts:
                ingredient = self.ingredient(entry.ingredient, (*path, "counts"))
                counts.append((ingredient, entry.count))
            return dfm.ExactCount(tuple(counts), points)
        if kind == "forbidden":
            return dfm.Forbidden(self.ingredients(message.forbidden.ingredients,
                                                  (*path, "ingredients")), points)
        if kind == "exact_count_any":
            return dfm.ExactCountAny(message.exact_count_any.count, points)
        if kind == "exact_total":
            return dfm.ExactTotal(message.exact_total.count, points)
        if kind == "one_of_each":
            return dfm.OneOfEach(points)
        if kind == "majority":
            return dfm.Majority(self.ingredient(message.majority.ingredient,
                                                (*path, "ingredient")), points)
        if kind == "per_set":
            return dfm.PerSet(tuple(self.ingredients(s.ingredients, (*path, "sets", i))
                                    for i, s in enumerate(message.per_set.sets)), points)
        self.problem((*path, "type"), NO_CHALLENGE_TYPE(expected=_CHALLENGE_TYPES))
        return None

    def board(self, message: board_pb2.Board, path: Path,
              doubts: list[DoubtfulCell] | None = None) -> dfm.Board:
        """The board; a space listing candidates is read into ``doubts`` (given only for
        a board being scored), holding its likeliest candidate on the board. (A board
        read from its encoding the quick way has no such space.)"""
        data = message.SerializeToString()
        read = _board_from_wire(data)
        if read is not None:
            board, as_written = read
            if as_written and self.encodings is not None:
                self.encodings[id(board)] = (board, data)
            return board
        grid = tuple(
            tuple(self.space(space, (*path, "grid", r, c), doubts)
                  for c, space in enumerate(row.spaces))
            for r, row in enumerate(message.grid))
        sides = {side: tuple(self.challenge(ch, (*path, side, i))
                             for i, ch in enumerate(getattr(message, side)))
                 for side in ("row_challenges", "column_challenges")}
        before = len(self.problems)
        mode = self.mode(message.mode, (*path, "mode"))
        if len(self.problems) > before:  # whether it has challenges depends on the mode
            self.unjudged.update({(*path, side) for side in (*sides, "mode")})
        return dfm.Board(grid, sides["row_challenges"], sides["column_challenges"], mode)

    def space(self, message: board_pb2.GridSpace, path: Path,
              doubts: list[DoubtfulCell] | None) -> dfm.Space:
        if not message.candidates:
            return self.tile(message.tile, path) if message.HasField("tile") else None
        if doubts is None:
            self.problem((*path, "candidates"), ONLY_SCORED())
            return None
        if message.HasField("tile"):
            self.problem(path, TILE_OR_CANDIDATES())
        *_, row, col = path
        before = len(self.problems)
        candidates = self.tiles(message.candidates, (*path, "candidates"))
        if len(self.problems) > before:  # a placeholder ingredient may seem to repeat a tile
            self.unjudged.update((*path, "candidates", k) for k in range(len(candidates)))
        doubts.append(DoubtfulCell(int(row), int(col), candidates))
        return candidates[0]

    def players(self, messages: Sequence[game_pb2.Player], path: Path
                ) -> tuple[dfm.Player, ...]:
        return tuple(dfm.Player(m.name, self.board(m.board, (*path, i, "board")))
                     for i, m in enumerate(messages))

    def action(self, value: int, path: Path) -> dfm.Action | None:
        return self.enum(value, _ACTION_FROM_PROTO, None, path, NOT_AN_ACTION, _ACTION_VALUES,
                         _ACTION_ENUM)

    def state(self, message: game_pb2.GameState, path: Path) -> dfm.GameState:
        """The state as sent; ``game_over`` is output only, so it is not read."""
        return dfm.GameState(
            rules_version=message.rules_version, mode=self.mode(message.mode, (*path, "mode")),
            players=self.players(message.players, (*path, "players")),
            face_up=self.tiles(message.face_up, (*path, "face_up")),
            pile_count=message.pile_count,
            discards=self.tiles(message.discards, (*path, "discards")),
            round=message.round, first_player=message.first_player,
            current_player=message.current_player,
            expected=self.action(message.expected, (*path, "expected")))

    def setup(self, message: game_pb2.Setup, path: Path) -> dfm.Setup:
        """The setup as sent; an unset rules version is the one this referee plays."""
        return dfm.Setup(mode=self.mode(message.mode, (*path, "mode")),
                         players=self.players(message.players, (*path, "players")),
                         first_player=message.first_player,
                         face_up=self.tiles(message.face_up, (*path, "face_up")),
                         rules_version=message.rules_version or dfm.RULES_VERSION)

    def move(self, message: game_pb2.Move, path: Path) -> dfm.Move:
        kind = message.WhichOneof("action")
        if kind == "take":
            take = message.take
            return dfm.TakeTile(take.player, self.tile(take.tile, (*path, "tile")), take.row,
                                take.col)
        if kind == "discard":
            return dfm.DiscardTile(message.discard.player,
                                   self.tile(message.discard.tile, (*path, "tile")))
        if kind == "reveal":
            return dfm.RevealTiles(self.tiles(message.reveal.tiles, (*path, "tiles")))
        self.problem((*path, "action"), NO_MOVE_ACTION(expected=_MOVE_KINDS))
        return dfm.RevealTiles(())  # a placeholder; the problem already refuses the input


def _board_from_wire(data: bytes) -> tuple[dfm.Board, bool] | None:
    """The board ``data`` encodes, if it is one that :meth:`_Reader.board` reads without a
    problem, and whether ``data`` is what :func:`_board_to_wire` writes for it (a
    canonical encoding whose mode is set and whose challenges are each as written);
    otherwise None. A board's encoding is its fields in turn, each a one-byte tag then,
    for the mode, its one-byte number, for a challenge or a grid row, a one-byte length
    and the part; a longer number or length, or another field, is for the reader. A grid
    row's spaces are each looked up in :data:`_SPACE_IN_ROW` where they lie."""
    mode: dfm.Mode | None = dfm.Mode.STANDARD  # an unset mode is standard
    row_challenges: list[dfm.Challenge] = []
    column_challenges: list[dfm.Challenge] = []
    grid = []
    as_written = False
    spaces = _SPACE_IN_ROW
    at, end = 0, len(data)
    while at + 1 < end:
        tag, size = data[at], data[at + 1]
        if (tag | size) & 0x80:
            return None
        if tag == _MODE:
            mode = _MODE_FROM_PROTO.get(size)
            as_written = at == 0  # written first, as the canonical encoding has it
            at += 2
            continue
        start = at + 2
        at = start + size
        if at > end:
            return None
        if tag == _GRID_ROW:
            row = []
            while start + 1 < at:  # each space: a tag, a one-byte length, the space
                after = start + 2 + data[start + 1]
                space = spaces.get(data[start:after], _NOT_A_SPACE)
                if space is _NOT_A_SPACE:
                    return None
                row.append(space)
                start = after
            if start != at:
                return None
            grid.append(tuple(row))
        elif tag == _ROW_CHALLENGE or tag == _COLUMN_CHALLENGE:
            read = _challenge_from_wire(data[start:at])
            if read is None:
                return None
            (row_challenges if tag == _ROW_CHALLENGE else column_challenges).append(read[0])
            as_written = as_written and read[1]
        else:
            return None
    if mode is None or at != end:
        return None
    return dfm.Board(tuple(grid), tuple(row_challenges), tuple(column_challenges),
                     mode), as_written


_NOT_A_SPACE: Any = object()
"""What :data:`_SPACE_IN_ROW` gives for bytes that are no space it knows (None is the
empty space)."""


@lru_cache(maxsize=4096)
def _challenge_from_wire(data: bytes) -> tuple[dfm.Challenge, bool] | None:
    """The challenge ``data`` encodes and whether ``data`` is its encoding as written
    (:func:`_challenge_to_wire`), None if the reader finds a problem with it: read once,
    as boards keep showing the same challenge tiles."""
    reader = _Reader()
    challenge = reader.challenge(board_pb2.Challenge.FromString(data), ())
    if reader.problems or challenge is None:
        return None
    return challenge, data == _challenge_to_wire(challenge)


def board_from_proto(message: board_pb2.Board, path: Path = ()) -> dfm.Board:
    """A well-formed board, or :class:`InvalidInputError` listing every problem: what
    the wire gets wrong and what the rules find wrong with the rest, at once."""
    reader = _Reader()
    board = reader.board(message, path)
    reader.done(lambda: reader.judged(dfm.check_board(board), path), partial=True)
    return board


def transcription_from_proto(message: board_pb2.Board, path: Path = ()
                             ) -> tuple[dfm.Board, tuple[DoubtfulCell, ...]]:
    """A board to score and its doubtful spaces, each holding its likeliest candidate on
    the board (:func:`.check_readings`), or every problem with them at once."""
    reader = _Reader()
    doubts: list[DoubtfulCell] = []
    board = reader.board(message, path, doubts)
    reader.done(lambda: reader.judged(check_readings(board, doubts), path), partial=True)
    return board, tuple(doubts)


def players_from_proto(messages: Sequence[scoring_pb2.PlayerBoard]
                       ) -> list[tuple[str, dfm.Board]]:
    """Named boards to rank (the request's ``players``), or every problem reading them;
    :func:`~tabletop_rules.downtown_farmers_market.rank_boards` checks them as a whole."""
    reader = _Reader()
    players = [(m.name, reader.board(m.board, ("players", i, "board")))
               for i, m in enumerate(messages)]
    modes = {("players", i, "board", "mode") for i in range(len(players))}
    if reader.unjudged & modes:  # the boards' modes cannot be compared
        reader.unjudged |= modes
    # a clean read is checked once, by rank_boards; one with problems hears of all now
    reader.done(lambda: reader.judged(dfm.check_players(players), ())
                if reader.problems else [], partial=True)
    return players


def setup_from_proto(message: game_pb2.Setup) -> dfm.Setup:
    """A setup :func:`.new_game` accepts (the request's ``setup``), or every problem."""
    reader = _Reader()
    setup = reader.setup(message, ("setup",))
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)])
    return setup


def state_from_proto(message: game_pb2.GameState) -> dfm.GameState:
    """A state play can go on from (the request's ``state``), or every problem."""
    reader = _Reader()
    state = reader.state(message, ("state",))
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)])
    return state


def state_and_move_from_proto(state_message: game_pb2.GameState, move_message: game_pb2.Move,
                              encodings: Encodings | None = None
                              ) -> tuple[dfm.GameState, dfm.Move]:
    """A valid state and a well-formed move to judge in it (the request's ``state`` and
    ``move``), or every problem with either; the boards read as written are added to
    ``encodings``, for :func:`verdict_to_proto`."""
    reader = _Reader(encodings)
    state = reader.state(state_message, ("state",))
    move = reader.move(move_message, ("move",))
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)]
                + [p.under("move") for p in dfm.check_move(move, len(state.players))])
    return state, move


def log_from_proto(setup_message: game_pb2.Setup, move_messages: Sequence[game_pb2.Move]
                   ) -> tuple[dfm.Setup, list[dfm.Move]]:
    """A game's log (the request's ``setup`` and ``moves``), or every problem in it.

    Every move's shape is checked up front, so a malformed move is refused even when an
    earlier illegal move would stop the replay before it.
    """
    reader = _Reader()
    setup = reader.setup(setup_message, ("setup",))
    moves = [reader.move(m, ("moves", i)) for i, m in enumerate(move_messages)]
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)]
                + [p.under("moves", i) for i, move in enumerate(moves)
                   for p in dfm.check_move(move, len(setup.players))])
    return setup, moves


def _ingredients_to_proto(ingredients: Sequence[dfm.Ingredient]
                          ) -> list[board_pb2.Ingredient.ValueType]:
    return [_INGREDIENT_TO_PROTO[i] for i in ingredients]


def _write_tile(tile: dfm.FoodTile, message: board_pb2.FoodTile) -> None:
    message.SetInParent()  # a tile of no ingredients is a tile still
    message.ingredients.extend(_ingredients_to_proto(tile.ingredients))


def _write_challenge(challenge: dfm.Challenge, message: board_pb2.Challenge) -> None:
    message.points = challenge.points
    body = getattr(message, challenge.kind)
    body.SetInParent()  # one_of_each has no fields: setting the oneof says which it is
    match challenge:
        case dfm.ExactCount(counts=counts):
            for ingredient, n in counts:
                body.counts.add(ingredient=_INGREDIENT_TO_PROTO[ingredient], count=n)
        case dfm.Forbidden(ingredients=ingredients):
            body.ingredients.extend(_ingredients_to_proto(ingredients))
        case dfm.ExactCountAny(count=count) | dfm.ExactTotal(count=count):
            body.count = count
        case dfm.Majority(ingredient=ingredient):
            body.ingredient = _INGREDIENT_TO_PROTO[ingredient]
        case dfm.PerSet(sets=sets):
            for shown in sets:
                body.sets.add(ingredients=_ingredients_to_proto(shown))


def _board_to_wire(board: dfm.Board) -> bytes:
    """A board's encoding: each challenge's field looked up (:func:`_challenge_field`),
    each row's joined from its spaces' (:data:`_WIRE_OF_SPACE`)."""
    try:
        rows = [b"".join([_WIRE_OF_SPACE[None if space is None else space.ingredients]
                          for space in row]) for row in board.grid]
    except KeyError:  # a tile of no or over three ingredients (in no state the rules accept)
        rows = [b"".join([_space_to_wire(space) for space in row]) for row in board.grid]
    return b"".join([
        wire.number(_BOARD_MODE, _MODE_TO_PROTO[board.mode]),
        *[_challenge_field(_ROW_CHALLENGE_KEY, challenge) for challenge in board.row_challenges],
        *[_challenge_field(_COLUMN_CHALLENGE_KEY, challenge)
          for challenge in board.column_challenges],
        *[wire.part(_GRID_ROW_KEY, row) for row in rows]])


@lru_cache(maxsize=4096)
def _challenge_field(side: bytes, challenge: dfm.Challenge) -> bytes:
    """A challenge's field in a board's ``side`` (its key), written once: boards keep
    showing the same challenge tiles (and a challenge is an immutable value)."""
    return wire.part(side, _challenge_to_wire(challenge))


def _challenge_to_wire(challenge: dfm.Challenge) -> bytes:
    message = board_pb2.Challenge()
    _write_challenge(challenge, message)
    return message.SerializeToString()


def _space_to_wire(space: dfm.Space) -> bytes:
    """A grid space's encoding in a row, as :data:`_SPACE_IN_ROW` holds it."""
    if space is None:
        return _WIRE_OF_SPACE[None]
    data = _WIRE_OF_SPACE.get(space.ingredients)
    if data is None:  # a tile of no or over three ingredients (in no state the rules accept)
        row = board_pb2.GridRow()
        _write_tile(space, row.spaces.add().tile)
        data = row.SerializeToString()
    return data


def _tile_to_wire(tile: dfm.FoodTile) -> bytes:
    """A Food tile's encoding, looked up in :data:`_WIRE_OF_TILE` (a tile of no or over
    three ingredients, in no state the rules accept, is written field by field)."""
    data = _WIRE_OF_TILE.get(tile.ingredients)
    if data is None:
        message = board_pb2.FoodTile()
        _write_tile(tile, message)
        data = message.SerializeToString()
    return data


def _state_to_wire(state: dfm.GameState, encodings: Encodings | None = None) -> bytes:
    """A state's encoding, its boards and tiles written as their encodings (a board among
    ``encodings`` as it came)."""
    return b"".join([
        wire.number(_RULES_VERSION, state.rules_version),
        wire.number(_STATE_MODE, _MODE_TO_PROTO[state.mode]),
        *[wire.part(_PLAYERS, wire.text(_PLAYER_NAME, player.name)
                    + wire.part(_PLAYER_BOARD, _written(player.board, encodings)))
          for player in state.players],
        *[wire.part(_FACE_UP, _tile_to_wire(tile)) for tile in state.face_up],
        wire.number(_PILE_COUNT, state.pile_count),
        *[wire.part(_DISCARDS, _tile_to_wire(tile)) for tile in state.discards],
        wire.number(_ROUND, state.round),
        wire.number(_FIRST_PLAYER, state.first_player),
        wire.number(_CURRENT_PLAYER, state.current_player),
        wire.number(_EXPECTED, _ACTION_TO_PROTO[state.expected]),
        wire.number(_GAME_OVER, state.game_over),
        wire.number(_REVEAL_COUNT, state.reveal_count)])


def _written(board: dfm.Board, encodings: Encodings | None) -> bytes:
    """``board``'s encoding: as it was read, if it is among ``encodings``."""
    if encodings:
        kept = encodings.get(id(board))
        if kept is not None and kept[0] is board:
            return kept[1]
    return _board_to_wire(board)


def state_to_proto(state: dfm.GameState, message: game_pb2.GameState | None = None,
                   encodings: Encodings | None = None) -> game_pb2.GameState:
    """``state`` written into ``message`` (an answer's field, so nothing is copied), or
    into a new message: its encoding is written (:func:`_state_to_wire`; a board of the
    request, among ``encodings``, as it came) and parsed in one call, which is many times
    faster than setting a few hundred fields one by one."""
    if message is None:
        message = game_pb2.GameState()
    message.MergeFromString(_state_to_wire(state, encodings))
    return message


def _move_to_wire(move: dfm.Move) -> bytes:
    """A move's encoding (a ``Move`` message's); a take's numbers and tile, as a legal
    one holds them, are looked up."""
    if isinstance(move, dfm.TakeTile):
        try:
            body = (_TAKE_PLAYER_FIELDS[move.player] + _TILE_IN_TAKE[move.tile.ingredients]
                    + _TAKE_ROW_FIELDS[move.row] + _TAKE_COL_FIELDS[move.col])
        except KeyError:  # a number over 127 or below 0, or an odd tile: in no legal take
            body = b"".join([wire.number(_TAKE_PLAYER, move.player),
                             wire.part(_TAKE_TILE, _tile_to_wire(move.tile)),
                             wire.number(_TAKE_ROW, move.row), wire.number(_TAKE_COL, move.col)])
        return wire.part(_TAKE, body)
    if isinstance(move, dfm.DiscardTile):
        return wire.part(_DISCARD, wire.number(_DISCARD_PLAYER, move.player)
                         + wire.part(_DISCARD_TILE, _tile_to_wire(move.tile)))
    return wire.part(_REVEAL, b"".join([wire.part(_REVEAL_TILES, _tile_to_wire(tile))
                                        for tile in move.tiles]))


def move_to_proto(move: dfm.Move, message: game_pb2.Move | None = None) -> game_pb2.Move:
    """``move`` written into ``message`` (an answer's field, so nothing is copied), or
    into a new message."""
    if message is None:
        message = game_pb2.Move()
    message.MergeFromString(_move_to_wire(move))
    return message


def turn_to_proto(state: dfm.GameState) -> game_pb2.Turn:
    """Who acts next in ``state``, what the game waits for, and at a reveal how many tiles."""
    turn = dfm.GAME.turn(state)
    message = game_pb2.Turn(expected=game_pb2.Action.ValueType(_ACTION_TO_PROTO[state.expected]),
                            reveal_count=state.reveal_count)
    if turn.player is not None:
        message.player = turn.player
    return message


def legal_moves_to_proto(state: dfm.GameState, moves: Sequence[dfm.Move]
                         ) -> service_pb2.ListLegalMovesResponse:
    """The answer listing ``moves`` and the turn of ``state``: its encoding written (each
    move's, :func:`_move_to_wire`) and parsed at once."""
    return service_pb2.ListLegalMovesResponse.FromString(
        b"".join([wire.part(_MOVES, _move_to_wire(move)) for move in moves])
        + wire.part(_TURN, turn_to_proto(state).SerializeToString()))


def violations_to_proto(violations: Sequence[dfm.Violation], move_path: Path
                        ) -> list[game_pb2.Violation]:
    """``move_path`` is where the move sits in the request (``("move",)``, ``("moves", 7)``)."""
    return [game_pb2.Violation(reason=v.reason.value, rule=v.rule, message=v.message,
                               pointer=json_pointer((*move_path, *v.path)),
                               **sentence_fields(v.message))
            for v in violations]


def verdict_to_proto(verdict: dfm.Verdict, encodings: Encodings | None = None
                     ) -> service_pb2.ValidateMoveResponse:
    """The answer to a move; the boards the next state shares with the request (every one
    the move leaves alone), written back as they came when among ``encodings``."""
    answer = service_pb2.ValidateMoveResponse(
        legal=verdict.legal, violations=violations_to_proto(verdict.violations, ("move",)))
    if verdict.next_state is not None:
        state_to_proto(verdict.next_state, answer.next_state, encodings)
    return answer


def replay_to_proto(result: dfm.ReplayResult) -> service_pb2.ReplayGameResponse:
    answer = service_pb2.ReplayGameResponse(legal=result.legal)
    state_to_proto(result.state, answer.state)
    if result.illegal_index is not None:
        answer.illegal_index = result.illegal_index
        answer.violations.extend(violations_to_proto(result.violations,
                                                     ("moves", result.illegal_index)))
    if result.ranking is not None:
        answer.standings.extend(standings_to_proto(result.ranking))
        answer.winners.extend(result.ranking.winners)
        by_name = {s.name: s.score for s in result.ranking.standings}
        for player in result.state.players:
            board_score_to_proto(by_name[player.name], answer.scores.add())
    return answer


(_SCORE_MODE, _SCORE_TOTAL, _SCORE_COMPLETE, _SCORE_MET, _SCORE_BEST, _SCORE_ROWS,
 _SCORE_COLUMNS, _SCORE_RULES_VERSION) = (
    wire.key(scoring_pb2.BoardScore.DESCRIPTOR, name)
    for name in ("mode", "total", "complete", "challenges_met", "best_challenge_points",
                 "rows", "columns", "rules_version"))
(_LINE_INDEX, _LINE_MET, _LINE_POINTS, _LINE_EXPLANATION, _LINE_RULE, _LINE_CODE,
 _LINE_PARAMS, _LINE_CELLS, _LINE_CHOSEN, _LINE_MAJORITY, _LINE_SETS) = (
    wire.key(scoring_pb2.LineScore.DESCRIPTOR, name)
    for name in ("index", "met", "points", "explanation", "rule", "code", "params", "cells",
                 "chosen_ingredient", "majority_ingredient", "sets_formed"))
_CELL_ROW, _CELL_COL, _CELL_INGREDIENTS = (wire.key(scoring_pb2.CountedCell.DESCRIPTOR, name)
                                           for name in ("row", "col", "ingredients"))
_SET_INGREDIENTS = wire.key(board_pb2.IngredientSet.DESCRIPTOR, "ingredients")
_LINE_INDEX_FIELDS, _CELL_ROW_FIELDS, _CELL_COL_FIELDS = (
    wire.numbers(key) for key in (_LINE_INDEX, _CELL_ROW, _CELL_COL))
_INGREDIENTS_FIELD = {
    ingredients: wire.part(_CELL_INGREDIENTS,
                           bytes([_INGREDIENT_TO_PROTO[i] for i in ingredients]))
    for size in range(1, MAX_TILE_INGREDIENTS + 1)
    for ingredients in product(dfm.INGREDIENTS, repeat=size)}
"""A counted cell's ingredients field, for each list of up to three (a tile's most): a
packed list of enum numbers, each one byte."""
_CELL_FIELDS = {
    (row, col, ingredients): wire.part(_LINE_CELLS, _CELL_ROW_FIELDS[row]
                                       + _CELL_COL_FIELDS[col] + field)
    for row in range(dfm.GRID_SIZE) for col in range(dfm.GRID_SIZE)
    for ingredients, field in _INGREDIENTS_FIELD.items()}
"""Each cell of a board that a line can count, as a ``cells`` field (a counted cell is the
(row, col, ingredients) tuple it is keyed by)."""
_LINE_POINTS_FIELDS = wire.numbers(_LINE_POINTS)
_LINE_MET_FIELD = wire.number(_LINE_MET, True)
_LINE_CHOSEN_FIELDS, _LINE_MAJORITY_FIELDS = (
    {i: wire.number(key, _INGREDIENT_TO_PROTO[i]) for i in dfm.INGREDIENTS}
    for key in (_LINE_CHOSEN, _LINE_MAJORITY))


def board_score_to_proto(score: dfm.BoardScore, message: scoring_pb2.BoardScore) -> None:
    """Write ``score`` into ``message``, an answer's field (so nothing is copied): its
    encoding is written (:func:`_board_score_to_wire`) and parsed in one call."""
    message.MergeFromString(_board_score_to_wire(score))


def _board_score_to_wire(score: dfm.BoardScore) -> bytes:
    """A board score's encoding: each line's index and counted cells written, around the
    parts its verdict writes (:func:`_verdict_to_wire`, once per verdict)."""
    return b"".join([
        wire.number(_SCORE_MODE, _MODE_TO_PROTO[score.mode]),
        wire.number(_SCORE_TOTAL, score.total),
        wire.number(_SCORE_COMPLETE, score.complete),
        wire.number(_SCORE_MET, score.challenges_met),
        wire.number(_SCORE_BEST, score.best_challenge_points),
        *[wire.part(_SCORE_ROWS, _line_to_wire(line)) for line in score.rows],
        *[wire.part(_SCORE_COLUMNS, _line_to_wire(line)) for line in score.columns],
        wire.number(_SCORE_RULES_VERSION, dfm.RULES_VERSION)])


def _line_to_wire(line: dfm.LineScore) -> bytes:
    head, tail = _verdict_to_wire(line.verdict)
    index = _LINE_INDEX_FIELDS.get(line.index)
    if index is None:
        index = wire.number(_LINE_INDEX, line.index)
    return b"".join([index, head, *map(_cell_to_wire, line.cells), tail])



def _cell_to_wire(cell: dfm.CountedCell) -> bytes:
    """A counted cell as a ``cells`` field: looked up for a 4x4 board's cells."""
    data = _CELL_FIELDS.get(cell)
    if data is None:  # a tile of more than three ingredients, or off the board: in no score
        ingredients = b"".join([wire.varint(_INGREDIENT_TO_PROTO[i]) for i in cell.ingredients])
        data = wire.part(_LINE_CELLS, wire.number(_CELL_ROW, cell.row)
                         + wire.number(_CELL_COL, cell.col)
                         + wire.part(_CELL_INGREDIENTS, ingredients))
    return data


def _verdict_to_wire(verdict: dfm.LineVerdict) -> tuple[bytes, bytes]:
    """A verdict's fields of its ``LineScore``, before the cells (met to params:
    :func:`_head`) and after them (the ingredient chosen, the majority found, the
    sets formed): written once for each verdict and kept in its ``memo``, as the rules
    remember verdicts (a verdict seen again is the same object)."""
    known: tuple[bytes, bytes] | None = verdict.memo
    if known is not None:
        return known
    said = verdict.said
    # Only a Wording is remembered by what it says: words equal as text may differ in code.
    write_head = _remembered_head if isinstance(said, Wording) else _head
    head = write_head(said, verdict.met, verdict.points, verdict.rule)
    chosen, majority, made = verdict.chosen, verdict.majority, verdict.sets
    tail = b"".join([
        b"" if chosen is None else _LINE_CHOSEN_FIELDS[chosen],
        b"" if majority is None else _LINE_MAJORITY_FIELDS[majority],
        *[_set_field(one) for one in made]]
    ) if chosen is not None or majority is not None or made else b""
    verdict.memo = head, tail
    return head, tail


def _head(said: str | Wording, met: bool, points: int, rule: str) -> bytes:
    """A verdict's met, points, explanation, rule, code and params fields."""
    if isinstance(said, Wording):  # the words, code and params, with no Sentence made
        text, code, params = said.text(), said.code, said.params
    else:
        text, code, params = said, code_of(said), getattr(said, "params", {})
    points_field = _LINE_POINTS_FIELDS.get(points)
    if points_field is None:
        points_field = wire.number(_LINE_POINTS, points)
    return b"".join([
        _LINE_MET_FIELD if met else b"", points_field, wire.text(_LINE_EXPLANATION, text),
        _rule_and_code(rule, code), params_to_wire(_LINE_PARAMS, params)])


_remembered_head = lru_cache(maxsize=8192)(_head)
""":func:`_head`, written once for the words said, which many verdicts share (a per_set
line's verdict is its own, for the sets it formed, but its words are those of every line
forming as many)."""


@lru_cache(maxsize=256)
def _rule_and_code(rule: str, code: str) -> bytes:
    return wire.text(_LINE_RULE, rule) + wire.text(_LINE_CODE, code)


@lru_cache(maxsize=1024)
def _set_field(made: tuple[dfm.Ingredient, ...]) -> bytes:
    """A set formed, as a ``sets_formed`` field."""
    return wire.part(_LINE_SETS, wire.part(_SET_INGREDIENTS, bytes(
        [_INGREDIENT_TO_PROTO[i] for i in made])) if made else b"")


def readings_to_proto(readings: Readings, message: scoring_pb2.BoardUncertainty) -> None:
    """Write ``readings`` into ``message``, an answer's field (so nothing is copied)."""
    message.readings = readings.count
    message.lowest_total = readings.lowest_total
    message.highest_total = readings.highest_total
    message.likely_total = readings.likely_total
    for cell in readings.cells:
        message.spaces.add(row=cell.row, col=cell.col, pointer=json_pointer(cell.path),
                           decides=cell.decides, totals=cell.totals)


def standings_to_proto(ranking: dfm.Ranking) -> list[scoring_pb2.Standing]:
    return [scoring_pb2.Standing(name=s.name, total=s.score.total,
                                 challenges_met=s.score.challenges_met,
                                 best_challenge_points=s.score.best_challenge_points,
                                 place=s.place) for s in ranking.standings]


def challenge_types_to_proto(types: Sequence[ChallengeType]
                             ) -> service_pb2.ListChallengeTypesResponse:
    """The challenge types, the ingredients their parameters name, and the rules' version."""
    return service_pb2.ListChallengeTypesResponse(
        challenge_types=[challenge_types_pb2.ChallengeType(
            type=t.type, rule=t.rule, description=t.description,
            parameters=[challenge_types_pb2.ChallengeParameter(
                name=p.name, description=p.description, values=_values_to_proto(p.values))
                for p in t.parameters]) for t in types],
        ingredients=_ingredients_to_proto(dfm.INGREDIENTS), rules_version=dfm.RULES_VERSION)


def _values_to_proto(values: Values) -> challenge_types_pb2.ParameterValues:
    bounds = {name: getattr(values, name) for name in ("minimum", "maximum", "min_items",
                                                       "max_items")
              if getattr(values, name) is not None}
    return challenge_types_pb2.ParameterValues(
        kind=challenge_types_pb2.ValueKind.Value(f"VALUE_KIND_{values.kind.upper()}"),
        unique_items=values.unique,
        items=_values_to_proto(values.items) if values.items else None, **bounds)
