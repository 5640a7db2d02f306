"""The engine process's operating surface, each test against real engine processes:

- ``--metrics-address``: Prometheus text at ``/metrics`` (port 0 logged), counting calls per
  method and code, refusals included, and the games' counters;
- JSON log lines (the default) with the request id of each failed call; text lines too;
- ``--max-connection-age``: an idle connection is closed (GOAWAY) at its age, not before;
- health watches started as others end (each client's reconnection) never stall the
  engine;
- TLS with client certificates (real certificates, from trustme): only a client holding one
  that the configured CA signed gets answers; a wrong setting stops the engine at once
  with exit code 2 and a message naming the flag;
- ``--health-address`` beside mutual TLS: plaintext health checks there and nothing else,
  NOT_SERVING throughout the drain, while the main port still wants a certificate;
- traces: with an OTLP endpoint set, the engine posts a server span carrying the caller's
  trace id (decoded with opentelemetry-proto), and its log lines carry the trace id.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import requests
import trustme
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families
from referee.downtown_farmers_market.v1 import (
    downtown_farmers_market_service_pb2 as dfm_pb2,
)

from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema

from ..sample_boards import SIMPLE_BOARD
from .conftest import REPO, Process, environment
from .otlp import Collector, collecting

pytestmark = pytest.mark.e2e

DFM_SERVICE = "referee.downtown_farmers_market.v1.DowntownFarmersMarketService"
FF_SERVICE = "referee.foxglove_farm.v1.FoxgloveFarmService"
SCORE = f"/{DFM_SERVICE}/ScoreBoard"
PLAN = f"/{FF_SERVICE}/PlanFinalRound"
BOARD = dfm_pb2.ScoreBoardRequest(board=BoardSchema().load(SIMPLE_BOARD)).SerializeToString()


# --- engines -------------------------------------------------------------------------


@dataclass
class Engine:
    process: Process
    address: str
    transport: str
    """What the listening line says after the address: "plaintext", "TLS", ..."""

    def json_lines(self) -> list[dict[str, Any]]:
        """The engine's JSON log lines (grpc's own C core may write plain ones)."""
        return [json.loads(line) for line in self.process.lines if line.startswith("{")]


@contextmanager
def running(*flags: str, **env: str) -> Iterator[Engine]:
    """An engine process with ``flags`` and environment ``env``, stopped afterwards."""
    process = Process.start([sys.executable, "-m", "engine_service", "--address",
                             "127.0.0.1:0", "--grace", "1", *flags], environment(**env))
    try:
        listening = process.wait_for(r"engine listening on (\S+) \(([^)]+)\)")
        yield Engine(process, listening.group(1), listening.group(2))
    finally:
        process.stop()


def call(channel: grpc.Channel, method: str, payload: bytes, *,
         metadata: tuple[tuple[str, str], ...] = ()) -> grpc.StatusCode:
    """Bytes in; the status code out."""
    try:
        channel.unary_unary(method)(payload, timeout=10, metadata=metadata)
    except grpc.RpcError as error:
        return error.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def health(channel: grpc.Channel, service: str = "", timeout: float = 10) -> str:
    """The engine's health (overall, or ``service``'s), or the status code of a failed
    check."""
    try:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout)
    except grpc.RpcError as error:
        return str(error.code().name)
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status))


# --- metrics and logs ----------------------------------------------------------------


def scrape(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    text = requests.get(url, timeout=10).text
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def series(name: str, **labels: str) -> tuple[str, frozenset[tuple[str, str]]]:
    return name, frozenset(labels.items())


def test_metrics_count_calls_refusals_and_scores_and_failures_are_logged() -> None:
    with running("--metrics-address", "127.0.0.1:0",
                 REFEREE_ENGINE_MAX_CONCURRENT_PLANS="0") as engine:
        url = engine.process.wait_for(r"engine metrics on (http://\S+?/metrics)").group(1)
        assert not url.endswith(":0/metrics"), url
        with grpc.insecure_channel(engine.address) as channel:
            codes = [call(channel, SCORE, BOARD, metadata=(("x-request-id", "fine"),)),
                     call(channel, SCORE, b"\xff", metadata=(("x-request-id", "bad-bytes"),)),
                     call(channel, PLAN, b"", metadata=(("x-request-id", "no-seat"),))]
        metrics = scrape(url)
        engine.process.wait_for('"request_id": "no-seat"')  # the last line, read
        lines = engine.json_lines()
    assert codes == [grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT,
                     grpc.StatusCode.RESOURCE_EXHAUSTED]
    calls = "referee_engine_calls_total"
    expected = {
        series(calls, service=DFM_SERVICE, method="ScoreBoard", code="OK"): 1,
        series(calls, service=DFM_SERVICE, method="ScoreBoard", code="INVALID_ARGUMENT"): 1,
        series(calls, service=FF_SERVICE, method="PlanFinalRound", code="RESOURCE_EXHAUSTED"): 1,
        series(calls, service=FF_SERVICE, method="PlanFinalRound", code="OK"): 0,
        series("referee_engine_call_seconds_count", service=DFM_SERVICE,
               method="ScoreBoard"): 2,
        series("referee_engine_call_seconds_count", service=FF_SERVICE,
               method="PlanFinalRound"): 1,
        series("referee_engine_boards_scored_total", game="downtown-farmers-market"): 1,
        series("referee_engine_boards_scored_total", game="foxglove-farm"): 0,
        series("referee_engine_plans_total", optimal="true"): 0,
    }
    assert {key: metrics.get(key) for key in expected} == expected
    assert metrics[series("referee_engine_call_seconds_bucket", service=DFM_SERVICE,
                          method="ScoreBoard", le="+Inf")] == 2
    assert all(line.keys() >= {"ts", "level", "logger", "message"} and
               line["process"] == "engine" for line in lines), lines
    failed = [(line["request_id"], line["code"], line["level"]) for line in lines
              if "request_id" in line]
    assert failed == [("bad-bytes", "INVALID_ARGUMENT", "INFO"),
                      ("no-seat", "RESOURCE_EXHAUSTED", "INFO")], lines


def test_text_log_lines_when_asked_and_no_metrics_by_default() -> None:
    with running(REFEREE_LOG_FORMAT="text") as engine:
        with grpc.insecure_channel(engine.address) as channel:
            call(channel, SCORE, b"\xff", metadata=(("x-request-id", "plain-1"),))
        engine.process.wait_for(r"\[plain-1\]")
        lines = list(engine.process.lines)
    assert engine.transport == "plaintext"
    assert not any(line.startswith("{") for line in lines), lines
    assert not any("engine metrics on" in line for line in lines), lines
    assert any(" engine INFO engine_service.calls [plain-1]: ScoreBoard answered "
               "INVALID_ARGUMENT in " in line for line in lines), lines


# --- maximum connection age ----------------------------------------------------------


def test_connections_are_closed_at_their_maximum_age_and_not_before() -> None:
    seen: dict[str, list[grpc.ChannelConnectivity]] = {"1 s": [], "default": []}
    with running("--max-connection-age", "1") as young, running() as default:
        channels = {"1 s": grpc.insecure_channel(young.address),
                    "default": grpc.insecure_channel(default.address)}
        try:
            for name, channel in channels.items():
                channel.subscribe(seen[name].append)
                assert health(channel) == "SERVING"
            time.sleep(2.5)  # the age (1 s, +-10% jitter), then the goaway's round trip
            states = {name: list(states) for name, states in seen.items()}
            assert health(channels["1 s"]) == "SERVING"  # the client reconnects
        finally:
            for channel in channels.values():
                channel.close()
    ready, idle = grpc.ChannelConnectivity.READY, grpc.ChannelConnectivity.IDLE
    young_states = states["1 s"]
    assert ready in young_states and idle in young_states[young_states.index(ready):], states
    assert states["default"][-1] is ready and idle not in states["default"][
        states["default"].index(ready):], states


WATCHERS = 4
WATCHES_EACH = 100
WATCH_SECONDS = 5
"""Each watch lives for one of its client's turns: milliseconds, when nothing stalls."""


