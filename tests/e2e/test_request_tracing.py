"""One request followed across both processes, as an operator would: the real engine and
the real gunicorn gateway, both logging every request at DEBUG and tracing to the tests'
OTLP collector. The caller's ``X-Request-ID`` comes back in the answer and is on the
gateway's and the engine's log lines for that request, whose trace holds the gateway's
server span, its client call and the engine's server span; and under a steady load both
processes' ``/metrics`` counters move."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from deploy import stack

from ..sample_boards import SIMPLE_BOARD
from .conftest import ENGINE_TEST_SETTINGS, Load, Process, engine_calls, environment, metrics_url
from .otlp import WAIT_SECONDS, Collector, collecting

pytestmark = pytest.mark.e2e

SCORE = "/v1/downtown-farmers-market/score"
TRACE_ID = "5b8efff798038103d269b633813fc60c"
TRACEPARENT = f"00-{TRACE_ID}-eee19b7ec3c1b174-01"


@dataclass
class Service:
    engine: Process
    engine_metrics: str
    gateway: Process
    url: str
    collector: Collector


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    with collecting() as collector:
        traced = {"OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
                  "OTEL_BSP_SCHEDULE_DELAY": "50", "REFEREE_LOG_LEVEL": "DEBUG"}
        engine, address = stack.start_engine(
            sys.executable, environment(**ENGINE_TEST_SETTINGS, **traced), "127.0.0.1:0")
        try:
            gateway, url = stack.start_gunicorn(
                sys.executable, environment(REFEREE_GATEWAY_WORKERS="2", **traced), address,
                "127.0.0.1:0")
            try:
                stack.wait_ready(url)
                yield Service(engine, metrics_url(engine), gateway, url, collector)
            finally:
                gateway.stop()
        finally:
            engine.stop()


def lines_of(process: Process, request_id: str) -> list[dict[str, Any]]:
    """``process``'s JSON log lines about ``request_id``, once there is one."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = [json.loads(line) for line in list(process.lines)
                 if line.startswith("{") and f'"{request_id}"' in line]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_a_request_id_is_on_both_processes_log_lines_and_its_trace_spans_both(
        service: Service) -> None:
    answer = requests.post(service.url + SCORE, json=SIMPLE_BOARD, timeout=10, headers={
        "X-Request-ID": "table-7.score-1", "traceparent": TRACEPARENT})
    assert answer.status_code == 200
    assert answer.headers["X-Request-ID"] == "table-7.score-1"

    gateway_lines = lines_of(service.gateway, "table-7.score-1")
    engine_lines = lines_of(service.engine, "table-7.score-1")
    assert [(line["process"], line.get("route"), line.get("status"), line["trace_id"])
            for line in gateway_lines] == [("gateway", SCORE, 200, TRACE_ID)], gateway_lines
    assert [(line["process"], line.get("method"), line.get("code"), line["trace_id"])
            for line in engine_lines] == [("engine", "ScoreBoard", "OK", TRACE_ID)], engine_lines

    spans = service.collector.wait_for(TRACE_ID, 3)
    by_service = {(name, span.kind) for name, span in spans}
    assert {("referee-gateway", Span.SPAN_KIND_SERVER), ("referee-gateway", Span.SPAN_KIND_CLIENT),
            ("referee-engine", Span.SPAN_KIND_SERVER)} <= by_service, by_service
    engine_span = next(span for name, span in spans if name == "referee-engine")
    client_span = next(span for name, span in spans
                       if name == "referee-gateway" and span.kind == Span.SPAN_KIND_CLIENT)
    assert engine_span.parent_span_id == client_span.span_id


def gateway_scores(url: str) -> float:
    """The gateway's 200 answers to /score, from its ``/metrics`` (summed over workers)."""
    metrics = requests.get(f"{url}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
               if line.startswith("referee_gateway_requests_total{")
               and f'route="{SCORE}"' in line and 'status="200"' in line)


def test_both_processes_metrics_count_a_steady_load(service: Service) -> None:
    gateway_before = gateway_scores(service.url)
    engine_before = engine_calls(service.engine_metrics)
    load = Load(service.url, threads=2, pause=0.01).start()
    time.sleep(2)
    load.stop()
    answered = len(load.answers)
    assert answered > 10 and all(status == 200 for _, status, _ in load.answers)
    assert gateway_scores(service.url) - gateway_before == answered
    assert engine_calls(service.engine_metrics) - engine_before == answered
