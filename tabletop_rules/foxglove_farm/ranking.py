"""Ranking players' towns at the end of a game, with the rulebook's tie-breaks (FF-R16)."""

from __future__ import annotations

from collections.abc import Sequence

from ..problems import Problem, quoted
from .. import standings
from ._json import too_long
from .model import Town
from .scoring import TownScore, score_town

RANKING_RULE = "FF-R16"
MAX_PLAYERS = 4
MAX_NAME_LENGTH = 100


Standing = standings.Standing[TownScore]
Ranking = standings.Ranking[TownScore]


def tie_break_key(score: TownScore) -> tuple[int, ...]:
    """Most points; then fewest goods left; then most tiles; then shared (FF-R16)."""
    return (score.total, -score.goods_remaining, score.tile_count)


def rank_towns(players: Sequence[tuple[str, Town]]) -> Ranking:
    """Score and place each ``(name, town)``: players :func:`check_players` accepts, with
    towns :func:`.check_town` accepts."""
    return standings.rank([(name, score_town(town)) for name, town in players],
                          tie_break_key)


def check_players(names: Sequence[str | None]) -> list[Problem]:
    """What is wrong with the players of a ranking, given by name in seat order (``None``
    for a name a reader could not read): 1 to 4 of them, each named, names distinct.
    Their towns are :func:`.check_town`'s."""
    seats = seats_problem(len(names))
    if seats is not None:
        return [seats]
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name is None:
            continue
        path = ("players", i, "name")
        problem = too_long(name, path, MAX_NAME_LENGTH)
        if problem is not None:
            problems.append(problem)
        elif not name.strip():
            problems.append(Problem(path, f"a name has 1 to {MAX_NAME_LENGTH} characters"))
        elif name in seen:
            problems.append(Problem(path, f"{quoted(name)} is named twice; give each "
                                    "player a distinct name"))
        seen.add(name)
    return problems


def seats_problem(count: int) -> Problem | None:
    """The problem with ranking ``count`` players, if there is one: a reader that finds it
    leaves their towns unread."""
    if 1 <= count <= MAX_PLAYERS:
        return None
    return Problem(("players",), f"rank 1 to {MAX_PLAYERS} players; got {count}")
