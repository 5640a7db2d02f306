"""Reading the requests most calls make straight from their bytes: a board to score, boards
to rank, a state to list the legal moves of, a state and a move to judge.

Walking a parsed message's fields from Python costs a call into protobuf per field;
reading a request's encoding here, its tiles, grid spaces and challenges looked up by
their bytes (:mod:`.encodings`), makes the whole call about twice as fast
(``docs/performance.md``, "One codec per direction"). Such a request is read once, here,
and protobuf does not parse it. These readers read only what the collecting reader
(:mod:`.message_reading`) reads without a problem, into the same values, then run the
same checks; at anything else (an unknown field, a number out of range, a doubtful
space, an encoding another writer chose) they give up, and protobuf parses the request,
once, for the collecting reader to read field by field, naming every problem.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from google.protobuf.descriptor import Descriptor

from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.downtown_farmers_market.readings import DoubtfulCell

from .. import wire
from .board_writing import challenge_to_wire
from .encodings import (
    ACTION_FROM_PROTO,
    COLUMN_CHALLENGE_TAG,
    GRID_ROW_TAG,
    MODE_FROM_PROTO,
    MODE_TAG,
    ROW_CHALLENGE_TAG,
    SPACE_IN_ROW,
    TILE_BY_WIRE,
    Encodings,
)
from .message_reading import (
    MessageReader,
    checked_state,
    checked_state_and_move,
    checked_transcription,
    players_from_proto,
    state_and_move_from_proto,
    state_from_proto,
    transcription_from_proto,
)


def _numbers(message: Descriptor, *names: str) -> tuple[int, ...]:
    return tuple(message.fields_by_name[name].number for name in names)


(_RULES_VERSION, _MODE, _PLAYERS, _FACE_UP, _PILE_COUNT, _DISCARDS, _ROUND, _FIRST_PLAYER,
 _CURRENT_PLAYER, _EXPECTED, _GAME_OVER, _REVEAL_COUNT) = _numbers(
    game_pb2.GameState.DESCRIPTOR, "rules_version", "mode", "players", "face_up",
    "pile_count", "discards", "round", "first_player", "current_player", "expected",
    "game_over", "reveal_count")
_PLAYER_NAME, _PLAYER_BOARD = _numbers(game_pb2.Player.DESCRIPTOR, "name", "board")
_RANKED_NAME, _RANKED_BOARD = _numbers(scoring_pb2.PlayerBoard.DESCRIPTOR, "name", "board")
_TAKE, _DISCARD, _REVEAL = _numbers(game_pb2.Move.DESCRIPTOR, "take", "discard", "reveal")
_TAKE_PLAYER, _TAKE_TILE, _TAKE_ROW, _TAKE_COL = _numbers(
    game_pb2.TakeTile.DESCRIPTOR, "player", "tile", "row", "col")
_DISCARD_PLAYER, _DISCARD_TILE = _numbers(game_pb2.DiscardTile.DESCRIPTOR, "player", "tile")
(_REVEAL_TILES,) = _numbers(game_pb2.RevealTiles.DESCRIPTOR, "tiles")
(_SCORED_BOARD,) = _numbers(service_pb2.ScoreBoardRequest.DESCRIPTOR, "board")
(_RANKED_PLAYERS,) = _numbers(service_pb2.RankPlayersRequest.DESCRIPTOR, "players")
(_LISTED_STATE,) = _numbers(service_pb2.ListLegalMovesRequest.DESCRIPTOR, "state")
_JUDGED_STATE, _JUDGED_MOVE = _numbers(service_pb2.ValidateMoveRequest.DESCRIPTOR,
                                       "state", "move")
_OUTPUT_ONLY = (_GAME_OVER, _REVEAL_COUNT)
"""A state's fields that an answer writes and a reader ignores."""


# -- the requests ---------------------------------------------------------------------------

def score_board_request(data: bytes) -> tuple[dfm.Board, tuple[DoubtfulCell, ...]]:
    """The request's board and its doubtful spaces (a board read from its bytes has
    none), or every problem with them."""
    fields = wire.fields(data)
    if fields is not None and len(fields) == 1 and fields[0][0] == _SCORED_BOARD:
        read = _board_of(fields[0][1])
        if read is not None:
            return checked_transcription(MessageReader(), read[0], (), ("board",))
    return transcription_from_proto(_parsed(service_pb2.ScoreBoardRequest, data).board,
                                    ("board",))


