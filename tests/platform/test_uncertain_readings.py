"""Doubtful readings through the gateway and the engine: the answer's ``uncertainty``,
the limits as 422s with a pointer, and candidates refused where nothing is scored (a
board's spaces, a town's goods counts)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tabletop_referee_clients import GrpcClient, InvalidRequestError
from tabletop_referee_clients.contract_json import to_json, to_message
from api_gateway.resources.downtown_farmers_market.schemas import ScoreBoardSchema, ScoreSchema
from api_gateway.resources.foxglove_farm.schemas import ScoreTownSchema, TownScoreSchema
from referee.downtown_farmers_market.v1 import board_pb2
from referee.foxglove_farm.v1 import town_pb2
from tabletop_rules.downtown_farmers_market import FoodTile
from tabletop_rules.downtown_farmers_market.json_form import board_from_dict
from tabletop_rules.downtown_farmers_market.readings import DoubtfulCell, score_readings

from ..foxglove_farm.towns import b, t, town_data
from ..sample_boards import SIMPLE_BOARD
from .test_gateway import pointers, problem

DFM = "/v1/downtown-farmers-market"
DATA = Path(__file__).resolve().parents[1] / "data" / "downtown_farmers_market"
RULEBOOK = json.loads((DATA / "rulebook_standard_example.json").read_text())["board"]


def doubtful_rulebook_board() -> dict[str, Any]:
    """The rulebook's 43-point board with two spaces read in doubt."""
    board = copy.deepcopy(RULEBOOK)
    grid = board["grid"]
    grid[0][0] = {"candidates": [grid[0][0], ["cheese"]]}
    grid[2][3] = {"candidates": [grid[2][3], ["egg", "egg"], ["milk"]]}
    return board


def test_a_board_with_two_doubtful_spaces_answers_what_its_readings_score(
        gateway: FlaskClient) -> None:
    answer = gateway.post(f"{DFM}/score", json=doubtful_rulebook_board())
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    likeliest = gateway.post(f"{DFM}/score", json=RULEBOOK).get_json()
    uncertainty = body.pop("uncertainty")
    assert body == likeliest and body["total"] == 43  # the likeliest reading's score
    assert list(uncertainty) == ["readings", "lowest_total", "highest_total", "likely_total",
                                 "spaces"]
    assert uncertainty["readings"] == 6 and uncertainty["likely_total"] == 43
    assert [(s["row"], s["col"], s["pointer"], len(s["totals"]))
            for s in uncertainty["spaces"]] == [(0, 0, "/grid/0/0", 2), (2, 3, "/grid/2/3", 3)]
    grid = board_from_dict(RULEBOOK).grid
    readings = score_readings(board_from_dict(RULEBOOK), [
        DoubtfulCell(0, 0, (grid[0][0], FoodTile.of("cheese"))),
        DoubtfulCell(2, 3, (grid[2][3], FoodTile.of("egg", "egg"), FoodTile.of("milk")))])
    assert (uncertainty["lowest_total"], uncertainty["highest_total"]) == (
        readings.lowest_total, readings.highest_total)
    assert [(s["decides"], s["totals"]) for s in uncertainty["spaces"]] == [
        (cell.decides, list(cell.totals)) for cell in readings.cells]


def test_rest_and_grpc_agree_on_a_doubtful_board(gateway: FlaskClient,
                                                 grpc_client: GrpcClient) -> None:
    board = doubtful_rulebook_board()
    message = ScoreBoardSchema().load(board)
    assert message == to_message(board_pb2.Board, board)  # the clients read it the same
    over_grpc = grpc_client.downtown_farmers_market.score_board(message)
    assert over_grpc.HasField("uncertainty")
    assert gateway.post(f"{DFM}/score", json=board).get_json() == ScoreSchema().dump(over_grpc)
    assert grpc_client.downtown_farmers_market.score_board(board) == to_json(over_grpc)
    assert to_json(message)["grid"][0][0] == board["grid"][0][0]


def test_a_board_without_doubt_answers_no_uncertainty(gateway: FlaskClient) -> None:
    assert "uncertainty" not in gateway.post(f"{DFM}/score", json=SIMPLE_BOARD).get_json()


def with_spaces(**spaces: Any) -> dict[str, Any]:
    """SIMPLE_BOARD with spaces replaced: ``s1_2=...`` is row 1, column 2."""
    board = copy.deepcopy(SIMPLE_BOARD)
    for name, space in spaces.items():
        row, col = map(int, name[1:].split("_"))
        board["grid"][row][col] = space
    return board


NINE = {f"s{r}_{c}": {"candidates": [["egg"], ["corn"]]} for r in range(3) for c in range(3)}


