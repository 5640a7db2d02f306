"""What the gateway itself spends on a request: reading the JSON, building the protobuf
request, and writing the answer, with the engine call replaced by a canned answer.

``.venv/bin/python benchmarks/bench_gateway.py [--calls N] [--only NAME] [--profile NAME
[--reference]]``

Each body is first sent through the real gateway to a real in-process engine, and the
engine's answer recorded; then the gateway is called as gunicorn calls it (its WSGI
callable, one environ per request) with a fake gRPC channel that serialises the request
and parses the recorded answer's bytes, as grpcio would, without the network or the
engine. So the numbers are the gateway's own work per request (CPU time of the calling
thread, median over batches: other work on the machine moves it less than wall time),
twice: with marshmallow alone (``COMPILED_SCHEMAS = False``, how every request was read
and written before the compiled schemas) and with the compiled schemas. For scale, a bare
Flask app echoing the same JSON body (``request.get_json()`` then ``jsonify``), and Flask
answering a constant. ``--profile NAME`` prints cProfile's view of one body's requests
(``--reference``: marshmallow's). A measurement, not a test: nothing here asserts a time.
The engine is stubbed only here, never in the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flask import Flask, jsonify, request  # noqa: E402

import api_gateway.engine  # noqa: E402
from api_gateway import create_app  # noqa: E402
from bench_downtown_farmers_market import random_board  # noqa: E402
from engine_service.server import create_server  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _read(path: str) -> Any:
    return json.loads((DATA / path).read_text())


def bodies() -> dict[str, tuple[str, Any]]:
    """Name -> (path, body): the hot endpoints with ordinary bodies."""
    board = random_board(random.Random(2026))
    opening = _read("downtown_farmers_market/positions/standard_4_players_opening.json")["state"]
    mid = _read("downtown_farmers_market/positions/young_shopper_3_players_mid_game.json")["state"]
    kuly = _read("foxglove_farm/kuly_transport_and_processing.json")
    jammed = _read("foxglove_farm/jammed_60_tiles.json")["town"]
    take = {"action": "take", "player": 0, "tile": opening["face_up"][0], "row": 0, "col": 0}
    return {
        "dfm-score": ("/v1/downtown-farmers-market/score", board),
        "dfm-legal-moves": ("/v1/downtown-farmers-market/legal-moves", {"state": opening}),
        "dfm-legal-moves-mid": ("/v1/downtown-farmers-market/legal-moves", {"state": mid}),
        "dfm-validate": ("/v1/downtown-farmers-market/moves/validate",
                         {"state": opening, "move": take}),
        "ff-score-9": ("/v1/foxglove-farm/score", kuly["town"]),
        "ff-score-60": ("/v1/foxglove-farm/score", jammed),
        "ff-transport": ("/v1/foxglove-farm/transport/validate",
                         {"town": kuly["town"], "move": kuly["transportation"][0]["move"]}),
    }


class _Recorder:
    """A channel wrapper that records each method's last answer, as bytes."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel
        self.answers: dict[str, bytes] = {}

    def unary_unary(self, method: str, request_serializer: Any = None,
                    response_deserializer: Any = None, **kwargs: Any) -> Callable[..., Any]:
        real = self.channel.unary_unary(method, request_serializer, response_deserializer,
                                        **kwargs)

        def call(message: Any, **call_kwargs: Any) -> Any:
            answer = real(message, **call_kwargs)
            self.answers[method] = answer.SerializeToString()
            return answer
        return call


class _Canned:
    """A channel whose calls serialise the request and parse a recorded answer."""

    def __init__(self, answers: dict[str, bytes]) -> None:
        self.answers = answers

    def unary_unary(self, method: str, request_serializer: Any = None,
                    response_deserializer: Any = None, **kwargs: Any) -> Callable[..., Any]:
        answer = self.answers.get(method, b"")

        def call(message: Any, **call_kwargs: Any) -> Any:
            request_serializer(message)
            return response_deserializer(answer)
        return call


def environ_for(path: str, body: bytes) -> Callable[[], dict[str, Any]]:
    """A fresh WSGI environ for a JSON POST of ``body`` to ``path``, as gunicorn builds it."""
    base = {
        "REQUEST_METHOD": "POST", "SCRIPT_NAME": "", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8080", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8080",
        "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }

    def make() -> dict[str, Any]:
        return {**base, "wsgi.input": io.BytesIO(body)}
    return make


def wsgi_call(app: Callable[..., Iterable[bytes]], make: Callable[[], dict[str, Any]]
              ) -> tuple[str, bytes]:
    status: list[str] = []

    def start_response(code: str, headers: Any, exc_info: Any = None) -> None:
        status.append(code)
    chunks = app(make(), start_response)
    try:
        body = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close:
            close()
    return status[0], body


def echo_app() -> Flask:
    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]

    @app.post("/<path:path>")
    def echo(path: str) -> Any:
        return jsonify(request.get_json())
    return app


