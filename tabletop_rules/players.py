"""What every game asks of the players a ranking names, said the same way by each game.

Paths are those of a request's ``players`` list: ``("players", i, "name")``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .messages import template
from .problems import TOO_LONG, Problem, quoted

MAX_PLAYERS = 4
"""Both games seat at most 4; a ranking may name a single player (their score alone)."""
MAX_NAME_LENGTH = 100

PLAYERS_TO_RANK = template("PLAYERS_TO_RANK", "rank 1 to {limit} players; got {count}")
NAME_BLANK = template("NAME_BLANK", "a name has 1 to {limit} characters")
NAME_TWICE = template("NAME_TWICE", "{name} is named twice; give each player a distinct name")


def seats_problem(count: int) -> Problem | None:
    """The problem with ranking ``count`` players, if there is one."""
    if 1 <= count <= MAX_PLAYERS:
        return None
    return Problem(("players",), PLAYERS_TO_RANK(limit=MAX_PLAYERS, count=count))


def name_problems(names: Sequence[str | None]) -> list[Problem]:
    """Every name that is blank, longer than :data:`MAX_NAME_LENGTH` or given twice
    (``None`` for a name a reader could not read: nothing more to say of it)."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name is None:
            continue
        path = ("players", i, "name")
        if len(name) > MAX_NAME_LENGTH:
            problems.append(Problem(path, TOO_LONG(limit=MAX_NAME_LENGTH, length=len(name))))
        elif not name.strip():
            problems.append(Problem(path, NAME_BLANK(limit=MAX_NAME_LENGTH)))
        elif name in seen:
            problems.append(Problem(path, NAME_TWICE(name=quoted(name))))
        seen.add(name)
    return problems