@pytest.mark.parametrize("body, expected", [
    (with_spaces(**NINE), {"/grid": "at most 8 doubtful cells on a board (the limit); got 9"}),
    (with_spaces(s1_1={"candidates": [["egg"]] + [[i] for i in ("corn", "milk", "bread", "cheese")]}),
     {"/grid/1/1/candidates": "a doubtful cell lists 2 to 4 candidate tiles, the likeliest "
                              "first; got 5"}),
    (with_spaces(s1_1={"candidates": [["egg"]]}),
     {"/grid/1/1/candidates": "a doubtful cell lists 2 to 4 candidate tiles, the likeliest "
                              "first; got 1"}),
    (with_spaces(s2_0={"candidates": [["egg", "corn"], ["corn", "egg"]]}),
     {"/grid/2/0/candidates/1": "the same tile as candidate 0"}),
    (with_spaces(s2_0={"candidates": [["egg"] * 4, []]}),
     {"/grid/2/0/candidates/0": "a Food tile shows 1 to 3 ingredients (DFM-R15); this one "
                                "has 4",
      "/grid/2/0/candidates/1": "a Food tile shows 1 to 3 ingredients (DFM-R15); this one "
                                "has 0"}),
])
def test_past_the_limits_is_a_422_naming_them(gateway: FlaskClient, body: Any,
                                              expected: dict[str, str]) -> None:
    errors = problem(gateway.post(f"{DFM}/score", json=body), 422)["errors"]
    assert {e["pointer"]: e["detail"] for e in errors} == expected


def test_the_board_s_own_problems_come_with_the_candidates(gateway: FlaskClient) -> None:
    body = with_spaces(s0_2={"candidates": [["egg"], ["egg"]]}, s3_3=["milk"] * 4)
    body["row_challenges"][0]["points"] = 101
    assert pointers(problem(gateway.post(f"{DFM}/score", json=body), 422)) == {
        "/grid/0/2/candidates/1", "/grid/3/3", "/row_challenges/0/points"}


@pytest.mark.parametrize("body, expected", [
    ({"candidates": [["egg"], ["cabbage"]]}, "/grid/1/1/candidates/1/0"),
    ({"candidates": "egg"}, "/grid/1/1/candidates"),
    ({"candidate": [["egg"], ["corn"]]}, "/grid/1/1/candidate"),
])
def test_a_malformed_doubtful_space_is_a_422_at_its_part(gateway: FlaskClient, body: Any,
                                                        expected: str) -> None:
    answer = problem(gateway.post(f"{DFM}/score", json=with_spaces(s1_1=body)), 422)
    assert expected in pointers(answer)


def test_only_a_board_being_scored_may_list_candidates(gateway: FlaskClient,
                                                       grpc_client: GrpcClient) -> None:
    doubtful = with_spaces(s1_1={"candidates": [["egg"], ["corn"]]})
    rank = {"players": [{"name": "Ana", "board": doubtful}]}
    assert pointers(problem(gateway.post(f"{DFM}/rank", json=rank), 422)) == {
        "/players/0/board/grid/1/1"}
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.rank_players(rank["players"])
    assert raised.value.problems == [(
        "/players/0/board/grid/1/1/candidates",
        "only a board being scored may list candidates for a space; give the tile it holds")]


def test_a_space_with_a_tile_and_candidates_is_refused_over_grpc(
        grpc_client: GrpcClient) -> None:
    board = ScoreBoardSchema().load(with_spaces(s1_1={"candidates": [["egg"], ["corn"]]}))
    board.grid[1].spaces[1].tile.ingredients.append(board_pb2.INGREDIENT_MILK)
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.score_board(board)
    assert raised.value.problems == [("/board/grid/1/1",
                                      "a space holds a tile or its candidates, not both")]


# -- Foxglove Farm: goods counts read in doubt ---------------------------------------------

FF = "/v1/foxglove-farm"


def doubtful_ranch(*candidates: int, **fields: Any) -> dict[str, Any]:
    """The contract's example town, its Ranch's sheep read in doubt."""
    return town_data(b(0, 0, "forest", wood=2), b(0, 1, "mine"), t(1, 0, "NE"),
                     b(1, 1, "ranch", sheep={"candidates": list(candidates)}),
                     start=False, score_track=64, **fields)


def test_a_town_with_a_doubtful_count_answers_what_its_readings_score(
        gateway: FlaskClient) -> None:
    """8 sheep score 30 (FF-R7: 3 each, 6 more at 8), 7 score 21: the count decides."""
    answer = gateway.post(f"{FF}/score", json=doubtful_ranch(8, 7))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    assert (body["total"], body["goods_remaining"]) == (94, 10)  # the likeliest reading
    assert body["uncertainty"] == {
        "readings": 2, "lowest_total": 85, "highest_total": 94, "likely_total": 94,
        "counts": [{"row": 1, "col": 1, "good": "sheep", "pointer": "/tiles/3/goods/sheep",
                    "decides": True, "totals": [94, 85]}]}
    town = doubtful_ranch(8, 7)
    town["tiles"][3]["goods"]["sheep"] = 8
    assert "uncertainty" not in gateway.post(f"{FF}/score", json=town).get_json()


