"""Browser access: CORS by origin list (off by default), preflights that pass whatever
else checks requests, and gzip when asked for, only for answers past the threshold."""

from __future__ import annotations

import gzip

import pytest
from flask import Flask, abort
from flask.testing import FlaskClient

from api_gateway import create_app
from api_gateway.browser import COMPRESS_MIN_SIZE, SettingsError, cors_origins
from api_gateway.config import from_environment

from .test_compiled import VALID

APP_ORIGIN, OTHER_ORIGIN = "https://app.example.org", "https://elsewhere.example"
SCORE = "/v1/downtown-farmers-market/score"
PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type, x-api-key, x-request-id"}


def app_with(engine_address: str, origins: str = "") -> Flask:
    return create_app({"ENGINE_ADDRESS": engine_address, "CORS_ORIGINS": origins})


@pytest.fixture(scope="module")
def browser_gateway(engine_address: str) -> FlaskClient:
    return app_with(engine_address, f"{APP_ORIGIN}, http://localhost:5173").test_client()


# -- CORS --------------------------------------------------------------------------------

def test_cors_is_off_by_default(gateway: FlaskClient) -> None:
    preflight = gateway.options(SCORE, headers={"Origin": APP_ORIGIN, **PREFLIGHT})
    answer = gateway.get("/v1/version", headers={"Origin": APP_ORIGIN})
    for response in (preflight, answer):
        assert not any(h.startswith("Access-Control-") for h in response.headers.keys())


def test_a_listed_origins_preflight_allows_json_posts_with_the_apis_headers(
        browser_gateway: FlaskClient) -> None:
    response = browser_gateway.options(SCORE, headers={"Origin": APP_ORIGIN, **PREFLIGHT})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert {h.strip() for h in response.headers["Access-Control-Allow-Headers"].split(",")} \
        == {"content-type", "x-api-key", "x-request-id"}
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_a_listed_origin_reads_the_answer_and_its_headers(browser_gateway: FlaskClient,
                                                          ) -> None:
    for response in (browser_gateway.post(SCORE, json={"grid": 1},
                                          headers={"Origin": "http://localhost:5173"}),
                     browser_gateway.get("/v1/version",
                                         headers={"Origin": "http://localhost:5173"})):
        assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
        assert {h.strip() for h in response.headers["Access-Control-Expose-Headers"]
                .split(",")} == {"X-Request-ID", "Retry-After"}
        assert "Origin" in response.vary


def test_other_origins_get_no_cors_headers(browser_gateway: FlaskClient) -> None:
    for response in (browser_gateway.options(SCORE, headers={"Origin": OTHER_ORIGIN,
                                                             **PREFLIGHT}),
                     browser_gateway.get("/v1/version", headers={"Origin": OTHER_ORIGIN}),
                     browser_gateway.get("/v1/version")):
        assert "Access-Control-Allow-Origin" not in response.headers
        assert "Origin" in response.vary  # a cache keeps them apart from allowed ones


def test_a_single_origin_still_varies_by_origin(engine_address: str) -> None:
    client = app_with(engine_address, APP_ORIGIN).test_client()
    assert "Origin" in client.get("/v1/version").vary
    answer = client.get("/v1/version", headers={"Origin": APP_ORIGIN})
    assert answer.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_any_origin(engine_address: str) -> None:
    client = app_with(engine_address, "*").test_client()
    response = client.options(SCORE, headers={"Origin": OTHER_ORIGIN, **PREFLIGHT})
    assert response.headers["Access-Control-Allow-Origin"] in ("*", OTHER_ORIGIN)