def test_watches_started_as_others_end_never_stall_the_engine() -> None:
    """Every reconnecting client (max connection age, a restarted gateway) starts a health
    watch on its new connection as its old one ends. grpc_health's servicer sent the new
    watch's status holding its lock, waiting for grpcio's serving thread, which was
    running the ended watch's callback, waiting for the same lock: the engine accepted no
    call again (an end-to-end failure of test_replicas.py, traced to this)."""
    request = health_pb2.HealthCheckRequest()
    stalled: list[int] = []

    def churn(address: str) -> None:
        with grpc.insecure_channel(address) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            previous = stub.Watch(request, timeout=WATCH_SECONDS)
            for watch in range(WATCHES_EACH):
                current = stub.Watch(request, timeout=WATCH_SECONDS)
                previous.cancel()
                try:
                    # A stalled engine answers no watch: the deadline ends the call.
                    next(current)
                except grpc.RpcError:
                    stalled.append(watch)
                    return
                previous = current
            previous.cancel()

    with running() as engine:
        with grpc.insecure_channel(engine.address) as channel:
            assert health(channel) == "SERVING"
            clients = [threading.Thread(target=churn, args=(engine.address,))
                       for _ in range(WATCHERS)]
            for client in clients:
                client.start()
            for client in clients:
                client.join()
            answered = health(channel, timeout=5), call(channel, SCORE, BOARD)
    assert not stalled, (f"the engine stalled: watches went unanswered after each client's "
                         f"{stalled} watches")
    assert answered == ("SERVING", grpc.StatusCode.OK)


