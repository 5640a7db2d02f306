"""A transcription checked whole over REST: the gateway's shape problems and the rules'
problems with the rest of the body in one 422 (api_gateway/standins.py), with no problem
said twice and none that only a left-out or stood-in value would cause."""

from __future__ import annotations

import copy
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_gateway import create_app
from tabletop_rules.downtown_farmers_market.model import INGREDIENTS

from ..foxglove_farm.towns import b, t, town_data
from ..sample_boards import SIMPLE_BOARD
from .test_gateway import problem

SCORE = "/v1/downtown-farmers-market/score"
RANK = "/v1/downtown-farmers-market/rank"
FF_SCORE = "/v1/foxglove-farm/score"
FF_RANK = "/v1/foxglove-farm/rank"
TRANSPORT = "/v1/foxglove-farm/transport/validate"
MISSPELT = ("braed", "cron", "eggz", "chese", "milc", "carot", "Braed", "")


def errors(response: Any) -> list[tuple[str, str]]:
    """A 422's problems, (pointer, code) each, in the answer's order."""
    return [(e["pointer"], e["code"]) for e in problem(response, 422)["errors"]]


def where(response: Any) -> list[str]:
    return [pointer for pointer, _ in errors(response)]


def test_a_misspelt_ingredient_and_a_rules_problem_elsewhere_get_one_422(
        gateway: FlaskClient) -> None:
    board = copy.deepcopy(SIMPLE_BOARD)
    board["grid"][1][2] = ["egg", "braed"]
    board["grid"][3][3] = ["egg"] * 4  # a Food tile shows 1 to 3 ingredients
    board["column_challenges"][2]["points"] = 150
    answer = problem(gateway.post(SCORE, json=board), 422)
    assert [e["pointer"] for e in answer["errors"]] == [
        "/column_challenges/2/points", "/grid/1/2/1", "/grid/3/3"]  # as the body has them
    assert answer["detail"] == "3 problems in the request body"
    assert answer["errors"][1]["code"] == "NOT_AN_INGREDIENT_LIKE"
    assert "'braed' is not an ingredient" in answer["errors"][1]["detail"]


def test_a_misspelt_good_and_a_disconnected_tile_get_one_422(gateway: FlaskClient) -> None:
    town = town_data(b(1, 0, "ranch", sheap=2), b(4, 4, "granary", wheat=1))
    assert errors(gateway.post(FF_SCORE, json=town)) == [
        ("/tiles/2/goods/sheap", "NOT_A_GOODS_TYPE_LIKE"), ("/tiles/3", "FF_CUT_OFF")]


def test_a_misspelt_side_keeps_its_square(gateway: FlaskClient) -> None:
    """The trail with an unreadable side still joins the town: the Granary beyond it is
    not cut off, and the trail is not called one-sided."""
    town = town_data(t(1, 0, "Nx"), b(2, 0, "granary"), b(6, 6, "ranch"))
    assert where(gateway.post(FF_SCORE, json=town)) == ["/tiles/2/trail/1", "/tiles/4"]


def test_goods_left_out_are_not_said_to_be_missing(gateway: FlaskClient) -> None:
    """An exact_count challenge whose one ingredient is misspelt is not also said to list
    none; its other entries are still judged."""
    board = copy.deepcopy(SIMPLE_BOARD)
    board["column_challenges"][0] = {"type": "exact_count", "points": 1,
                                     "counts": {"cabbage": 1}}
    board["column_challenges"][1] = {"type": "exact_count", "points": 1,
                                     "counts": {"cabbage": 1, "egg": 13}}
    assert where(gateway.post(SCORE, json=board)) == [
        "/column_challenges/0/counts/cabbage", "/column_challenges/1/counts/cabbage",
        "/column_challenges/1/counts/egg"]


def test_rankings_are_checked_whole(gateway: FlaskClient) -> None:
    bad = copy.deepcopy(SIMPLE_BOARD)
    bad["grid"][0][0] = ["milc"]
    players = [{"name": "Ana", "board": bad}, {"name": "Ana", "board": SIMPLE_BOARD}]
    assert where(gateway.post(RANK, json={"players": players})) == [
        "/players/0/board/grid/0/0/0", "/players/1/name"]
    towns = [{"name": "Kuly", "town": town_data(b(1, 0, "ranch", gold=1))},
             {"name": "Ben", "town": town_data(b(7, 7, "ranch"), variant="hard")}]
    assert where(gateway.post(FF_RANK, json={"players": towns})) == [
        "/players/0/town/tiles/2/goods/gold", "/players/1/town/tiles/2",
        "/players/1/town/variant"]


def test_a_transport_with_a_misspelt_good_and_a_town_problem(gateway: FlaskClient) -> None:
    body = {"town": town_data(b(1, 0, "granary"), b(9, 9, "ranch")),
            "move": {"good": "whaet", "from": {"row": 0, "col": 0}, "to": {"row": 1, "col": 0}}}
    assert where(gateway.post(TRANSPORT, json=body)) == ["/town/tiles/3", "/move/good"]


def test_a_value_with_no_stand_in_gets_the_shape_problems_alone(gateway: FlaskClient) -> None:
    """A position that is no number cannot be stood in for (where is the tile?): the
    rules are not asked, so nothing they would say of the tile's neighbours is guessed."""
    town = town_data({**b(1, 0, "ranch", gold=1), "row": "one"}, b(6, 6, "ranch"))
    assert where(gateway.post(FF_SCORE, json=town)) == ["/tiles/2/row", "/tiles/2/goods/gold"]


