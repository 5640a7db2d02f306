"""Hostile HTTP traffic against the real stack: engine, gunicorn and nginx in front, as
``deploy/run.py`` runs them, on free loopback ports, with short client timeouts.

Every loop here is bounded in count and time; all traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import signal
import socket
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from deploy.stack import free_port, wait_ready

from ..sample_boards import SIMPLE_BOARD
from .conftest import REPO, Process, Service, Stack, environment, nginx_or_skip, start_stack

pytestmark = pytest.mark.e2e

SCORE = "/v1/downtown-farmers-market/score"
HEADER_TIMEOUT_SECONDS = 2
"""The proxy's deadline for a request's headers in these tests (10 s in production)."""
BODY_TIMEOUT_SECONDS = 0.5
"""The longest the proxy waits for the next bytes of a body in these tests (10 s in
production): nginx's body timeout is between two reads, not for the whole body."""
MAX_BODY_BYTES = 256 * 1024
SLOW_CLIENTS = 100
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    started = start_stack(REFEREE_PROXY_HEADER_TIMEOUT_SECONDS=str(HEADER_TIMEOUT_SECONDS),
                          REFEREE_PROXY_BODY_TIMEOUT_SECONDS=str(BODY_TIMEOUT_SECONDS))
    yield started
    started.stop()


def score_latency(url: str) -> float:
    """Seconds for one ordinary score request on a new connection (which must be a 200)."""
    started = time.perf_counter()
    answer = requests.post(url + SCORE, json=SIMPLE_BOARD, timeout=5,
                           headers={"Connection": "close"})
    elapsed = time.perf_counter() - started
    assert answer.status_code == 200, answer.text
    return elapsed


def trickle(url: str, opening: bytes, rest: bytes) -> tuple[list[float], float]:
    """Open ``SLOW_CLIENTS`` connections, each sending ``opening`` then one byte of
    ``rest`` a second. Returns the latencies of ordinary requests made meanwhile, and
    how long until every slow connection was found closed by the server (a byte sent
    fails), or inf if some were still open after twice the header timeout."""
    host, port = url.removeprefix("http://").split(":")
    slow = [socket.create_connection((host, int(port)), timeout=5) for _ in range(SLOW_CLIENTS)]
    started = time.monotonic()
    try:
        for connection in slow:
            connection.sendall(opening)
        latencies = [score_latency(url) for _ in range(5)]
        open_ones = list(slow)
        position = 0
        while open_ones and time.monotonic() - started < 2 * HEADER_TIMEOUT_SECONDS + 2:
            time.sleep(1)
            for connection in list(open_ones):
                try:
                    connection.sendall(rest[position:position + 1])
                except OSError:  # reset, or closed by the server: what we wait for
                    open_ones.remove(connection)
            position += 1
        return latencies, time.monotonic() - started if not open_ones else float("inf")
    finally:
        for connection in slow:
            connection.close()


def test_slow_headers_neither_delay_others_nor_stay_open(stack: Stack) -> None:
    """100 clients sending their headers a byte a second: ordinary requests are answered
    while the slow ones are still open (one held up behind them would wait for the
    header timeout to close them), and the header timeout closes every slow connection.
    The bound is the mechanism's, not the machine's speed: a shared machine's ordinary
    answer takes 10 to 200 ms."""
    header = b"POST " + SCORE.encode() + b" HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    latencies, closed_after = trickle(stack.url, b"P", header[1:])
    assert max(latencies) < HEADER_TIMEOUT_SECONDS / 2, latencies
    assert closed_after <= HEADER_TIMEOUT_SECONDS + 3  # found at the next byte a second


def test_slow_bodies_neither_delay_others_nor_stay_open(stack: Stack) -> None:
    """100 clients sending a declared 1000-byte body a byte a second, slower than the body
    timeout: it closes them, and ordinary requests are not held up meanwhile."""
    head = (f"POST {SCORE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n").encode()
    latencies, closed_after = trickle(stack.url, head, b" " * 1000)
    assert max(latencies) < 1, latencies
    assert closed_after <= BODY_TIMEOUT_SECONDS + 3


def assert_problem(status: int, headers: Any, body: bytes, expected: int) -> dict[str, Any]:
    """The answer is the contract's problem+json for ``expected``, with the security
    headers."""
    assert status == expected, body[:300]
    assert headers["Content-Type"] == PROBLEM
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-store"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    problem = json.loads(body)
    assert problem["status"] == expected and problem["title"] and problem["detail"]
    assert problem["type"].startswith("https://tabletop-referee.example/problems/")
    return dict(problem)


