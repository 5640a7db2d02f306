"""The REST gateway against a real in-process engine: the contract's answers and errors."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from api_gateway import create_app
from tabletop_rules.downtown_farmers_market import RULES_VERSION

from ..sample_boards import SIMPLE_BOARD, SIMPLE_BOARD_TOTAL, board
from .fuzz import mutated

SCORE = "/v1/downtown-farmers-market/score"
RANK = "/v1/downtown-farmers-market/rank"


def problem(response: Any, status: int) -> dict[str, Any]:
    """The response's problem body, after checking it is one with ``status``."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["status"] == status and body["title"] and body["type"].startswith("http")
    return body


def pointers(body: dict[str, Any]) -> set[str]:
    return {e["pointer"] for e in body["errors"]}


def test_score_answers_the_contract_shape(gateway: FlaskClient) -> None:
    answer = gateway.post(SCORE, json=SIMPLE_BOARD)
    assert answer.status_code == 200
    body = answer.get_json()
    assert list(body) == ["mode", "total", "complete", "challenges_met",
                          "best_challenge_points", "rows", "columns", "rules_version"]
    assert body["rules_version"] == RULES_VERSION
    assert body["total"] == SIMPLE_BOARD_TOTAL and body["complete"] is False
    assert body["challenges_met"] == 2 and body["best_challenge_points"] == 8
    assert [r["index"] for r in body["rows"]] == [0, 1, 2, 3]
    assert body["columns"][1] == {**body["columns"][1], "met": True, "points": 8,
                                  "rule": "DFM-R6"}


def test_young_shopper_board_needs_no_challenges(gateway: FlaskClient) -> None:
    body = gateway.post(SCORE, json={"mode": "young_shopper", "grid": SIMPLE_BOARD["grid"]}
                        ).get_json()
    # Row 0: corn twice is the most frequent (2); columns 0, 1, 3: 2, 1, 1 (DFM-R9).
    assert [r["points"] for r in body["rows"]] == [2, 0, 0, 0]
    assert [c["points"] for c in body["columns"]] == [2, 1, 0, 1]
    assert body["total"] == 6 and body["challenges_met"] == 0


def test_rank_answers_standings_and_winners(gateway: FlaskClient) -> None:
    players = [{"name": "Ana", "board": SIMPLE_BOARD}, {"name": "Ben", "board": SIMPLE_BOARD}]
    body = gateway.post(RANK, json={"players": players}).get_json()
    assert body == {"standings": [
        {"name": n, "total": SIMPLE_BOARD_TOTAL, "challenges_met": 2,
         "best_challenge_points": 8, "place": 1} for n in ("Ana", "Ben")],
        "winners": ["Ana", "Ben"], "rules_version": RULES_VERSION}


@pytest.mark.parametrize("data, content_type", [
    ("{", "application/json"),
    ("", "application/json"),
    ("not json at all", "application/json"),
    ('{"grid": NaN}', "application/json"),
    (b"\xff\xfe{}", "application/json"),
    (json.dumps(SIMPLE_BOARD), None),
    ("[" * 10_000 + "]" * 10_000, "application/json"),
])
def test_unreadable_bodies_are_400(gateway: FlaskClient, data: Any, content_type: str) -> None:
    problem(gateway.post(SCORE, data=data, content_type=content_type), 400)


@pytest.mark.parametrize("body, expected", [
    ([], {""}),
    ("a string", {""}),
    ({}, {"/grid"}),
    ({**SIMPLE_BOARD, "colour": "red"}, {"/colour"}),
    ({**SIMPLE_BOARD, "mode": "expert"}, {"/mode"}),
    ({**SIMPLE_BOARD, "grid": [[["cabbage"], None, None, None]] + [[None] * 4] * 3},
     {"/grid/0/0/0", }),
    ({**SIMPLE_BOARD, "grid": [[None] * 4] * 3}, {"/grid"}),
    ({**SIMPLE_BOARD, "grid": [[None] * 5] + [[None] * 4] * 3}, {"/grid/0"}),
    ({**SIMPLE_BOARD, "grid": [[["egg"] * 4, [], None, None]] + [[None] * 4] * 3},
     {"/grid/0/0", "/grid/0/1"}),
    ({**SIMPLE_BOARD, "grid": [[True, 1, "egg", {}]] + [[None] * 4] * 3},  # {}: a doubtful
     {"/grid/0/0", "/grid/0/1", "/grid/0/2", "/grid/0/3/candidates"}),  # space, unfinished
    ({**SIMPLE_BOARD, "row_challenges": SIMPLE_BOARD["row_challenges"][:3]}, {"/row_challenges"}),
    ({**SIMPLE_BOARD, "row_challenges": [{"type": "majority", "points": 10**40,
                                          "ingredient": "egg"}] * 4},
     {f"/row_challenges/{i}/points" for i in range(4)}),
    ({**SIMPLE_BOARD, "column_challenges": [{"type": "majority", "points": 101,
                                             "ingredient": "egg"}] * 4},
     {f"/column_challenges/{i}/points" for i in range(4)}),
    ({**SIMPLE_BOARD, "column_challenges": [
        {"type": "exact_total", "points": 2.5, "count": 3},
        {"type": "exact_total", "points": True, "count": 3},
        {"type": "exact_total", "points": "3", "count": 13},
        {"type": "teleport", "points": 1}]},
     {"/column_challenges/0/points", "/column_challenges/1/points",
      "/column_challenges/2/points", "/column_challenges/3/type"}),
    ({**SIMPLE_BOARD, "column_challenges": [
        {"type": "exact_count", "points": 1, "counts": {"cabbage": 1, "egg": 0}},
        {"type": "forbidden", "points": 1, "ingredients": []},
        {"type": "per_set", "points": 1, "sets": [[]]},
        {"type": "majority", "points": 1, "ingredient": "egg", "count": 2}]},
     # the shape problems, and the rules' with the rest of the board in the same answer
     {"/column_challenges/0/counts/cabbage", "/column_challenges/0/counts/egg",
      "/column_challenges/1/ingredients", "/column_challenges/2/sets/0",
      "/column_challenges/3/count"}),
    ({**SIMPLE_BOARD, "column_challenges": [
        {"type": "exact_count", "points": 1, "counts": {"egg": 0}},
        {"type": "forbidden", "points": 1, "ingredients": []},
        {"type": "per_set", "points": 1, "sets": [[]]},
        {"type": "exact_count_any", "points": 1, "count": 13}]},
     {"/column_challenges/0/counts/egg", "/column_challenges/1/ingredients",
      "/column_challenges/2/sets/0", "/column_challenges/3/count"}),
    ({"mode": "young_shopper", "grid": SIMPLE_BOARD["grid"],
      "row_challenges": SIMPLE_BOARD["row_challenges"]}, {"/row_challenges"}),
])
def test_contract_breaches_are_422_with_a_pointer_each(gateway: FlaskClient, body: Any,
                                                       expected: set[str]) -> None:
    answer = problem(gateway.post(SCORE, json=body), 422)
    assert pointers(answer) == expected
    assert all(e["detail"] for e in answer["errors"])


