"""A board read in doubt, sent to ``/rank``: the real gateway says that only ``/score``
takes doubtful spaces (it said "expected a JSON array"), in the caller's language."""

from __future__ import annotations

import copy

import pytest
import requests

from ..cli.files import rulebook_board
from .conftest import Service

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("language", "words"), [("en", "only by /score"),
                                                  ("fr", "que par /score")])
def test_a_doubtful_space_at_rank_points_to_score(service: Service, language: str,
                                                  words: str) -> None:
    board = rulebook_board("rulebook_standard_example.json")
    doubtful = copy.deepcopy(board)
    doubtful["grid"][2][1] = {"candidates": [["corn"], ["carrot"]]}
    response = requests.post(
        f"{service.url}/v1/downtown-farmers-market/rank", timeout=10,
        headers={"Accept-Language": language},
        json={"players": [{"name": "Ana", "board": board}, {"name": "Ben", "board": doubtful}]})
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    assert error["pointer"] == "/players/1/board/grid/2/1"
    assert words in error["detail"]
    assert error["code"] == "DFM_DOUBTFUL_SPACE_NOT_RANKED"