def test_a_preflight_passes_before_checks_that_refuse_the_request(engine_address: str) -> None:
    """A preflight carries no API key: a check that refuses requests without one (here one
    that refuses everything) must not refuse it, while the request itself is refused."""
    app = app_with(engine_address, APP_ORIGIN)
    app.before_request(lambda: abort(401))
    client = app.test_client()
    preflight = client.options(SCORE, headers={"Origin": APP_ORIGIN, **PREFLIGHT})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    refused = client.post(SCORE, json={}, headers={"Origin": APP_ORIGIN})
    assert refused.status_code == 401
    assert refused.headers["Access-Control-Allow-Origin"] == APP_ORIGIN  # readable by the page


@pytest.mark.parametrize("setting", ["https://app.example.org/", "app.example.org",
                                     "ftp://app.example.org", "https://app.example.org/x",
                                     "https://", "https://a.example, nope"])
def test_a_setting_that_is_no_origin_stops_the_gateway(setting: str) -> None:
    with pytest.raises(SettingsError, match="not an origin"):
        cors_origins(setting)
    with pytest.raises(SettingsError):
        create_app({"CORS_ORIGINS": setting})


def test_origins_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_CORS_ORIGINS", "https://a.example, http://localhost:8000")
    assert cors_origins(from_environment()["CORS_ORIGINS"]) == [
        "https://a.example", "http://localhost:8000"]
    assert cors_origins("") == [] and cors_origins(" , ") == []


# -- compression -------------------------------------------------------------------------

GZIP = {"Accept-Encoding": "gzip"}


def test_answers_past_the_threshold_are_gzipped_and_smaller_ones_not(
        gateway: FlaskClient) -> None:
    """Every endpoint's recorded bodies and the discovery answers, asked for in gzip: the
    answer is gzip exactly when it is at least ``COMPRESS_MIN_SIZE`` bytes, and decodes
    to the very bytes of the uncompressed answer."""
    sizes = set()
    cases = [("GET", path, None) for path in ("/v1/version", "/v1/foxglove-farm/catalog",
                                              "/v1/downtown-farmers-market/challenges")]
    cases += [("POST", path, body) for path, bodies in VALID.items() for body in bodies[:2]]
    same_id = {"X-Request-ID": "gzip-or-not"}  # a problem body repeats the request's id
    for method, path, body in cases:
        plain = gateway.open(path, method=method, json=body, headers=same_id)
        coded = gateway.open(path, method=method, json=body, headers=GZIP | same_id)
        assert plain.status_code == coded.status_code
        assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in coded.vary
        compressed = coded.status_code == 200 and len(plain.data) >= COMPRESS_MIN_SIZE
        assert (coded.headers.get("Content-Encoding") == "gzip") is compressed, path
        if compressed:
            assert gzip.decompress(coded.data) == plain.data
            assert int(coded.headers["Content-Length"]) == len(coded.data) < len(plain.data)
        else:
            assert coded.data == plain.data
        sizes.add(compressed)
    assert sizes == {True, False}  # both sides of the threshold were seen


@pytest.mark.parametrize("accept", ["gzip;q=0", "identity", "br", "zstd, deflate", ""])
def test_no_gzip_unless_the_client_takes_it(gateway: FlaskClient, accept: str) -> None:
    response = gateway.get("/v1/foxglove-farm/catalog", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers


def test_a_gzipped_answer_has_its_own_etag_and_revalidates(gateway: FlaskClient) -> None:
    plain = gateway.get("/v1/foxglove-farm/catalog")
    coded = gateway.get("/v1/foxglove-farm/catalog", headers=GZIP)
    assert coded.headers["ETag"] != plain.headers["ETag"]
    again = gateway.get("/v1/foxglove-farm/catalog",
                        headers={**GZIP, "If-None-Match": coded.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_errors_are_never_compressed(gateway: FlaskClient) -> None:
    board = {"grid": [[["cabbage"] * 3] * 4] * 4}  # 16 problems: a 422 past the threshold
    plain = gateway.post(SCORE, json=board)
    coded = gateway.post(SCORE, json=board, headers=GZIP)
    assert plain.status_code == 422 and len(plain.data) > COMPRESS_MIN_SIZE
    assert "Content-Encoding" not in coded.headers