# --- TLS -----------------------------------------------------------------------------


@dataclass
class Pki:
    folder: Path
    ca: bytes
    clients: dict[str, tuple[bytes, bytes]]
    """Client certificate and key by who signed it: "ours" (the engine's CA), "theirs"."""

    def path(self, name: str) -> str:
        return str(self.folder / name)


def issued(leaf: trustme.LeafCert) -> tuple[bytes, bytes]:
    """A certificate (PEM) and its private key (PEM)."""
    return leaf.cert_chain_pems[0].bytes(), leaf.private_key_pem.bytes()


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    """The engine's CA and certificate (for 127.0.0.1 and localhost) as files, and a key
    that is not the certificate's (another one the same CA issued); client certificates
    from that CA and from a stranger's."""
    folder = tmp_path_factory.mktemp("pki")
    ours, theirs = trustme.CA(), trustme.CA()
    server_cert, server_key = issued(ours.issue_cert("127.0.0.1", "localhost"))
    clients = {"ours": issued(ours.issue_cert("gateway.referee.test")),
               "theirs": issued(theirs.issue_cert("gateway.referee.test"))}
    files = {"ca.pem": ours.cert_pem.bytes(), "engine.pem": server_cert,
             "engine.key": server_key, "other.key": issued(ours.issue_cert("other.test"))[1]}
    for name, content in files.items():
        (folder / name).write_bytes(content)
    return Pki(folder, ours.cert_pem.bytes(), clients)


def tls_channel(address: str, ca: bytes, client: tuple[bytes, bytes] | None) -> grpc.Channel:
    cert, key = client if client else (None, None)
    credentials = grpc.ssl_channel_credentials(root_certificates=ca, private_key=key,
                                               certificate_chain=cert)
    return grpc.secure_channel(address, credentials)


def test_mutual_tls_answers_only_clients_with_a_certificate_from_the_configured_ca(
        pki: Pki) -> None:
    with running(REFEREE_ENGINE_TLS_CERT=pki.path("engine.pem"),
                 REFEREE_ENGINE_TLS_KEY=pki.path("engine.key"),
                 REFEREE_ENGINE_TLS_CLIENT_CA=pki.path("ca.pem")) as engine:
        outcomes = {}
        for name, client in (("signed by the CA", pki.clients["ours"]),
                             ("no certificate", None),
                             ("another CA's", pki.clients["theirs"])):
            with tls_channel(engine.address, pki.ca, client) as channel:
                outcomes[name] = (health(channel), call(channel, SCORE, BOARD).name)
        with grpc.insecure_channel(engine.address) as channel:
            outcomes["plaintext"] = (health(channel), call(channel, SCORE, BOARD).name)
    assert engine.transport == "TLS, client certificates required"
    assert outcomes == {"signed by the CA": ("SERVING", "OK"),
                        "no certificate": ("UNAVAILABLE", "UNAVAILABLE"),
                        "another CA's": ("UNAVAILABLE", "UNAVAILABLE"),
                        "plaintext": ("UNAVAILABLE", "UNAVAILABLE")}


def test_tls_without_a_client_ca_answers_any_tls_client(pki: Pki) -> None:
    with (running("--tls-cert", pki.path("engine.pem"), "--tls-key",
                  pki.path("engine.key")) as engine,
          tls_channel(engine.address, pki.ca, None) as channel):
        answers = (health(channel), call(channel, SCORE, BOARD).name)
    assert engine.transport == "TLS"
    assert answers == ("SERVING", "OK")


