"""Reading Downtown Farmers Market's request messages into rule values.

Reading a message on the shared collecting reader (:mod:`engine_service.reading`) collects
every problem (unset or unknown enum values, a challenge or move with no type) with its
path in the contract's JSON form, then the rules' own validation adds what is wrong with
the board, state, setup or move as a whole, so the rules are only ever called on input
they accept.

Boards and Food tiles are first read straight from their encoding, which is many times
faster than walking their fields: a tile, a grid space or a challenge is looked up by its
bytes (:mod:`.encodings`). That fast path reads only what the reader would read without a
problem, into the same values; at anything else it gives up, and the reader reads the
message field by field, naming every problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from google.protobuf.internal.containers import RepeatedScalarFieldContainer
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.readings import (
    ONLY_SCORED,
    TILE_OR_CANDIDATES,
    DoubtfulCell,
    check_readings,
)
from tabletop_rules.downtown_farmers_market.moves import NO_MOVE_ACTION
from tabletop_rules.downtown_farmers_market.validation import NO_CHALLENGE_TYPE
from tabletop_rules.problems import Path, Problem, not_one_of

from ..reading import Reader
from .board_writing import challenge_to_wire
from .encodings import (
    ACTION_FROM_PROTO,
    COLUMN_CHALLENGE_TAG,
    GRID_ROW_TAG,
    INGREDIENT_FROM_PROTO,
    MODE_FROM_PROTO,
    MODE_TAG,
    ROW_CHALLENGE_TAG,
    SPACE_IN_ROW,
    TILE_BY_WIRE,
    Encodings,
)

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


class MessageReader(Reader):
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
        return self.enum(value, INGREDIENT_FROM_PROTO, dfm.Ingredient.BREAD, path,
                         NOT_AN_INGREDIENT, _INGREDIENT_VALUES, _INGREDIENT_ENUM)

    def ingredients(self, values: RepeatedScalarFieldContainer[int] | Sequence[int],
                    path: Path) -> tuple[dfm.Ingredient, ...]:
        known = tuple([i for i in map(INGREDIENT_FROM_PROTO.get, values) if i is not None])
        if len(known) == len(values):  # each a known ingredient: no problem, no path to name
            return known
        return tuple(self.ingredient(v, (*path, i)) for i, v in enumerate(values))

    def tile(self, message: board_pb2.FoodTile, path: Path) -> dfm.FoodTile:
        tile = TILE_BY_WIRE.get(message.SerializeToString())
        if tile is not None:
            return tile
        return dfm.FoodTile(self.ingredients(message.ingredients, path))

    def tiles(self, messages: Sequence[board_pb2.FoodTile], path: Path
              ) -> tuple[dfm.FoodTile, ...]:
        return tuple(self.tile(m, (*path, i)) for i, m in enumerate(messages))

    def mode(self, value: int, path: Path) -> dfm.Mode:
        return self.enum(value, MODE_FROM_PROTO, dfm.Mode.STANDARD, path, NOT_A_MODE,
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
        read = board_from_wire(data)
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
        return self.enum(value, ACTION_FROM_PROTO, None, path, NOT_AN_ACTION, _ACTION_VALUES,
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


def board_from_wire(data: bytes) -> tuple[dfm.Board, bool] | None:
    """The board ``data`` encodes, if it is one that :meth:`MessageReader.board` reads without a
    problem, and whether ``data`` is what :func:`board_to_wire` writes for it (a
    canonical encoding whose mode is set and whose challenges are each as written);
    otherwise None. A board's encoding is its fields in turn, each a one-byte tag then,
    for the mode, its one-byte number, for a challenge or a grid row, a one-byte length
    and the part; a longer number or length, or another field, is for the reader. A grid
    row's spaces are each looked up in :data:`SPACE_IN_ROW` where they lie."""
    mode: dfm.Mode | None = dfm.Mode.STANDARD  # an unset mode is standard
    row_challenges: list[dfm.Challenge] = []
    column_challenges: list[dfm.Challenge] = []
    grid = []
    as_written = False
    spaces = SPACE_IN_ROW
    at, end = 0, len(data)
    while at + 1 < end:
        tag, size = data[at], data[at + 1]
        if (tag | size) & 0x80:
            return None
        if tag == MODE_TAG:
            mode = MODE_FROM_PROTO.get(size)
            as_written = at == 0  # written first, as the canonical encoding has it
            at += 2
            continue
        start = at + 2
        at = start + size
        if at > end:
            return None
        if tag == GRID_ROW_TAG:
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
        elif tag == ROW_CHALLENGE_TAG or tag == COLUMN_CHALLENGE_TAG:
            read = _challenge_from_wire(data[start:at])
            if read is None:
                return None
            (row_challenges if tag == ROW_CHALLENGE_TAG else column_challenges).append(read[0])
            as_written = as_written and read[1]
        else:
            return None
    if mode is None or at != end:
        return None
    return dfm.Board(tuple(grid), tuple(row_challenges), tuple(column_challenges),
                     mode), as_written


