"""The referee's throughput and latency next to the bare frameworks' ceilings, in one run.

``.venv/bin/python benchmarks/bench_ceilings.py [--seconds 3] [--json out.json]``

Starts, on free loopback ports, the real engine (``python -m engine_service``) and the
real gateway (gunicorn with ``deploy/gunicorn.conf.py``, dialling that engine; no nginx),
and three bare servers with the project's own settings:

* **grpcio echo**: a grpcio server with the engine's thread pool (``--workers``, env
  ``REFEREE_ENGINE_WORKERS``) and server options, whose unary methods (every method of the
  two game services, registered like generated code, and ``/bench.v1.Echo/Echo``) answer
  the request bytes (identity serializers, no codegen);
* **Flask echo**: a Flask app that answers the JSON body it reads (json in, json out),
  under gunicorn with the project's config (same workers, threads, worker class, access
  log), only its own WSGI app;
* **Flask->gRPC chain**: the same, plus the gateway's two hops and no logic: it reads the
  JSON body, sends the body bytes to the grpcio echo over one channel per worker (the
  gateway's channel options and deadline), reads the echoed bytes as JSON and answers it.

Every request of a path carries the same payload: a random complete standard Downtown
Farmers Market board (score), a mid-game state from the test simulator (legal moves;
validate with one of its legal takes), the Kuly town of the rulebook's transport example
(Foxglove Farm score; transport validate with the example's first move).

Load, sized for 2 cores: gRPC with h2load, 1 thread, 2 connections x 4 streams (the
gateway's 2 worker channels; the engine's 8 threads busy); REST with wrk, 1 thread, 16
connections (2 workers x 8 threads), each request on a new connection (``Connection:
close``), as nginx hands requests to gunicorn in production: with keep-alive connections
gunicorn's workers split wrk's 16 at random, as unevenly as 16 to 0, and a run's
throughput then swings two- to threefold (``--keepalive`` measures that way anyway). Each
referee path and its ceiling are alternated twice, the better run of each kept; at full
load p50 and p99 are mostly queueing (16 requests in flight). The gateway's /score is
then loaded at half its best throughput (h2load --h1 --rps over 16 keep-alive
connections, opened 1/rate apart so that their timers do not fire together: opened at
once, they send bursts of 16 and p50 is ten times higher), for a p99 that is not
queueing. wrk and h2load (Debian ``wrk``, ``nghttp2-client``) are installed with apt-get
when missing (as root).

The table also gives the servers' CPU time per request (from /proc: the gateway's
includes the engine's, the chain's its echo's); ``--json`` keeps every run with each
process's CPU. The load tool shares the cores with the servers in every row; CPU used by
other processes during the runs is measured, and the table warns when it is noticeable.
``--pin-grpc`` runs only the gRPC rows with the engine and the grpcio echo pinned to one
CPU and h2load to the other: on a VM where waking a thread on another core is slow, it
shows how much of either server's CPU per call that costs, and whether the ratio moves.
A measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
GUNICORN_CONF = REPO_ROOT / "deploy" / "gunicorn.conf.py"

ECHO_METHOD = "/bench.v1.Echo/Echo"
"""The grpcio echo's method the Flask->gRPC chain calls."""

GRPC_CONNECTIONS = 2
GRPC_STREAMS = 4
HTTP_CONNECTIONS = 16
START_TIMEOUT_SECONDS = 30
STOP_TIMEOUT_SECONDS = 15
WARM_UP_REQUESTS = 300


# --- the bare servers (run in their own processes) ---------------------------------------


def engine_workers() -> int:
    """The engine's thread pool: ``REFEREE_ENGINE_WORKERS``, else create_server's default."""
    import inspect

    from engine_service.server import create_server
    default = inspect.signature(create_server).parameters["max_workers"].default
    return int(os.environ.get("REFEREE_ENGINE_WORKERS", default))


