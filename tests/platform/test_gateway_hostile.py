"""The gateway app against hostile bytes and headers (gunicorn may be reached without the
proxy): every request gets the contract's answer, none a 500, none an echo of a huge
value, and every answer carries the security headers."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from api_gateway import create_app
from tabletop_rules.problems import QUOTE_LIMIT, quoted

from ..foxglove_farm.towns import b, town_data
from ..sample_boards import SIMPLE_BOARD
from .test_gateway import RANK, SCORE, problem

FOXGLOVE_SCORE = "/v1/foxglove-farm/score"
SURROGATE = "\ud800"


def post_text(gateway: FlaskClient, path: str, text: str) -> Any:
    """POST ``text`` as it is (json.dumps would escape a lone surrogate as ``\\ud800``,
    which is the point: the JSON escape is how such a string arrives)."""
    return gateway.post(path, data=text.encode("utf-8", "surrogatepass"),
                        content_type="application/json")


@pytest.mark.parametrize("path, body, pointers", [
    (SCORE, {**SIMPLE_BOARD, "mode": SURROGATE}, ["/mode"]),
    (SCORE, {**SIMPLE_BOARD, SURROGATE + "x": 1}, [""]),
    (SCORE, {**SIMPLE_BOARD, "grid": [[[SURROGATE + "egg"], None, None, None]] + [[None] * 4] * 3},
     ["/grid/0/0/0"]),
    (RANK, {"players": [{"name": "Ana" + SURROGATE, "board": SIMPLE_BOARD}]}, ["/players/0/name"]),
    (FOXGLOVE_SCORE, town_data(b(1, 0, "ranch" + "\udfff")), ["/tiles/2/building"]),
    (FOXGLOVE_SCORE, town_data(catalog={"shed" + SURROGATE: {}}), ["/catalog"]),
])
def test_lone_surrogates_are_400_naming_where(gateway: FlaskClient, path: str, body: Any,
                                              pointers: list[str]) -> None:
    answer = problem(gateway.post(path, data=json.dumps(body), content_type="application/json"),
                     400)
    assert [e["pointer"] for e in answer["errors"]] == pointers
    paired = gateway.post(RANK, data=json.dumps(  # a pair is a character: "\ud83d\ude00"
        {"players": [{"name": "Ana \U0001f600", "board": SIMPLE_BOARD}]}),
        content_type="application/json")
    assert paired.get_json()["winners"] == ["Ana \U0001f600"]


@pytest.mark.parametrize("headers", [
    {"Content-Type": "text/plain"},
    {"Content-Type": "application/x-www-form-urlencoded"},
    {"Content-Type": "application/json; charset=latin-1"},
    {"Content-Type": "application/json", "Content-Encoding": "gzip"},
])
def test_other_media_types_are_415(gateway: FlaskClient, headers: dict[str, str]) -> None:
    answer = gateway.post(SCORE, data=json.dumps(SIMPLE_BOARD), headers=headers)
    problem(answer, 415)
    assert answer.headers["Accept-Post"] == "application/json"


def chunked(gateway: FlaskClient, body: bytes) -> Any:
    """``body`` sent as gunicorn hands over a chunked one: no Content-Length, the stream
    ended by the server."""
    return gateway.post(SCORE, input_stream=io.BytesIO(body), content_type="application/json",
                        headers={"Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})


def test_chunked_body_over_the_limit_is_413(gateway: FlaskClient) -> None:
    limit = gateway.application.config["MAX_CONTENT_LENGTH"]
    body = json.dumps(SIMPLE_BOARD).encode()
    problem(chunked(gateway, body + b" " * (limit + 1 - len(body))), 413)
    assert chunked(gateway, body + b" " * (limit - len(body))).status_code == 200


HUGE = "x" * 10_000  # the test gateway takes bodies of up to 64 KiB
LONG = "x" * 90  # within the 100 characters some fields take, longer than a quote


@pytest.mark.parametrize("path, body", [
    (SCORE, {**SIMPLE_BOARD, "mode": HUGE}),
    (SCORE, {**SIMPLE_BOARD, "row_challenges": [{"type": HUGE, "points": 1}] * 4}),
    (RANK, {"players": [{"name": LONG, "board": SIMPLE_BOARD}] * 2}),
    (FOXGLOVE_SCORE, town_data(b(1, 0, LONG))),
    (FOXGLOVE_SCORE, town_data(b(1, 0, "ranch", **{HUGE: 1}))),
    (FOXGLOVE_SCORE, town_data(catalog={HUGE: {}})),
])
def test_errors_quote_a_long_value_cut_short(gateway: FlaskClient, path: str,
                                             body: Any) -> None:
    answer = problem(gateway.post(path, json=body), 422)
    details = [e["detail"] for e in answer["errors"]]
    assert any("…" in detail for detail in details), details
    assert all(len(detail) < 400 for detail in details), details


def test_quoted_cuts_with_an_ellipsis_inside_the_quotes() -> None:
    assert quoted("cabbage") == "'cabbage'"
    assert quoted("x" * 100) == "'" + "x" * QUOTE_LIMIT + "…'"
    assert quoted(SURROGATE) == "'\\ud800'"  # escaped: the message stays encodable
    assert quoted(10**100) == "1" + "0" * (QUOTE_LIMIT - 1) + "…"


JSON_ANSWERS = [
    ("post", SCORE, {"json": SIMPLE_BOARD}, 200),
    ("post", SCORE, {"json": {"grid": 1}}, 422),
    ("post", SCORE, {"data": "{"}, 400),
    ("post", SCORE, {"data": "{}", "content_type": "text/plain"}, 415),
    ("get", SCORE, {}, 405),
    ("get", "/v1/chess", {}, 404),
    ("get", "/healthz", {}, 200),
]


@pytest.mark.parametrize("method, path, kwargs, status", JSON_ANSWERS)
def test_json_answers_carry_security_headers(gateway: FlaskClient, method: str, path: str,
                                             kwargs: dict[str, Any], status: int) -> None:
    answer = getattr(gateway, method)(path, **kwargs)
    assert answer.status_code == status
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


def test_documentation_is_cacheable_and_its_page_may_run_swagger_ui(gateway: FlaskClient
                                                                    ) -> None:
    spec = gateway.get("/v1/openapi.json")
    assert spec.headers["Cache-Control"].startswith("public")
    page = gateway.get("/v1/docs")
    assert page.headers["Cache-Control"].startswith("public")
    policy = dict(part.strip().split(" ", 1) for part in
                  page.headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'"
    # Swagger UI is served by the gateway itself: its scripts, styles and images come from
    # this origin alone, and no inline script runs but the page's own, by hash.
    sources = policy["script-src"].split()
    assert sources[0] == "'self'" and all(s.startswith("'sha256-") for s in sources[1:])
    assert len(sources) == 2 and "unsafe-inline" not in policy["script-src"]
    assert policy["style-src"] == "'self' 'unsafe-inline'" and policy["img-src"] == "'self' data:"
    assert policy["connect-src"] == "'self'"  # Swagger UI fetches /v1/openapi.json
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert f'"/v1/docs/assets/{asset}"' in page.get_data(as_text=True)
        served = gateway.get(f"/v1/docs/assets/{asset}")
        assert served.status_code == 200 and served.headers["Cache-Control"].startswith("public")
    assert gateway.get("/v1/docs/assets/LICENSE").status_code == 404  # only what the page loads


@pytest.mark.parametrize("path", ["/v1//docs", "/v1//openapi.json"])
def test_no_redirect_is_built_from_the_host_header(gateway: FlaskClient, path: str) -> None:
    answer = gateway.get(path, headers={"Host": "attacker.example"})
    assert not 300 <= answer.status_code < 400, answer.headers.get("Location")
    assert "attacker" not in answer.headers.get("Location", "")


def test_swagger_ui_may_be_served_from_elsewhere() -> None:
    """An operator may point OPENAPI_SWAGGER_UI_URL at another host: the page's CSP then
    names it, and the gateway serves no Swagger UI files of its own."""
    client = create_app({"OPENAPI_SWAGGER_UI_URL": "https://cdn.example/swagger/"}).test_client()
    policy = client.get("/v1/docs").headers["Content-Security-Policy"]
    assert "script-src 'self' https://cdn.example 'sha256-" in policy
    missing = client.get("/v1/docs/assets/swagger-ui.css")
    assert missing.status_code == 404 and missing.headers["Cache-Control"] == "no-store"
