"""A game of Downtown Farmers Market between two actions, and what can be wrong with one.

The referee is stateless: a client sends the state with every move, so a state may be
hand-built. :func:`check_state` lists everything that makes one impossible, the way
python-chess's ``Board.status()`` names everything wrong with a hand-entered position.
Paths are in the state's JSON form (``("players", 1, "board", "grid")``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..players import MAX_PLAYERS
from ..problems import Problem
from .draft import (
    DRAFT_RULE,
    MIN_PLAYERS,
    ROUNDS,
    TOTAL_TILES,
    Action,
    Stage,
    discards_per_round,
    locate,
    schedule,
)
from ..problems import quantity
from .model import Board, FoodTile, Mode
from .validation import check_players, check_tile

RULES_VERSION = 1
"""The rules a state follows: the rulebook with the rulings DFM-R1..R15 as they stand."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: the player's name and board (challenges as chosen, and grid)."""

    name: str
    board: Board


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the referee needs to judge the next move.

    ``players`` sit in clockwise order. ``face_up`` is the display in order: the tile left
    from the last round first, then the new ones as turned over. The pile is face down,
    so only its size is known. ``first_player`` holds the First Player token;
    ``current_player`` acts next (at a reveal: takes next; once the game is over: placed
    the last tile). ``expected`` is what the game waits for, None once it is over.
    ``round`` runs from 1 to 16; in Young Shopper, which has no rounds, it counts one turn
    each. A state from :func:`.new_game` or a legal move always passes :func:`check_state`.
    """

    rules_version: int
    mode: Mode
    players: tuple[Player, ...]
    face_up: tuple[FoodTile, ...]
    pile_count: int
    discards: tuple[FoodTile, ...]
    round: int
    first_player: int
    current_player: int
    expected: Action | None
    _sound: bool = field(default=False, init=False, repr=False, compare=False)
    """Known to pass :func:`check_state`: it did, or the rules made this state from a sound
    one (:func:`vouch`), so :func:`check_state_once` need not check it again."""

    @property
    def game_over(self) -> bool:
        """True once every grid is full (DFM-R14)."""
        return self.expected is None


def check_state(state: GameState) -> list[Problem]:
    """Every problem with ``state``; an empty list means play can go on from it (and
    :func:`check_state_once` will not check it again)."""
    problems = _problems(state)
    if not problems:
        vouch(state)
    return problems


def check_state_once(state: GameState) -> list[Problem]:
    """:func:`check_state`, or nothing for a state known to pass it: judging a move or
    listing the legal ones checks the state, and a state the rules made from a sound one,
    or one already checked (by the engine as it read it), need not be checked again."""
    return [] if state._sound else check_state(state)


def vouch(state: GameState) -> GameState:
    """``state``, known from now on to pass :func:`check_state`: for a state the rules make
    from a sound one (a setup's first state, the state after a legal move)."""
    object.__setattr__(state, "_sound", True)
    return state


def _problems(state: GameState) -> list[Problem]:
    problems = check_rules_version(state.rules_version)
    if problems:
        return problems  # another version's state is not ours to read
    problems = check_seats(state.mode, state.players)
    for name in ("face_up", "discards"):
        tiles: tuple[FoodTile, ...] = getattr(state, name)
        problems.extend(p.under(name, i) for i, tile in enumerate(tiles) for p in check_tile(tile))
    grids = sum(p.board.tile_count for p in state.players)
    total = grids + len(state.discards) + len(state.face_up) + state.pile_count
    if total != TOTAL_TILES:
        problems.append(Problem((), f"the tiles add up to {total} ({grids} on the grids, "
                                f"{len(state.discards)} discarded, {len(state.face_up)} face "
                                f"up, {state.pile_count} in the pile); the game has "
                                f"{TOTAL_TILES} Food tiles (DFM-R15)"))
    n = len(state.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return problems
    clock = [Problem((name,), f"a seat from 0 to {n - 1}; got {getattr(state, name)}")
             for name in ("first_player", "current_player")
             if not 0 <= getattr(state, name) < n]
    if not 1 <= state.round <= ROUNDS:
        clock.append(Problem(("round",), f"a round from 1 to {ROUNDS}; got {state.round}"))
    return problems + (clock or _check_progress(state))


def check_rules_version(version: int) -> list[Problem]:
    """A problem unless ``version`` is the one these rules implement."""
    if version == RULES_VERSION:
        return []
    return [Problem(("rules_version",), f"unknown rules version {version}; this referee "
                    f"plays version {RULES_VERSION}")]


def check_seats(mode: Mode, players: Sequence[Player]) -> list[Problem]:
    """Every problem with the players of a game: their number, names, boards and mode."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return [Problem(("players",), f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players; "
                        f"got {len(players)}")]
    return check_players([(p.name, p.board) for p in players], mode)


def locate_state(state: GameState) -> tuple[tuple[Stage, ...], int] | None:
    """The game's schedule and the index of the stage ``state`` is at; None if it fits none."""
    key = (state.round, state.first_player, state.current_player, state.expected)
    return locate(state.mode, len(state.players), key)


def _check_progress(state: GameState) -> list[Problem]:
    """Grids, discards, display and pile against the point the round and turn describe."""
    found = locate_state(state)
    if found is None:
        return [Problem((), _incoherent(state))]
    stages, index = found
    stage = stages[index]
    at = f"at this point ({_moment(state)})"
    problems = [
        Problem(("players", seat, "board", "grid"),
                f"{player.name}'s grid holds {quantity(player.board.tile_count, 'tile')}; {at} it "
                f"should hold {want}")
        for seat, (player, want) in enumerate(zip(state.players, stage.tiles))
        if player.board.tile_count != want
    ]
    for name, where, have, want in (
            ("discards", "discarded", len(state.discards), stage.discards),
            ("face_up", "face up", len(state.face_up), stage.face_up),
            ("pile_count", "in the pile", state.pile_count, stage.pile)):
        if have != want:
            problems.append(Problem((name,), f"{quantity(have, 'tile')} {where}; {at} there "
                                    f"should be {want} ({DRAFT_RULE[state.mode]})"))
    return problems


def _moment(state: GameState) -> str:
    """The point of the game a state describes, in words: "round 3, Ben to take"."""
    name = state.players[state.current_player].name
    if state.expected is None:
        return "the end of the game"
    if state.expected is Action.REVEAL:
        return f"round {state.round}, tiles to turn over before {name} takes"
    return f"round {state.round}, {name} to {state.expected.value}"


def _incoherent(state: GameState) -> str:
    """Why the round, first player, current player and action cannot go together."""
    n, first = len(state.players), state.first_player
    if state.expected is Action.DISCARD and not discards_per_round(state.mode, n):
        game = "in Young Shopper" if state.mode is Mode.YOUNG_SHOPPER else f"with {n} players"
        return f"nothing is discarded {game} ({DRAFT_RULE[state.mode]})"
    in_round = next(
        stages for stages in (schedule(state.mode, n, opening) for opening in range(n))
        if any(s.round == state.round and s.first_player == first for s in stages))
    order = ", ".join(_happens(state, s.player, s.action) for s in in_round
                      if s.round == state.round and s.first_player == first)
    claimed = _happens(state, state.current_player, state.expected)
    return (f"round {state.round} with {state.players[first].name} as first player has no "
            f"point where {claimed}; the round goes: {order} ({DRAFT_RULE[state.mode]})")


def _happens(state: GameState, seat: int, action: Action | None) -> str:
    name = state.players[seat].name
    if action is None:
        return f"the game ends with {name} placing the last tile"
    if action is Action.REVEAL:
        return ("a tile is turned over" if state.mode is Mode.YOUNG_SHOPPER
                else "tiles are turned over")
    return f"{name} {action.value}s"


