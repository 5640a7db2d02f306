"""End to end: the real engine and the real gunicorn gateway, driven over HTTP and gRPC."""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, given, settings

from api_gateway.resources.downtown_farmers_market.schemas import (
    BoardSchema,
    GameSetupSchema,
    GameStateSchema,
    MoveVerdictSchema,
    ScoreSchema,
    ValidateMoveRequestSchema,
)
from api_gateway.resources.foxglove_farm.schemas import (
    FinalRoundPlanSchema,
    TownSchema,
    TownScoreSchema,
    TransportMoveSchema,
    TransportVerdictSchema,
)
from tabletop_referee_clients import GrpcClient, InvalidRequestError, RestClient
from referee.downtown_farmers_market.v1 import scoring_pb2

from ..foxglove_farm.towns import b, town_data, town_dicts
from ..platform.foxglove_towns import KULY
from ..sample_boards import SIMPLE_BOARD, SIMPLE_BOARD_TOTAL, board
from .conftest import REPO, Service, start_engine, start_gateway

DATA = REPO / "tests" / "data"

SCORE = "/v1/downtown-farmers-market/score"


@pytest.fixture(scope="module")
def rest(service: Service) -> RestClient:
    return RestClient(service.url, timeout=10)


@pytest.fixture(scope="module")
def grpc_client(service: Service) -> GrpcClient:
    return GrpcClient(service.engine_address, timeout=10)


def test_score_over_http(rest: RestClient) -> None:
    answer = rest.downtown_farmers_market.score_board(SIMPLE_BOARD)
    assert answer["total"] == SIMPLE_BOARD_TOTAL
    assert answer["rows"][0]["rule"] == "DFM-R1"


def test_rank_over_http(rest: RestClient) -> None:
    all_cheese = dict(SIMPLE_BOARD, grid=[[["cheese"]] * 4] * 4)  # meets no challenge: 0
    answer = rest.downtown_farmers_market.rank_players([
        {"name": "Ben", "board": all_cheese}, {"name": "Ana", "board": SIMPLE_BOARD}])
    assert answer["winners"] == ["Ana"]
    assert [(s["name"], s["total"], s["place"]) for s in answer["standings"]] == [
        ("Ana", SIMPLE_BOARD_TOTAL, 1), ("Ben", 0, 2)]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=board)
def test_rest_and_grpc_agree(rest: RestClient, grpc_client: GrpcClient,
                             body: dict[str, Any]) -> None:
    over_grpc = ScoreSchema().dump(
        grpc_client.downtown_farmers_market.score_board(BoardSchema().load(body)))
    assert rest.downtown_farmers_market.score_board(body) == over_grpc


def test_rank_parity(rest: RestClient, grpc_client: GrpcClient) -> None:
    rng = random.Random(7)
    grid = SIMPLE_BOARD["grid"]
    boards = [dict(SIMPLE_BOARD, grid=rng.sample(grid, len(grid))) for _ in range(4)]
    players = [{"name": f"P{i}", "board": b} for i, b in enumerate(boards)]
    over_grpc = grpc_client.downtown_farmers_market.rank_players([
        scoring_pb2.PlayerBoard(name=p["name"], board=BoardSchema().load(p["board"]))
        for p in players])
    over_rest = rest.downtown_farmers_market.rank_players(players)
    assert over_rest["winners"] == list(over_grpc.winners)
    assert [(s["name"], s["total"], s["place"]) for s in over_rest["standings"]] == [
        (s.name, s.total, s.place) for s in over_grpc.standings]


def test_validate_move_parity(rest: RestClient, grpc_client: GrpcClient) -> None:
    """A game's first state and the verdicts on legal and illegal moves agree."""
    board = {k: v for k, v in SIMPLE_BOARD.items() if k != "grid"}
    setup = {"players": [{"name": "Ana", "board": board}, {"name": "Ben", "board": board}],
             "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread"], ["cheese"]]}
    state = rest.downtown_farmers_market.new_game(setup)
    assert GameStateSchema().dump(
        grpc_client.downtown_farmers_market.new_game(GameSetupSchema().load(setup))) == state
    illegal = {"action": "take", "player": 1, "tile": ["carrot"], "row": 0, "col": 0}
    for move in [*rest.downtown_farmers_market.legal_moves(state)[::20], illegal]:
        request = ValidateMoveRequestSchema().load({"state": state, "move": move})
        over_grpc = grpc_client.downtown_farmers_market.validate_move(request.state, request.move)
        assert (rest.downtown_farmers_market.validate_move(state, move)
                == MoveVerdictSchema().dump(over_grpc))
    # not Ben's turn, no carrot
    assert not rest.downtown_farmers_market.validate_move(state, illegal)["legal"]


