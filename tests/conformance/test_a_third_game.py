"""A third game, Nim (``nim/``), served by the real engine and gateway through one
engine registration and one routes table, and played through REST and gRPC: what
"adding a game touches its rules, its protos and one registration" comes to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from grpc_health.v1 import health_pb2, health_pb2_grpc

from api_gateway.app import GAMES as GATEWAY_GAMES
from api_gateway.app import create_app
from engine_service.server import GAMES as ENGINE_GAMES
from engine_service.server import REPLAY_SEATS, create_server, expensive_seats
from tabletop_referee_clients import GrpcClient, InvalidRequestError, RestClient
from tabletop_referee_clients.cli.local import WsgiAdapter

from .nim import engine as nim_engine
from .nim.clients import NimGrpc, NimRest
from .nim import gateway as nim_gateway
from .nim.wire import nim_pb2, nim_pb2_grpc

NIM = "/v1/nim"


@pytest.fixture(scope="module")
def engine_address() -> Iterator[str]:
    built = create_server("127.0.0.1:0", max_workers=2,
                          games=(*ENGINE_GAMES, nim_engine.REGISTRATION))
    built.server.start()
    yield f"127.0.0.1:{built.port}"
    built.server.stop(0)


@pytest.fixture(scope="module")
def stub(engine_address: str) -> Iterator[Any]:
    with grpc.insecure_channel(engine_address) as channel:
        yield nim_pb2_grpc.NimServiceStub(channel)


@pytest.fixture(scope="module")
def app(engine_address: str) -> Flask:
    return create_app({"ENGINE_ADDRESS": engine_address},
                      games=(*GATEWAY_GAMES, nim_gateway.ROUTES))


@pytest.fixture(scope="module")
def gateway(app: Flask) -> FlaskClient:
    return app.test_client()


def post(gateway: FlaskClient, path: str, body: Any) -> tuple[int, Any]:
    answer = gateway.post(f"{NIM}{path}", json=body)
    return answer.status_code, answer.get_json()


def test_rest_starts_lists_and_judges_a_legal_take(gateway: FlaskClient) -> None:
    assert post(gateway, "/games", {"pile": 5}) == (200, {"pile": 5, "player": 0})
    assert post(gateway, "/legal-moves", {"state": {"pile": 2, "player": 1}}) == (
        200, {"moves": [{"take": 1}, {"take": 2}]})
    assert post(gateway, "/moves/validate", {"state": {"pile": 5, "player": 0},
                                             "move": {"take": 3}}) == (
        200, {"legal": True, "state": {"pile": 2, "player": 1}, "violations": []})


def test_rest_answers_an_illegal_take_with_its_pointer(gateway: FlaskClient) -> None:
    status, verdict = post(gateway, "/moves/validate", {"state": {"pile": 2, "player": 0},
                                                        "move": {"take": 3}})
    assert status == 200 and verdict["legal"] is False
    assert [(v["reason"], v["pointer"]) for v in verdict["violations"]] == [
        ("MORE_THAN_THE_PILE", "/move/take")]


def test_rest_refuses_a_malformed_body_by_pointer(gateway: FlaskClient) -> None:
    status, problem = post(gateway, "/moves/validate", {"state": {"pile": -1, "player": 0},
                                                        "move": {"take": "two"}})
    assert status == 422
    assert sorted(e["pointer"] for e in problem["errors"]) == ["/move/take", "/state/pile"]


def test_rest_replays_a_game_to_its_winner_or_first_illegal_take(gateway: FlaskClient
                                                                 ) -> None:
    assert post(gateway, "/games/replay", {"setup": {"pile": 4},
                                           "moves": [{"take": 3}, {"take": 1}]}) == (
        200, {"state": {"pile": 0, "player": 0}, "moves_applied": 2, "violations": [],
              "winner": 1})
    status, replay = post(gateway, "/games/replay", {"setup": {"pile": 4},
                                                     "moves": [{"take": 1}, {"take": 4}]})
    assert status == 200 and replay["moves_applied"] == 1 and "winner" not in replay
    assert [v["pointer"] for v in replay["violations"]] == ["/moves/1/take"]


def test_the_document_names_the_third_games_operations(gateway: FlaskClient) -> None:
    paths = gateway.get("/v1/openapi.json").get_json()["paths"]
    assert {paths[f"{NIM}{path}"]["post"]["operationId"] for path in
            ("/games", "/legal-moves", "/moves/validate", "/games/replay")} == {
        "startNimGame", "listNimLegalMoves", "validateNimMove", "replayNimGame"}


def test_grpc_plays_the_same_game(stub: Any) -> None:
    state = stub.NewGame(nim_pb2.NewGameRequest(setup=nim_pb2.Setup(pile=3))).state
    moves = stub.ListLegalMoves(nim_pb2.ListLegalMovesRequest(state=state)).moves
    assert [move.take for move in moves] == [1, 2, 3]
    verdict = stub.ValidateMove(nim_pb2.ValidateMoveRequest(state=state,
                                                            move=nim_pb2.Move(take=4)))
    assert not verdict.legal
    assert [(v.reason, v.pointer) for v in verdict.violations] == [
        ("TAKE_OUT_OF_RANGE", "/move/take")]
    replay = stub.ReplayGame(nim_pb2.ReplayGameRequest(setup=nim_pb2.Setup(pile=3),
                                                       moves=[nim_pb2.Move(take=3)]))
    assert replay.HasField("winner") and replay.winner == 0


def test_the_engine_bounds_and_reports_the_third_games_service(engine_address: str
                                                               ) -> None:
    seats = expensive_seats(games=(*ENGINE_GAMES, nim_engine.REGISTRATION))
    assert seats["/referee.nim.v1.NimService/ReplayGame"] == REPLAY_SEATS
    with grpc.insecure_channel(engine_address) as channel:
        check = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service="referee.nim.v1.NimService"))
    assert check.status == health_pb2.HealthCheckResponse.SERVING


def test_the_clients_namespaces_take_a_third_game(app: Flask, engine_address: str) -> None:
    session = requests.Session()
    session.mount("http://gateway", WsgiAdapter(app))
    state, move = {"pile": 2, "player": 1}, {"take": 3}
    with RestClient("http://gateway", session=session) as rest, \
            GrpcClient(engine_address) as grpc_client:
        over_rest = NimRest(rest.post, rest.get)
        over_grpc = NimGrpc(grpc_client.channel, grpc_client.timeout)
        assert over_rest.legal_moves(state) == over_grpc.legal_moves(state) == [
            {"take": 1}, {"take": 2}]
        assert over_rest.validate_move(state, move) == over_grpc.validate_move(state, move)
        with pytest.raises(InvalidRequestError) as refused:
            over_grpc.validate_move({"pile": "two", "player": 1}, move)
        assert [pointer for pointer, _ in refused.value.problems] == ["/state/pile"]
