"""One numbering in every message, through the real gateway, in English and French:
Downtown Farmers Market's fixed grid counts rows and columns from 1 ("row 1" is
``/grid/0``), Foxglove Farm's open grid says the town's own coordinates as "row R, col C"
(the request's numbers, negatives allowed), the buildings an effect counted included
(they were "Forest (0, 0)"); pointers stay 0-based."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import requests

from ..sample_boards import SIMPLE_BOARD
from .conftest import Service

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[1] / "data" / "foxglove_farm"
WORDS = {"en": ("row", "col"), "fr": ("ligne", "colonne")}
BARE_PAIR = re.compile(r"\(-?\d+, -?\d+\)")


def post(service: Service, path: str, body: Any, language: str) -> requests.Response:
    return requests.post(f"{service.url}{path}", json=body, timeout=10,
                         headers={"Accept-Language": language})


def counting_town() -> tuple[dict[str, Any], list[tuple[str, int, int]]]:
    """A town whose Community Centre counts three buildings reached along trails, and the
    buildings with their positions."""
    cases = json.loads((DATA / "end_game_explanations.json").read_text(encoding="utf-8"))
    case = next(c for c in cases["cases"] if "3 buildings reached" in json.dumps(c))
    counted = [(t["building"], t["row"], t["col"]) for t in case["town"]["tiles"]
               if t.get("building") in ("charcoal_kiln", "forest", "butcher")]
    return case["town"], counted


@pytest.mark.parametrize("language", ["en", "fr"])
def test_foxglove_farm_messages_name_positions_as_the_town_gives_them(
        service: Service, language: str) -> None:
    town, counted = counting_town()
    answer = post(service, "/v1/foxglove-farm/score", town, language)
    assert answer.status_code == 200, answer.text
    centre = next(e for e in answer.json()["end_game"] if e["building"] == "community_centre")
    row, col = WORDS[language]
    text = centre["explanation"]
    assert not BARE_PAIR.search(text), text
    for _, r, c in counted:
        assert f"{row} {r}, {col} {c}" in text, text
    assert text.count(f"{row} ") == len(counted) + 1  # and the centre's own position


@pytest.mark.parametrize("language", ["en", "fr"])
def test_downtown_farmers_market_messages_count_from_1(service: Service,
                                                       language: str) -> None:
    row, col = WORDS[language][0], {"en": "column", "fr": "colonne"}[language]
    board = json.loads(json.dumps(SIMPLE_BOARD))
    board["grid"][0] = board["grid"][0][:3]
    answer = post(service, "/v1/downtown-farmers-market/score", board, language)
    (error,) = answer.json()["errors"]
    assert error["pointer"] == "/grid/0"
    assert re.search(rf"\b{row} 1\b", error["detail"]), error["detail"]

    setup = {"players": [{"name": name, "board": {k: v for k, v in SIMPLE_BOARD.items()
                                                  if k != "grid"}} for name in ("Ana", "Ben")],
             "face_up": [["corn"], ["egg"], ["milk"], ["bread"], ["cheese"]]}
    state = post(service, "/v1/downtown-farmers-market/games", setup, language).json()
    take = {"action": "take", "player": 0, "tile": ["corn"], "row": 0, "col": 3}
    state = post(service, "/v1/downtown-farmers-market/moves/validate",
                 {"state": state, "move": take}, language).json()["state"]
    discard = {"action": "discard", "player": 0, "tile": ["milk"]}
    state = post(service, "/v1/downtown-farmers-market/moves/validate",
                 {"state": state, "move": discard}, language).json()["state"]
    occupied = {**take, "tile": ["egg"]}  # Ana again, on her own taken space
    verdict = post(service, "/v1/downtown-farmers-market/moves/validate",
                   {"state": state, "move": occupied}, language).json()
    (message,) = [v["message"] for v in verdict["violations"]
                  if v["reason"] == "OCCUPIED_SPACE"]
    assert f"{row} 1, {col} 4" in message.lower(), message
