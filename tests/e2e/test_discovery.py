"""End to end through nginx, gunicorn and the engine as processes: discovery, the versions
every score names, CORS from the environment setting, and gzip, as a browser gets them."""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest
import requests

from api_gateway.browser import COMPRESS_MIN_SIZE
from tabletop_referee_clients import RestClient
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog

from ..platform.foxglove_towns import KULY
from ..sample_boards import SIMPLE_BOARD
from .conftest import Stack, start_stack

pytestmark = pytest.mark.e2e

ORIGIN = "https://scorepad.example"


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    started = start_stack(REFEREE_CORS_ORIGINS=f"{ORIGIN}, http://localhost:5173")
    yield started
    started.stop()


def raw(url: str, path: str, **headers: str) -> requests.Response:
    """The answer as sent: requests must not ask for, nor decode, a coding by itself."""
    return requests.get(f"{url}{path}", headers={"Accept-Encoding": "identity", **headers},
                        stream=True, timeout=10)


def test_discovery_and_the_versions_scores_name(stack: Stack) -> None:
    with RestClient(stack.url) as client:
        version = client.version()
        catalog = client.foxglove_farm.catalog()
        kinds = client.downtown_farmers_market.challenge_types()
        assert {b["id"] for b in catalog["buildings"]} == {b.id for b in builtin_catalog()}
        assert catalog["catalog_version"] == version["catalogs"]["foxglove-farm"]
        assert len(kinds["challenge_types"]) == 7
        assert client.downtown_farmers_market.score_board(SIMPLE_BOARD)["rules_version"] \
            == version["rules"]["downtown-farmers-market"] == kinds["rules_version"]
        plan = client.foxglove_farm.plan_final_round(KULY["town"])
        assert (plan["rules_version"], plan["catalog_version"]) == (
            version["rules"]["foxglove-farm"], version["catalogs"]["foxglove-farm"])


def test_gzip_through_the_proxy_above_the_threshold_only(stack: Stack) -> None:
    plain = raw(stack.url, "/v1/foxglove-farm/catalog")
    body = plain.raw.read()
    coded = raw(stack.url, "/v1/foxglove-farm/catalog", **{"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers and len(body) >= COMPRESS_MIN_SIZE
    assert coded.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(coded.raw.read()) == body
    small = raw(stack.url, "/v1/version", **{"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers
    assert len(small.raw.read()) < COMPRESS_MIN_SIZE
    revalidated = raw(stack.url, "/v1/foxglove-farm/catalog", **{
        "Accept-Encoding": "gzip", "If-None-Match": coded.headers["ETag"]})
    assert revalidated.status_code == 304
    assert revalidated.headers["Cache-Control"] == "public, max-age=300"


def test_a_browser_preflight_and_call_through_the_proxy(stack: Stack) -> None:
    preflight = requests.options(f"{stack.url}/v1/downtown-farmers-market/score", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, x-api-key, x-request-id"}, timeout=10)
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "x-api-key" in preflight.headers["Access-Control-Allow-Headers"]
    answer = requests.post(f"{stack.url}/v1/downtown-farmers-market/score", json=SIMPLE_BOARD,
                           headers={"Origin": ORIGIN}, timeout=10)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "X-Request-ID" in answer.headers["Access-Control-Expose-Headers"]
    refused = requests.options(f"{stack.url}/v1/downtown-farmers-market/score", headers={
        "Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"},
        timeout=10)
    assert "Access-Control-Allow-Origin" not in refused.headers