def post_chunked(url: str, body: bytes) -> requests.Response:
    chunks = (body[i:i + 16384] for i in range(0, len(body), 16384))  # sent chunked
    return requests.post(url + SCORE, data=chunks, timeout=10,
                         headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("front", ["stack", "service"])
def test_chunked_body_over_the_limit_is_413(request: pytest.FixtureRequest, front: str) -> None:
    """Past the limit a 413, from nginx or from the app behind gunicorn alone; just
    within it, the body reaches the app whole (through nginx: by its temp file)."""
    url = request.getfixturevalue(front).url
    board = json.dumps(SIMPLE_BOARD).encode()
    answer = post_chunked(url, board + b" " * MAX_BODY_BYTES)
    assert_problem(answer.status_code, answer.headers, answer.content, 413)
    assert post_chunked(url, board + b" " * (MAX_BODY_BYTES - len(board))).ok


def test_a_plain_client_sending_4_mb_reads_the_413(stack: Stack) -> None:
    """urllib sends the whole body before it reads (no Expect: 100-continue): the proxy
    reads and discards it, so the client gets the answer instead of a broken pipe."""
    request = urllib.request.Request(stack.url + SCORE, data=b" " * (4 * 1024 * 1024),
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert_problem(refused.value.code, refused.value.headers, refused.value.read(), 413)


def raw_exchange(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` bytes as they are; the status, headers and body answered."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def request_with(line: str = f"GET {SCORE} HTTP/1.1", *headers: str) -> bytes:
    return "\r\n".join([line, "Host: x", "Connection: close", *headers, "", ""]).encode()


SERVER_LEVEL_ERRORS = [
    pytest.param(request_with(f"GET /{'a' * 9000} HTTP/1.1"), 414, id="long-request-line"),
    pytest.param(request_with(f"GET {SCORE} HTTP/1.1", f"X-Big: {'b' * 9000}"), 431,
                 id="oversized-header"),
    pytest.param(request_with(f"GET {SCORE} HTTP/1.1", *(f"X-{i}: v" for i in range(150))),
                 431, id="too-many-headers"),
    pytest.param(b"GARBAGE\r\n\r\n", 400, id="bad-request-line"),
    pytest.param(request_with(f"POST {SCORE} HTTP/1.1", "Transfer-Encoding: br, chunked"), 501,
                 id="unsupported-transfer-coding"),
]


@pytest.mark.parametrize("request_bytes, status", SERVER_LEVEL_ERRORS)
def test_server_level_errors_are_problems_through_the_proxy(
        stack: Stack, request_bytes: bytes, status: int) -> None:
    assert_problem(*raw_exchange(stack.url, request_bytes), status)


@pytest.mark.parametrize("request_bytes, status", SERVER_LEVEL_ERRORS)
def test_server_level_errors_are_problems_from_gunicorn_alone(
        service: Service, request_bytes: bytes, status: int) -> None:
    """gunicorn reached without the proxy answers what it cannot parse as problem+json."""
    assert_problem(*raw_exchange(service.url, request_bytes), status)


def test_lone_surrogate_is_400_with_a_pointer(stack: Stack) -> None:
    answer = requests.post(stack.url + SCORE, data=b'{"mode": "\\ud800"}', timeout=10,
                           headers={"Content-Type": "application/json"})
    problem = assert_problem(answer.status_code, answer.headers, answer.content, 400)
    assert [e["pointer"] for e in problem["errors"]] == ["/mode"]


def test_another_media_type_is_415(stack: Stack) -> None:
    answer = requests.post(stack.url + SCORE, data=json.dumps(SIMPLE_BOARD), timeout=10,
                           headers={"Content-Type": "text/plain"})
    assert_problem(answer.status_code, answer.headers, answer.content, 415)


def test_answers_carry_security_headers(stack: Stack) -> None:
    answer = requests.post(stack.url + SCORE, json=SIMPLE_BOARD, timeout=10)
    assert answer.status_code == 200
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert answer.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    docs = requests.get(stack.url + "/v1/docs", timeout=10)
    assert docs.status_code == 200 and "script-src" in docs.headers["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/v1//docs", "/v1//openapi.json"])
def test_no_redirect_to_the_host_the_request_names(stack: Stack, path: str) -> None:
    status, headers, _ = raw_exchange(stack.url, request_with(f"GET {path} HTTP/1.1").replace(
        b"Host: x", b"Host: attacker.example"))
    assert not 300 <= status < 400 and "attacker" not in headers.get("Location", ""), headers


def test_sigterm_drains_without_cutting_off_accepted_requests() -> None:
    """``deploy/run.py`` under a steady load (3 clients, a new connection per request, one
    of them asking for slow final-round plans) gets SIGTERM.

    A request counts as accepted once its connection is established; every accepted one
    must get an answer that is a 200 or a 503 (never a reset, a timeout, or another 5xx).
    A refused connection is fine: it means the listener had already closed, which is how
    a draining server says so. Each client stops at its first refusal, or after 10 s.
    """
    nginx_or_skip()
    plan = json.loads((REPO / "tests" / "data" / "foxglove_farm" / "jammed_60_tiles.json")
                      .read_text())["town"]
    port = free_port()
    run = Process.start([sys.executable, str(REPO / "deploy" / "run.py")], environment(
        REFEREE_GATEWAY_BIND=f"127.0.0.1:{port}", REFEREE_GATEWAY_WORKERS="2",
        REFEREE_ENGINE_ADDRESS=f"127.0.0.1:{free_port()}", REFEREE_VENV=sys.prefix))
    outcomes: list[str] = []
    try:
        run.wait_for(r"referee: engine on")
        wait_ready(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 10

        def client(path: str, body: Any) -> None:
            while time.monotonic() < deadline:
                try:
                    answer = requests.post(f"http://127.0.0.1:{port}{path}", json=body,
                                           timeout=5, headers={"Connection": "close"})
                except requests.ConnectionError as error:
                    if isinstance(error.__context__, ConnectionRefusedError) or re.search(
                            "Connection refused", str(error)):
                        outcomes.append("refused")
                        return
                    outcomes.append(f"failed: {error}")
                    return
                outcomes.append(str(answer.status_code))

        clients = [threading.Thread(target=client, args=args) for args in (
            (SCORE, SIMPLE_BOARD), (SCORE, SIMPLE_BOARD),
            ("/v1/foxglove-farm/final-round/plan", plan))]
        for thread in clients:
            thread.start()
        time.sleep(1.5)
        run.popen.send_signal(signal.SIGTERM)
        for thread in clients:
            thread.join(15)
        assert run.popen.wait(40) == 0, "".join(run.lines[-30:])
    finally:
        run.stop()
    bad = [o for o in outcomes if o not in ("200", "503", "refused")]
    assert not bad and outcomes.count("200") > 5, outcomes
    assert any(re.search(r"stopped \(nginx 0, gunicorn 0, engine 0\)", line)
               for line in run.lines), "".join(run.lines[-30:])

