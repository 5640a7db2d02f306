"""A game of Downtown Farmers Market between two actions, and what can be wrong with one.

The referee is stateless: a client sends the state with every move, so a state may be
hand-built. :func:`check_state` lists everything that makes one impossible, the way
python-chess's ``Board.status()`` names everything wrong with a hand-entered position.
Paths are in the state's JSON form (``("players", 1, "board", "grid")``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..messages import Param, Say, choice, part, template
from ..players import MAX_PLAYERS
from ..problems import Problem
from .draft import (
    DRAFT_RULE,
    MIN_PLAYERS,
    REVEAL_SIZE,
    ROUNDS,
    TOTAL_TILES,
    Action,
    Stage,
    discards_per_round,
    locate,
    schedule,
)
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

    @property
    def reveal_count(self) -> int:
        """How many tiles the expected reveal turns over from the pile (4 as a round
        begins, 1 in Young Shopper; DFM-R11, DFM-R13); 0 when no reveal is expected. A
        client need not learn it from a refused reveal."""
        return REVEAL_SIZE[self.mode] if self.expected is Action.REVEAL else 0


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


# The problems' sentences, each named by its code, its format fields its params.
TILE_TOTAL = template(
    "DFM_TILE_TOTAL", "the tiles add up to {total} ({grids} on the grids, {discarded} "
    "discarded, {face_up} face up, {pile} in the pile); the game has {tiles} Food tiles "
    "(DFM-R15)")
SEAT = template("DFM_SEAT", "a seat from 0 to {max}; got {seat}")
ROUND = template("DFM_ROUND", "a round from 1 to {rounds}; got {round}")
RULES_VERSION_UNKNOWN = template(
    "DFM_RULES_VERSION", "unknown rules version {version}; this referee plays version "
    "{supported}")
PLAYER_COUNT = template("DFM_PLAYER_COUNT", "a game has {min} to {max} players; got {count}")
NOTHING_DISCARDED = choice(
    "DFM_NOTHING_DISCARDED", lambda p: str(p["mode"]),
    young_shopper="nothing is discarded in Young Shopper ({rule})",
    standard="nothing is discarded with {players} players ({rule})")

_HAPPENS = {
    "take": part("DFM_PART_HAPPENS_TAKE", "{player} takes"),
    "discard": part("DFM_PART_HAPPENS_DISCARD", "{player} discards"),
    "reveal": part("DFM_PART_HAPPENS_REVEAL", "tiles are turned over"),
    "reveal_one": part("DFM_PART_HAPPENS_REVEAL_ONE", "a tile is turned over"),
    "end": part("DFM_PART_HAPPENS_END", "the game ends with {player} placing the last tile"),
}
"""What happens at a point of a round, by what :func:`_happening` names it."""


def _happenings(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """The point claimed and the round's order, each happening worded in the language."""
    return {"claimed": say(_HAPPENS[str(params["action"])], player=params["player"]),
            "order": ", ".join([
                say(_HAPPENS[str(action)], player=player)
                for player, action in zip(params["order_players"], params["order_actions"])])}


NO_SUCH_POINT = template(
    "DFM_NO_SUCH_POINT", "round {round} with {first} as first player has no point where "
    "{claimed}; the round goes: {order} ({rule})", derive=_happenings)

_MOMENTS = {
    "end": part("DFM_PART_MOMENT_END", "the end of the game"),
    "reveal": part("DFM_PART_MOMENT_REVEAL",
                   "round {round}, tiles to turn over before {current} takes"),
    "take": part("DFM_PART_MOMENT_TAKE", "round {round}, {current} to take"),
    "discard": part("DFM_PART_MOMENT_DISCARD", "round {round}, {current} to discard"),
}
"""The point of the game a state describes (:func:`_moment`), by what is expected."""


