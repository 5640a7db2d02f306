"""Names as a person writes them, through the real gateway: ingredients, goods and
buildings in any case and spacing, printed names, plurals and French words are read as
the ids they name, answers give the ids, and a near miss is told the nearest names
(in ``params`` too) in words that name no file, id convention or snake_case."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import Service

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DFM, FF = "/v1/downtown-farmers-market", "/v1/foxglove-farm"
DEVELOPER_WORDS = ("snake_case", "docs/", ".md", "ids are", "identifiant")


def example(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def post(service: Service, path: str, body: Any, language: str = "en") -> requests.Response:
    return requests.post(f"{service.url}{path}", json=body, timeout=10,
                         headers={"Accept-Language": language})


def respelt(board: Any, spellings: dict[str, str]) -> Any:
    """``board`` with each ingredient of its grid written as ``spellings`` says."""
    changed = copy.deepcopy(board)
    changed["grid"] = [[None if space is None else [spellings.get(i, i) for i in space]
                        for space in row] for row in board["grid"]]
    return changed


@pytest.mark.parametrize("spellings", [
    {"egg": "Egg", "corn": "CORN", "bread": "Bread"},
    {"egg": "eggs", "carrot": "carrots", "milk": " milk"},
    {"egg": "egg ", "cheese": "Cheese "},
    {"egg": "oeuf", "bread": "pain", "cheese": "fromage", "carrot": "carotte"},
    {"egg": "Œuf", "milk": "lait", "corn": "maïs"},
], ids=["case", "plural", "spaces", "french", "french-accents"])
def test_a_board_s_ingredients_as_a_person_writes_them(service: Service,
                                                       spellings: dict[str, str]) -> None:
    board = example("board.json")
    expected = post(service, f"{DFM}/score", board)
    answer = post(service, f"{DFM}/score", respelt(board, spellings))
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected.json()


def test_a_challenge_s_ingredient_as_a_person_writes_it(service: Service) -> None:
    board = example("board.json")
    majority = next(c for c in board["row_challenges"] + board["column_challenges"]
                    if c["type"] == "majority")
    canonical = majority["ingredient"]
    majority["ingredient"] = f" {canonical.upper()}s"
    answer = post(service, f"{DFM}/score", board)
    assert answer.status_code == 200, answer.text
    assert answer.json() == post(service, f"{DFM}/score", example("board.json")).json()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_near_miss_ingredient_is_told_the_nearest(service: Service, language: str) -> None:
    board = example("board.json")
    board["grid"][0][0] = ["eggz"]
    answer = post(service, f"{DFM}/score", board, language)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["pointer"] == "/grid/0/0/0"
    assert error["code"] == "NOT_AN_INGREDIENT_LIKE"
    assert error["params"]["like"] == ["egg"]
    assert ("did you mean egg?" if language == "en" else "vouliez-vous dire œuf ?") in \
        error["detail"]


def town_with(building: str, goods: dict[str, int] | None = None) -> Any:
    """The shipped town with its Charcoal Kiln written as ``building`` (holding ``goods``)."""
    town = example("town.json")
    kiln = next(t for t in town["tiles"] if t.get("building") == "charcoal_kiln")
    kiln["building"] = building
    if goods is not None:
        kiln["goods"] = goods
    return town


@pytest.mark.parametrize(("building", "goods"), [
    ("Charcoal Kiln", None), ("charcoal kiln", {"Coal": 2}), ("CHARCOAL-KILN", {"coal ": 2}),
    ("  Charcoal_Kiln ", {"charbon": 2}),
])
def test_a_building_by_its_printed_name(service: Service, building: str,
                                        goods: dict[str, int] | None) -> None:
    expected = post(service, f"{FF}/score", example("town.json")).json()
    answer = post(service, f"{FF}/score", town_with(building, goods))
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected


@pytest.mark.parametrize(("printed", "canonical"), [
    ("Hauler's Hut", "haulers_hut"), ("hauler’s hut", "haulers_hut"), ("Coal-shed", "coal_shed"),
    ("Forager's Camp", "foragers_camp"), ("Community Centre", "community_centre")])
def test_apostrophes_and_hyphens_in_a_printed_name(service: Service, printed: str,
                                                   canonical: str) -> None:
    """Answered as the id is: the answer names the building by its id."""
    answer = post(service, f"{FF}/score", town_with(printed, {}))
    assert answer.status_code == 200, answer.text
    assert answer.json() == post(service, f"{FF}/score", town_with(canonical, {})).json()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_near_miss_building_is_told_the_nearest_printed_names(service: Service,
                                                                language: str) -> None:
    answer = post(service, f"{FF}/score", town_with("Charcol Kiln"), language)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["code"] == "FF_UNKNOWN_BUILDING_LIKE"
    assert error["params"]["like"][0] == "Charcoal Kiln"
    assert "Charcoal Kiln" in error["detail"]
    assert not any(word in error["detail"] for word in DEVELOPER_WORDS), error["detail"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_far_miss_building_names_no_convention(service: Service, language: str) -> None:
    answer = post(service, f"{FF}/score", town_with("zzqx"), language)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["code"] == "FF_UNKNOWN_BUILDING"
    assert not any(word in error["detail"] for word in DEVELOPER_WORDS), error["detail"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_printed_name_the_rulebook_leaves_undefined_names_no_file(service: Service,
                                                                    language: str) -> None:
    """Lean-to is found by its printed name, and refused as a tile whose effects are not
    printed in the rulebook, in words that point to no file."""
    answer = post(service, f"{FF}/score", town_with("Lean-to"), language)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert (error["code"], error["params"]["building"]) == ("FF_UNDOCUMENTED_BUILDING", "lean_to")
    assert not any(word in error["detail"] for word in DEVELOPER_WORDS), error["detail"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_good_named_twice_is_refused_not_dropped(service: Service, language: str) -> None:
    """"Coal" and "coal " name one good: the second count is refused, not kept silently."""
    answer = post(service, f"{FF}/score", town_with("charcoal_kiln", {"Coal": 2, "coal ": 1}),
                  language)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["pointer"].endswith("/goods/coal ") and error["code"] == "NAMED_AGAIN"
    assert ("again" if language == "en" else "de nouveau le charbon") in error["detail"]


def test_an_ingredient_counted_twice_is_refused(service: Service) -> None:
    board = example("board.json")
    challenge = next(c for c in board["row_challenges"] + board["column_challenges"]
                     if c["type"] == "exact_count")
    name = next(iter(challenge["counts"]))
    challenge["counts"][name.upper()] = 1
    answer = post(service, f"{DFM}/score", board)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["code"] == "NAMED_AGAIN" and error["pointer"].endswith(f"/counts/{name.upper()}")