def serve_grpc_echo(address: str) -> None:
    """The grpcio echo: the engine's thread pool and server options, no interceptor."""
    from concurrent import futures

    import grpc
    from referee.downtown_farmers_market.v1 import (
        downtown_farmers_market_service_pb2 as dfm,
    )
    from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff

    from engine_service.server import MAX_MESSAGE_BYTES

    def echo(request: bytes, context: grpc.ServicerContext) -> bytes:
        return request

    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=engine_workers(), thread_name_prefix="rpc"),
        # engine_service/server.py create_server's options
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                 ("grpc.so_reuseport", 0),
                 ("grpc.keepalive_permit_without_calls", 1),
                 ("grpc.http2.min_ping_interval_without_data_ms", 5_000)])
    services = {service.full_name: [method.name for method in service.methods]
                for service in (dfm.DESCRIPTOR.services_by_name["DowntownFarmersMarketService"],
                                ff.DESCRIPTOR.services_by_name["FoxgloveFarmService"])}
    services["bench.v1.Echo"] = ["Echo"]
    for name, methods in services.items():
        # None serializers: the handler sees, and answers, the bytes on the wire.
        handlers = {method: grpc.unary_unary_rpc_method_handler(echo) for method in methods}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
        server.add_registered_method_handlers(name, handlers)
    port = server.add_insecure_port(address)
    server.start()
    print(f"echo listening on {address.rsplit(':', 1)[0]}:{port}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: server.stop(0))
    signal.signal(signal.SIGINT, lambda *_: server.stop(0))
    server.wait_for_termination()


def flask_echo_app() -> Any:
    """gunicorn ``bench_ceilings:flask_echo_app()``: the JSON body read and answered."""
    from flask import Flask, jsonify, request

    app = Flask("flask_echo")

    @app.post("/<path:_path>")
    def echo(_path: str) -> Any:
        return jsonify(request.get_json())

    return app


def flask_chain_app() -> Any:
    """gunicorn ``bench_ceilings:flask_chain_app()``: the JSON body read, its bytes sent
    to the grpcio echo at ``BENCH_ECHO_ADDRESS`` over this worker's channel (opened after
    the fork, on first use, like api_gateway/engine.py), the answer read and answered."""
    import threading

    import grpc
    from flask import Flask, jsonify, request

    from api_gateway.config import DefaultConfig
    from api_gateway.engine import CHANNEL_OPTIONS

    app = Flask("flask_chain")
    address = os.environ["BENCH_ECHO_ADDRESS"]
    lock = threading.Lock()
    opened: dict[int, Any] = {}

    def echo_method() -> Any:
        with lock:
            if os.getpid() not in opened:
                channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
                opened.clear()
                opened[os.getpid()] = channel.unary_unary(ECHO_METHOD)
            return opened[os.getpid()]

    @app.post("/<path:_path>")
    def chain(_path: str) -> Any:
        request.get_json()
        answer = echo_method()(request.get_data(),
                               timeout=DefaultConfig.ENGINE_TIMEOUT_SECONDS)
        return jsonify(json.loads(answer))

    return app


# --- processes ------------------------------------------------------------------------


@dataclass
class Server:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    address: str = ""

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if match := re.search(pattern, self.output()):
                return match.group(1)
            if self.popen.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} never printed {pattern!r}:\n{self.output()[-3000:]}")

    def stop(self) -> None:
        """SIGTERM (gunicorn finishes its requests, the engine drains), then SIGKILL to
        the process group this script started it in."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)  # stray workers, if any
        except (ProcessLookupError, PermissionError):
            pass
        self.popen.wait()


class Servers:
    """Every process this script starts, each in its own process group; all stopped on
    exit, Ctrl-C or an exception."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.started: list[Server] = []

    def start(self, name: str, args: list[str], env: dict[str, str],
              cpus: set[int] | None = None) -> Server:
        log = self.workdir / f"{name}.log"
        with log.open("wb") as out:
            popen = subprocess.Popen(args, cwd=REPO_ROOT, env={**os.environ, **env},
                                     stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=subprocess.STDOUT, process_group=0,
                                     preexec_fn=pinned_to(cpus))
        server = Server(name, popen, log)
        self.started.append(server)
        return server

    def stop(self) -> None:
        for server in reversed(self.started):
            server.stop()
        self.started.clear()


def gunicorn(servers: Servers, name: str, env: dict[str, str], app: str | None = None
             ) -> Server:
    """gunicorn with the project's config on a free loopback port; ``app`` replaces the
    config's ``wsgi_app`` (a module in benchmarks/)."""
    args = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)]
    if app:
        args += ["--pythonpath", str(BENCH_DIR), app]
    return servers.start(name, args, {**env, "REFEREE_GATEWAY_BIND": "127.0.0.1:0"})


