"""Where the engine's time goes under load, layer by layer, against the grpcio echo.

``.venv/bin/python benchmarks/bench_engine_layers.py [--call "DFM score"] [--seconds 3]
[--rounds 3] [--work-us 10,20,40]``

``bench_ceilings.py`` compares each engine call with a grpcio echo; this script explains
the gap for one call (the same payload as there) by serving it, in turn, from servers
that each add one layer of what the engine does, all with the engine's thread pool and
server options, loaded alike with h2load (2 connections x 4 streams):

* **echo**: ``bench_ceilings.py``'s grpcio echo (the request's bytes answered);
* **answer bytes**: the engine's answer to the payload, recorded once, answered as bytes
  (what the answer's size costs on the wire);
* **protobuf**: the game's registration (:class:`engine_service.registration.GameRegistration`),
  the request parsed by protobuf and the recorded answer's bytes sent (what any protobuf
  service pays to read its requests);
* **engine server**: the engine's own server (``create_server``: the call policy with its
  metrics, request ids and logs, health, reflection), the method answering the recorded
  bytes;
* **engine**: the real engine, its servicer method's thread CPU time per call measured
  as it runs (the rules' work under load, to set beside ``bench_engine_calls.py``'s
  in-process figure);
* **engine server + N µs** (``--work-us N[,N...]``, none by default): the engine's own
  server answering the recorded message after spinning N µs of its thread's CPU in
  Python, holding the interpreter's lock as the rules do: how the ratio to the echo falls
  with the work a call does, whatever that work is.

Prints, per server, the best of ``--rounds`` runs (calls a second, the server's CPU time
per call) and its ratio to the echo. A measurement, not a test: nothing here asserts a
time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))
sys.path.insert(0, str(BENCH_DIR))

import bench_ceilings  # noqa: E402
from bench_engine_calls import engine_calls  # noqa: E402

LAYERS = ("echo", "answer bytes", "protobuf", "engine server", "engine")
HANDLER_REPORT_EVERY = 2000
"""The real engine's servicer prints its mean thread CPU time per call this often."""


WORK_LAYER = "engine server + "


def work_layer(micros: int) -> str:
    """The name of the layer spinning ``micros`` µs of CPU in each call."""
    return f"{WORK_LAYER}{micros} µs"


def serve(layer: str, call_name: str, address: str) -> None:
    """Serve ``call_name``'s method as ``layer`` does (run in a process of its own)."""
    from concurrent import futures

    import grpc

    from engine_service import server as engine_server

    call = next(c for c in bench_ceilings.build_calls(2026) if c.name == call_name)
    service_name, method = call.grpc_method.strip("/").split("/")
    servicers = {"DowntownFarmersMarketService": engine_server.downtown_farmers_market,
                 "FoxgloveFarmService": engine_server.foxglove_farm
                 }[service_name.rsplit(".", 1)[1]]
    servicer_class = next(value for name, value in vars(servicers).items()
                          if name.endswith("Servicer") and hasattr(value, method))
    real = getattr(servicer_class, method)
    answer = engine_calls(2026)[f"{call_name} ({method})"]()  # recorded as bench_engine_calls
    if layer == "answer bytes":
        handler = grpc.unary_unary_rpc_method_handler(lambda request, context: answer)
        server = grpc.server(futures.ThreadPoolExecutor(bench_ceilings.engine_workers()),
                             options=[("grpc.so_reuseport", 0)])
        server.add_registered_method_handlers(service_name, {method: handler})
        port = server.add_insecure_port(address)
    else:
        if layer in ("protobuf", "engine server"):
            setattr(servicer_class, method, lambda self, request, context: answer)
        elif layer.startswith(WORK_LAYER):
            setattr(servicer_class, method,
                    _spinning(int(layer.removeprefix(WORK_LAYER).split()[0]), answer))
        else:
            setattr(servicer_class, method, _timed(real))
        if layer == "protobuf":
            server = grpc.server(futures.ThreadPoolExecutor(bench_ceilings.engine_workers()),
                                 options=[("grpc.so_reuseport", 0)])
            servicers.REGISTRATION.register(server, engine_server.CallLimits())
            port = server.add_insecure_port(address)
        else:
            engine = engine_server.create_server(address, bench_ceilings.engine_workers())
            server, port = engine.server, engine.port
    server.start()
    print(f"layer listening on 127.0.0.1:{port} ", flush=True)
    server.wait_for_termination()


