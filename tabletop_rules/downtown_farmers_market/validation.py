"""Checking that a board is well formed, listing everything wrong with it.

Paths are in the contract's JSON form, relative to the board (``("grid", 1, 2)`` is
``/grid/1/2``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..messages import choice, template
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

# The problems' sentences, each named by its code, its format fields its params.
YOUNG_SHOPPER_CHALLENGES = template(
    "DFM_YOUNG_SHOPPER_CHALLENGES",
    "a young_shopper board has no challenges; leave this out or empty")
CHALLENGE_COUNT = choice(
    "DFM_CHALLENGE_COUNT", lambda p: str(p["line"]),
    row="expected {size} challenges, one per row; got {count}",
    column="expected {size} challenges, one per column; got {count}")
ROW_COUNT = template("DFM_ROW_COUNT", "expected {size} rows; got {count}")
ROW_LENGTH = template("DFM_ROW_LENGTH", "expected {size} spaces in row {row}; got {count}")
SPACE_INGREDIENTS = template(
    "DFM_SPACE_INGREDIENTS", "a Food tile shows {min} to {max} ingredients (DFM-R15); this "
    "one has {count}; use null for an empty space")
TILE_INGREDIENTS = template(
    "DFM_TILE_INGREDIENTS", "a Food tile shows {min} to {max} ingredients (DFM-R15); this "
    "one has {count}")
CHALLENGE_POINTS = template("DFM_CHALLENGE_POINTS",
                            "points must be from 0 to {max}; got {points}")
NO_COUNTS = template("DFM_NO_COUNTS", "list at least one ingredient and its count")
COUNT_LISTED_TWICE = template("DFM_COUNT_LISTED_TWICE", "listed twice")
NO_FORBIDDEN = template("DFM_NO_FORBIDDEN", "list at least one forbidden ingredient")
INGREDIENT_LISTED_TWICE = template("DFM_INGREDIENT_LISTED_TWICE",
                                   "{ingredient:term} is listed twice")
NO_SETS = template("DFM_NO_SETS", "list at least one set of ingredients")
TOO_MANY_SETS = template("DFM_TOO_MANY_SETS", "at most {limit} sets (the limit); got {count}")
SET_SIZE = template("DFM_SET_SIZE", "a set has 1 to {max} ingredients; got {count}")
LINE_COUNT = template(
    "DFM_LINE_COUNT", "must be from 1 to {max} (a line holds at most {max} ingredients); "
    "got {count}")
# Said by the engine's protobuf reader, declared with the rules so that the gateway, which
# words a 422 detail again in the caller's language, knows them too.
NO_CHALLENGE_TYPE = template("DFM_NO_CHALLENGE_TYPE",
                             "the challenge has no type; expected one of {expected}")
MODE_MISMATCH = choice(
    "DFM_MODE_MISMATCH", lambda p: str(p["given"]),
    game="the game is played in {expected} mode; this board is {mode}",
    first="the first player's board is in {expected} mode; this board is {mode}")


def check_board(board: Board) -> list[Problem]:
    """Every problem with ``board``; an empty list means it can be scored."""
    problems = _check_grid(board)
    for side in ("row_challenges", "column_challenges"):
        challenges: tuple[Challenge, ...] = getattr(board, side)
        if board.mode is Mode.YOUNG_SHOPPER:
            if challenges:
                problems.append(Problem((side,), YOUNG_SHOPPER_CHALLENGES()))
            continue
        if len(challenges) != GRID_SIZE:
            problems.append(Problem((side,), CHALLENGE_COUNT(
                line=side.split("_")[0], size=GRID_SIZE, count=len(challenges))))
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
        problems.append(Problem(("grid",), ROW_COUNT(size=GRID_SIZE, count=len(board.grid))))
    for r, row in enumerate(board.grid):
        if len(row) != GRID_SIZE:
            problems.append(Problem(("grid", r), ROW_LENGTH(size=GRID_SIZE, row=r + 1,
                                                            count=len(row))))
        for c, tile in enumerate(row):
            if tile is None:
                continue
            n = len(tile.ingredients)
            if not MIN_TILE_INGREDIENTS <= n <= MAX_TILE_INGREDIENTS:
                problems.append(Problem(("grid", r, c), SPACE_INGREDIENTS(
                    min=MIN_TILE_INGREDIENTS, max=MAX_TILE_INGREDIENTS, count=n)))
    return problems


def check_tile(tile: FoodTile) -> list[Problem]:
    """The problem with a loose Food tile (face up, discarded, in a move), if any."""
    n = len(tile.ingredients)
    if MIN_TILE_INGREDIENTS <= n <= MAX_TILE_INGREDIENTS:
        return []
    return [Problem((), TILE_INGREDIENTS(min=MIN_TILE_INGREDIENTS, max=MAX_TILE_INGREDIENTS,
                                         count=n))]


def check_challenge(challenge: Challenge) -> list[Problem]:
    """Every problem with one challenge's numbers and ingredients."""
    problems: list[Problem] = []
    if not 0 <= challenge.points <= MAX_CHALLENGE_POINTS:
        problems.append(Problem(("points",), CHALLENGE_POINTS(max=MAX_CHALLENGE_POINTS,
                                                              points=challenge.points)))
    if isinstance(challenge, ExactCount):
        if not challenge.counts:
            problems.append(Problem(("counts",), NO_COUNTS()))
        seen = set()
        for ingredient, n in challenge.counts:
            if ingredient in seen:
                problems.append(Problem(("counts", ingredient.value), COUNT_LISTED_TWICE()))
            seen.add(ingredient)
            problems.extend(_line_count(("counts", ingredient.value), n))
    elif isinstance(challenge, Forbidden):
        if not challenge.ingredients:
            problems.append(Problem(("ingredients",), NO_FORBIDDEN()))
        for i, ingredient in enumerate(challenge.ingredients):
            if ingredient in challenge.ingredients[:i]:
                problems.append(Problem(("ingredients", i),
                                        INGREDIENT_LISTED_TWICE(ingredient=ingredient.value)))
    elif isinstance(challenge, ExactCountAny | ExactTotal):
        problems.extend(_line_count(("count",), challenge.count))
    elif isinstance(challenge, PerSet):
        if not challenge.sets:
            problems.append(Problem(("sets",), NO_SETS()))
        if len(challenge.sets) > MAX_SETS:
            problems.append(Problem(("sets",), TOO_MANY_SETS(limit=MAX_SETS,
                                                             count=len(challenge.sets))))
            return problems
        for i, ingredients in enumerate(challenge.sets):
            if not 1 <= len(ingredients) <= MAX_LINE_INGREDIENTS:
                problems.append(Problem(("sets", i), SET_SIZE(max=MAX_LINE_INGREDIENTS,
                                                              count=len(ingredients))))
    return problems


def _line_count(path: tuple[str, ...], n: int) -> list[Problem]:
    if 1 <= n <= MAX_LINE_INGREDIENTS:
        return []
    return [Problem(path, LINE_COUNT(max=MAX_LINE_INGREDIENTS, count=n))]


def check_players(players: Sequence[tuple[str, Board]], mode: Mode | None = None
                  ) -> list[Problem]:
    """Every problem with named boards played together, all in ``mode`` (default: the
    first board's)."""
    problems: list[Problem] = []
    expected = mode or (players[0][1].mode if players else Mode.STANDARD)
    given = "game" if mode else "first"
    seats = seats_problem(len(players))
    if seats is not None:
        problems.append(seats)
    problems.extend(name_problems([name for name, _ in players]))
    for i, (_, board) in enumerate(players):
        if board.mode is not expected:
            problems.append(Problem(("players", i, "board", "mode"), MODE_MISMATCH(
                given=given, expected=expected.value, mode=board.mode.value)))
        problems.extend(p.under("players", i, "board") for p in check_board(board))
    return problems