STARTUP_ERRORS = {
    # name: (flags, environment, what stderr must name)
    "cert without key": (["--tls-cert", "engine.pem"], {}, ["--tls-key"]),
    "key without cert (env)": ([], {"REFEREE_ENGINE_TLS_KEY": "engine.key"},
                               ["--tls-cert", "REFEREE_ENGINE_TLS_CERT"]),
    "client CA alone": (["--tls-client-ca", "ca.pem"], {}, ["--tls-cert", "--tls-key"]),
    "unreadable cert": (["--tls-cert", "missing.pem", "--tls-key", "engine.key"], {},
                        ["--tls-cert", "missing.pem"]),
    "unreadable client CA": (["--tls-cert", "engine.pem", "--tls-key", "engine.key",
                              "--tls-client-ca", "missing-ca.pem"], {},
                             ["--tls-client-ca", "missing-ca.pem"]),
    "key of another certificate": (["--tls-cert", "engine.pem", "--tls-key", "other.key"], {},
                                   ["--tls-cert", "--tls-key"]),
    "a key as client CA": (["--tls-cert", "engine.pem", "--tls-key", "engine.key",
                            "--tls-client-ca", "engine.key"], {}, ["--tls-client-ca"]),
    "metrics address without a port": (["--metrics-address", "localhost"], {},
                                       ["--metrics-address"]),
    "health address without a port": ([], {"REFEREE_ENGINE_HEALTH_ADDRESS": "localhost"},
                                      ["--health-address"]),
    "unknown log format": ([], {"REFEREE_LOG_FORMAT": "xml"}, ["REFEREE_LOG_FORMAT"]),
}