def test_without_an_engine_the_shape_problems_are_still_a_422() -> None:
    nowhere = create_app({"ENGINE_ADDRESS": "127.0.0.1:1", "ENGINE_TIMEOUT_SECONDS": 1}
                         ).test_client()
    board = copy.deepcopy(SIMPLE_BOARD)
    board["grid"][0][0] = ["braed"]
    assert where(nowhere.post(SCORE, json=board)) == ["/grid/0/0/0"]
    town = town_data(b(1, 0, "ranch", sheap=2), b(4, 4, "granary"))
    assert where(nowhere.post(FF_SCORE, json=town)) == ["/tiles/2/goods/sheap"]


def test_a_misspelt_candidate_does_not_seem_to_repeat_another(gateway: FlaskClient) -> None:
    board = copy.deepcopy(SIMPLE_BOARD)
    for grid_space, pointer in (({"candidates": [["braed"], ["bread"]]}, "/grid/0/0/candidates/0/0"),
                                ({"candidates": [["bread"], ["braed"]]}, "/grid/0/0/candidates/1/0")):
        board["grid"][0][0] = grid_space
        assert where(gateway.post(SCORE, json=board)) == [pointer]


# A property: for random well-typed boards (which may break the rules anywhere), one
# cell's ingredient misspelt, the 422 names exactly that ingredient's pointer plus what
# the rules say of the same board with that cell empty.

ingredient = st.sampled_from([i.value for i in INGREDIENTS])
any_tile = st.lists(ingredient, min_size=0, max_size=4)  # 0 or 4: a rules problem
tile = st.lists(ingredient, min_size=1, max_size=3)
doubtful = st.builds(lambda tiles: {"candidates": tiles}, st.lists(any_tile, min_size=1,
                                                                  max_size=5))
space = st.none() | any_tile | doubtful
count = st.integers(0, 14)
points = st.integers(0, 150)
challenge = st.one_of(
    st.builds(lambda c, p: {"type": "exact_count", "counts": c, "points": p},
              st.dictionaries(ingredient, count, max_size=3), points),
    st.builds(lambda i, p: {"type": "forbidden", "ingredients": i, "points": p},
              st.lists(ingredient, max_size=3), points),
    st.builds(lambda n, p: {"type": "exact_count_any", "count": n, "points": p}, count, points),
    st.builds(lambda n, p: {"type": "exact_total", "count": n, "points": p}, count, points),
    st.builds(lambda p: {"type": "one_of_each", "points": p}, points),
    st.builds(lambda i, p: {"type": "majority", "ingredient": i, "points": p}, ingredient,
              points),
    st.builds(lambda s, p: {"type": "per_set", "sets": s, "points": p},
              st.lists(st.lists(ingredient, max_size=3), max_size=3), points))


@st.composite
def misspelt_boards(draw: st.DrawFn) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A well-typed board with one ingredient misspelt, the misspelt ingredient's pointer,
    and the same board with that cell empty."""
    rows = draw(st.integers(4, 5))
    grid = [draw(st.lists(space, min_size=4, max_size=5)) for _ in range(rows)]
    board: dict[str, Any] = {"mode": draw(st.sampled_from(["standard", "young_shopper"])),
                             "grid": grid}
    for side in ("row_challenges", "column_challenges"):
        if draw(st.booleans()):
            board[side] = draw(st.lists(challenge, min_size=3, max_size=5))
    r = draw(st.integers(0, rows - 1))
    c = draw(st.integers(0, len(grid[r]) - 1))
    misspelt = draw(st.sampled_from(MISSPELT))
    doubts = sum(isinstance(s, dict) for row in grid for s in row) - isinstance(grid[r][c], dict)
    if doubts < 8 and draw(st.booleans()):  # a doubtful space, its candidates all good
        candidates = draw(st.lists(tile, min_size=2, max_size=4,
                                   unique_by=lambda tile: tuple(sorted(tile))))
        k = draw(st.integers(0, len(candidates) - 1))
        i = draw(st.integers(0, len(candidates[k]) - 1))
        candidates[k][i] = misspelt
        grid[r][c] = {"candidates": candidates}
        pointer = f"/grid/{r}/{c}/candidates/{k}/{i}"
    else:
        ingredients = draw(tile)
        i = draw(st.integers(0, len(ingredients) - 1))
        ingredients[i] = misspelt
        grid[r][c] = ingredients
        pointer = f"/grid/{r}/{c}/{i}"
    if doubts > 8:  # the limit is another test's: keep it out of this one's way
        for row in grid:
            for j, each in enumerate(row):
                if isinstance(each, dict) and each is not grid[r][c]:
                    row[j] = None
    emptied = copy.deepcopy(board)
    emptied["grid"][r][c] = None
    return board, pointer, emptied


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=misspelt_boards())
def test_a_misspelt_ingredient_adds_exactly_its_own_problem(
        gateway: FlaskClient, case: tuple[dict[str, Any], str, dict[str, Any]]) -> None:
    board, pointer, emptied = case
    rest = gateway.post(SCORE, json=emptied)
    expected = [] if rest.status_code == 200 else [
        (e["pointer"], e["detail"]) for e in problem(rest, 422)["errors"]]
    found = [(e["pointer"], e["detail"]) for e in problem(gateway.post(SCORE, json=board),
                                                          422)["errors"]]
    assert [p for p, _ in found].count(pointer) == 1
    assert sorted(p for p in found if p[0] != pointer) == sorted(expected)