def pinned_to(cpus: set[int] | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that runs the child on ``cpus`` only (None: no pinning)."""
    return (lambda: os.sched_setaffinity(0, cpus)) if cpus else None


def start_all(servers: Servers, grpc_cpus: set[int] | None = None) -> dict[str, Server]:
    """Every server; the engine and the grpcio echo on ``grpc_cpus`` if given."""
    python = sys.executable
    engine = servers.start("engine", [python, "-m", "engine_service",
                                      "--address", "127.0.0.1:0"], {}, grpc_cpus)
    echo = servers.start("grpc_echo", [python, str(Path(__file__).resolve()),
                                       "_grpc_echo", "127.0.0.1:0"], {}, grpc_cpus)
    engine.address = engine.wait_for(r"engine listening on (\S+)")
    echo.address = echo.wait_for(r"echo listening on (\S+)")
    web = {
        "gateway": gunicorn(servers, "gateway", {"REFEREE_ENGINE_ADDRESS": engine.address}),
        "flask_echo": gunicorn(servers, "flask_echo", {}, "bench_ceilings:flask_echo_app()"),
        "flask_chain": gunicorn(servers, "flask_chain", {"BENCH_ECHO_ADDRESS": echo.address},
                                "bench_ceilings:flask_chain_app()"),
    }
    for server in web.values():
        server.address = server.wait_for(r"Listening at: http://(\S+)")
    wait_ready(f"http://{web['gateway'].address}/readyz")
    return {"engine": engine, "grpc_echo": echo, **web}


def wait_ready(url: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} never answered 200")


# --- payloads -------------------------------------------------------------------------


@dataclass
class Call:
    """One thing the referee does, on both transports, with its one payload."""

    name: str
    url_path: str
    body: dict[str, Any]
    grpc_method: str
    grpc_request: Any
    grpc_response: Any

    @property
    def json_bytes(self) -> bytes:
        return json.dumps(self.body, separators=(",", ":")).encode()

    @property
    def grpc_bytes(self) -> bytes:
        return self.grpc_request.SerializeToString()


def build_calls(seed: int) -> list[Call]:
    sys.path.insert(0, str(REPO_ROOT))
    sys.path.insert(0, str(BENCH_DIR))
    from bench_downtown_farmers_market import random_board
    from referee.downtown_farmers_market.v1 import (
        downtown_farmers_market_service_pb2 as dfm,
    )
    from referee.downtown_farmers_market.v1 import game_pb2
    from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff

    from api_gateway.resources.downtown_farmers_market import schemas as dfm_schemas
    from api_gateway.resources.foxglove_farm import schemas as ff_schemas
    from engine_service.downtown_farmers_market import convert
    from tabletop_rules.downtown_farmers_market import Action, Mode, legal_moves
    from tests.downtown_farmers_market.simulator import play_random_game

    rng = random.Random(seed)
    board = random_board(rng)
    # A 4-player standard game 40 moves in (round 9 of 16), at a take.
    game = play_random_game(rng, Mode.STANDARD, 4, max_moves=40)
    state = next(s for s in reversed(game.states) if s.expected is Action.TAKE)
    state_message = game_pb2.GameState.FromString(convert.state_to_wire(state))
    state_json = dfm_schemas.GameStateSchema().dump(state_message)
    move = rng.choice(legal_moves(state))
    validate_json = dfm_schemas.ValidateMoveRequestSchema().dump(
        {"state": state_message, "move": game_pb2.Move.FromString(convert.move_to_wire(move))})
    kuly = json.loads((REPO_ROOT / "tests/data/foxglove_farm/"
                       "kuly_transport_and_processing.json").read_text())
    town = kuly["town"]
    transport = {"town": town, "move": kuly["transportation"][0]["move"]}

    dfm_service = "/referee.downtown_farmers_market.v1.DowntownFarmersMarketService/"
    ff_service = "/referee.foxglove_farm.v1.FoxgloveFarmService/"
    return [
        Call("DFM score", "/v1/downtown-farmers-market/score", board,
              dfm_service + "ScoreBoard",
              dfm.ScoreBoardRequest(board=dfm_schemas.BoardSchema().load(board)),
              dfm.ScoreBoardResponse),
        Call("DFM legal moves", "/v1/downtown-farmers-market/legal-moves",
              {"state": state_json}, dfm_service + "ListLegalMoves",
              dfm_schemas.LegalMovesRequestSchema().load({"state": state_json}),
              dfm.ListLegalMovesResponse),
        Call("DFM validate", "/v1/downtown-farmers-market/moves/validate", validate_json,
              dfm_service + "ValidateMove",
              dfm_schemas.ValidateMoveRequestSchema().load(validate_json),
              dfm.ValidateMoveResponse),
        Call("FF score", "/v1/foxglove-farm/score", town, ff_service + "ScoreTown",
              ff.ScoreTownRequest(town=ff_schemas.TownSchema().load(town)),
              ff.ScoreTownResponse),
        Call("FF transport validate", "/v1/foxglove-farm/transport/validate", transport,
              ff_service + "ValidateTransport",
              ff_schemas.TransportRequestSchema().load(transport),
              ff.ValidateTransportResponse),
    ]


def check_payloads(calls: list[Call], servers: dict[str, Server]) -> None:
    """Every payload is answered as it should be before it is timed: h2load sees only HTTP
    statuses (a gRPC error is a 200 too), wrk only counts non-2xx."""
    import grpc

    for server, expect_echo in (("engine", False), ("grpc_echo", True)):
        with grpc.insecure_channel(servers[server].address) as channel:
            for call in calls:
                answer = channel.unary_unary(call.grpc_method)(call.grpc_bytes, timeout=10)
                if expect_echo:
                    assert answer == call.grpc_bytes, f"{server} {call.name}: not an echo"
                else:
                    message = call.grpc_response.FromString(answer)
                    if hasattr(message, "legal"):
                        assert message.legal, f"{call.name}: the move is illegal: {message}"
    with grpc.insecure_channel(servers["grpc_echo"].address) as channel:
        assert channel.unary_unary(ECHO_METHOD)(b"{}", timeout=10) == b"{}"
    for server in ("gateway", "flask_echo", "flask_chain"):
        for call in calls:
            request = urllib.request.Request(
                f"http://{servers[server].address}{call.url_path}", data=call.json_bytes,
                headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    body = json.load(answer)
            except urllib.error.HTTPError as error:
                raise RuntimeError(f"{server} {call.url_path}: {error.code} "
                                   f"{error.read()[:500]!r}") from None
            if server != "gateway":
                assert body == call.body, f"{server} {call.url_path}: not an echo"
            elif "legal" in body:
                assert body["legal"], f"{call.url_path}: the move is illegal: {body}"


# --- load tools -----------------------------------------------------------------------


def ensure_tools() -> None:
    missing = [package for tool, package in (("wrk", "wrk"), ("h2load", "nghttp2-client"))
               if shutil.which(tool) is None]
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        sys.exit(f"needs {' and '.join(missing)} (Debian packages); install them and rerun")
    print(f"installing {' '.join(missing)} with apt-get ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(["apt-get", "install", "-y", *missing], env=env,
                      stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["apt-get", "install", "-y", *missing], env=env,
                       stdout=subprocess.DEVNULL, check=True)


class CpuMeter:
    """CPU seconds used during a run: by each server (its whole process group, per
    process too), by the load tool and this script, and by everything else on the machine
    (other people's work shares these cores)."""

    def __init__(self, servers: dict[str, Server]) -> None:
        self.groups = {server.popen.pid: name for name, server in servers.items()}
        self.tick = os.sysconf("SC_CLK_TCK")

    def snapshot(self) -> dict[str, Any]:
        processes: dict[str, dict[int, float]] = {name: {} for name in self.groups.values()}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if (name := self.groups.get(int(fields[2]))) is not None:
                processes[name][int(entry.name)] = (int(fields[11]) + int(fields[12])) / self.tick
        cpu = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        busy = sum(int(cpu[i]) for i in (0, 1, 2, 5, 6, 7)) / self.tick
        times = os.times()
        return {"time": time.monotonic(), "processes": processes, "busy": busy,
                "ours": times.user + times.system + times.children_user
                + times.children_system}

    @staticmethod
    def delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        servers, processes = {}, {}
        for name, now in after["processes"].items():
            then = before["processes"].get(name, {})
            used = {pid: now[pid] - then.get(pid, 0.0) for pid in now}
            servers[name] = round(sum(used.values()), 2)
            if len(used) > 1:
                processes[name] = [round(seconds, 2) for seconds in sorted(used.values())
                                   if seconds > 0.05]
        wall = after["time"] - before["time"]
        tool = after["ours"] - before["ours"]
        foreign = after["busy"] - before["busy"] - sum(servers.values()) - tool
        return {"wall_s": round(wall, 2), "servers_cpu_s": servers,
                "processes_cpu_s": processes, "load_tool_cpu_s": round(tool, 2),
                "foreign_cores": round(max(0.0, foreign) / wall, 2)}


@dataclass
class Run:
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    tool: str
    cpu: dict[str, Any] = field(default_factory=dict)
    counted: tuple[str, ...] = ()
    """The servers whose CPU this target spends (the gateway's includes the engine's)."""

    @property
    def cpu_ms_per_request(self) -> float:
        used = sum(self.cpu.get("servers_cpu_s", {}).get(name, 0.0) for name in self.counted)
        return used * 1e3 / self.requests if self.requests else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"rps": round(self.rps, 1), "p50_ms": round(self.p50_ms, 3),
                "p99_ms": round(self.p99_ms, 3), "requests": self.requests, "tool": self.tool,
                "server_cpu_ms_per_request": round(self.cpu_ms_per_request, 3),
                "cpu_counted": list(self.counted), **self.cpu}


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


class Load:
    """wrk and h2load, each run with its own files in ``workdir``, metered."""

    def __init__(self, workdir: Path, seconds: int, meter: CpuMeter, keepalive: bool,
                 h2load_cpus: set[int] | None = None) -> None:
        self.workdir = workdir
        self.seconds = seconds
        self.meter = meter
        self.keepalive = keepalive
        self.h2load_cpus = h2load_cpus
        self.counter = 0

    def _file(self, suffix: str, content: bytes | str = b"") -> Path:
        self.counter += 1
        path = self.workdir / f"load{self.counter}{suffix}"
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path

    def h2load(self, url: str, body: bytes, headers: list[str], *, h1: bool = False,
               connections: int, streams: int = 1, extra: list[str]) -> Run:
        data = self._file(".body", body)
        log = self._file(".log")  # h2load appends to it
        args = ["h2load", "-t1", f"-c{connections}", f"-m{streams}", "-d", str(data),
                "--log-file", str(log), *extra]
        for header in headers:
            args += ["-H", header]
        if h1:
            args.append("--h1")
        before = self.meter.snapshot()
        out = subprocess.run(args + [url], capture_output=True, text=True, check=True,
                             preexec_fn=pinned_to(self.h2load_cpus)).stdout
        cpu = self.meter.delta(before, self.meter.snapshot())
        done = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", out)
        counts = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, "
                           r"(\d+) failed, (\d+) errored, (\d+) timeout", out)
        if not done or not counts:
            raise RuntimeError(f"unexpected h2load output:\n{out}")
        if int(counts.group(1)) != int(counts.group(2)) or int(counts.group(2)) == 0:
            raise RuntimeError(f"h2load saw failures against {url}:\n{out}")
        times = sorted(int(line.split("\t")[2]) / 1e3
                       for line in log.read_text().splitlines() if line.strip())
        log.unlink()
        return Run(float(done.group(3)), percentile(times, 0.5), percentile(times, 0.99),
                   len(times), "h2load --h1" if h1 else "h2load", cpu)

    def grpc(self, address: str, call: Call, counted: tuple[str, ...] = (),
             requests: int | None = None) -> Run:
        payload = call.grpc_bytes
        frame = b"\x00" + len(payload).to_bytes(4, "big") + payload
        run = self.h2load(f"http://{address}{call.grpc_method}", frame,
                          ["content-type: application/grpc", "te: trailers"],
                          connections=GRPC_CONNECTIONS, streams=GRPC_STREAMS,
                          extra=[f"-n{requests}"] if requests else [f"-D{self.seconds}"])
        run.counted = counted
        return run

    def http_rate(self, address: str, call: Call, rps: float, counted: tuple[str, ...]
                  ) -> Run:
        """``rps`` over HTTP_CONNECTIONS keep-alive connections, opened one every
        1/``rps`` (whole ms): h2load's per-connection timers then tick out of phase, so
        requests arrive evenly instead of in bursts of HTTP_CONNECTIONS."""
        period_ms = max(1, round(1000 / rps))
        run = self.h2load(f"http://{address}{call.url_path}", call.json_bytes,
                          ["content-type: application/json"], h1=True,
                          connections=HTTP_CONNECTIONS,
                          extra=[f"--rps={rps / HTTP_CONNECTIONS:.3f}", "-r1",
                                 f"--rate-period={period_ms}ms",
                                 f"-n{round(rps * self.seconds)}"])
        run.counted = counted
        return run

    def http_warm_up(self, address: str, call: Call) -> None:
        self.h2load(f"http://{address}{call.url_path}", call.json_bytes,
                    ["content-type: application/json"], h1=True,
                    connections=HTTP_CONNECTIONS, extra=[f"-n{WARM_UP_REQUESTS}"])

    def wrk(self, address: str, call: Call, counted: tuple[str, ...]) -> Run:
        body = self._file(".json", call.json_bytes)
        script = WRK_SCRIPT.replace("BODY_FILE", json.dumps(str(body)))
        if not self.keepalive:
            script = 'wrk.headers["Connection"] = "close"\n' + script
        before = self.meter.snapshot()
        out = subprocess.run(["wrk", "-t1", f"-c{HTTP_CONNECTIONS}", f"-d{self.seconds}s",
                              "-s", str(self._file(".lua", script)),
                              f"http://{address}{call.url_path}"],
                             capture_output=True, text=True, check=True).stdout
        cpu = self.meter.delta(before, self.meter.snapshot())
        match = re.search(r"^WRKJSON (.*)$", out, re.MULTILINE)
        if not match:
            raise RuntimeError(f"unexpected wrk output:\n{out}")
        result = json.loads(match.group(1))
        failures = {k: v for k, v in result["errors"].items() if v}
        if failures or not result["requests"]:
            raise RuntimeError(f"wrk saw failures against {address}{call.url_path}: "
                               f"{failures}\n{out}")
        return Run(result["requests"] / (result["duration_us"] / 1e6), result["p50_us"] / 1e3,
                   result["p99_us"] / 1e3, result["requests"],
                   "wrk" if self.keepalive else "wrk, Connection: close", cpu, counted)


