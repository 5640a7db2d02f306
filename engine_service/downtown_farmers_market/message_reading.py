"""Reading Downtown Farmers Market's request messages into rule values.

Reading a message on the shared collecting reader (:mod:`engine_service.reading`) collects
every problem (unset or unknown enum values, a challenge or move with no type) with its
path in the contract's JSON form, then the rules' own validation adds what is wrong with
the board, state, setup or move as a whole, so the rules are only ever called on input
they accept.

The requests most calls make are read from their bytes first (:mod:`.byte_reading`);
this reader reads the rest, and what the byte reader gives up on, field by field. The
``checked_*`` functions are the checks after reading that both readers share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

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
from tabletop_rules.downtown_farmers_market.json_form import NOT_A_MODE, NOT_AN_INGREDIENT
from tabletop_rules.downtown_farmers_market.moves import NO_MOVE_ACTION
from tabletop_rules.downtown_farmers_market.validation import NO_CHALLENGE_TYPE
from tabletop_rules.problems import Path, Problem, not_one_of

from ..reading import Reader
from .encodings import (
    ACTION_FROM_PROTO,
    INGREDIENT_FROM_PROTO,
    MODE_FROM_PROTO,
)

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
    """Reads messages into rule values, noting problems instead of stopping at the first.

    What cannot be read stands in as a placeholder the rules' checks find nothing wrong
    with (an unknown ingredient as bread, a challenge whose type or ingredients cannot be
    read as one with its points only), so those checks still judge the rest; where a
    placeholder could mislead them (an unknown mode: how many challenges a board has),
    the paths they must not judge are noted in :attr:`unjudged` (a doubtful space one of
    whose candidates cannot be read: whether its candidates repeat one another)."""

    def __init__(self) -> None:
        super().__init__()
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
        a board being scored), holding its likeliest candidate on the board."""
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
    return checked_transcription(reader, board, tuple(doubts), path)


def checked_transcription(reader: MessageReader, board: dfm.Board,
                          doubts: tuple[DoubtfulCell, ...], path: Path
                          ) -> tuple[dfm.Board, tuple[DoubtfulCell, ...]]:
    reader.done(lambda: reader.judged(check_readings(board, doubts), path), partial=True)
    return board, doubts


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
    return checked_state(reader, reader.state(message, ("state",)))


def checked_state(reader: Reader, state: dfm.GameState) -> dfm.GameState:
    reader.done(lambda: [p.under("state") for p in dfm.check_state(state)])
    return state


def state_and_move_from_proto(state_message: game_pb2.GameState, move_message: game_pb2.Move
                              ) -> tuple[dfm.GameState, dfm.Move]:
    """A valid state and a well-formed move to judge in it (the request's ``state`` and
    ``move``), or every problem with either."""
    reader = MessageReader()
    state = reader.state(state_message, ("state",))
    return checked_state_and_move(reader, state, reader.move(move_message, ("move",)))


def checked_state_and_move(reader: Reader, state: dfm.GameState, move: dfm.Move
                           ) -> tuple[dfm.GameState, dfm.Move]:
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
