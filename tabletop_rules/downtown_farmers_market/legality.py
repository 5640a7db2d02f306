"""Which moves the rules allow, and what a legal move does to a state.

Two channels, as in python-chess. Input that cannot be read (a state :func:`.check_state`
rejects, a move :func:`.check_move` rejects) raises :class:`InvalidInputError`: the
contract's 422. A well-formed move that breaks the rules is an answer, not an error: its
:class:`Verdict` lists every rule broken, each as a :class:`Violation` with a machine
reason, the rule's id and a message for the players. A legal move's verdict carries the
next state, where the draft's schedule (:mod:`.draft`) says who acts next and how.

Identical face-up tiles are one choice: taking either copy gives the same state, so
:func:`legal_moves` lists each distinct tile once.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

from .. import verdicts
from ..problems import InvalidInputError
from ..messages import choice, template
from .draft import DRAFT_RULE, REVEAL_SIZE, Action, discards_per_round
from .model import GRID_SIZE, Board, FoodTile, Mode
from .moves import DiscardTile, Move, RevealTiles, TakeTile, canonical_tile, check_move
from .state import GameState, Player, check_state_once, locate_state, vouch

PLACEMENT_RULE = "DFM-R12"
END_RULE = "DFM-R14"
TILES_RULE = "DFM-R15"


class Reason(enum.StrEnum):
    """Why a move is illegal, for machines: stable names that clients may switch on."""

    GAME_OVER = "GAME_OVER"
    REVEAL_REQUIRED = "REVEAL_REQUIRED"
    REVEAL_NOT_ALLOWED = "REVEAL_NOT_ALLOWED"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    DISCARD_REQUIRED = "DISCARD_REQUIRED"
    DISCARD_NOT_ALLOWED = "DISCARD_NOT_ALLOWED"
    TILE_NOT_ON_DISPLAY = "TILE_NOT_ON_DISPLAY"
    OCCUPIED_SPACE = "OCCUPIED_SPACE"
    WRONG_REVEAL_SIZE = "WRONG_REVEAL_SIZE"
    TILES_NOT_IN_PILE = "TILES_NOT_IN_PILE"


# Each reason's sentence (its code is the reason, in the DFM namespace of the catalogs).
_GAME_OVER = template("GAME_OVER", "The game is over: every grid is full", namespace="DFM")
_NOT_ON_DISPLAY = template(
    "TILE_NOT_ON_DISPLAY", "No {tile:tiles} tile is face up; the face-up tiles are: "
    "{face_up:tiles}", namespace="DFM")
_OCCUPIED = template(
    "OCCUPIED_SPACE", "Row {row_number}, column {col_number} of {player}'s grid already "
    "holds a tile", namespace="DFM")
_REVEAL_REQUIRED = choice(
    "REVEAL_REQUIRED", lambda p: str(p["mode"]), namespace="DFM",
    young_shopper="The tile just taken is replaced from the pile before {player} takes",
    standard="Round {round} begins by turning over {count} tiles from the pile; then "
             "{player} takes")
_NOT_YOUR_TURN = template(
    "NOT_YOUR_TURN", "It is {current}'s turn, not {player}'s", namespace="DFM")
_NO_DISCARD = choice(
    "DISCARD_NOT_ALLOWED", lambda p: str(p["why"]), namespace="DFM",
    young_shopper="Nothing is discarded in Young Shopper",
    players="Nothing is discarded with {players} players",
    take_first="{player} takes a tile first, then discards one",
    first_player_only="With 3 players only the first player, {first}, discards; {player} "
                      "takes a tile")
_DISCARD_REQUIRED = template(
    "DISCARD_REQUIRED", "{player} has taken a tile and now discards one of the face-up tiles "
    "to the box", namespace="DFM")
_NO_REVEAL = choice(
    "REVEAL_NOT_ALLOWED", lambda p: str(p["mode"]), namespace="DFM",
    young_shopper="It is {current}'s turn to {expected:term} a tile; tiles are turned over "
                  "only to replace a tile just taken",
    standard="It is {current}'s turn to {expected:term} a tile; tiles are turned over only "
             "as a round begins")
_REVEAL_SIZE = choice(
    "WRONG_REVEAL_SIZE", lambda p: str(p["mode"]), namespace="DFM",
    young_shopper="The taken tile is replaced by 1 tile from the pile, not {count}",
    standard="Round {round} begins by turning over {size} tiles, not {count}")
_NOT_IN_PILE = template(
    "TILES_NOT_IN_PILE", "The pile holds only {pile:# tile|# tiles}, not {count}",
    namespace="DFM")

Violation: TypeAlias = verdicts.Violation[Reason]
"""One rule a move breaks; ``path`` points into the move (``()`` is the whole move)."""

Verdict: TypeAlias = verdicts.Verdict[GameState, Reason]
"""The referee's answer to a move: the next state, or every rule the move breaks."""


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal take or discard, each once, in display order then row by row.

    Empty at a reveal: which tiles come up is the pile's to say, not a player's choice
    (any :attr:`.GameState.reveal_count` tiles the pile can hold are legal), and once the
    game is over.
    """
    _require_valid(state)
    seat = state.current_player
    tiles = tuple(dict.fromkeys(canonical_tile(t) for t in state.face_up))
    if state.expected is Action.DISCARD:
        return tuple(DiscardTile(seat, tile) for tile in tiles)
    if state.expected is not Action.TAKE:
        return ()
    grid = state.players[seat].board.grid
    return tuple(TakeTile(seat, tile, r, c) for tile in tiles
                 for r in range(GRID_SIZE) for c in range(GRID_SIZE) if grid[r][c] is None)


def validate(state: GameState, move: Move) -> Verdict:
    """Judge ``move`` in ``state``.

    :class:`InvalidInputError` if either is malformed, its paths under ``state`` or ``move``.
    """
    problems = [p.under("state") for p in check_state_once(state)]
    problems += [p.under("move") for p in check_move(move, len(state.players))]
    if problems:
        raise InvalidInputError(problems)
    violations = _violations(state, move)
    if violations:
        return Verdict(None, tuple(violations))
    return Verdict(_apply(state, move))


def describe_tile(tile: FoodTile) -> str:
    """A tile in words: ``corn+egg``."""
    return "+".join(i.value for i in tile.ingredients)


def _require_valid(state: GameState) -> None:
    problems = check_state_once(state)
    if problems:
        raise InvalidInputError(problems)


def _violations(state: GameState, move: Move) -> list[Violation]:
    if state.game_over:
        return [Violation(Reason.GAME_OVER, END_RULE, _GAME_OVER())]
    if isinstance(move, RevealTiles):
        return _reveal_violations(state, move)
    found = _order_violations(state, move)
    if _find(state.face_up, move.tile) is None:
        found.append(Violation(Reason.TILE_NOT_ON_DISPLAY, DRAFT_RULE[state.mode],
                               _NOT_ON_DISPLAY(tile=describe_tile(move.tile), face_up=tuple(
                                   [describe_tile(t) for t in state.face_up])), ("tile",)))
    if isinstance(move, TakeTile):
        player = state.players[move.player]
        if player.board.grid[move.row][move.col] is not None:
            found.append(Violation(Reason.OCCUPIED_SPACE, PLACEMENT_RULE, _OCCUPIED(
                row_number=move.row + 1, col_number=move.col + 1, player=player.name)))
    return found


def _order_violations(state: GameState, move: TakeTile | DiscardTile) -> list[Violation]:
    """Whether it is this player's turn, and whether to take or to discard."""
    rule = DRAFT_RULE[state.mode]
    current = state.players[state.current_player].name
    if state.expected is Action.REVEAL:
        return [Violation(Reason.REVEAL_REQUIRED, rule, _REVEAL_REQUIRED(
            mode=state.mode.value, player=current, round=state.round,
            count=state.reveal_count))]
    found = []
    mover = state.players[move.player].name
    own_turn = move.player == state.current_player
    if not own_turn:
        found.append(Violation(Reason.NOT_YOUR_TURN, rule,
                               _NOT_YOUR_TURN(current=current, player=mover), ("player",)))
    discarding = isinstance(move, DiscardTile)
    if discarding and not discards_per_round(state.mode, len(state.players)):
        why = "young_shopper" if state.mode is Mode.YOUNG_SHOPPER else "players"
        found.append(Violation(Reason.DISCARD_NOT_ALLOWED, rule,
                               _NO_DISCARD(why=why, players=len(state.players))))
    elif own_turn and discarding and state.expected is Action.TAKE:
        first = state.players[state.first_player].name
        why = ("take_first" if len(state.players) == 2 or move.player == state.first_player
               else "first_player_only")
        found.append(Violation(Reason.DISCARD_NOT_ALLOWED, rule,
                               _NO_DISCARD(why=why, player=mover, first=first)))
    elif own_turn and not discarding and state.expected is Action.DISCARD:
        found.append(Violation(Reason.DISCARD_REQUIRED, rule, _DISCARD_REQUIRED(player=mover)))
    return found


