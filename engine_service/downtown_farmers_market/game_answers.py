"""Downtown Farmers Market's answers on the game, written from rule values as their
encodings (:mod:`engine_service.wire`): states, moves, turns, legal moves, verdicts and
replays.

A game state is joined from the tiles', spaces' and challenges' encodings
(:mod:`.board_writing`), which is many times faster than setting its few hundred fields
one by one.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import game_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.problems import Path, json_pointer

from .. import wire
from ..replays import ReplayWriter
from ..wording import sentence_fields
from .board_writing import board_to_wire, tile_to_wire
from .encodings import ACTION_TO_PROTO, MODE_TO_PROTO, WIRE_OF_TILE, Encodings
from .score_answers import board_score_to_wire, standings_to_proto

_PLAYER_NAME, _PLAYER_BOARD = (wire.key(game_pb2.Player.DESCRIPTOR, name)
                               for name in ("name", "board"))
(_RULES_VERSION, _STATE_MODE, _PLAYERS, _FACE_UP, _PILE_COUNT, _DISCARDS, _ROUND,
 _FIRST_PLAYER, _CURRENT_PLAYER, _EXPECTED, _GAME_OVER, _REVEAL_COUNT) = (
    wire.key(game_pb2.GameState.DESCRIPTOR, name)
    for name in ("rules_version", "mode", "players", "face_up", "pile_count", "discards",
                 "round", "first_player", "current_player", "expected", "game_over",
                 "reveal_count"))
"""The keys of the fields an answer's state is written with (:func:`state_to_wire`)."""
_TAKE, _DISCARD, _REVEAL = (wire.key(game_pb2.Move.DESCRIPTOR, name)
                            for name in ("take", "discard", "reveal"))
_TAKE_PLAYER, _TAKE_TILE, _TAKE_ROW, _TAKE_COL = (
    wire.key(game_pb2.TakeTile.DESCRIPTOR, name) for name in ("player", "tile", "row", "col"))
_TAKE_PLAYER_FIELDS, _TAKE_ROW_FIELDS, _TAKE_COL_FIELDS = (
    wire.numbers(key) for key in (_TAKE_PLAYER, _TAKE_ROW, _TAKE_COL))
_TILE_IN_TAKE = {ingredients: wire.part(_TAKE_TILE, data)
                 for ingredients, data in WIRE_OF_TILE.items()}
_DISCARD_PLAYER, _DISCARD_TILE = (wire.key(game_pb2.DiscardTile.DESCRIPTOR, name)
                                  for name in ("player", "tile"))
_REVEAL_TILES = wire.key(game_pb2.RevealTiles.DESCRIPTOR, "tiles")
_MOVES, _TURN = (wire.key(service_pb2.ListLegalMovesResponse.DESCRIPTOR, name)
                 for name in ("moves", "turn"))
"""The keys of a move's fields (:func:`move_to_wire`), and a take's numbers and tiles
as fields, looked up as legal moves are written."""
_TURN_PLAYER, _TURN_EXPECTED, _TURN_REVEAL_COUNT = (
    wire.key(game_pb2.Turn.DESCRIPTOR, name) for name in ("player", "expected", "reveal_count"))
_NEW_GAME_STATE = wire.key(service_pb2.NewGameResponse.DESCRIPTOR, "state")
_VERDICT_LEGAL, _VERDICT_NEXT_STATE, _VERDICT_VIOLATIONS = (
    wire.key(service_pb2.ValidateMoveResponse.DESCRIPTOR, name)
    for name in ("legal", "next_state", "violations"))


def state_to_wire(state: dfm.GameState, encodings: Encodings | None = None) -> bytes:
    """A state's encoding, its boards and tiles written as their encodings (a board among
    ``encodings`` as it came)."""
    return b"".join([
        wire.number(_RULES_VERSION, state.rules_version),
        wire.number(_STATE_MODE, MODE_TO_PROTO[state.mode]),
        *[wire.part(_PLAYERS, wire.text(_PLAYER_NAME, player.name)
                    + wire.part(_PLAYER_BOARD, _written(player.board, encodings)))
          for player in state.players],
        *[wire.part(_FACE_UP, tile_to_wire(tile)) for tile in state.face_up],
        wire.number(_PILE_COUNT, state.pile_count),
        *[wire.part(_DISCARDS, tile_to_wire(tile)) for tile in state.discards],
        wire.number(_ROUND, state.round),
        wire.number(_FIRST_PLAYER, state.first_player),
        wire.number(_CURRENT_PLAYER, state.current_player),
        wire.number(_EXPECTED, ACTION_TO_PROTO[state.expected]),
        wire.number(_GAME_OVER, state.game_over),
        wire.number(_REVEAL_COUNT, state.reveal_count)])


