"""Starting a game: checking a :class:`.Setup` and turning it into the first state."""

from __future__ import annotations

from ..messages import template
from ..problems import InvalidInputError, Problem
from ..players import MAX_PLAYERS
from .draft import DRAFT_RULE, FACE_UP, MIN_PLAYERS, TOTAL_TILES, Action
from .moves import Setup
from .state import SEAT, GameState, check_rules_version, check_seats, vouch
from .validation import check_tile

GRID_NOT_EMPTY = template("DFM_GRID_NOT_EMPTY",
                          "a game begins with empty grids; {player}'s holds {count} tiles")
FACE_UP_COUNT = template(
    "DFM_FACE_UP_COUNT", "a {mode} game begins with {want} tiles face up ({rule}); got {count}")


def check_setup(setup: Setup) -> list[Problem]:
    """Every problem with ``setup``; an empty list means :func:`new_game` accepts it."""
    problems = check_rules_version(setup.rules_version)
    if problems:
        return problems
    problems = check_seats(setup.mode, setup.players)
    n = len(setup.players)
    if MIN_PLAYERS <= n <= MAX_PLAYERS and not 0 <= setup.first_player < n:
        problems.append(Problem(("first_player",), SEAT(max=n - 1, seat=setup.first_player)))
    problems.extend(Problem(("players", i, "board", "grid"),
                            GRID_NOT_EMPTY(player=p.name, count=p.board.tile_count))
                    for i, p in enumerate(setup.players) if p.board.tile_count)
    want = FACE_UP[setup.mode]
    if len(setup.face_up) != want:
        problems.append(Problem(("face_up",), FACE_UP_COUNT(
            mode=setup.mode.value, want=want, rule=DRAFT_RULE[setup.mode],
            count=len(setup.face_up))))
    problems.extend(p.under("face_up", i) for i, tile in enumerate(setup.face_up)
                    for p in check_tile(tile))
    return problems


def new_game(setup: Setup) -> GameState:
    """The state before the first take; :class:`InvalidInputError` if ``setup`` is wrong."""
    problems = check_setup(setup)
    if problems:
        raise InvalidInputError(problems)
    return vouch(GameState(
        rules_version=setup.rules_version,
        mode=setup.mode,
        players=setup.players,
        face_up=setup.face_up,
        pile_count=TOTAL_TILES - len(setup.face_up),
        discards=(),
        round=1,
        first_player=setup.first_player,
        current_player=setup.first_player,
        expected=Action.TAKE,
    ))