def timed(call: Callable[[], object], calls: int, batch: int = 50) -> float:
    """Median CPU time of one call, in µs, over batches of ``batch`` calls (CPU time,
    this thread's: other work on the machine barely moves it, unlike wall time)."""
    for _ in range(min(200, calls)):  # warm up
        call()
    times = []
    for _ in range(max(1, calls // batch)):
        start = time.thread_time_ns()
        for _ in range(batch):
            call()
        times.append((time.thread_time_ns() - start) / batch / 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--profile", metavar="NAME", help="cProfile this body's requests")
    parser.add_argument("--reference", action="store_true",
                        help="profile the marshmallow path (COMPILED_SCHEMAS = False)")
    parser.add_argument("--only", metavar="NAME", action="append", help="time only these")
    args = parser.parse_args()
    cases = bodies()
    if args.only:
        cases = {k: v for k, v in cases.items() if k in args.only}

    engine = create_server("127.0.0.1:0")
    engine.server.start()
    app = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{engine.port}"})
    reference = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{engine.port}",
                            "COMPILED_SCHEMAS": False})
    recorded: dict[str, tuple[dict[str, bytes], bytes]] = {}
    try:
        for name, (path, body) in cases.items():
            with app.app_context():
                recorder = _Recorder(api_gateway.engine.channel())
            with _engine_channel(recorder):
                status, answer = wsgi_call(app, environ_for(path, json.dumps(body).encode()))
            assert status.startswith("200"), (name, status, answer[:500])
            recorded[name] = (recorder.answers, answer)
    finally:
        engine.server.stop(0)

    echo = echo_app().wsgi_app
    print("CPU µs per request (median of batches), the engine's answer canned:")
    print(f"{'body':<22}{'bytes in/out':>14}{'marshmallow':>13}{'compiled':>10}{'faster':>8}"
          f"{'Flask echo':>12}")
    for name, (path, body) in cases.items():
        raw = json.dumps(body).encode()
        answers, expected = recorded[name]
        make = environ_for(path, raw)
        with _engine_channel(_Canned(answers)):
            for each in (app, reference):
                status, answer = wsgi_call(each, make)
                assert status.startswith("200") and answer == expected, name
            if args.profile == name:
                profiled = reference if args.reference else app
                profile(lambda: wsgi_call(profiled, make), args.calls)
                continue
            slow = timed(lambda: wsgi_call(reference, make), args.calls)
            fast = timed(lambda: wsgi_call(app, make), args.calls)
        echoed = timed(lambda: wsgi_call(echo, environ_for(path, raw)), args.calls)
        print(f"{name:<22}{f'{len(raw)}/{len(answer)}':>14}{slow:>13.0f}{fast:>10.0f}"
              f"{slow / fast:>7.1f}x{echoed:>12.0f}")
    if not args.profile:
        floors(app, args.calls)


def floors(app: Any, calls: int) -> None:
    """What Flask itself costs a request, for scale."""
    bare = Flask(__name__)

    @bare.post("/")
    def nothing() -> Any:
        return bare.response_class(b"{}\n", mimetype="application/json")

    print("\nFlask alone: a POST answered with a constant "
          f"{timed(lambda: wsgi_call(bare.wsgi_app, environ_for('/', b'{}')), calls):.0f} µs; "
          "the gateway's GET /healthz "
          f"{timed(lambda: wsgi_call(app, _get('/healthz')), calls):.0f} µs")


def _get(path: str) -> Callable[[], dict[str, Any]]:
    make = environ_for(path, b"")

    def get() -> dict[str, Any]:
        environ = make()
        environ["REQUEST_METHOD"] = "GET"
        del environ["CONTENT_TYPE"], environ["CONTENT_LENGTH"]
        return environ
    return get


def profile(call: Callable[[], object], calls: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    stats = pstats.Stats(profiler).sort_stats("cumulative")
    stats.print_stats(45)
    stats.sort_stats("tottime").print_stats(30)


@contextlib.contextmanager
def _engine_channel(channel: Any) -> Iterator[None]:
    """The gateway's engine calls go to ``channel`` (its stubs made once, as the
    gateway's own are; before it cached them, it made a stub per request)."""
    saved = {name: getattr(api_gateway.engine, name) for name in ("channel", "stub")
             if hasattr(api_gateway.engine, name)}
    stubs: dict[Any, Any] = {}

    def stub(kind: Any) -> Any:
        made = stubs.get(kind)
        if made is None:  # not setdefault(kind, kind(channel)): that makes one every call
            made = stubs[kind] = kind(channel)
        return made
    api_gateway.engine.channel = lambda: channel  # type: ignore[assignment]
    if "stub" in saved:
        api_gateway.engine.stub = stub  # type: ignore[assignment]
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(api_gateway.engine, name, value)


if __name__ == "__main__":
    main()