WRK_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = assert(io.open(BODY_FILE, "rb"))
wrk.body = file:read("*a")
file:close()

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


# --- the measurements -----------------------------------------------------------------


@dataclass
class Row:
    path: str
    transport: str
    referee: list[Run] = field(default_factory=list)
    ceilings: dict[str, list[Run]] = field(default_factory=dict)

    @staticmethod
    def best(runs: list[Run]) -> Run:
        return max(runs, key=lambda run: run.rps)


def alternate(row: Row, referee: Any, ceilings: dict[str, Any], rounds: int = 2) -> Row:
    """referee, each ceiling, referee, each ceiling, ..."""
    for _ in range(rounds):
        row.referee.append(referee())
        for name, ceiling in ceilings.items():
            row.ceilings.setdefault(name, []).append(ceiling())
    return row


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def measure(calls: list[Call], servers: dict[str, Server], load: Load, grpc_only: bool = False,
            ) -> tuple[list[Row], dict[str, Any] | None]:
    engine, echo = servers["engine"].address, servers["grpc_echo"].address
    gateway = servers["gateway"].address
    http_ceilings = {"Flask echo": (servers["flask_echo"].address, ("flask_echo",)),
                     "Flask->gRPC chain": (servers["flask_chain"].address,
                                           ("flask_chain", "grpc_echo"))}
    rows = []
    for call in calls:
        progress(f"gRPC {call.grpc_method}")
        for address in (engine, echo):
            load.grpc(address, call, requests=WARM_UP_REQUESTS)
        rows.append(alternate(
            Row(f"gRPC {call.grpc_method.rsplit('/', 1)[1]} ({call.name})", "grpc"),
            lambda c=call: load.grpc(engine, c, ("engine",)),
            {"grpcio echo": lambda c=call: load.grpc(echo, c, ("grpc_echo",))}))
    if grpc_only:
        return rows, None
    for call in calls:
        progress(f"HTTP POST {call.url_path}")
        names = ["Flask echo", "Flask->gRPC chain"] if call is calls[0] else ["Flask->gRPC chain"]
        for address in (gateway, *(http_ceilings[name][0] for name in names)):
            load.http_warm_up(address, call)
        rows.append(alternate(
            Row(f"POST {call.url_path}", "http"),
            lambda c=call: load.wrk(gateway, c, ("gateway", "engine")),
            {name: lambda c=call, target=http_ceilings[name]: load.wrk(target[0], c, target[1])
             for name in names}))
    score = next(row for row in rows if row.path == f"POST {calls[0].url_path}")
    rate = Row.best(score.referee).rps / 2
    progress(f"HTTP POST {calls[0].url_path} at {rate:.0f} req/s")
    at_half = load.http_rate(gateway, calls[0], rate, ("gateway", "engine"))
    return rows, {"path": score.path, "target_rps": round(rate, 1), "run": at_half.as_dict(),
                  "how": f"h2load --h1 -t1 -c{HTTP_CONNECTIONS} keep-alive connections "
                         f"opened {max(1, round(1000 / rate))} ms apart, "
                         f"--rps={rate / HTTP_CONNECTIONS:.1f} each, {load.seconds} s"}


