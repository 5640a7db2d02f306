"""Nim's protobuf and gRPC modules, compiled from ``nim.proto`` by grpc_tools when the
test imports them (into a temporary folder: nothing generated is committed)."""

from __future__ import annotations

import atexit
import importlib
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

PROTO = Path(__file__).with_name("nim.proto")

_out = tempfile.mkdtemp(prefix="nim-proto-")
atexit.register(shutil.rmtree, _out, ignore_errors=True)
if protoc.main(["protoc", f"-I{PROTO.parent}", f"--python_out={_out}",
                f"--grpc_python_out={_out}", PROTO.name]) != 0:
    raise RuntimeError(f"protoc failed on {PROTO}")
sys.path.insert(0, _out)
nim_pb2 = importlib.import_module("nim_pb2")
nim_pb2_grpc = importlib.import_module("nim_pb2_grpc")
sys.path.remove(_out)