def _spinning(micros: int, answer: Any) -> Any:
    """A method answering ``answer`` after ``micros`` µs of its thread's CPU in Python."""
    seconds = micros / 1e6

    def spin(self: Any, request: Any, context: Any) -> Any:
        until = time.thread_time() + seconds
        while time.thread_time() < until:
            pass
        return answer
    return spin


def _timed(method: Any) -> Any:
    """``method`` timing its calls' thread CPU, the mean printed every so many calls."""
    lock = threading.Lock()
    seen = {"calls": 0, "cpu": 0.0}

    def timed(self: Any, request: Any, context: Any) -> Any:
        started = time.thread_time()
        try:
            return method(self, request, context)
        finally:
            spent = time.thread_time() - started
            with lock:
                seen["calls"] += 1
                seen["cpu"] += spent
                if seen["calls"] % HANDLER_REPORT_EVERY == 0:
                    print(f"handler cpu {seen['cpu'] / seen['calls'] * 1e6:.1f} µs/call",
                          flush=True)
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--call", default="DFM score", help="a bench_ceilings call's name")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work-us", default="",
                        help="comma-separated µs of CPU: a layer for each, the engine's "
                             "server spinning that long in every call before answering")
    args = parser.parse_args()
    layers = (*LAYERS, *(work_layer(int(micros)) for micros in args.work_us.split(",")
                         if micros.strip()))
    bench_ceilings.ensure_tools()
    call = next(c for c in bench_ceilings.build_calls(2026) if c.name == args.call)
    with tempfile.TemporaryDirectory() as workdir:
        servers = bench_ceilings.Servers(Path(workdir))
        try:
            started = {}
            for layer in layers:
                command = ([bench_ceilings.__file__, "_grpc_echo", "127.0.0.1:0"]
                           if layer == "echo" else
                           [__file__, "_serve", layer, args.call, "127.0.0.1:0"])
                server = servers.start(layer, [sys.executable, *command], {})
                server.address = server.wait_for(r"listening on (\S+)")
                started[layer] = server
            load = bench_ceilings.Load(Path(workdir), args.seconds,
                                       bench_ceilings.CpuMeter(started), keepalive=False)
            for server in started.values():
                load.grpc(server.address, call, requests=bench_ceilings.WARM_UP_REQUESTS)
            runs: dict[str, list[Any]] = {layer: [] for layer in layers}
            for _ in range(args.rounds):
                for layer, server in started.items():
                    runs[layer].append(load.grpc(server.address, call, counted=(layer,)))
            echo = max(run.rps for run in runs["echo"])
            print(f"{call.name} ({call.grpc_method.rsplit('/', 1)[1]}), best of "
                  f"{args.rounds} runs of {args.seconds} s")
            print(f"{'layer':<24}{'calls/s':>9}{'CPU ms/call':>13}{'ratio':>7}")
            for layer, layer_runs in runs.items():
                best = max(layer_runs, key=lambda run: run.rps)
                print(f"{layer:<24}{best.rps:>9,.0f}{best.cpu_ms_per_request:>13.3f}"
                      f"{best.rps / echo:>7.2f}")
            reports = [line for line in started["engine"].output().splitlines()
                       if line.startswith("handler cpu")]
            if reports:
                print(f"the engine's servicer method under load: {reports[-1]}")
        finally:
            servers.stop()


if __name__ == "__main__":
    if sys.argv[1:2] == ["_serve"]:
        serve(*sys.argv[2:5])
    else:
        main()