NOISY_CORES = 0.2
"""Other processes' CPU (cores) during a run above which its numbers are marked."""


def print_table(rows: list[Row], at_half: dict[str, Any] | None, settings: dict[str, Any]
                ) -> None:
    def mark(run: Run | dict[str, Any]) -> str:
        cpu = run.cpu if isinstance(run, Run) else run
        return "*" if cpu.get("foreign_cores", 0.0) > NOISY_CORES else " "

    header = (f"{'path':<48} {'referee':>8}  {'p50':>6} {'p99':>6} {'CPU':>5}   "
              f"{'ceiling':<17} {'ceiling':>8}  {'CPU':>5} {'ratio':>6}")
    units = (f"{'':<48} {'req/s':>8}  {'ms':>6} {'ms':>6} {'ms/rq':>5}   {'':<17} "
             f"{'req/s':>8}  {'ms/rq':>5} {'':>6}")
    print()
    print(header)
    print(units)
    print("-" * len(header))
    for row in rows:
        referee = Row.best(row.referee)
        for i, (name, runs) in enumerate(row.ceilings.items()):
            ceiling = Row.best(runs)
            left = (f"{row.path:<48} {referee.rps:>8,.0f}{mark(referee)} "
                    f"{referee.p50_ms:>6.2f} {referee.p99_ms:>6.2f} "
                    f"{referee.cpu_ms_per_request:>5.2f}" if i == 0 else " " * 77)
            print(f"{left}   {name:<17} {ceiling.rps:>8,.0f}{mark(ceiling)} "
                  f"{ceiling.cpu_ms_per_request:>5.2f} {referee.rps / ceiling.rps:>6.2f}")
    print()
    if at_half:
        run = at_half["run"]
        print(f"{at_half['path']} at half the gateway's best: {at_half['target_rps']:,.0f} "
              f"req/s asked, {run['rps']:,.0f}{mark(run).strip()} done: p50 "
              f"{run['p50_ms']:.2f} ms, p99 {run['p99_ms']:.2f} ms")
        print(f"  ({at_half['how']})")
        print()
    print(f"Best of {settings['rounds']} alternated runs of {settings['seconds']} s each; "
          f"ratio = referee / ceiling req/s; CPU = the servers' CPU time per request (the "
          f"gateway's includes the engine's, the chain's its grpcio echo's).")
    print(f"gRPC: {settings['grpc_load']}. HTTP: {settings['http_load']}. Engine and "
          f"grpcio echo: {settings['engine_workers']} threads; gunicorn: "
          f"{settings['gunicorn']}; {settings['cpus']} CPUs, " + (
              f"{settings['pinned']}." if settings["pinned"] else "shared with the load tool."))
    foreign = max([run.cpu.get("foreign_cores", 0.0) for row in rows
                   for runs in (row.referee, *row.ceilings.values()) for run in runs]
                  + [at_half["run"].get("foreign_cores", 0.0) if at_half else 0.0])
    if foreign > NOISY_CORES:
        print(f"WARNING: other processes used up to {foreign:.2f} of the {settings['cpus']} "
              f"cores during the runs; * marks a kept run during which they used more than "
              f"{NOISY_CORES}: its throughput is low and its ratio unreliable.")


