"""The gateway's connection to the engine, and what its failures mean to a REST caller.

grpcio and ``fork()`` do not mix, so no channel exists at import time: each worker
process opens its own on first use (after gunicorn has forked it) and reopens it if it
finds itself in a new process. Every call carries a deadline and fails fast while the
engine is unreachable (503); the channel retries the connection every half second at
most, so answers are 200 again within a second of the engine's return. Readiness is the
channel's own connectivity state, watched as it changes, plus a health check once
connected.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from typing import TypeVar

import grpc
from flask import current_app
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.grpc_client import field_violations, status_details

from .problems import FieldProblem, ProblemError, invalid_request

Response = TypeVar("Response", bound=Message)
Stub = TypeVar("Stub")

CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", 16 * 1024 * 1024),
    # The engine's INVALID_ARGUMENT details travel in trailing metadata; between grpc's
    # soft and hard limits it drops them at random, so both sit well above the largest
    # detail the engine sends (100 field violations).
    ("grpc.max_metadata_size", 1024 * 1024),
    ("grpc.absolute_max_metadata_size", 1024 * 1024),
    # Reconnect quickly once the engine is back (grpc's defaults back off to 120 s).
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
    # grpc's name for how long one connection attempt may take (default 20 s).
    ("grpc.min_reconnect_backoff_ms", 1_000),
    # Notice an engine that vanished without closing its connections.
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 5_000),
    ("grpc.keepalive_permit_without_calls", 1),
]


class _Engine:
    """This process's channel to one address and the connectivity state it last saw."""

    def __init__(self, address: str) -> None:
        self.pid = os.getpid()
        self.address = address
        self.channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.state = grpc.ChannelConnectivity.IDLE
        self.stubs: dict[type, object] = {}
        self.channel.subscribe(self._saw, try_to_connect=True)

    def _saw(self, state: grpc.ChannelConnectivity) -> None:
        self.state = state


_lock = threading.Lock()
_engine: _Engine | None = None


def _current() -> _Engine:
    global _engine
    address = current_app.config["ENGINE_ADDRESS"]
    with _lock:
        if _engine is None or (_engine.pid, _engine.address) != (os.getpid(), address):
            _engine = _Engine(address)
        return _engine


def channel() -> grpc.Channel:
    """This process's channel to the configured engine address, opened on first use."""
    return _current().channel


def stub(kind: Callable[[grpc.Channel], Stub]) -> Stub:
    """A ``kind`` stub on this process's channel, made once per channel: making one makes
    a callable per method of the service, which cost tens of microseconds a request."""
    engine = _current()
    made = engine.stubs.get(kind)  # type: ignore[call-overload]
    if made is None:
        made = engine.stubs[kind] = kind(engine.channel)  # type: ignore[index]
    return made  # type: ignore[return-value]


def call(method: Callable[..., Response], request: Message, *,
         strip_prefix: str = "") -> Response:
    """Call ``method`` with the configured deadline; map failures to problems.

    ``strip_prefix`` removes the wrapper the gRPC request puts around the REST body (the
    engine's pointers are into the gRPC request's JSON form, e.g. ``/board/grid/1``).
    """
    try:
        return method(request, timeout=current_app.config["ENGINE_TIMEOUT_SECONDS"])
    except grpc.RpcError as error:
        raise problem_for(error, strip_prefix) from None


def problem_for(error: grpc.RpcError, strip_prefix: str) -> ProblemError:
    code = error.code()  # type: ignore[attr-defined]
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        return invalid_request(_field_problems(error, strip_prefix))
    if code is grpc.StatusCode.UNAVAILABLE:
        return engine_unavailable()
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return ProblemError(504, "engine-timeout", "Engine timeout",
                            "The rules engine did not answer in time.")
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        retry_after = _retry_after(error)
        if retry_after is None:
            return ProblemError(413, "body-too-large", "Request too large",
                                "The request is larger than the engine accepts.")
        return ProblemError(429, "engine-busy", "Too many requests",
                            "The referee is already working on as many requests of this kind "
                            f"as it takes at once; try again in {retry_after} s.",
                            headers={"Retry-After": str(retry_after)})
    # CANCELLED (an engine stopping), INTERNAL, UNKNOWN...: the contract allows only 503.
    return engine_unavailable()


def _retry_after(error: grpc.RpcError) -> int | None:
    """Whole seconds from the status's ``google.rpc.RetryInfo``, if it carries one."""
    infos = status_details(error, error_details_pb2.RetryInfo)
    if not infos:
        return None
    delay = infos[0].retry_delay
    return max(1, math.ceil(delay.seconds + delay.nanos / 1e9))


def engine_unavailable() -> ProblemError:
    """503 with Retry-After: the engine cannot be reached or is not serving."""
    return ProblemError(503, "engine-unavailable", "Engine unavailable",
                        "The rules engine cannot be reached; try again shortly.",
                        headers={"Retry-After": str(current_app.config["RETRY_AFTER_SECONDS"])})


def _field_problems(error: grpc.RpcError, strip_prefix: str) -> list[FieldProblem]:
    problems = [FieldProblem(field.removeprefix(strip_prefix), description)
                for field, description in field_violations(error)]
    return problems or [FieldProblem("", error.details() or "invalid request")]  # type: ignore[attr-defined]


def engine_ready() -> bool:
    """True when this process's channel is not failing and the engine says SERVING (the
    check waits, within the readiness timeout, for a channel that is still connecting)."""
    engine = _current()
    if engine.state in (grpc.ChannelConnectivity.TRANSIENT_FAILURE,
                        grpc.ChannelConnectivity.SHUTDOWN):
        return False
    stub = health_pb2_grpc.HealthStub(engine.channel)
    try:
        answer = stub.Check(health_pb2.HealthCheckRequest(), wait_for_ready=True,
                            timeout=current_app.config["READINESS_TIMEOUT_SECONDS"])
    except grpc.RpcError:
        return False
    return answer.status == health_pb2.HealthCheckResponse.SERVING
