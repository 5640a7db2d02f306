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
from ..problems import quantity
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


Violation: TypeAlias = verdicts.Violation[Reason]
"""One rule a move breaks; ``path`` points into the move (``()`` is the whole move)."""

Verdict: TypeAlias = verdicts.Verdict[GameState, Reason]
"""The referee's answer to a move: the next state, or every rule the move breaks."""


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal take or discard, each once, in display order then row by row.

    Empty at a reveal: which tiles come up is the pile's to say, not a player's choice
    (any :data:`.REVEAL_SIZE` tiles the pile can hold are legal), and once the game is over.
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
        return [Violation(Reason.GAME_OVER, END_RULE, "The game is over: every grid is full")]
    if isinstance(move, RevealTiles):
        return _reveal_violations(state, move)
    found = _order_violations(state, move)
    if _find(state.face_up, move.tile) is None:
        shown = ", ".join(describe_tile(t) for t in state.face_up)
        found.append(Violation(Reason.TILE_NOT_ON_DISPLAY, DRAFT_RULE[state.mode],
                               f"No {describe_tile(move.tile)} tile is face up; the face-up "
                               f"tiles are: {shown}", ("tile",)))
    if isinstance(move, TakeTile):
        player = state.players[move.player]
        if player.board.grid[move.row][move.col] is not None:
            found.append(Violation(Reason.OCCUPIED_SPACE, PLACEMENT_RULE,
                                   f"Row {move.row + 1}, column {move.col + 1} of "
                                   f"{player.name}'s grid already holds a tile"))
    return found


def _order_violations(state: GameState, move: TakeTile | DiscardTile) -> list[Violation]:
    """Whether it is this player's turn, and whether to take or to discard."""
    rule = DRAFT_RULE[state.mode]
    current = state.players[state.current_player].name
    if state.expected is Action.REVEAL:
        if state.mode is Mode.YOUNG_SHOPPER:
            message = f"The tile just taken is replaced from the pile before {current} takes"
        else:
            message = (f"Round {state.round} begins by turning over "
                       f"{REVEAL_SIZE[state.mode]} tiles from the pile; then {current} takes")
        return [Violation(Reason.REVEAL_REQUIRED, rule, message)]
    found = []
    mover = state.players[move.player].name
    own_turn = move.player == state.current_player
    if not own_turn:
        found.append(Violation(Reason.NOT_YOUR_TURN, rule,
                               f"It is {current}'s turn, not {mover}'s", ("player",)))
    discarding = isinstance(move, DiscardTile)
    if discarding and not discards_per_round(state.mode, len(state.players)):
        game = ("in Young Shopper" if state.mode is Mode.YOUNG_SHOPPER
                else f"with {len(state.players)} players")
        found.append(Violation(Reason.DISCARD_NOT_ALLOWED, rule,
                               f"Nothing is discarded {game}"))
    elif own_turn and discarding and state.expected is Action.TAKE:
        first = state.players[state.first_player].name
        message = (f"{mover} takes a tile first, then discards one"
                   if len(state.players) == 2 or move.player == state.first_player
                   else f"With 3 players only the first player, {first}, discards; "
                        f"{mover} takes a tile")
        found.append(Violation(Reason.DISCARD_NOT_ALLOWED, rule, message))
    elif own_turn and not discarding and state.expected is Action.DISCARD:
        found.append(Violation(Reason.DISCARD_REQUIRED, rule,
                               f"{mover} has taken a tile and now discards one of the "
                               f"face-up tiles to the box"))
    return found


def _reveal_violations(state: GameState, move: RevealTiles) -> list[Violation]:
    rule, size, count = DRAFT_RULE[state.mode], REVEAL_SIZE[state.mode], len(move.tiles)
    found = []
    if state.expected is Action.TAKE or state.expected is Action.DISCARD:
        current = state.players[state.current_player].name
        when = ("to replace a tile just taken" if state.mode is Mode.YOUNG_SHOPPER
                else "as a round begins")
        found.append(Violation(Reason.REVEAL_NOT_ALLOWED, rule,
                               f"It is {current}'s turn to {state.expected.value} a tile; "
                               f"tiles are turned over only {when}"))
    elif count != size:
        message = (f"The taken tile is replaced by 1 tile from the pile, not {count}"
                   if state.mode is Mode.YOUNG_SHOPPER
                   else f"Round {state.round} begins by turning over {size} tiles, not {count}")
        found.append(Violation(Reason.WRONG_REVEAL_SIZE, rule, message, ("tiles",)))
    if count > state.pile_count:
        found.append(Violation(Reason.TILES_NOT_IN_PILE, TILES_RULE,
                               f"The pile holds only {quantity(state.pile_count, 'tile')}, "
                               f"not {count}", ("tiles",)))
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