def rank_players_request(data: bytes) -> list[tuple[str, dfm.Board]]:
    """The request's named boards (see :func:`.players_from_proto`)."""
    fields = wire.fields(data)
    players = [] if fields is None else [
        _named_board(value, _RANKED_NAME, _RANKED_BOARD, None)
        for number, value in fields if number == _RANKED_PLAYERS]
    if fields is None or len(players) != len(fields) or None in players:
        return players_from_proto(_parsed(service_pb2.RankPlayersRequest, data).players)
    return [player for player in players if player is not None]


def legal_moves_request(data: bytes) -> dfm.GameState:
    """The request's state, one play can go on from, or every problem with it."""
    fields = wire.fields(data)
    if fields is not None and len(fields) == 1 and fields[0][0] == _LISTED_STATE:
        state = _state_of(fields[0][1], None)
        if state is not None:
            return checked_state(MessageReader(), state)
    return state_from_proto(_parsed(service_pb2.ListLegalMovesRequest, data).state)


def validate_move_request(data: bytes, encodings: Encodings) -> tuple[dfm.GameState, dfm.Move]:
    """The request's state and move, or every problem with either; each board read as
    it is written is kept in ``encodings``, so an answer sharing it writes it as it came."""
    fields = wire.fields(data)
    if fields is not None and [number for number, _ in fields] == [_JUDGED_STATE, _JUDGED_MOVE]:
        state = _state_of(fields[0][1], encodings)
        move = None if state is None else _move_of(fields[1][1])
        if state is not None and move is not None:
            return checked_state_and_move(MessageReader(), state, move)
    encodings.clear()
    request = _parsed(service_pb2.ValidateMoveRequest, data)
    return state_and_move_from_proto(request.state, request.move)


def _parsed(message: Any, data: bytes) -> Any:
    """``data`` parsed by protobuf (a :class:`DecodeError` is the caller's refusal)."""
    return message.FromString(data)


# -- the messages in them --------------------------------------------------------------------

def _state_of(value: int | bytes, encodings: Encodings | None) -> dfm.GameState | None:
    """A state, read as :meth:`.MessageReader.state` reads it; None to leave it to protobuf."""
    fields = wire.fields(value) if isinstance(value, bytes) else None
    if fields is None:
        return None
    numbers = {_RULES_VERSION: 0, _PILE_COUNT: 0, _ROUND: 0, _FIRST_PLAYER: 0,
               _CURRENT_PLAYER: 0, _MODE: 0, _EXPECTED: 0}
    players: list[dfm.Player] = []
    face_up: list[dfm.FoodTile] = []
    discards: list[dfm.FoodTile] = []
    for number, part in fields:
        if isinstance(part, int):
            if number in numbers:
                numbers[number] = part
            elif number not in _OUTPUT_ONLY:
                return None
        elif number == _PLAYERS:
            player = _named_board(part, _PLAYER_NAME, _PLAYER_BOARD, encodings)
            if player is None:
                return None
            players.append(dfm.Player(*player))
        elif number == _FACE_UP or number == _DISCARDS:
            tile = TILE_BY_WIRE.get(part)
            if tile is None:
                return None
            (face_up if number == _FACE_UP else discards).append(tile)
        else:
            return None
    mode = MODE_FROM_PROTO.get(numbers[_MODE])
    if mode is None or numbers[_EXPECTED] not in ACTION_FROM_PROTO:
        return None
    return dfm.GameState(
        rules_version=numbers[_RULES_VERSION], mode=mode, players=tuple(players),
        face_up=tuple(face_up), pile_count=numbers[_PILE_COUNT], discards=tuple(discards),
        round=numbers[_ROUND], first_player=numbers[_FIRST_PLAYER],
        current_player=numbers[_CURRENT_PLAYER], expected=ACTION_FROM_PROTO[numbers[_EXPECTED]])


