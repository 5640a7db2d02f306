"""Contract-JSON boards as tabletop_rules domain objects.

Test data stays in the public contract's JSON form (golden files, generated boards, the
reference implementation's input); this loader is the one place that turns it into
:class:`Board` values, so every test reads boards the way the gateway will send them.
It converts without judging: a board that breaks the contract (a tile of four
ingredients, a challenge worth -1 points) loads as it is, for the validation tests.
:func:`core_score` and :func:`core_rank` give the core's answers back in the contract's
form, so they compare directly with the golden files and the reference.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop_rules.downtown_farmers_market import (
    Board,
    BoardScore,
    Challenge,
    ExactCount,
    ExactCountAny,
    ExactTotal,
    FoodTile,
    Forbidden,
    Ingredient,
    LineScore,
    Majority,
    Mode,
    OneOfEach,
    PerSet,
    Space,
    rank_boards,
    score_board,
)

JsonDict = dict[str, Any]

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "downtown_farmers_market"


def _ingredients(names: list[str]) -> tuple[Ingredient, ...]:
    return tuple(Ingredient(name) for name in names)


_CHALLENGES: dict[str, Callable[[JsonDict], Challenge]] = {
    "exact_count": lambda c: ExactCount(
        tuple((Ingredient(name), n) for name, n in c["counts"].items()), c["points"]),
    "forbidden": lambda c: Forbidden(_ingredients(c["ingredients"]), c["points"]),
    "exact_count_any": lambda c: ExactCountAny(c["count"], c["points"]),
    "exact_total": lambda c: ExactTotal(c["count"], c["points"]),
    "one_of_each": lambda c: OneOfEach(c["points"]),
    "majority": lambda c: Majority(Ingredient(c["ingredient"]), c["points"]),
    "per_set": lambda c: PerSet(tuple(_ingredients(s) for s in c["sets"]), c["points"]),
}


def load_challenge(data: JsonDict) -> Challenge:
    """One CHALLENGE object of the contract."""
    return _CHALLENGES[data["type"]](data)


def load_space(data: list[str] | None) -> Space:
    """``null`` is an empty space; a list of names is a Food tile."""
    return None if data is None else FoodTile(_ingredients(data))


def load_board(data: JsonDict) -> Board:
    """A contract board (``mode`` defaults to standard, challenges may be absent)."""
    return Board(
        grid=tuple(tuple(load_space(space) for space in row) for row in data["grid"]),
        row_challenges=tuple(load_challenge(c) for c in data.get("row_challenges", ())),
        column_challenges=tuple(load_challenge(c) for c in data.get("column_challenges", ())),
        mode=Mode(data.get("mode", Mode.STANDARD.value)),
    )


def load_players(players: list[JsonDict]) -> list[tuple[str, Board]]:
    """The ``players`` list of a rank request as ``(name, board)`` pairs."""
    return [(p["name"], load_board(p["board"])) for p in players]


def read_data(name: str) -> JsonDict:
    """A JSON file from ``tests/data/downtown_farmers_market``."""
    data: JsonDict = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return data


def _line_json(line: LineScore) -> JsonDict:
    return {"index": line.index, "met": line.met, "points": line.points,
            "rule": line.verdict.rule}


def _score_json(score: BoardScore) -> JsonDict:
    return {"mode": score.mode.value,
            "rows": [_line_json(line) for line in score.rows],
            "columns": [_line_json(line) for line in score.columns],
            "total": score.total, "complete": score.complete,
            "challenges_met": score.challenges_met,
            "best_challenge_points": score.best_challenge_points}


def core_score(board: JsonDict) -> JsonDict:
    """The core's score of a contract board, in the contract's answer form (no explanations)."""
    return _score_json(score_board(load_board(board)))


def core_rank(players: list[JsonDict]) -> JsonDict:
    """The core's ranking of a rank request's players, in the contract's answer form."""
    ranking = rank_boards(load_players(players))
    return {"standings": [{"name": s.name, "total": s.score.total,
                           "challenges_met": s.score.challenges_met,
                           "best_challenge_points": s.score.best_challenge_points,
                           "place": s.place} for s in ranking.standings],
            "winners": list(ranking.winners)}
