"""Every 422 detail, the rules' own checks' included, has a code of its own and is said in
French when asked: no problem falls back to INVALID_VALUE (English words in
``params.message``), whatever is wrong with a board, town, setup, state or move."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient

from ..sample_boards import SIMPLE_BOARD
from .test_foxglove_farm_gateway import MALFORMED_TOWNS
from .test_foxglove_farm_gateway import SCORE as FF_SCORE

DFM = "/v1/downtown-farmers-market"
FF = "/v1/foxglove-farm"
Json = dict[str, Any]


def _board(**changes: Any) -> Json:
    return {**copy.deepcopy(SIMPLE_BOARD), **changes}


def _dfm_setup(**changes: Any) -> Json:
    board = {k: v for k, v in SIMPLE_BOARD.items() if k != "grid"}
    return {"mode": "standard", "players": [{"name": n, "board": copy.deepcopy(board)}
                                            for n in ("Ana", "Ben")],
            "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread", "bread"], ["cheese"]],
            **changes}


_FF_SETUP = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
             "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "coal_mine",
                         "lambing_shed", "allotment"],
             "c_tiles": ["bakery", "bakery", "furniture_store", "marketplace", "grocer"]}


def _ff_setup(**changes: Any) -> Json:
    return {**copy.deepcopy(_FF_SETUP), **changes}


_ROW = SIMPLE_BOARD["row_challenges"]
REQUESTS: dict[str, tuple[str, Any]] = {
    # Downtown Farmers Market boards, scored
    "three row challenges": (f"{DFM}/score", _board(row_challenges=_ROW[:3])),
    "a row too short": (f"{DFM}/score", _board(grid=[SIMPLE_BOARD["grid"][0][:3],
                                                      *SIMPLE_BOARD["grid"][1:]])),
    "three rows": (f"{DFM}/score", _board(grid=SIMPLE_BOARD["grid"][:3])),
    "a tile of four": (f"{DFM}/score", _board(grid=[
        [["bread", "corn", "egg", "milk"], *SIMPLE_BOARD["grid"][0][1:]],
        *SIMPLE_BOARD["grid"][1:]])),
    "young shopper challenges": (f"{DFM}/score", _board(mode="young_shopper")),
    "an ingredient forbidden twice": (f"{DFM}/score", _board(row_challenges=[
        {"type": "forbidden", "ingredients": ["corn", "corn"], "points": 3}, *_ROW[1:]])),
    # Downtown Farmers Market setups
    "one player": (f"{DFM}/games", _dfm_setup(players=_dfm_setup()["players"][:1])),
    "first player and face-up tiles": (f"{DFM}/games",
                                       _dfm_setup(first_player=2, face_up=[["corn"]] * 4)),
    "another rules version": (f"{DFM}/games", _dfm_setup(rules_version=3)),
    "a full grid and another mode": (f"{DFM}/games", {**_dfm_setup(), "players": [
        {"name": "Ana", "board": SIMPLE_BOARD},
        {"name": "Ben", "board": {"mode": "young_shopper"}}]}),
    "a name twice": (f"{DFM}/games", {**_dfm_setup(), "players": [
        _dfm_setup()["players"][0]] * 2}),
    # Foxglove Farm setups
    "no players": (f"{FF}/games", _ff_setup(players=[])),
    "start player and too few A tiles": (f"{FF}/games",
                                         _ff_setup(start_player=2, a_tiles=["granary"])),
    "an A tile among the C tiles": (f"{FF}/games",
                                    _ff_setup(c_tiles=["granary", *_FF_SETUP["c_tiles"]])),
    "a solo setup for two": (f"{FF}/games", _ff_setup(solo=1)),
    "one player without a solo setup": (f"{FF}/games", {"players": [{"name": "Kuly"}]}),
    "a catalog's negative slots": (f"{FF}/games",
                                   _ff_setup(catalog={"granary": {"slots": -1}})),
    # Foxglove Farm towns, scored
    **{f"town: {name}": (FF_SCORE, body) for name, (body, _) in MALFORMED_TOWNS.items()},
}


@pytest.mark.parametrize("path, body", REQUESTS.values(), ids=REQUESTS)
def test_every_problem_has_its_code_and_its_french(gateway: FlaskClient, path: str,
                                                   body: Any) -> None:
    english = gateway.post(path, json=body)
    french = gateway.post(path, json=body, headers={"Accept-Language": "fr"})
    assert english.status_code == french.status_code == 422, english.get_data(as_text=True)
    said, dit = english.get_json()["errors"], french.get_json()["errors"]
    assert [e["code"] for e in said] == [e["code"] for e in dit]
    for en, fr in zip(said, dit):
        assert en["code"] and en["code"] != "INVALID_VALUE", en
        assert fr["detail"] != en["detail"], (en["code"], fr["detail"])