def _reveal_violations(state: GameState, move: RevealTiles) -> list[Violation]:
    rule, size, count = DRAFT_RULE[state.mode], REVEAL_SIZE[state.mode], len(move.tiles)
    found = []
    if state.expected is Action.TAKE or state.expected is Action.DISCARD:
        current = state.players[state.current_player].name
        found.append(Violation(Reason.REVEAL_NOT_ALLOWED, rule, _NO_REVEAL(
            mode=state.mode.value, current=current, expected=state.expected.value)))
    elif count != size:
        found.append(Violation(Reason.WRONG_REVEAL_SIZE, rule, _REVEAL_SIZE(
            mode=state.mode.value, round=state.round, size=size, count=count), ("tiles",)))
    if count > state.pile_count:
        found.append(Violation(Reason.TILES_NOT_IN_PILE, TILES_RULE, _NOT_IN_PILE(
            pile=state.pile_count, count=count), ("tiles",)))
    return found


def _apply(state: GameState, move: Move) -> GameState:
    found = locate_state(state)
    assert found is not None, "check_state passed, so the state is on its schedule"
    stages, index = found
    after = stages[index + 1]
    players, face_up = state.players, state.face_up
    discards, pile = state.discards, state.pile_count
    if isinstance(move, RevealTiles):
        face_up, pile = face_up + move.tiles, pile - len(move.tiles)
    else:
        at = _find(face_up, move.tile)
        assert at is not None, "a legal move names a face-up tile"
        tile, face_up = face_up[at], face_up[:at] + face_up[at + 1:]
        if isinstance(move, TakeTile):
            seat, mover = move.player, players[move.player]
            players = (*players[:seat], Player(mover.name, _place(mover.board, move.row,
                                                                  move.col, tile)),
                       *players[seat + 1:])
        else:
            discards = discards + (tile,)
    return vouch(GameState(  # every field named: a new one is not left behind unnoticed
        rules_version=state.rules_version, mode=state.mode, players=players, face_up=face_up,
        pile_count=pile, discards=discards, round=after.round, first_player=after.first_player,
        current_player=after.player, expected=after.action))


def _find(tiles: tuple[FoodTile, ...], tile: FoodTile) -> int | None:
    """Where the first copy of ``tile`` lies, whatever the order of its ingredients."""
    wanted = canonical_tile(tile)
    return next((i for i, t in enumerate(tiles) if canonical_tile(t) == wanted), None)


def _place(board: Board, row: int, col: int, tile: FoodTile) -> Board:
    """``board`` with ``tile`` at ``row``, ``col`` (its other rows shared, not copied)."""
    grid, line = board.grid, board.grid[row]
    return Board((*grid[:row], (*line[:col], tile, *line[col + 1:]), *grid[row + 1:]),
                 board.row_challenges, board.column_challenges, board.mode)