def _at_moment(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    return {"moment": say(_MOMENTS[str(params["expected"])], round=params["round"],
                          current=params["current"])}


GRID_AT = template(
    "DFM_GRID_AT", "{player}'s grid holds {have:# tile|# tiles}; at this point ({moment}) it "
    "should hold {want}", derive=_at_moment)
DISCARDS_AT = template(
    "DFM_DISCARDS_AT", "{have:# tile|# tiles} discarded; at this point ({moment}) there should "
    "be {want} ({rule})", derive=_at_moment)
FACE_UP_AT = template(
    "DFM_FACE_UP_AT", "{have:# tile|# tiles} face up; at this point ({moment}) there should "
    "be {want} ({rule})", derive=_at_moment)
PILE_AT = template(
    "DFM_PILE_AT", "{have:# tile|# tiles} in the pile; at this point ({moment}) there should "
    "be {want} ({rule})", derive=_at_moment)


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
        problems.append(Problem((), TILE_TOTAL(
            total=total, grids=grids, discarded=len(state.discards),
            face_up=len(state.face_up), pile=state.pile_count, tiles=TOTAL_TILES)))
    n = len(state.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return problems
    clock = [Problem((name,), SEAT(max=n - 1, seat=getattr(state, name)))
             for name in ("first_player", "current_player")
             if not 0 <= getattr(state, name) < n]
    if not 1 <= state.round <= ROUNDS:
        clock.append(Problem(("round",), ROUND(rounds=ROUNDS, round=state.round)))
    return problems + (clock or _check_progress(state))


def check_rules_version(version: int) -> list[Problem]:
    """A problem unless ``version`` is the one these rules implement."""
    if version == RULES_VERSION:
        return []
    return [Problem(("rules_version",), RULES_VERSION_UNKNOWN(version=version,
                                                               supported=RULES_VERSION))]


def check_seats(mode: Mode, players: Sequence[Player]) -> list[Problem]:
    """Every problem with the players of a game: their number, names, boards and mode."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return [Problem(("players",), PLAYER_COUNT(min=MIN_PLAYERS, max=MAX_PLAYERS,
                                                   count=len(players)))]
    return check_players([(p.name, p.board) for p in players], mode)


def locate_state(state: GameState) -> tuple[tuple[Stage, ...], int] | None:
    """The game's schedule and the index of the stage ``state`` is at; None if it fits none."""
    key = (state.round, state.first_player, state.current_player, state.expected)
    return locate(state.mode, len(state.players), key)


def _check_progress(state: GameState) -> list[Problem]:
    """Grids, discards, display and pile against the point the round and turn describe."""
    found = locate_state(state)
    if found is None:
        return [_incoherent(state)]
    stages, index = found
    stage = stages[index]
    moment = _moment(state)
    problems = [
        Problem(("players", seat, "board", "grid"),
                GRID_AT(player=player.name, have=player.board.tile_count, want=want, **moment))
        for seat, (player, want) in enumerate(zip(state.players, stage.tiles))
        if player.board.tile_count != want
    ]
    for name, made, have, want in (
            ("discards", DISCARDS_AT, len(state.discards), stage.discards),
            ("face_up", FACE_UP_AT, len(state.face_up), stage.face_up),
            ("pile_count", PILE_AT, state.pile_count, stage.pile)):
        if have != want:
            problems.append(Problem((name,), made(have=have, want=want,
                                                  rule=DRAFT_RULE[state.mode], **moment)))
    return problems


def _moment(state: GameState) -> dict[str, Param]:
    """The point of the game a state describes, as the params :data:`GRID_AT` and its
    kind word as "round 3, Ben to take": the round, whose turn it is, and what they do
    (``end`` at the end of the game)."""
    return {"round": state.round, "current": state.players[state.current_player].name,
            "expected": "end" if state.expected is None else state.expected.value}


def _incoherent(state: GameState) -> Problem:
    """Why the round, first player, current player and action cannot go together."""
    n, first = len(state.players), state.first_player
    rule = DRAFT_RULE[state.mode]
    if state.expected is Action.DISCARD and not discards_per_round(state.mode, n):
        return Problem((), NOTHING_DISCARDED(mode=state.mode.value, players=n, rule=rule))
    in_round = next(
        stages for stages in (schedule(state.mode, n, opening) for opening in range(n))
        if any(s.round == state.round and s.first_player == first for s in stages))
    order = [s for s in in_round if s.round == state.round and s.first_player == first]
    return Problem((), NO_SUCH_POINT(
        round=state.round, first=state.players[first].name, rule=rule,
        player=state.players[state.current_player].name,
        action=_happening(state, state.expected),
        order_players=tuple(state.players[s.player].name for s in order),
        order_actions=tuple(_happening(state, s.action) for s in order)))


def _happening(state: GameState, action: Action | None) -> str:
    """What happens at a point of the round, as :data:`NO_SUCH_POINT`'s params name it."""
    if action is None:
        return "end"
    if action is Action.REVEAL and state.mode is Mode.YOUNG_SHOPPER:
        return "reveal_one"
    return action.value


