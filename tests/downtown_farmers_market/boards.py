"""The golden data files, and the core's answers in the contract's form.

Test data stays in the public contract's JSON form (golden files, generated boards, the
reference implementation's input), read into :class:`Board` values by the library's
JSON form (:mod:`tabletop_rules.downtown_farmers_market.json_form`), which converts
without judging, so the validation tests can load broken boards. :func:`core_score` and
:func:`core_rank` give the core's answers back in the contract's form, so they compare
directly with the golden files and the reference (which carry no explanations).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tabletop_rules.downtown_farmers_market import rank_boards, score_board
from tabletop_rules.downtown_farmers_market.json_form import (
    board_from_dict,
    players_from_list,
    ranking_to_dict,
    score_to_dict,
)

JsonDict = dict[str, Any]

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "downtown_farmers_market"


def read_data(name: str) -> JsonDict:
    """A JSON file from ``tests/data/downtown_farmers_market``."""
    data: JsonDict = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return data


def core_score(board: JsonDict) -> JsonDict:
    """The core's score of a contract board, in the contract's answer form (no explanations)."""
    answer = score_to_dict(score_board(board_from_dict(board)))
    for side in ("rows", "columns"):
        for line in answer[side]:
            del line["explanation"]
    return answer


def core_rank(players: list[JsonDict]) -> JsonDict:
    """The core's ranking of a rank request's players, in the contract's answer form."""
    return ranking_to_dict(rank_boards(players_from_list(players)))
