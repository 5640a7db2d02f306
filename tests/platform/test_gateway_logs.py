"""The gateway's logs: JSON lines (or text) carrying the request's id, and one line for
each request that failed on our side or was slow, none for an ordinary one. How gunicorn
writes them is checked in tests/e2e/test_gateway_observability.py."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from flask import Flask

from api_gateway import create_app
from api_gateway.logs import RequestFilter, formatter, logging_config

from ..sample_boards import SIMPLE_BOARD

SCORE = "/v1/downtown-farmers-market/score"


@pytest.fixture(scope="module")
def app(engine_address: str) -> Flask:
    app = create_app({"ENGINE_ADDRESS": engine_address})

    @app.get("/test/log")
    def logs_a_line() -> dict[str, str]:
        logging.getLogger("api_gateway.test").warning("the %s line", "app's")
        return {}

    @app.get("/test/fail")
    def fail() -> None:
        raise RuntimeError("a bug")
    return app


def written(kind: str) -> Iterator[io.StringIO]:
    """What the handler the gunicorn configuration sets up writes, for ``kind``."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(kind))
    handler.addFilter(RequestFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield stream
    finally:
        root.removeHandler(handler)


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    yield from written("json")


@pytest.fixture
def text_lines() -> Iterator[io.StringIO]:
    yield from written("text")


def test_a_line_inside_a_request_is_json_with_the_request_id(app: Flask,
                                                            json_lines: io.StringIO) -> None:
    app.test_client().get("/test/log", headers={"X-Request-ID": "json-line-1"})
    [line] = [json.loads(line) for line in json_lines.getvalue().splitlines()
              if "the app's line" in line]
    assert line["message"] == "the app's line"
    assert line["level"] == "WARNING" and line["logger"] == "api_gateway.test"
    assert line["process"] == "gateway" and line["request_id"] == "json-line-1"
    assert line["ts"].startswith("20") and "trace_id" not in line  # not tracing here


def test_a_bug_is_one_json_line_with_its_traceback_and_request_id(
        app: Flask, json_lines: io.StringIO) -> None:
    answer = app.test_client().get("/test/fail", headers={"X-Request-ID": "bug-1"})
    assert answer.status_code == 500
    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]
    [bug] = [line for line in lines if line["message"] == "unexpected error"]
    assert bug["level"] == "ERROR" and bug["request_id"] == "bug-1"
    assert "RuntimeError: a bug" in bug["exc_info"]


def test_a_line_outside_a_request_has_no_request_id(json_lines: io.StringIO) -> None:
    logging.getLogger("api_gateway.test").warning("between requests")
    line = json.loads(json_lines.getvalue())
    assert line["message"] == "between requests" and "request_id" not in line


def test_text_lines_carry_the_request_id_or_a_dash(app: Flask,
                                                   text_lines: io.StringIO) -> None:
    app.test_client().get("/test/log", headers={"X-Request-ID": "text-line-1"})
    logging.getLogger("api_gateway.test").warning("between requests")
    inside, outside = text_lines.getvalue().splitlines()[-2:]
    assert inside.endswith(" WARNING gateway api_gateway.test [text-line-1] the app's line")
    assert outside.endswith(" WARNING gateway api_gateway.test [-] between requests")


def test_only_json_and_text_are_formats() -> None:
    assert logging_config("text", "debug")["root"]["level"] == "DEBUG"
    with pytest.raises(ValueError, match="REFEREE_LOG_FORMAT"):
        logging_config("yaml", "info")


def _answered(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "api_gateway.logs"]


def test_a_request_that_failed_on_our_side_is_logged(app: Flask,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, "api_gateway.logs")
    app.test_client().get("/test/fail")
    [record] = _answered(caplog)
    assert record.levelno == logging.INFO
    assert record.getMessage().startswith("GET /test/fail answered 500 in ")
    assert record.__dict__["route"] == "/test/fail" and record.__dict__["status"] == 500


def test_ordinary_requests_and_callers_mistakes_are_logged_at_debug(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, "api_gateway.logs")
    client = app.test_client()
    assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 200
    assert client.post(SCORE, json={"mode": "chess"}).status_code == 422
    assert [(r.levelno, r.__dict__["status"]) for r in _answered(caplog)] == [
        (logging.DEBUG, 200), (logging.DEBUG, 422)]


def test_nothing_is_logged_for_an_ordinary_request_at_info(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "api_gateway.logs")
    assert app.test_client().post(SCORE, json=SIMPLE_BOARD).status_code == 200
    assert not _answered(caplog)


def test_a_slow_request_is_logged(engine_address: str,
                                  caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "api_gateway.logs")
    hasty = create_app({"ENGINE_ADDRESS": engine_address, "SLOW_REQUEST_SECONDS": 0.0})
    assert hasty.test_client().post(SCORE, json=SIMPLE_BOARD).status_code == 200
    [record] = _answered(caplog)
    assert record.levelno == logging.INFO
    assert record.getMessage().startswith(f"POST {SCORE} answered 200 in ")
