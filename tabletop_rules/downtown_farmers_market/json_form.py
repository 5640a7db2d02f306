"""Downtown Farmers Market in the contract's JSON form, for library users and tests.

Reading converts without judging: a board that breaks the contract (a tile of four
ingredients, a challenge worth -1 points) reads as it is, and :func:`.check_board` or
:func:`.validate_board` says what is wrong with it. Data that is not the contract's shape
at all (a missing field, an unknown name) raises ``KeyError`` or ``ValueError``. The
writers give answers in the contract's form. The service does not come this way: the
engine reads protobuf.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
from .model import Board, FoodTile, Ingredient, Mode, Space
from .ranking import Ranking
from .scoring import BoardScore, LineScore

Json = dict[str, Any]


def _ingredients(names: Sequence[str]) -> tuple[Ingredient, ...]:
    return tuple(Ingredient(name) for name in names)


_CHALLENGES: dict[str, Callable[[Mapping[str, Any]], Challenge]] = {
    "exact_count": lambda c: ExactCount(
        tuple((Ingredient(name), n) for name, n in c["counts"].items()), c["points"]),
    "forbidden": lambda c: Forbidden(_ingredients(c["ingredients"]), c["points"]),
    "exact_count_any": lambda c: ExactCountAny(c["count"], c["points"]),
    "exact_total": lambda c: ExactTotal(c["count"], c["points"]),
    "one_of_each": lambda c: OneOfEach(c["points"]),
    "majority": lambda c: Majority(Ingredient(c["ingredient"]), c["points"]),
    "per_set": lambda c: PerSet(tuple(_ingredients(s) for s in c["sets"]), c["points"]),
}


def challenge_from_dict(data: Mapping[str, Any]) -> Challenge:
    """One challenge object (``{"type": "majority", "ingredient": "corn", "points": 4}``)."""
    return _CHALLENGES[data["type"]](data)


def space_from_json(data: Sequence[str] | None) -> Space:
    """``null`` is an empty space; a list of names is a Food tile."""
    return None if data is None else FoodTile(_ingredients(data))


def board_from_dict(data: Mapping[str, Any]) -> Board:
    """A board (``mode`` defaults to standard, challenges may be left out)."""
    return Board(
        grid=tuple(tuple(space_from_json(space) for space in row) for row in data["grid"]),
        row_challenges=tuple(challenge_from_dict(c) for c in data.get("row_challenges", ())),
        column_challenges=tuple(challenge_from_dict(c)
                                for c in data.get("column_challenges", ())),
        mode=Mode(data.get("mode", Mode.STANDARD.value)),
    )


def players_from_list(players: Sequence[Mapping[str, Any]]) -> list[tuple[str, Board]]:
    """A rank request's ``players`` as the ``(name, board)`` pairs :func:`.rank_boards`
    takes."""
    return [(p["name"], board_from_dict(p["board"])) for p in players]


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