def startup_error(flags: list[str], env: dict[str, str], cwd: Path) -> str:
    """The message of an engine that must refuse to start: exit code 2, no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "engine_service", "--address", "127.0.0.1:0", *flags],
        cwd=cwd, env={**environment(**env), "PYTHONPATH": str(REPO)},
        capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and "listening" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("referee-engine: error: "), last
    return last


@pytest.mark.parametrize("name", list(STARTUP_ERRORS))
def test_a_setting_that_cannot_work_stops_the_engine_naming_it(pki: Pki, name: str) -> None:
    flags, env, named = STARTUP_ERRORS[name]
    message = startup_error(flags, env, pki.folder)
    assert all(n in message for n in named), message


@pytest.mark.parametrize("flag", ["--metrics-address", "--health-address"])
def test_a_taken_port_stops_the_engine_naming_the_flag(tmp_path: Path, flag: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        message = startup_error([flag, address], {}, tmp_path)
    assert f"{flag} {address}" in message, message


# --- the health port -----------------------------------------------------------------


REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def test_the_health_port_answers_plaintext_checks_beside_mutual_tls_and_reads_the_drain(
        pki: Pki) -> None:
    """What a kubelet's gRPC probe meets: plaintext health checks on the health port, and
    nothing else there; NOT_SERVING from the drain's start until the engine is gone. The
    main port meanwhile answers only a client with a certificate."""
    grace = 2.0
    watched: list[str] = []
    checks: list[tuple[float, str]] = []
    with running("--grace", f"{grace:g}",
                 REFEREE_ENGINE_HEALTH_ADDRESS="127.0.0.1:0",
                 REFEREE_ENGINE_TLS_CERT=pki.path("engine.pem"),
                 REFEREE_ENGINE_TLS_KEY=pki.path("engine.key"),
                 REFEREE_ENGINE_TLS_CLIENT_CA=pki.path("ca.pem")) as engine:
        probe_line = engine.process.wait_for(r"engine health on (\S+) \((\w+)\)")
        with (grpc.insecure_channel(probe_line.group(1)) as probe,
              grpc.insecure_channel(engine.address) as plaintext,
              tls_channel(engine.address, pki.ca, None) as anonymous,
              tls_channel(engine.address, pki.ca, pki.clients["ours"]) as gateway):
            on_health_port = {"health": health(probe),
                              "a game's health": health(probe, DFM_SERVICE),
                              "a game method": call(probe, SCORE, BOARD).name,
                              "reflection": call(probe, REFLECTION, b"").name}
            on_main_port = {"plaintext": health(plaintext),
                            "TLS, no certificate": health(anonymous),
                            "TLS, our certificate": health(gateway)}
            # A gateway's Watch on the main port keeps the drain open to its end; one on
            # the health port shows the main server's servicer answering there.
            held = health_pb2_grpc.HealthStub(gateway).Watch(
                health_pb2.HealthCheckRequest(), timeout=grace + 10)
            stream = health_pb2_grpc.HealthStub(probe).Watch(
                health_pb2.HealthCheckRequest(), timeout=grace + 10)

            def watch() -> None:
                try:
                    watched.extend(health_pb2.HealthCheckResponse.ServingStatus.Name(
                        answer.status) for answer in stream)
                except grpc.RpcError as error:
                    watched.append(error.code().name)

            # Each stream's first answer read before the signal: it is the status then.
            watched.append(health_pb2.HealthCheckResponse.ServingStatus.Name(
                next(stream).status))
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            next(held)
            engine.process.popen.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            while engine.process.popen.poll() is None \
                    and time.monotonic() < signalled + grace + 5:
                checks.append((round(time.monotonic() - signalled, 3),
                               health(probe, timeout=0.5)))
                time.sleep(0.05)
            gone_after = time.monotonic() - signalled
            held.cancel()
            watcher.join(5)
    assert (engine.transport, probe_line.group(2)) == ("TLS, client certificates required",
                                                        "plaintext")
    assert on_health_port == {"health": "SERVING", "a game's health": "SERVING",
                              "a game method": "UNIMPLEMENTED",
                              "reflection": "UNIMPLEMENTED"}
    assert on_main_port == {"plaintext": "UNAVAILABLE", "TLS, no certificate": "UNAVAILABLE",
                            "TLS, our certificate": "SERVING"}
    assert gone_after <= grace + 2, f"still running {gone_after:.1f} s after SIGTERM: {checks}"
    # Every check from the signal's handling to the grace period's end reads the drain.
    during = [status for at, status in checks if 0.25 <= at <= grace - 0.1]
    assert during and set(during) == {"NOT_SERVING"}, checks
    assert watched[:2] == ["SERVING", "NOT_SERVING"], watched


# --- traces --------------------------------------------------------------------------


@pytest.fixture
def collector() -> Iterator[Collector]:
    with collecting() as receiver:
        yield receiver


TRACE_OK, TRACE_BAD = "0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = "b7ad6b7169203331"


def test_spans_carry_the_caller_s_trace_and_log_lines_its_id(collector: Collector) -> None:
    endpoint = f"{collector.url}/v1/traces"
    with running(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=endpoint,
                 OTEL_BSP_SCHEDULE_DELAY="100") as engine:
        with grpc.insecure_channel(engine.address) as channel:
            assert health(channel) == "SERVING"  # not traced: probes would drown the rest
            for trace_id, payload, request_id in ((TRACE_OK, BOARD, "traced-ok"),
                                                  (TRACE_BAD, b"\xff", "traced-bad")):
                call(channel, SCORE, payload, metadata=(
                    ("traceparent", f"00-{trace_id}-{PARENT}-01"),
                    ("x-request-id", request_id)))
        for trace_id in (TRACE_OK, TRACE_BAD):
            collector.wait_for(trace_id, 1)
        engine.process.wait_for('"request_id": "traced-bad"')
        lines = engine.json_lines()
    spans = {span.trace_id.hex(): (service, span) for service, span in collector.spans}
    assert set(spans) == {TRACE_OK, TRACE_BAD}, [s.name for _, s in collector.spans]
    for trace_id in (TRACE_OK, TRACE_BAD):
        service, span = spans[trace_id]
        assert (service, span.name, span.parent_span_id.hex(), span.kind) == (
            "referee-engine", SCORE, PARENT, span.SPAN_KIND_SERVER)
    codes = {trace_id: [a.value.int_value for a in span.attributes
                        if a.key == "rpc.grpc.status_code"] for trace_id, (_, span) in spans.items()}
    assert codes == {TRACE_OK: [grpc.StatusCode.OK.value[0]],
                     TRACE_BAD: [grpc.StatusCode.INVALID_ARGUMENT.value[0]]}
    failed = [(line["request_id"], line.get("trace_id")) for line in lines
              if "request_id" in line]
    assert failed == [("traced-bad", TRACE_BAD)], lines
