"""The engine's guards: bytes that are not a request, seats for expensive methods, capped
problem lists, and what the gateway makes of each."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from api_gateway import create_app
from engine_service.calls import CallLimits, method_name
from engine_service.errors import MAX_REPORTED_PROBLEMS
from engine_service.foxglove_farm.servicer import SERVICE as FF_SERVICE
from engine_service.downtown_farmers_market.servicer import SERVICE as DFM_SERVICE
from engine_service.server import Engine, create_server
from engine_service.version import SERVICE as REFEREE_SERVICE

from ..sample_boards import SIMPLE_BOARD
from .foxglove_towns import KULY

KULY_TOWN = KULY["town"]

UNARY_METHODS = [(service, m.name) for service in (DFM_SERVICE, FF_SERVICE, REFEREE_SERVICE)
                 for m in service.methods]

NO_REQUEST = {"garbage": b"\xff\xff\xff", "truncated field": b"\x0a\x05ab",
              "bad tag inside": b"\x0a\x02\x12\x80"}
"""Bytes no request parses from; the last only where field 1 is a message (a request
without fields keeps it as an unknown field, as protobuf does)."""
NO_REQUEST_CASES = [
    pytest.param(service, name, payload, id=f"{kind}-{name}")
    for service, name in UNARY_METHODS for kind, payload in NO_REQUEST.items()
    if kind != "bad tag inside" or service.methods_by_name[name].input_type.fields]


def raw_call(address: str, method: str, payload: bytes) -> grpc.RpcError:
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(method)  # no serializers: bytes in, bytes out
        with pytest.raises(grpc.RpcError) as caught:
            call(payload, timeout=5)
    return caught.value


@pytest.mark.parametrize(("service", "name", "payload"), NO_REQUEST_CASES)
def test_bytes_that_are_no_request_are_invalid_argument(engine_address: str, service, name,
                                                         payload: bytes) -> None:
    error = raw_call(engine_address, method_name(service, name), payload)
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT, error.details()
    [detail] = rpc_status.from_call(error).details
    bad_request = error_details_pb2.BadRequest()
    assert detail.Unpack(bad_request)
    assert [v.field for v in bad_request.field_violations] == [""]


def test_a_string_that_is_not_utf8_is_invalid_argument(engine_address: str) -> None:
    # RankPlayersRequest.players[0].name (field 1 of field 1) holding the bytes ff fe.
    payload = b"\x0a\x04\x0a\x02\xff\xfe"
    error = raw_call(engine_address, method_name(DFM_SERVICE, "RankPlayers"), payload)
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture(scope="module")
def seatless_engine() -> Iterator[Engine]:
    """An engine whose expensive methods have no seat at all: every such call is refused."""
    seats = {method_name(FF_SERVICE, "PlanFinalRound"): 0,
             method_name(DFM_SERVICE, "ReplayGame"): 0}
    built = create_server("127.0.0.1:0", max_workers=2, limits=CallLimits(seats=seats))
    built.server.start()
    yield built
    built.server.stop(0)


def test_a_full_expensive_method_is_resource_exhausted_with_retry_info(
        seatless_engine: Engine) -> None:
    address = f"127.0.0.1:{seatless_engine.port}"
    gateway = create_app({"ENGINE_ADDRESS": address}).test_client()
    answer = gateway.post("/v1/foxglove-farm/final-round/plan", json=KULY_TOWN)
    assert answer.status_code == 429
    assert answer.headers["Retry-After"] == "1"
    assert answer.content_type == "application/problem+json"
    assert "try again in 1 s" in answer.get_json()["detail"]
    # Cheap methods keep their threads.
    assert gateway.post("/v1/foxglove-farm/score", json=KULY_TOWN).status_code == 200
    assert gateway.post("/v1/downtown-farmers-market/score", json=SIMPLE_BOARD).status_code == 200


def test_a_seat_is_given_back_after_each_call(engine_address: str) -> None:
    gateway = create_app({"ENGINE_ADDRESS": engine_address}).test_client()
    for _ in range(5):  # more calls than seats, one after another
        assert gateway.post("/v1/foxglove-farm/final-round/plan",
                            json=KULY_TOWN).status_code == 200


def misspelt_town(buildings: int) -> dict:
    tiles = [{"row": 0, "col": 0, "building": "forest"}, {"row": 0, "col": 1, "building": "mine"}]
    tiles += [{"row": 1 + i // 40, "col": i % 40, "building": "forrest"} for i in range(buildings)]
    return {"score_track": 0, "tiles": tiles}


def test_problem_lists_are_capped_with_a_note(engine_address: str) -> None:
    gateway = create_app({"ENGINE_ADDRESS": engine_address}).test_client()
    answer = gateway.post("/v1/foxglove-farm/score", json=misspelt_town(118))
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert len(errors) == MAX_REPORTED_PROBLEMS + 1
    assert errors[-1]["pointer"] == ""
    assert errors[-1]["detail"].startswith(f"{118 - MAX_REPORTED_PROBLEMS} more problems found")


def test_the_largest_problem_list_always_fits_the_channel(engine_address: str) -> None:
    """grpc drops trailing metadata between its soft and hard limits at random."""
    gateway = create_app({"ENGINE_ADDRESS": engine_address}).test_client()
    statuses = {gateway.post("/v1/foxglove-farm/score", json=misspelt_town(118)).status_code
                for _ in range(15)}
    assert statuses == {422}
