"""Downtown Farmers Market in the contract's JSON form, for library users and tests.

Reading converts without judging: a board that breaks the contract (a tile of four
ingredients, a challenge worth -1 points) reads as it is, and :func:`.check_board` or
:func:`.validate_board` says what is wrong with it. Data that is not the contract's shape
at all (a missing field, a wrong JSON type, an unknown field or name) raises
:class:`.InvalidInputError` listing every such problem at its path, worded as the
gateway words it. The writers give answers in the contract's form. The service does not
come this way: the engine reads protobuf.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..json_reading import (
    EXPECTED_OBJECT,
    EXPECTED_STRING,
    Reader,
    read_choice,
    read_each,
    read_fields,
    read_integer,
    read_object,
    read_str,
    refuse,
)
from ..problems import Path, Problem, give_the, not_one_of, quoted
from .challenges import (
    Challenge,
    ExactCount,
    ExactCountAny,
    ExactTotal,
    Forbidden,
    Majority,
    OneOfEach,
    PerSet,
)
from .model import INGREDIENTS, Board, FoodTile, Ingredient, Mode, Space
from .ranking import Ranking
from .scoring import BoardScore, LineScore

Json = dict[str, Any]

# The gateway's problems with a name that is not one (its schemas declare them alike).
NOT_AN_INGREDIENT = not_one_of("an ingredient")
NOT_A_MODE = not_one_of("a mode")
NOT_A_CHALLENGE_TYPE = not_one_of("a challenge type")
GIVE_THE_CHALLENGE_TYPE = give_the("a challenge type")


def _read_ingredient(value: object, path: Path, problems: list[Problem]) -> Ingredient | None:
    name = read_choice(value, path, problems, (i.value for i in INGREDIENTS), NOT_AN_INGREDIENT)
    return None if name is None else Ingredient(name)


def _read_ingredients(value: object, path: Path,
                      problems: list[Problem]) -> tuple[Ingredient, ...] | None:
    read = read_each(value, path, problems, _read_ingredient)
    return None if read is None else tuple(read)  # type: ignore[arg-type]  # all read


def _read_mode(value: object, path: Path, problems: list[Problem]) -> Mode | None:
    name = read_choice(value, path, problems, (m.value for m in Mode), NOT_A_MODE)
    return None if name is None else Mode(name)


def _read_counts(value: object, path: Path,
                 problems: list[Problem]) -> tuple[tuple[Ingredient, int], ...] | None:
    """An exact count's ``{"corn": 2}``: each key an ingredient, each count a whole
    number, both said at the entry."""
    obj = read_object(value, path, problems, EXPECTED_OBJECT)
    if obj is None:
        return None
    before = len(problems)
    counts = [(_read_ingredient(name, (*path, name), problems),
               read_integer(n, (*path, name), problems)) for name, n in obj.items()]
    return tuple(counts) if len(problems) == before else None  # type: ignore[arg-type]


_EVERY_CHALLENGE: Mapping[str, Reader[Any]] = {"type": lambda kind, at, found: kind,
                                               "points": read_integer}
"""What every challenge has: its ``type`` (already read: it chose the challenge's
fields) and the points on its wooden crate."""

_CHALLENGES: dict[str, tuple[Mapping[str, Reader[Any]], Callable[[Json], Challenge]]] = {
    "exact_count": ({"counts": _read_counts}, lambda c: ExactCount(c["counts"], c["points"])),
    "forbidden": ({"ingredients": _read_ingredients},
                  lambda c: Forbidden(c["ingredients"], c["points"])),
    "exact_count_any": ({"count": read_integer},
                        lambda c: ExactCountAny(c["count"], c["points"])),
    "exact_total": ({"count": read_integer}, lambda c: ExactTotal(c["count"], c["points"])),
    "one_of_each": ({}, lambda c: OneOfEach(c["points"])),
    "majority": ({"ingredient": _read_ingredient},
                 lambda c: Majority(c["ingredient"], c["points"])),
    "per_set": ({"sets": lambda v, path, problems: read_each(v, path, problems,
                                                            _read_ingredients)},
                lambda c: PerSet(tuple(c["sets"]), c["points"])),
}
"""Each challenge type's own fields, and the challenge made of them all."""


