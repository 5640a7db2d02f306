"""The gateway's connection to the engine, and what its failures mean to a REST caller.

grpcio and ``fork()`` do not mix, so no channel exists at import time: each worker
process opens its own on first use (after gunicorn has forked it) and reopens it if it
finds itself in a new process. Every call carries a deadline.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

import grpc
from flask import current_app
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc

from clients.grpc_client import field_violations

from .problems import FieldProblem, ProblemError, invalid_request

Response = TypeVar("Response", bound=Message)

_lock = threading.Lock()
_channel: tuple[int, str, grpc.Channel] | None = None


def channel() -> grpc.Channel:
    """This process's channel to the configured engine address, opened on first use."""
    global _channel
    address = current_app.config["ENGINE_ADDRESS"]
    with _lock:
        if _channel is None or _channel[:2] != (os.getpid(), address):
            _channel = (os.getpid(), address, grpc.insecure_channel(address, options=[
                ("grpc.max_receive_message_length", 16 * 1024 * 1024)]))
        return _channel[2]


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
        return ProblemError(413, "body-too-large", "Request too large",
                            "The request is larger than the engine accepts.")
    return ProblemError(502, "engine-error", "Engine error",
                        "The rules engine could not answer this request.")


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
    """True when the engine answers its health check with SERVING."""
    stub = health_pb2_grpc.HealthStub(channel())
    try:
        answer = stub.Check(health_pb2.HealthCheckRequest(),
                            timeout=current_app.config["READINESS_TIMEOUT_SECONDS"])
    except grpc.RpcError:
        return False
    return answer.status == health_pb2.HealthCheckResponse.SERVING