_NOT_A_SPACE: Any = object()
"""What :data:`SPACE_IN_ROW` gives for bytes that are no space it knows (None is the
empty space)."""


@lru_cache(maxsize=4096)
def _challenge_from_wire(data: bytes) -> tuple[dfm.Challenge, bool] | None:
    """The challenge ``data`` encodes and whether ``data`` is its encoding as written
    (:func:`challenge_to_wire`), None if the reader finds a problem with it: read once,
    as boards keep showing the same challenge tiles."""
    reader = MessageReader()
    challenge = reader.challenge(board_pb2.Challenge.FromString(data), ())
    if reader.problems or challenge is None:
        return None
    return challenge, data == challenge_to_wire(challenge)


def board_from_proto(message: board_pb2.Board, path: Path = ()) -> dfm.Board:
    """A well-formed board, or :class:`InvalidInputError` listing every problem: what
    the wire gets wrong and what the rules find wrong with the rest, at once."""
    reader = MessageReader()
    board = reader.board(message, path)
    reader.done(lambda: reader.judged(dfm.check_board(board), path), partial=True)
    return board


def transcription_from_proto(message: board_pb2.Board, path: Path = ()
                             ) -> tuple[dfm.Board, tuple[DoubtfulCell, ...]]:
    """A board to score and its doubtful spaces, each holding its likeliest candidate on
    the board (:func:`.check_readings`), or every problem with them at once."""
    reader = MessageReader()
    doubts: list[DoubtfulCell] = []
    board = reader.board(message, path, doubts)
    reader.done(lambda: reader.judged(check_readings(board, doubts), path), partial=True)
    return board, tuple(doubts)


def players_from_proto(messages: Sequence[scoring_pb2.PlayerBoard]
                       ) -> list[tuple[str, dfm.Board]]:
    """Named boards to rank (the request's ``players``), or every problem reading them;
    :func:`~tabletop_rules.downtown_farmers_market.rank_boards` checks them as a whole."""
    reader = MessageReader()
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
    reader = MessageReader()
    setup = reader.setup(message, ("setup",))
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)])
    return setup


def state_from_proto(message: game_pb2.GameState) -> dfm.GameState:
    """A state play can go on from (the request's ``state``), or every problem."""
    reader = MessageReader()
    state = reader.state(message, ("state",))
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)])
    return state


def state_and_move_from_proto(state_message: game_pb2.GameState, move_message: game_pb2.Move,
                              encodings: Encodings | None = None
                              ) -> tuple[dfm.GameState, dfm.Move]:
    """A valid state and a well-formed move to judge in it (the request's ``state`` and
    ``move``), or every problem with either; the boards read as written are added to
    ``encodings``, for :func:`verdict_to_proto`."""
    reader = MessageReader(encodings)
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
    reader = MessageReader()
    setup = reader.setup(setup_message, ("setup",))
    moves = [reader.move(m, ("moves", i)) for i, m in enumerate(move_messages)]
    reader.done(lambda: [p.under("setup") for p in dfm.check_setup(setup)]
                + [p.under("moves", i) for i, move in enumerate(moves)
                   for p in dfm.check_move(move, len(setup.players))])
    return setup, moves
