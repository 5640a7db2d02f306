"""How the REST client asks again, before a tiny real HTTP server that answers as told: a
503 after its ``Retry-After``, no more than ``retries`` times, and the last refusal
raised."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tabletop_referee_clients import RefereeError, RestClient

SCORE = "/v1/downtown-farmers-market/score"
UNAVAILABLE = (503, {"Retry-After": "1"},
               {"title": "Service Unavailable", "detail": "no engine answered"})


@dataclass
class Server:
    url: str
    answers: list[tuple[int, dict[str, str], dict[str, object]]]
    """What to answer, in turn; the last one again once the others are used."""
    seen: list[tuple[float, str, bytes]] = field(default_factory=list)
    """Each request: when it arrived (monotonic), its path and its body."""


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server("", [])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers["Content-Length"]))
            state.seen.append((time.monotonic(), self.path, body))
            status, headers, answer = state.answers[min(len(state.seen), len(state.answers)) - 1]
            data = json.dumps(answer).encode()
            self.send_response(status)
            for name, value in {**headers, "Content-Type": "application/json",
                                "Content-Length": str(len(data))}.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_503_is_asked_again_after_its_retry_after(server: Server) -> None:
    """The first retry waits for ``Retry-After`` (urllib3's own backoff would not wait
    before it), and sends the same body."""
    server.answers = [UNAVAILABLE, (200, {}, {"total": 12})]
    with RestClient(server.url) as client:
        assert client.downtown_farmers_market.score_board({"grid": []}) == {"total": 12}
    (first, path, body), (second, again, same) = server.seen
    assert path == again == SCORE and body == same
    assert second - first >= 1.0


def test_the_last_refusal_is_raised_once_the_retries_are_used(server: Server) -> None:
    server.answers = [(429, {"Retry-After": "0"}, {"title": "Too Many Requests",
                                                   "detail": "2 a second"})]
    with RestClient(server.url, retries=2) as client, pytest.raises(RefereeError) as refused:
        client.downtown_farmers_market.score_board({"grid": []})
    assert (refused.value.status, refused.value.detail) == (429, "2 a second")
    assert len(server.seen) == 3


def test_other_refusals_are_not_asked_again(server: Server) -> None:
    server.answers = [(422, {}, {"title": "Unprocessable Content", "detail": "no grid",
                                 "errors": []})]
    with RestClient(server.url) as client, pytest.raises(RefereeError) as refused:
        client.downtown_farmers_market.score_board({})
    assert refused.value.status == 422 and len(server.seen) == 1
