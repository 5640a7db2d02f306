"""Checking that a board is well formed, listing everything wrong with it.

Paths are in the contract's JSON form, relative to the board (``("grid", 1, 2)`` is
``/grid/1/2``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..players import name_problems, seats_problem
from ..problems import InvalidInputError, Problem
from .challenges import Challenge, ExactCount, ExactCountAny, ExactTotal, Forbidden, PerSet
from .model import (
    GRID_SIZE,
    MAX_CHALLENGE_POINTS,
    MAX_LINE_INGREDIENTS,
    MAX_SETS,
    MAX_TILE_INGREDIENTS,
    MIN_TILE_INGREDIENTS,
    Board,
    FoodTile,
    Mode,
)



def check_board(board: Board) -> list[Problem]:
    """Every problem with ``board``; an empty list means it can be scored."""
    problems = _check_grid(board)
    for side in ("row_challenges", "column_challenges"):
        challenges: tuple[Challenge, ...] = getattr(board, side)
        if board.mode is Mode.YOUNG_SHOPPER:
            if challenges:
                problems.append(Problem((side,), "a young_shopper board has no challenges; "
                                        "leave this out or empty"))
            continue
        if len(challenges) != GRID_SIZE:
            problems.append(Problem((side,), f"expected {GRID_SIZE} challenges, "
                                    f"one per {side.split('_')[0]}; got {len(challenges)}"))
        for i, challenge in enumerate(challenges):
            found = check_challenge(challenge)
            if found:  # seldom: no generator for the others
                problems.extend(p.under(side, i) for p in found)
    return problems


def validate_board(board: Board) -> Board:
    """``board`` itself if well formed; otherwise :class:`InvalidInputError`."""
    problems = check_board(board)
    if problems:
        raise InvalidInputError(problems)
    return board


def _check_grid(board: Board) -> list[Problem]:
    problems: list[Problem] = []
    if len(board.grid) != GRID_SIZE:
        problems.append(Problem(("grid",), f"expected {GRID_SIZE} rows; got {len(board.grid)}"))
    for r, row in enumerate(board.grid):
        if len(row) != GRID_SIZE:
            problems.append(Problem(("grid", r), f"expected {GRID_SIZE} spaces in row {r + 1}; "
                                    f"got {len(row)}"))
        for c, tile in enumerate(row):
            if tile is None:
                continue
            n = len(tile.ingredients)
            if not MIN_TILE_INGREDIENTS <= n <= MAX_TILE_INGREDIENTS:
                problems.append(Problem(
                    ("grid", r, c),
                    f"a Food tile shows {MIN_TILE_INGREDIENTS} to {MAX_TILE_INGREDIENTS} "
                    f"ingredients (DFM-R15); this one has {n}; use null for an empty space"))
    return problems


def check_tile(tile: FoodTile) -> list[Problem]:
    """The problem with a loose Food tile (face up, discarded, in a move), if any."""
    n = len(tile.ingredients)
    if MIN_TILE_INGREDIENTS <= n <= MAX_TILE_INGREDIENTS:
        return []
    return [Problem((), f"a Food tile shows {MIN_TILE_INGREDIENTS} to {MAX_TILE_INGREDIENTS} "
                    f"ingredients (DFM-R15); this one has {n}")]


def check_challenge(challenge: Challenge) -> list[Problem]:
    """Every problem with one challenge's numbers and ingredients."""
    problems: list[Problem] = []
    if not 0 <= challenge.points <= MAX_CHALLENGE_POINTS:
        problems.append(Problem(("points",), f"points must be from 0 to {MAX_CHALLENGE_POINTS}; "
                                f"got {challenge.points}"))
    if isinstance(challenge, ExactCount):
        if not challenge.counts:
            problems.append(Problem(("counts",), "list at least one ingredient and its count"))
        seen = set()
        for ingredient, n in challenge.counts:
            if ingredient in seen:
                problems.append(Problem(("counts", ingredient.value), "listed twice"))
            seen.add(ingredient)
            problems.extend(_line_count(("counts", ingredient.value), n))
    elif isinstance(challenge, Forbidden):
        if not challenge.ingredients:
            problems.append(Problem(("ingredients",), "list at least one forbidden ingredient"))
        for i, ingredient in enumerate(challenge.ingredients):
            if ingredient in challenge.ingredients[:i]:
                problems.append(Problem(("ingredients", i), f"{ingredient.value} is listed twice"))
    elif isinstance(challenge, ExactCountAny | ExactTotal):
        problems.extend(_line_count(("count",), challenge.count))
    elif isinstance(challenge, PerSet):
        if not challenge.sets:
            problems.append(Problem(("sets",), "list at least one set of ingredients"))
        if len(challenge.sets) > MAX_SETS:
            problems.append(Problem(("sets",), f"at most {MAX_SETS} sets (the limit); "
                                    f"got {len(challenge.sets)}"))
            return problems
        for i, ingredients in enumerate(challenge.sets):
            if not 1 <= len(ingredients) <= MAX_LINE_INGREDIENTS:
                problems.append(Problem(("sets", i), f"a set has 1 to {MAX_LINE_INGREDIENTS} "
                                        f"ingredients; got {len(ingredients)}"))
    return problems


def _line_count(path: tuple[str, ...], n: int) -> list[Problem]:
    if 1 <= n <= MAX_LINE_INGREDIENTS:
        return []
    return [Problem(path, f"must be from 1 to {MAX_LINE_INGREDIENTS} (a line holds at most "
                    f"{MAX_LINE_INGREDIENTS} ingredients); got {n}")]


def check_players(players: Sequence[tuple[str, Board]], mode: Mode | None = None
                  ) -> list[Problem]:
    """Every problem with named boards played together, all in ``mode`` (default: the
    first board's)."""
    problems: list[Problem] = []
    expected = mode or (players[0][1].mode if players else Mode.STANDARD)
    setting = (f"the game is played in {expected.value} mode" if mode else
               f"the first player's board is in {expected.value} mode")
    seats = seats_problem(len(players))
    if seats is not None:
        problems.append(seats)
    problems.extend(name_problems([name for name, _ in players]))
    for i, (_, board) in enumerate(players):
        if board.mode is not expected:
            problems.append(Problem(("players", i, "board", "mode"),
                                    f"{setting}; this board is {board.mode.value}"))
        problems.extend(p.under("players", i, "board") for p in check_board(board))
    return problems