def test_rest_and_grpc_agree_on_a_doubtful_town(gateway: FlaskClient,
                                                grpc_client: GrpcClient) -> None:
    town = doubtful_ranch(6, 8, 7)
    town["tiles"][0]["goods"]["wood"] = {"candidates": [2, 3]}
    message = ScoreTownSchema().load(town)
    assert message == to_message(town_pb2.Town, town)
    over_grpc = grpc_client.foxglove_farm.score_town(message)
    assert [c.decides for c in over_grpc.uncertainty.counts] == [False, True]  # wood: no
    assert gateway.post(f"{FF}/score", json=town).get_json() == TownScoreSchema().dump(over_grpc)
    assert grpc_client.foxglove_farm.score_town(town) == to_json(over_grpc)


def test_readings_past_a_building_s_slots_are_not_counted(gateway: FlaskClient) -> None:
    """A Ledger (request-defined) with 4 slots: wood 2 or 3 and coal 1 or 2 cannot be 3
    and 2 (FF-R19), so 3 of the 4 readings are possible."""
    ledger = {"slots": 4, "effects": [
        {"kind": "gain_per_held", "when": "end_game", "held": "wood", "points": 2},
        {"kind": "gain_per_held", "when": "end_game", "held": "coal", "points": -1}]}
    town = town_data(b(1, 0, "ledger", wood={"candidates": [2, 3]},
                       coal={"candidates": [1, 2]}), catalog={"ledger": ledger})
    uncertainty = gateway.post(f"{FF}/score", json=town).get_json()["uncertainty"]
    assert (uncertainty["readings"], uncertainty["lowest_total"],
            uncertainty["highest_total"]) == (3, 2, 5)


@pytest.mark.parametrize("body, expected", [
    (town_data(*(b(1, c, "ranch", sheep={"candidates": [1, 2]}) for c in range(9))),
     {"/tiles": "at most 8 doubtful goods counts in a town (the limit); got 9"}),
    (doubtful_ranch(8), {"/tiles/3/goods/sheep/candidates": (
        "a doubtful count lists 2 to 4 candidate counts, the likeliest first; got 1")}),
    (doubtful_ranch(8, 7, 6, 5, 4), {"/tiles/3/goods/sheep/candidates": (
        "a doubtful count lists 2 to 4 candidate counts, the likeliest first; got 5")}),
    (doubtful_ranch(8, 8), {"/tiles/3/goods/sheep/candidates/1": (
        "the same count as candidate 0")}),
    (doubtful_ranch(8, 9), {"/tiles/3/goods/sheep/candidates/1": (
        "a Ranch has 8 goods slots; this one shows 9 goods (FF-R19); is this a misreading?")}),
    (doubtful_ranch(9, 8), {"/tiles/3/goods": (
        "a Ranch has 8 goods slots; this one shows 9 goods (FF-R19); is this a misreading?")}),
    (doubtful_ranch(8, 1001), {"/tiles/3/goods/sheep/candidates/1": (
        "must be from 0 to 1000; got 1001")}),
])
def test_doubtful_counts_past_the_limits_are_422s_naming_them(
        gateway: FlaskClient, body: Any, expected: dict[str, str]) -> None:
    errors = problem(gateway.post(f"{FF}/score", json=body), 422)["errors"]
    assert {e["pointer"]: e["detail"] for e in errors} == expected


def test_a_doubtful_count_with_a_misspelt_building_and_a_tile_cut_off(
        gateway: FlaskClient) -> None:
    """Every problem of the transcription at once, the candidates' too."""
    body = doubtful_ranch(8, 8)
    body["tiles"] += [b(-1, 0, "granery", wood={"candidates": [1, 2]}), t(6, 6, "NS")]
    assert pointers(problem(gateway.post(f"{FF}/score", json=body), 422)) == {
        "/tiles/3/goods/sheep/candidates/1", "/tiles/4/building", "/tiles/5"}


def test_only_a_town_being_scored_may_list_candidates(gateway: FlaskClient,
                                                      grpc_client: GrpcClient) -> None:
    town = doubtful_ranch(8, 7)
    assert pointers(problem(gateway.post(f"{FF}/final-round/plan", json=town), 422)) == {
        "/tiles/3/goods/sheep"}
    message = ScoreTownSchema().load(town)
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.foxglove_farm.plan_final_round(message)
    assert raised.value.problems == [(
        "/town/tiles/3/goods",
        "only a town being scored may list candidates for a goods count; give the count")]


def test_over_grpc_a_good_is_counted_once(grpc_client: GrpcClient) -> None:
    message = ScoreTownSchema().load(doubtful_ranch(8, 7))
    message.tiles[3].goods.sheep = 2
    message.tiles[2].doubtful_goods.add(good=town_pb2.GOOD_WOOD, candidates=[1, 2])
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.foxglove_farm.score_town(message)
    assert raised.value.problems == [
        ("/town/tiles/2/goods", "a trail tile holds no goods; goods sit on building tiles"),
        ("/town/tiles/3/goods/sheep",
         "a good is counted once: as a count, or as its candidates")]
