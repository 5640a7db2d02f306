"""The engine parses each request once and writes each answer once (issue 27 item 2).

Counted in a real engine server (``create_server``, on a free loopback port), on every
method of every game, each sent its example request (the one the REST documentation
shows): Python's profiler sees each call into protobuf's C code that parses an encoding
(``FromString``, ``ParseFromString``, ``MergeFromString``) or writes one
(``SerializeToString``), and which message it is for. Each request is parsed once (by
protobuf, or for the calls most made not at all: the engine reads their bytes), so no part
of it is written again to be read, and no answer is parsed back to be written twice. The
calls most made write their answers with no message at all.

The profiler sees no call made from compiled code, so the engine runs from its sources in
a process of its own (the compiled modules answer byte for byte as the sources do:
``test_compiled_rules.py``). Each call is made twice and counted the second time, with the
caches a busy engine has warm (a challenge tile's bytes, say, are read once a process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from deploy.compiled import PURE_PYTHON_VARIABLE
from engine_service.server import GAMES

REPO = Path(__file__).resolve().parents[2]

_COUNT = r"""
import json, threading
import grpc
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from api_gateway.resources.downtown_farmers_market.routes import ROUTES as DFM
from api_gateway.resources.foxglove_farm.routes import ROUTES as FF
from engine_service.server import create_server

CODEC = {"FromString": "parses", "ParseFromString": "parses", "MergeFromString": "parses",
         "SerializeToString": "writes", "SerializePartialToString": "writes"}
seen = []

def profile(frame, event, arg):
    kind = CODEC.get(getattr(arg, "__name__", "")) if event == "c_call" else None
    owner = getattr(arg, "__self__", None)
    if kind and owner is not None:
        message = owner if isinstance(owner, type) else type(owner)
        if issubclass(message, Message):
            seen.append((kind, message.DESCRIPTOR.name))

requests = {}
for routes in (DFM, FF):
    examples = json.loads(routes.examples.read_text())
    for endpoint in routes.endpoints:
        request = endpoint.body().load(examples[endpoint.operation_id]["request"])
        if endpoint.carried:
            request_class = GetMessageClass(routes.service.methods_by_name[endpoint.rpc].input_type)
            request = request_class(**{endpoint.carried.request_field: request})
        requests[(routes.service.full_name, endpoint.rpc)] = request.SerializeToString()
    for method in routes.service.methods:  # the ones REST asks with no body
        requests.setdefault((routes.service.full_name, method.name), b"")

engine = create_server("127.0.0.1:0", max_workers=1)
threading.setprofile(profile)  # the server's threads start after this
engine.server.start()
counted = {}
with grpc.insecure_channel(f"127.0.0.1:{engine.port}") as channel:
    for (service, method), data in requests.items():
        call = channel.unary_unary(f"/{service}/{method}")  # bytes both ways
        call(data, timeout=30)
        seen.clear()
        call(data, timeout=30)
        counted[f"{service}/{method}"] = {
            kind: [name for k, name in seen if k == kind] for kind in ("parses", "writes")}
engine.server.stop(None)
print(json.dumps(counted))
"""

HOT = {"DowntownFarmersMarketService/ScoreBoard", "DowntownFarmersMarketService/ListLegalMoves",
       "DowntownFarmersMarketService/ValidateMove", "FoxgloveFarmService/ScoreTown",
       "FoxgloveFarmService/ValidateTransport"}
"""The calls ``benchmarks/bench_ceilings.py`` measures: written with no message at all."""


def _counted() -> dict[str, dict[str, list[str]]]:
    env = {**os.environ, PURE_PYTHON_VARIABLE: "1"}
    done = subprocess.run([sys.executable, "-c", _COUNT], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    counted: dict[str, dict[str, list[str]]] = json.loads(done.stdout.splitlines()[-1])
    return {name.split(".")[-1]: kinds for name, kinds in counted.items()}


def test_each_request_is_parsed_once_and_each_answer_written_once() -> None:
    counted = _counted()
    methods = {f"{game.service.name}/{method.name}": (game, method)
               for game in GAMES for method in game.service.methods}
    assert counted.keys() == methods.keys()
    for name, (game, method) in methods.items():
        read_from_bytes = game.request_deserializer(method.name) is None
        assert counted[name]["parses"] == ([] if read_from_bytes else [method.input_type.name]), (
            f"{name}: {counted[name]}")
        if name in HOT:
            assert counted[name]["writes"] == [], f"{name}: {counted[name]}"
