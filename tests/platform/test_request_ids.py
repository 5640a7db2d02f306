"""Request ids: a caller's plausible ``X-Request-ID`` kept, any other replaced by a new
one; the id in every answer's header, in every problem+json body, and where the engine
channel and the logs read it (:func:`api_gateway.request_ids.current_request_id`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api_gateway import create_app
from api_gateway.request_ids import current_request_id, new_id

from ..sample_boards import SIMPLE_BOARD

SCORE = "/v1/downtown-farmers-market/score"


def _is_new_id(value: str) -> bool:
    """32 hex digits of a version 4 UUID."""
    made = uuid.UUID(value)
    return made.hex == value and made.version == 4 and made.variant == uuid.RFC_4122


@pytest.fixture(scope="module")
def app(engine_address: str) -> Flask:
    app = create_app({"ENGINE_ADDRESS": engine_address, "MAX_CONTENT_LENGTH": 1024})

    @app.get("/test/request-id")
    def seen() -> dict[str, str]:
        return {"seen": current_request_id()}

    @app.get("/test/fail")
    def fail() -> None:
        raise RuntimeError("a bug")
    return app


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


Send = Callable[[FlaskClient, dict[str, str]], Any]
REQUESTS: dict[str, Send] = {
    "200 score": lambda c, h: c.post(SCORE, json=SIMPLE_BOARD, headers=h),
    "200 healthz": lambda c, h: c.get("/healthz", headers=h),
    "200 metrics": lambda c, h: c.get("/metrics", headers=h),
    "200 openapi": lambda c, h: c.get("/v1/openapi.json", headers=h),
    "200 docs": lambda c, h: c.get("/v1/docs", headers=h),
    "400": lambda c, h: c.post(SCORE, data=b"{", content_type="application/json", headers=h),
    "404": lambda c, h: c.get("/v1/nothing-here", headers=h),
    "405": lambda c, h: c.get(SCORE, headers=h),
    "413": lambda c, h: c.post(SCORE, data=b"[" * 2000, content_type="application/json",
                               headers=h),
    "415": lambda c, h: c.post(SCORE, data=b"{}", content_type="text/plain", headers=h),
    "422": lambda c, h: c.post(SCORE, json={"mode": "chess"}, headers=h),
    "500": lambda c, h: c.get("/test/fail", headers=h),
}
"""One request for each kind of answer: 200s, and each problem the app itself makes."""


@pytest.mark.parametrize("kind", REQUESTS)
def test_every_answer_carries_the_callers_id(client: FlaskClient, kind: str) -> None:
    offered = f"table-7.{kind[:3]}_x"
    answer = REQUESTS[kind](client, {"X-Request-ID": offered})
    assert answer.status_code == int(kind[:3])
    assert answer.headers["X-Request-ID"] == offered
    if answer.status_code >= 400:
        assert answer.mimetype == "application/problem+json"
        assert answer.get_json(force=True)["request_id"] == offered


@pytest.mark.parametrize("kind", REQUESTS)
def test_an_answer_to_a_request_without_an_id_carries_a_new_one(client: FlaskClient,
                                                                  kind: str) -> None:
    first, second = (REQUESTS[kind](client, {}) for _ in range(2))
    made = first.headers["X-Request-ID"]
    assert _is_new_id(made) and made != second.headers["X-Request-ID"]
    if first.status_code >= 400:
        assert first.get_json(force=True)["request_id"] == made


def test_the_engine_being_unreachable_is_a_problem_with_the_id() -> None:
    unreachable = create_app({"ENGINE_ADDRESS": "127.0.0.1:1", "ENGINE_TIMEOUT_SECONDS": 1})
    answer = unreachable.test_client().post(SCORE, json=SIMPLE_BOARD,
                                            headers={"X-Request-ID": "engine-down"})
    assert answer.status_code == 503 and answer.headers["X-Request-ID"] == "engine-down"
    assert answer.get_json(force=True)["request_id"] == "engine-down"


@pytest.mark.parametrize("offered", [
    "", "a" * 65, "two words", "semi;colon", "a,b", "ünïcode", "slash/es",
    "{\"json\": 1}", "percent%20",
])
def test_an_implausible_id_is_replaced(client: FlaskClient, offered: str) -> None:
    answer = client.get("/test/request-id", headers={"X-Request-ID": offered})
    made = answer.headers["X-Request-ID"]
    assert _is_new_id(made) and answer.get_json() == {"seen": made}


@pytest.mark.parametrize("offered", ["a", "A" * 64, "0af7651916cd43dd8448eb211c80319c",
                                     "req-2026.12.01_42", "..--__"])
def test_a_plausible_id_is_kept_and_seen_by_the_code(client: FlaskClient,
                                                     offered: str) -> None:
    answer = client.get("/test/request-id", headers={"X-Request-ID": offered})
    assert answer.headers["X-Request-ID"] == offered
    assert answer.get_json() == {"seen": offered}


def test_there_is_no_id_outside_a_request(client: FlaskClient) -> None:
    client.get("/test/request-id", headers={"X-Request-ID": "gone-after"})
    assert current_request_id() == ""


def test_new_ids_are_version_4_uuids_and_differ() -> None:
    made = {new_id() for _ in range(10_000)}
    assert len(made) == 10_000 and all(_is_new_id(each) for each in made)
