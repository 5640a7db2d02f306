"""``GET /metrics`` in one process (the Flask test client): Prometheus text, with each
request counted and timed under its URL rule, method and status. Under gunicorn, where
the workers' values are added up, see tests/e2e/test_gateway_observability.py."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families

from api_gateway import create_app

from ..sample_boards import SIMPLE_BOARD

SCORE = "/v1/downtown-farmers-market/score"


def scrape(client: FlaskClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for sample in family.samples}


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(scope="module")
def client(engine_address: str) -> FlaskClient:
    return create_app({"ENGINE_ADDRESS": engine_address}).test_client()


def test_metrics_are_prometheus_text_never_stored(client: FlaskClient) -> None:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.mimetype == "text/plain"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    names = {family.name for family in text_string_to_metric_families(answer.get_data(
        as_text=True))}
    assert {"referee_gateway_requests", "referee_gateway_request_seconds",
            "referee_gateway_requests_in_flight"} <= names


def test_requests_are_counted_by_url_rule_method_and_status(client: FlaskClient) -> None:
    before = scrape(client)
    for _ in range(3):
        assert client.post(SCORE, json=SIMPLE_BOARD).status_code == 200
    assert client.post(SCORE, json={"mode": "chess"}).status_code == 422
    after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("referee_gateway_requests_total", route=SCORE, method="POST",
                 status="200") == 3
    assert moved("referee_gateway_requests_total", route=SCORE, method="POST",
                 status="422") == 1
    assert moved("referee_gateway_request_seconds_count", route=SCORE, method="POST") == 4
    assert moved("referee_gateway_request_seconds_bucket", route=SCORE, method="POST",
                 le="+Inf") == 4
    assert 0 < moved("referee_gateway_request_seconds_sum", route=SCORE, method="POST") < 4
    # The scrape before this one was counted under its own rule.
    assert moved("referee_gateway_requests_total", route="/metrics", method="GET",
                 status="200") == 1


def test_paths_matching_no_rule_are_one_series(client: FlaskClient) -> None:
    before = scrape(client)
    for path in ("/wp-admin.php", "/v1/../etc/passwd", "/v1/random-0xdeadbeef"):
        assert client.get(path).status_code == 404
    assert client.open(SCORE, method="BREW").status_code == 405
    after = scrape(client)
    assert value(after, "referee_gateway_requests_total", route="<unmatched>", method="GET",
                 status="404") - value(before, "referee_gateway_requests_total",
                                       route="<unmatched>", method="GET", status="404") == 3
    assert value(after, "referee_gateway_requests_total", route="<unmatched>",
                 method="other", status="405") >= 1
    labels = {label for (_, pairs) in after for _, label in pairs}
    assert not labels & {"/wp-admin.php", "/v1/../etc/passwd", "/v1/random-0xdeadbeef",
                         "BREW"}


def test_the_scrape_itself_is_the_one_request_in_flight(client: FlaskClient) -> None:
    assert value(scrape(client), "referee_gateway_requests_in_flight") == 1


def test_metrics_are_no_api_operation(client: FlaskClient) -> None:
    paths = client.get("/v1/openapi.json").get_json()["paths"]
    assert "/metrics" not in paths and "/v1/metrics" not in paths