def _read_challenge(value: object, path: Path, problems: list[Problem]) -> Challenge | None:
    """A challenge by its ``type``, which must be one before its fields are read."""
    obj = read_object(value, path, problems, EXPECTED_OBJECT)
    if obj is None:
        return None
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _CHALLENGES:
        choices = tuple(_CHALLENGES)
        problems.append(Problem((*path, "type"), GIVE_THE_CHALLENGE_TYPE(expected=choices)
                                if not isinstance(kind, str) else
                                NOT_A_CHALLENGE_TYPE(value=quoted(kind), expected=choices)))
        return None
    own, made = _CHALLENGES[kind]
    fields = read_fields(obj, path, problems, {**_EVERY_CHALLENGE, **own})
    return None if fields is None else made(fields)


def _read_challenges(value: object, path: Path,
                     problems: list[Problem]) -> list[Challenge | None] | None:
    return read_each(value, path, problems, _read_challenge)


def _read_space(value: object, path: Path, problems: list[Problem]) -> Space | None:
    if value is None:
        return None
    ingredients = _read_ingredients(value, path, problems)
    return None if ingredients is None else FoodTile(ingredients)


def _read_board(value: object, path: Path, problems: list[Problem]) -> Board | None:
    fields = read_fields(value, path, problems, {
        "mode": _read_mode,
        "row_challenges": _read_challenges,
        "column_challenges": _read_challenges,
        "grid": lambda v, at, found: read_each(
            v, at, found, lambda row, r, f: read_each(row, r, f, _read_space)),
    }, defaults={"mode": Mode.STANDARD, "row_challenges": [], "column_challenges": []})
    if fields is None:
        return None
    return Board(grid=tuple(tuple(row) for row in fields["grid"]),
                 row_challenges=tuple(fields["row_challenges"]),
                 column_challenges=tuple(fields["column_challenges"]), mode=fields["mode"])


def _read_player(value: object, path: Path,
                 problems: list[Problem]) -> tuple[str, Board] | None:
    fields = read_fields(value, path, problems, {
        "name": lambda v, at, found: read_str(v, at, found, EXPECTED_STRING, max_length=None),
        "board": _read_board})
    return None if fields is None else (fields["name"], fields["board"])


def _read(reader: Reader[Any], data: object, path: Path = ()) -> Any:
    problems: list[Problem] = []
    read = reader(data, path, problems)
    refuse(problems)
    return read


def challenge_from_dict(data: object) -> Challenge:
    """One challenge object (``{"type": "majority", "ingredient": "corn", "points": 4}``)."""
    challenge: Challenge = _read(_read_challenge, data)
    return challenge


def space_from_json(data: object) -> Space:
    """``null`` is an empty space; a list of names is a Food tile."""
    space: Space = _read(_read_space, data)
    return space


def board_from_dict(data: object) -> Board:
    """A board (``mode`` defaults to standard, challenges may be left out)."""
    board: Board = _read(_read_board, data)
    return board


def players_from_list(players: object) -> list[tuple[str, Board]]:
    """A rank request's ``players`` as the ``(name, board)`` pairs :func:`.rank_boards`
    takes; a problem's path begins ``("players", index)``, as in the request and as
    :func:`.check_players` says its own."""
    read: list[tuple[str, Board]] = _read(
        lambda v, at, found: read_each(v, at, found, _read_player), players, ("players",))
    return read


def _line_to_dict(line: LineScore) -> Json:
    return {"index": line.index, "met": line.met, "points": line.points,
            "explanation": line.verdict.explanation, "rule": line.verdict.rule}


def score_to_dict(score: BoardScore) -> Json:
    """The contract's answer for ``/score``."""
    return {"mode": score.mode.value, "total": score.total, "complete": score.complete,
            "challenges_met": score.challenges_met,
            "best_challenge_points": score.best_challenge_points,
            "rows": [_line_to_dict(line) for line in score.rows],
            "columns": [_line_to_dict(line) for line in score.columns]}


def ranking_to_dict(ranking: Ranking) -> Json:
    """The contract's answer for ``/rank``."""
    return {"standings": [{"name": s.name, "total": s.score.total,
                           "challenges_met": s.score.challenges_met,
                           "best_challenge_points": s.score.best_challenge_points,
                           "place": s.place} for s in ranking.standings],
            "winners": list(ranking.winners)}