def _written(board: dfm.Board, encodings: Encodings | None) -> bytes:
    """``board``'s encoding: as it was read, if it is among ``encodings``."""
    if encodings:
        kept = encodings.get(id(board))
        if kept is not None and kept[0] is board:
            return kept[1]
    return board_to_wire(board)


def move_to_wire(move: dfm.Move) -> bytes:
    """A move's encoding (a ``Move`` message's); a take's numbers and tile, as a legal
    one holds them, are looked up."""
    if isinstance(move, dfm.TakeTile):
        try:
            body = (_TAKE_PLAYER_FIELDS[move.player] + _TILE_IN_TAKE[move.tile.ingredients]
                    + _TAKE_ROW_FIELDS[move.row] + _TAKE_COL_FIELDS[move.col])
        except KeyError:  # a number over 127 or below 0, or an odd tile: in no legal take
            body = b"".join([wire.number(_TAKE_PLAYER, move.player),
                             wire.part(_TAKE_TILE, tile_to_wire(move.tile)),
                             wire.number(_TAKE_ROW, move.row), wire.number(_TAKE_COL, move.col)])
        return wire.part(_TAKE, body)
    if isinstance(move, dfm.DiscardTile):
        return wire.part(_DISCARD, wire.number(_DISCARD_PLAYER, move.player)
                         + wire.part(_DISCARD_TILE, tile_to_wire(move.tile)))
    return wire.part(_REVEAL, b"".join([wire.part(_REVEAL_TILES, tile_to_wire(tile))
                                        for tile in move.tiles]))


def turn_to_wire(state: dfm.GameState) -> bytes:
    """Who acts next in ``state``, what the game waits for, and at a reveal how many tiles."""
    player = dfm.GAME.turn(state).player
    return b"".join([b"" if player is None else wire.present(_TURN_PLAYER, player),
                     wire.number(_TURN_EXPECTED, ACTION_TO_PROTO[state.expected]),
                     wire.number(_TURN_REVEAL_COUNT, state.reveal_count)])


def new_game_to_wire(state: dfm.GameState) -> bytes:
    """The answer to NewGame."""
    return wire.part(_NEW_GAME_STATE, state_to_wire(state))


def legal_moves_to_wire(state: dfm.GameState, moves: Sequence[dfm.Move]) -> bytes:
    """The answer listing ``moves`` and the turn of ``state``."""
    return b"".join([*[wire.part(_MOVES, move_to_wire(move)) for move in moves],
                     wire.part(_TURN, turn_to_wire(state))])


def violations_to_proto(violations: Sequence[dfm.Violation], move_path: Path
                        ) -> list[game_pb2.Violation]:
    """``move_path`` is where the move sits in the request (``("move",)``, ``("moves", 7)``)."""
    return [game_pb2.Violation(reason=v.reason.value, rule=v.rule, message=v.message,
                               pointer=json_pointer((*move_path, *v.path)),
                               **sentence_fields(v.message))
            for v in violations]


def verdict_to_wire(verdict: dfm.Verdict, encodings: Encodings | None = None) -> bytes:
    """The answer to a move; the boards the next state shares with the request (every one
    the move leaves alone), written back as they came when among ``encodings``."""
    return b"".join([
        wire.number(_VERDICT_LEGAL, verdict.legal),
        b"" if verdict.next_state is None else wire.part(
            _VERDICT_NEXT_STATE, state_to_wire(verdict.next_state, encodings)),
        wire.messages(_VERDICT_VIOLATIONS, violations_to_proto(verdict.violations, ("move",)))])


_REPLAY = ReplayWriter(
    service_pb2.ReplayGameResponse.DESCRIPTOR, state_to_wire,
    lambda violations, index: violations_to_proto(violations, ("moves", index)),
    standings_to_proto, board_score_to_wire)


def replay_to_wire(result: dfm.ReplayResult) -> bytes:
    """The answer to ReplayGame (:class:`.ReplayWriter`)."""
    return _REPLAY.write(result)