def _named_board(value: int | bytes, name_number: int, board_number: int,
                 encodings: Encodings | None) -> tuple[str, dfm.Board] | None:
    """A player's name and board (a game's ``Player``, a ranking's ``PlayerBoard``)."""
    fields = wire.fields(value) if isinstance(value, bytes) else None
    if fields is None:
        return None
    name, board = "", None
    for number, part in fields:
        if number == name_number and isinstance(part, bytes):
            try:
                name = part.decode()
            except UnicodeDecodeError:  # protobuf refuses it: the whole request is malformed
                return None
        elif number == board_number and board is None and isinstance(part, bytes):
            read = _board_of(part)
            if read is None:
                return None
            board = read[0]
            if read[1] and encodings is not None:
                encodings[id(board)] = (board, part)
        else:
            return None
    return None if board is None else (name, board)


def _move_of(value: int | bytes) -> dfm.Move | None:
    """A move, read as :meth:`.MessageReader.move` reads it; None to leave it to protobuf."""
    fields = wire.fields(value) if isinstance(value, bytes) else None
    if fields is None or len(fields) != 1 or not isinstance(fields[0][1], bytes):
        return None
    kind, body = fields[0]
    parts = wire.fields(body) if isinstance(body, bytes) else None
    if parts is None:
        return None
    numbers: dict[int, int] = {}
    tiles: list[dfm.FoodTile] = []
    for number, part in parts:
        if isinstance(part, int):
            numbers[number] = part
            continue
        tile = TILE_BY_WIRE.get(part)
        if tile is None:
            return None
        tiles.append(tile)
    if kind == _TAKE and numbers.keys() <= {_TAKE_PLAYER, _TAKE_ROW, _TAKE_COL} \
            and len(tiles) == 1 and _only_tiles_at(parts, _TAKE_TILE):
        return dfm.TakeTile(numbers.get(_TAKE_PLAYER, 0), tiles[0], numbers.get(_TAKE_ROW, 0),
                            numbers.get(_TAKE_COL, 0))
    if kind == _DISCARD and numbers.keys() <= {_DISCARD_PLAYER} and len(tiles) == 1 \
            and _only_tiles_at(parts, _DISCARD_TILE):
        return dfm.DiscardTile(numbers.get(_DISCARD_PLAYER, 0), tiles[0])
    if kind == _REVEAL and not numbers and _only_tiles_at(parts, _REVEAL_TILES):
        return dfm.RevealTiles(tuple(tiles))
    return None


def _only_tiles_at(parts: list[wire.Field], number: int) -> bool:
    """Whether every length-delimited part is field ``number`` (a tile)."""
    return all(n == number for n, part in parts if isinstance(part, bytes))


def _board_of(value: int | bytes) -> tuple[dfm.Board, bool] | None:
    return board_from_wire(value) if isinstance(value, bytes) else None


def board_from_wire(data: bytes) -> tuple[dfm.Board, bool] | None:
    """The board ``data`` encodes, if it is one that :meth:`.MessageReader.board` reads
    without a problem, and whether ``data`` is what :func:`.board_to_wire` writes for it
    (a canonical encoding whose mode is set and whose challenges are each as written);
    otherwise None. A board's encoding is its fields in turn, each a one-byte tag then,
    for the mode, its one-byte number, for a challenge or a grid row, a one-byte length
    and the part; a longer number or length, or another field, is for the reader. A grid
    row's spaces are each looked up in :data:`.SPACE_IN_ROW` where they lie."""
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
"""What :data:`.SPACE_IN_ROW` gives for bytes that are no space it knows (None is the
empty space)."""


@lru_cache(maxsize=4096)
def _challenge_from_wire(data: bytes) -> tuple[dfm.Challenge, bool] | None:
    """The challenge ``data`` encodes and whether ``data`` is its encoding as written
    (:func:`.challenge_to_wire`), None if the collecting reader finds a problem with it:
    parsed by protobuf and read once for each challenge tile's encoding, as boards keep
    showing the same challenge tiles (never again while it is remembered)."""
    reader = MessageReader()
    challenge = reader.challenge(board_pb2.Challenge.FromString(data), ())
    if reader.problems or challenge is None:
        return None
    return challenge, data == challenge_to_wire(challenge)