@pytest.mark.parametrize("body, expected", [
    ({"players": []}, {"/players"}),
    ({"players": [{"name": str(i), "board": SIMPLE_BOARD} for i in range(5)]}, {"/players"}),
    ({"players": [{"name": "Ana", "board": SIMPLE_BOARD}] * 2}, {"/players/1/name"}),
    ({"players": [{"name": "", "board": SIMPLE_BOARD}]}, {"/players/0/name"}),
    ({"players": [{"name": "Ana"}, {"board": SIMPLE_BOARD}]},
     {"/players/0/board", "/players/1/name"}),
    ({"players": [{"name": "Ana", "board": {**SIMPLE_BOARD, "grid": []}}]},
     {"/players/0/board/grid"}),
])
def test_rank_breaches_point_into_the_players(gateway: FlaskClient, body: Any,
                                              expected: set[str]) -> None:
    assert pointers(problem(gateway.post(RANK, json=body), 422)) == expected


def test_oversized_body_is_413(gateway: FlaskClient) -> None:
    huge = {**SIMPLE_BOARD, "padding": "x" * (65 * 1024)}
    problem(gateway.post(SCORE, json=huge), 413)


def test_unknown_path_and_method_are_problems(gateway: FlaskClient) -> None:
    problem(gateway.get("/v1/chess/score"), 404)
    answer = gateway.get(SCORE)
    problem(answer, 405)
    assert "POST" in answer.headers["Allow"]


def test_engine_down_is_503_with_retry_after() -> None:
    client = create_app({"ENGINE_ADDRESS": "127.0.0.1:1", "ENGINE_TIMEOUT_SECONDS": 2}
                        ).test_client()
    answer = client.post(SCORE, json=SIMPLE_BOARD)
    problem(answer, 503)
    assert int(answer.headers["Retry-After"]) > 0
    problem(client.get("/readyz"), 503)
    assert client.get("/healthz").status_code == 200


def test_engine_past_the_deadline_is_504() -> None:
    with socket.socket() as silent:  # accepts connections, never answers a call
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        client = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{silent.getsockname()[1]}",
                             "ENGINE_TIMEOUT_SECONDS": 0.3}).test_client()
        problem(client.post(SCORE, json=SIMPLE_BOARD), 504)


def test_readyz_when_the_engine_serves(gateway: FlaskClient) -> None:
    assert gateway.get("/readyz").get_json() == {"status": "ready"}


def test_openapi_documents_the_contract(gateway: FlaskClient) -> None:
    spec = gateway.get("/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in (SCORE, RANK):
        operation = spec["paths"][path]["post"]
        assert {"200", "400", "413", "422", "503", "504"} <= set(operation["responses"])
    board_schema = spec["components"]["schemas"]["DowntownBoard"]
    challenge_ref = board_schema["properties"]["row_challenges"]["items"]["$ref"]
    challenge = spec["components"]["schemas"][challenge_ref.rsplit("/", 1)[-1]]
    assert set(challenge["discriminator"]["mapping"]) == {
        "exact_count", "forbidden", "exact_count_any", "exact_total", "one_of_each",
        "majority", "per_set"}
    assert gateway.get("/v1/docs").status_code == 200


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=board)
def test_every_valid_board_is_scored(gateway: FlaskClient, body: Any) -> None:
    """The boards the fuzzer starts from are all well formed: each gets its 200 answer."""
    answer = gateway.post(SCORE, json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=mutated(board))
def test_no_body_gets_a_server_error(gateway: FlaskClient, body: Any) -> None:
    answer = gateway.post(SCORE, data=json.dumps(body), content_type="application/json")
    assert answer.status_code in (200, 422), answer.get_data(as_text=True)
    if answer.status_code == 422:
        assert all(e["pointer"] == "" or e["pointer"].startswith("/")
                   for e in answer.get_json()["errors"])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=board)
def test_every_generated_board_scores(gateway: FlaskClient, body: dict[str, Any]) -> None:
    answer = gateway.post(SCORE, json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    scored = answer.get_json()
    assert scored["total"] == sum(line["points"] for line in scored["rows"] + scored["columns"])