def test_errors_agree_between_rest_and_grpc(rest: RestClient, grpc_client: GrpcClient) -> None:
    bad = dict(SIMPLE_BOARD, grid=[[["egg"] * 4, None, None, None]] + [[None] * 4] * 3)
    with pytest.raises(InvalidRequestError) as over_rest:
        rest.downtown_farmers_market.score_board(bad)
    with pytest.raises(InvalidRequestError) as over_grpc:
        grpc_client.downtown_farmers_market.score_board(BoardSchema().load(bad))
    assert over_rest.value.problems == [(p.removeprefix("/board"), d)
                                        for p, d in over_grpc.value.problems]
    assert over_rest.value.problems[0][0] == "/grid/0/0"


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(town=town_dicts(max_tiles=12))
def test_foxglove_score_and_plan_agree(rest: RestClient, grpc_client: GrpcClient,
                                       town: dict[str, Any]) -> None:
    message = TownSchema().load(town)
    assert rest.foxglove_farm.score_town(town) == TownScoreSchema().dump(
        grpc_client.foxglove_farm.score_town(message))
    over_grpc = grpc_client.foxglove_farm.plan_final_round(message)
    assert rest.foxglove_farm.plan_final_round(town) == FinalRoundPlanSchema().dump(over_grpc)


def test_foxglove_transport_agrees(rest: RestClient, grpc_client: GrpcClient) -> None:
    """The Kuly example's moves, each from the town the last left, and an illegal one."""
    town = KULY["town"]
    for move in [KULY["transportation"][1]["move"], *(s["move"] for s in KULY["transportation"])]:
        over_grpc = grpc_client.foxglove_farm.validate_transport(
            TownSchema().load(town), TransportMoveSchema().load(move))
        over_rest = rest.foxglove_farm.validate_transport(town, move)
        assert over_rest == TransportVerdictSchema().dump(over_grpc)
        town = over_rest.get("town", town)
    assert [tile.get("goods") for tile in town["tiles"] if tile.get("building") == "ranch"
            ] == [{"sheep": 1}]


def refusal(call: Callable[..., Any], *args: Any) -> list[tuple[str, str]]:
    """The problems, (pointer, detail), that ``call(*args)`` is refused with."""
    with pytest.raises(InvalidRequestError) as raised:
        call(*args)
    return raised.value.problems


def test_foxglove_errors_agree(rest: RestClient, grpc_client: GrpcClient) -> None:
    bad = town_data(b(1, 0, "forrest"), b(3, 3, "ranch", sheep=9))
    over_rest = refusal(rest.foxglove_farm.score_town, bad)
    over_grpc = refusal(grpc_client.foxglove_farm.score_town, TownSchema().load(bad))
    assert over_rest == [(p.removeprefix("/town"), d) for p, d in over_grpc]
    assert [p for p, _ in over_rest] == ["/tiles/2/building", "/tiles/3/goods", "/tiles/3"]


def test_a_misspelt_building_and_a_tile_cut_off_get_one_422(service: Service) -> None:
    """The whole transcription is checked at once: one answer names both problems."""
    town = town_data(b(1, 0, "granery"), b(4, 4, "ranch", sheep=2))
    answer = requests.post(service.url + "/v1/foxglove-farm/score", json=town, timeout=10)
    assert answer.status_code == 422, answer.text
    errors = answer.json()["errors"]
    assert [e["pointer"] for e in errors] == ["/tiles/2/building", "/tiles/3"]
    assert "did you mean Granary" in errors[0]["detail"]
    assert "does not touch the rest of the town" in errors[1]["detail"]


def test_a_board_with_two_doubtful_spaces_through_the_real_gateway(
        service: Service, grpc_client: GrpcClient) -> None:
    """The rulebook's 43-point board, two spaces read in doubt: one answer gives the
    likeliest reading's score and what every reading scores, as scoring each says."""
    board = json.loads((DATA / "downtown_farmers_market" / "rulebook_standard_example.json"
                        ).read_text())["board"]
    grid = board["grid"]
    readings = [(first, second) for first in (grid[0][0], ["cheese"])
                for second in (grid[2][3], ["egg", "egg"], ["milk"])]
    one_by_one = []
    for first, second in readings:
        grid[0][0], grid[2][3] = first, second
        one_by_one.append(grid_total(service, board))
    grid[0][0] = {"candidates": [readings[0][0], ["cheese"]]}
    grid[2][3] = {"candidates": [readings[0][1], ["egg", "egg"], ["milk"]]}
    answer = requests.post(service.url + SCORE, json=board, timeout=10)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    uncertainty = body["uncertainty"]
    assert body["total"] == uncertainty["likely_total"] == one_by_one[0] == 43
    assert (uncertainty["readings"], uncertainty["lowest_total"],
            uncertainty["highest_total"]) == (6, min(one_by_one), max(one_by_one))
    first, second = uncertainty["spaces"]
    assert (first["pointer"], second["pointer"]) == ("/grid/0/0", "/grid/2/3")
    assert first["totals"] == [one_by_one[0], one_by_one[3]]
    assert second["totals"] == one_by_one[:3]
    assert first["decides"] and second["decides"]
    assert grpc_client.downtown_farmers_market.score_board(board) == body


