"""The gateway under gunicorn (two workers) as it is observed: its Prometheus metrics added
up over the workers (and a dead worker's requests no longer in flight), its JSON log
lines, and its OpenTelemetry spans, exported to the tests' OTLP/HTTP collector
(``otlp.py``)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from deploy import stack

from ..sample_boards import SIMPLE_BOARD
from .conftest import Process, environment, in_flight, scrape, start_engine
from .otlp import WAIT_SECONDS, Collector, collecting

pytestmark = pytest.mark.e2e

SCORE = "/v1/downtown-farmers-market/score"
SCORE_RPC = "/referee.downtown_farmers_market.v1.DowntownFarmersMarketService/ScoreBoard"


@pytest.fixture(scope="module")
def collector() -> Iterator[Collector]:
    with collecting() as receiver:
        yield receiver


@dataclass
class Gateway:
    process: Process
    url: str
    metrics_directory: Path


@pytest.fixture(scope="module")
def gateway(collector: Collector, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Gateway]:
    """gunicorn with two workers, tracing to ``collector``, every request logged (the
    slow-request threshold at 0), its metrics in a directory holding an earlier run's."""
    directory = tmp_path_factory.mktemp("gateway")
    metrics = directory / "metrics"
    metrics.mkdir()
    (metrics / "counter_999999.db").write_bytes(b"\0" * 64)
    config = directory / "gateway.cfg"
    config.write_text("SLOW_REQUEST_SECONDS = 0.0\n")
    engine, engine_address = start_engine()
    try:
        process, url = stack.start_gunicorn(sys.executable, environment(
            REFEREE_GATEWAY_WORKERS="2", REFEREE_GATEWAY_CONFIG=str(config),
            PROMETHEUS_MULTIPROC_DIR=str(metrics), OTEL_EXPORTER_OTLP_ENDPOINT=collector.url,
            OTEL_BSP_SCHEDULE_DELAY="50"), engine_address, "127.0.0.1:0")
        try:
            stack.wait_ready(url)
            yield Gateway(process, url, metrics)
        finally:
            process.stop()
    finally:
        engine.stop()


def healthz_count(samples: dict[Any, float]) -> float:
    return samples.get(("referee_gateway_requests_total", (
        ("method", "GET"), ("route", "/healthz"), ("status", "200"))), 0.0)


def test_an_earlier_runs_metrics_are_removed_at_start(gateway: Gateway) -> None:
    assert not (gateway.metrics_directory / "counter_999999.db").exists()


def test_every_scrape_adds_up_every_workers_counts(gateway: Gateway) -> None:
    before = healthz_count(scrape(gateway.url))
    for _ in range(20):  # a connection each: either worker may take it
        requests.get(f"{gateway.url}/healthz", timeout=10, headers={"Connection": "close"})
    counts = [healthz_count(scrape(gateway.url)) for _ in range(6)]
    assert counts == [before + 20] * 6
    assert len({re.sub(r"\D", "", p.name) for p in gateway.metrics_directory.glob("*.db")}) >= 2


def test_a_requests_spans_arrive_with_its_trace_id(gateway: Gateway,
                                                   collector: Collector) -> None:
    trace_id, caller_span = os.urandom(16).hex(), os.urandom(8).hex()
    answer = requests.post(gateway.url + SCORE, json=SIMPLE_BOARD, timeout=10, headers={
        "traceparent": f"00-{trace_id}-{caller_span}-01", "X-Request-ID": "traced-1"})
    assert answer.status_code == 200
    spans = dict((span.kind, (service, span)) for service, span in
                 collector.wait_for(trace_id, 2))
    service, served = spans[Span.SPAN_KIND_SERVER]
    assert service == "referee-gateway" and served.parent_span_id.hex() == caller_span
    assert {a.key: a.value.string_value for a in served.attributes}["http.route"] == SCORE
    _, called = spans[Span.SPAN_KIND_CLIENT]
    assert served.name == f"POST {SCORE}" and called.name == SCORE_RPC
    assert called.parent_span_id == served.span_id
    # ... and its log line says which trace and which request it was.
    line = _json_line(gateway.process, "traced-1")
    assert line["trace_id"] == trace_id and line["process"] == "gateway"
    assert line["level"] == "INFO" and line["logger"] == "api_gateway.logs"
    assert line["message"].startswith(f"POST {SCORE} answered 200 in ")
    assert line["route"] == SCORE and line["status"] == 200


def test_gunicorns_own_lines_are_json_too(gateway: Gateway) -> None:
    lines = [json.loads(text) for text in gateway.process.lines if text.startswith("{")]
    assert any(line["message"].startswith("Listening at: http://127.0.0.1:")
               and line["logger"] == "gunicorn.error" and line["process"] == "gateway"
               for line in lines)


def _json_line(process: Process, request_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        for text in list(process.lines):
            if f'"request_id": "{request_id}"' in text:
                return json.loads(text)  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"no line for {request_id}:\n{''.join(process.lines[-20:])}")


def test_a_killed_worker_leaves_no_request_in_flight(gateway: Gateway) -> None:
    """A worker killed in the middle of a request (its body still arriving) would count
    it in flight for ever, without the master's child_exit hook marking it dead."""
    host, port = gateway.url.removeprefix("http://").split(":")
    stalled = socket.create_connection((host, int(port)))
    try:
        stalled.sendall(f"POST {SCORE} HTTP/1.1\r\nHost: {host}\r\n"
                        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                        .encode())
        deadline = time.monotonic() + WAIT_SECONDS
        while in_flight(samples := scrape(gateway.url)) != 2:  # the stalled one and this
            assert time.monotonic() < deadline, samples
            time.sleep(0.05)
        counted = healthz_count(samples)
        workers = _booted(gateway.process)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + WAIT_SECONDS
        while len(_booted(gateway.process) - workers) < 2:
            assert time.monotonic() < deadline, "".join(gateway.process.lines[-20:])
            time.sleep(0.05)
        stack.wait_ready(gateway.url)
    finally:
        stalled.close()
    samples = scrape(gateway.url)
    assert in_flight(samples) == 1  # this scrape alone
    assert healthz_count(samples) == counted  # the dead workers' counts stay


def _booted(process: Process) -> set[int]:
    return {int(match.group(1)) for text in list(process.lines)
            if (match := re.search(r"Booting worker with pid: (\d+)", text))}