def gunicorn_settings() -> str:
    workers = int(os.environ.get("REFEREE_GATEWAY_WORKERS", min(4, os.cpu_count() or 1)))
    threads = int(os.environ.get("REFEREE_GATEWAY_THREADS", "8"))
    return f"{workers} gthread workers x {threads} threads"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3,
                        help="each timed run (default %(default)s; 43 runs in all)")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument("--seed", type=int, default=2026, help="the payloads' random seed")
    parser.add_argument("--keepalive", action="store_true",
                        help="wrk keeps its 16 connections open instead of one per request "
                             "(gunicorn's workers then split them at random: see the "
                             "per-process CPU in --json)")
    parser.add_argument("--pin-grpc", action="store_true",
                        help="only the gRPC rows, the engine and the grpcio echo pinned to "
                             "the last CPU and h2load to the others: what waking threads "
                             "across cores costs the engine and its ceiling")
    args = parser.parse_args()
    started = time.monotonic()
    ensure_tools()
    calls = build_calls(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="bench-ceilings-"))
    servers = Servers(workdir)

    def on_sigterm(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    cpus = sorted(os.sched_getaffinity(0))
    if args.pin_grpc and len(cpus) < 2:
        sys.exit("--pin-grpc needs two CPUs: one for the servers, one for h2load")
    grpc_cpus, h2load_cpus = ({cpus[-1]}, set(cpus[:-1])) if args.pin_grpc else (None, None)
    try:
        running = start_all(servers, grpc_cpus)
        check_payloads(calls, running)
        load = Load(workdir, args.seconds, CpuMeter(running), args.keepalive, h2load_cpus)
        rows, at_half = measure(calls, running, load, grpc_only=args.pin_grpc)
    except KeyboardInterrupt:
        sys.exit("interrupted; servers stopped")
    except BaseException:
        for server in servers.started:
            state = "running" if server.popen.poll() is None else "exited"
            print(f"--- {server.name} ({state}), its log's end:\n{server.output()[-1500:]}",
                  file=sys.stderr)
        raise
    finally:
        servers.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    settings = {"seconds": args.seconds, "rounds": 2, "cpus": os.cpu_count(),
                "engine_workers": engine_workers(), "gunicorn": gunicorn_settings(),
                "grpc_load": f"h2load -t1 -c{GRPC_CONNECTIONS} -m{GRPC_STREAMS}",
                "http_load": f"wrk -t1 -c{HTTP_CONNECTIONS}, " + (
                    "keep-alive connections" if args.keepalive else
                    "a connection per request (Connection: close, as nginx sends gunicorn)"),
                "pinned": (f"engine and grpcio echo on CPU {cpus[-1]}, h2load on "
                           f"{', '.join(map(str, cpus[:-1]))}") if args.pin_grpc else "",
                "seed": args.seed,
                "payload_bytes": {c.name: {"json": len(c.json_bytes), "grpc": len(c.grpc_bytes)}
                                  for c in calls},
                "python": platform.python_version(), "machine": platform.machine(),
                "total_seconds": round(time.monotonic() - started)}
    print_table(rows, at_half, settings)
    if args.json:
        results = [{"path": row.path, "transport": row.transport,
                    "referee": {"best": Row.best(row.referee).as_dict(),
                                "runs": [run.as_dict() for run in row.referee]},
                    "ceilings": {name: {"best": Row.best(runs).as_dict(),
                                        "runs": [run.as_dict() for run in runs],
                                        "ratio": round(Row.best(row.referee).rps
                                                       / Row.best(runs).rps, 3)}
                                 for name, runs in row.ceilings.items()}}
                   for row in rows]
        args.json.write_text(json.dumps({"settings": settings, "results": results,
                                         "p99_at_half_gateway_max": at_half}, indent=2) + "\n")
        print(f"results written to {args.json}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["_grpc_echo"]:
        sys.path.insert(0, str(REPO_ROOT))
        serve_grpc_echo(sys.argv[2])
    else:
        main()