def grid_total(service: Service, board: dict[str, Any]) -> int:
    answer = requests.post(service.url + SCORE, json=board, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()["total"]  # type: ignore[no-any-return]


def test_a_doubtful_count_and_the_limits_through_the_real_gateway(service: Service) -> None:
    town = town_data(b(1, 0, "ranch", sheep={"candidates": [8, 7]}), score_track=10)
    answer = requests.post(service.url + "/v1/foxglove-farm/score", json=town, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json()["uncertainty"]["counts"] == [{
        "row": 1, "col": 0, "good": "sheep", "pointer": "/tiles/2/goods/sheep",
        "decides": True, "totals": [40, 31]}]
    board = dict(SIMPLE_BOARD, grid=[[{"candidates": [["egg"], ["corn"]]}] * 4] * 3
                 + [[None] * 4])
    answer = requests.post(service.url + SCORE, json=board, timeout=10)
    assert answer.status_code == 422
    assert answer.json()["errors"] == [{
        "pointer": "/grid", "detail": "at most 8 doubtful cells on a board (the limit); got 12",
        "code": "TOO_MANY_DOUBTFUL_CELLS", "params": {"limit": 8, "count": 12}}]


def test_a_foxglove_farm_game_replays_through_the_gateway(rest: RestClient) -> None:
    """A short game over HTTP: a new game, a few listed actions each judged in the state
    the last answered, then the log replayed to the same state."""
    game = rest.foxglove_farm
    setup = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
             "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "lambing_shed",
                         "allotment"], "c_tiles": ["bakery", "grocer", "cafe", "tavern"]}
    state = game.new_game(setup)
    log = []
    for _ in range(5):  # both produce, then construction turns
        listed = game.legal_moves(state)
        assert listed["turn"]["expected"] in ("produce", "construct")
        action = listed["moves"][-1]
        verdict = game.validate_action(state, action)
        assert verdict["legal"], verdict
        state = verdict["state"]
        log.append(action)
    assert state["phase"] == "construction"
    replayed = game.replay_game(setup, log)
    assert replayed == {"legal": True, "state": state}


@pytest.mark.parametrize("data, headers, status", [
    (b"{", {"Content-Type": "application/json"}, 400),
    (json.dumps(SIMPLE_BOARD).encode(), {"Content-Type": "text/plain"}, 415),
    (b"[" * 300_000 + b"]" * 300_000, {"Content-Type": "application/json"}, 413),
    (b"[" * 5_000 + b"]" * 5_000, {"Content-Type": "application/json"}, 400),
    (json.dumps({"grid": "nope"}).encode(), {"Content-Type": "application/json"}, 422),
    (json.dumps({**SIMPLE_BOARD, "mode": 10**400}).encode(),
     {"Content-Type": "application/json"}, 422),
    (b'{"grid": 1e999999}', {"Content-Type": "application/json"}, 422),
])
def test_malformed_requests_get_problems(service: Service, data: bytes,
                                         headers: dict[str, str], status: int) -> None:
    answer = requests.post(service.url + SCORE, data=data, headers=headers, timeout=10)
    assert answer.status_code == status, answer.text
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.json()["status"] == status


def test_openapi_and_docs_are_served(service: Service) -> None:
    spec = requests.get(service.url + "/v1/openapi.json", timeout=10).json()
    assert SCORE in spec["paths"]
    assert requests.get(service.url + "/v1/docs", timeout=10).status_code == 200


def test_engine_stop_and_restart() -> None:
    """SIGTERM drains the engine (exit 0); the gateway answers 503 until one is back."""
    engine, address = start_engine()
    gateway, url = start_gateway(address)
    try:
        assert requests.post(url + SCORE, json=SIMPLE_BOARD, timeout=10).status_code == 200
        engine.popen.send_signal(signal.SIGTERM)
        assert engine.popen.wait(15) == 0
        down = requests.post(url + SCORE, json=SIMPLE_BOARD, timeout=10)
        assert down.status_code == 503 and int(down.headers["Retry-After"]) > 0
        assert requests.get(url + "/readyz", timeout=10).status_code == 503
        assert requests.get(url + "/healthz", timeout=10).status_code == 200
    finally:
        assert gateway.stop() == 0
        engine.stop()


def test_sigterm_lets_in_flight_calls_finish() -> None:
    """A plan the engine is still computing when SIGTERM arrives is answered, not cut off."""
    slow = json.loads((DATA / "foxglove_farm" / "jammed_60_tiles.json").read_text())
    town = TownSchema().load(slow["town"])
    engine, address = start_engine()
    answers: list[Any] = []
    try:
        with GrpcClient(address, timeout=30) as client:
            assert client.ready()  # connected before the call starts
            def plan() -> None:
                answers.append(client.foxglove_farm.plan_final_round(town))
                answered.append(time.monotonic())

            answered: list[float] = []
            call = threading.Thread(target=plan)
            call.start()
            time.sleep(0.1)
            signalled = time.monotonic()
            engine.popen.send_signal(signal.SIGTERM)
            call.join(30)
        assert engine.popen.wait(15) == 0
    finally:
        engine.stop()
    assert len(answers) == 1 and answers[0].total > 0
    assert answered[0] > signalled, "the call had finished before the signal: nothing drained"
    assert any("draining" in line for line in engine.lines)
