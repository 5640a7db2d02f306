"""What every call to the engine may cost, and the checks that keep it so.

Three guards stand between the wire and the servicers:

- **Requests are parsed here**, not by grpcio: grpcio answers bytes that are not a valid
  message (or carry invalid UTF-8 in a string) with INTERNAL "Exception deserializing
  request!"; :class:`CallPolicy` answers INVALID_ARGUMENT with a field violation instead
  (:data:`.errors.MALFORMED_REQUEST`). A method registered without a deserializer gets
  the bytes, for its servicer to read (:mod:`.registration`).
- **Expensive methods have a bounded number of seats** (:attr:`CallLimits.seats`): a call
  that finds them all taken is answered at once with RESOURCE_EXHAUSTED and a
  ``google.rpc.RetryInfo`` detail (the gateway's 429 with Retry-After), so a burst of
  final-round plans cannot take the threads that score boards.
- **Every call has a deadline**, the client's or :attr:`CallLimits.max_call_seconds`,
  whichever is sooner; :func:`deadline_of` hands it to the rules as a
  :class:`tabletop_rules.deadline.Deadline` that also notices a cancelled call.

It also observes every unary call, refusals included: counted and timed per method and
status code (:mod:`.metrics`), its ``x-request-id`` metadata put in :data:`.logs.REQUEST_ID`
for the log lines written meanwhile, and one line written per call: INFO for a call that
ends with another code than OK or takes longer than :data:`SLOW_CALL_SECONDS`, DEBUG for
the others (``REFEREE_LOG_LEVEL=DEBUG`` follows every call).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

import grpc
from google.protobuf import duration_pb2
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, error_details_pb2

from tabletop_rules.deadline import Deadline

from .errors import MALFORMED_REQUEST, abort_with_status, status_of
from .logs import REQUEST_ID
from .metrics import MethodMeter

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 1
"""What a caller refused for want of a seat is told to wait: an expensive call lasts
under a second."""

SLOW_CALL_SECONDS = 1.0
"""A call that took longer is logged, whatever its answer."""

REQUEST_ID_KEY = "x-request-id"


@dataclass(frozen=True)
class CallLimits:
    """The engine's cost limits, from its flags (see ``python -m engine_service --help``)."""

    max_call_seconds: float = 3.0
    """No call computes longer than this, even when its client set no deadline."""
    plan_seconds: float = 0.8
    """What the anytime final-round planner may spend before answering its best plan."""
    seats: Mapping[str, int] = field(default_factory=dict)
    """Full method name (``/package.Service/Method``) -> calls it may run at once."""


def method_name(service: ServiceDescriptor, method: str) -> str:
    """The full name of ``service``'s ``method``, as interceptors see it (and seats key)."""
    return f"/{service.full_name}/{service.methods_by_name[method].name}"


def deadline_of(context: grpc.ServicerContext, limits: CallLimits) -> Deadline:
    """The call's deadline for the rules: the client's or the engine's own, whichever is
    sooner, ending early if the client cancels or the server stops the call."""
    remaining = context.time_remaining()
    seconds = limits.max_call_seconds if remaining is None else min(remaining,
                                                                       limits.max_call_seconds)
    return Deadline(seconds, lambda: not context.is_active())


def _busy(method: str) -> grpc.Status:
    name = method.rsplit("/", 1)[-1]
    return status_of(code_pb2.RESOURCE_EXHAUSTED,
                     f"every seat for {name} is taken; retry in {RETRY_AFTER_SECONDS} s",
                     error_details_pb2.RetryInfo(
                         retry_delay=duration_pb2.Duration(seconds=RETRY_AFTER_SECONDS)))


Behavior = Callable[[Any, grpc.ServicerContext], Any]


def request_id(context: grpc.ServicerContext) -> str | None:
    """The call's ``x-request-id`` metadata, if its client sent one."""
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_KEY:
            return str(value)
    return None


class CallPolicy(grpc.ServerInterceptor):
    """Parses unary requests itself, bounds the expensive methods' concurrency, counts
    the calls in flight (a draining engine waits for them), and observes every call."""

    def __init__(self, seats: Mapping[str, int]) -> None:
        self._seats = {method: threading.BoundedSemaphore(n) for method, n in seats.items()}
        self._lock = threading.Lock()
        self._in_flight = 0
        self._guarded: dict[str, Any] = {}
        """Each unary method's guarded handler, built on its first call: grpcio asks for
        a handler on every call, and building one costs more than some calls' work."""

    @property
    def in_flight(self) -> int:
        """Unary calls being answered now."""
        return self._in_flight

    def _count(self, change: int) -> None:
        with self._lock:
            self._in_flight += change

    def intercept_service(self, continuation: Callable[[grpc.HandlerCallDetails], Any],
                          details: grpc.HandlerCallDetails) -> Any:
        known = self._guarded.get(details.method)
        if known is not None:
            return known
        handler = continuation(details)
        if handler is None or handler.unary_unary is None:
            return handler  # streams (reflection) and unknown methods keep grpcio's handling
        parse: Callable[[bytes], Any] | None = handler.request_deserializer
        """None for a method whose servicer reads the request's bytes itself."""
        behavior: Behavior = handler.unary_unary
        seats = self._seats.get(details.method)
        method = details.method

        meter = MethodMeter(method)

        def respond(raw: bytes, context: grpc.ServicerContext) -> Any:
            try:
                request = raw if parse is None else parse(raw)
            except DecodeError:
                abort_with_status(context, MALFORMED_REQUEST)
            self._count(+1)
            try:
                if seats is None:
                    return behavior(request, context)
                if not seats.acquire(blocking=False):
                    abort_with_status(context, _busy(method))
                try:
                    return behavior(request, context)
                finally:
                    seats.release()
            finally:
                self._count(-1)

        def guarded(raw: bytes, context: grpc.ServicerContext) -> Any:
            started = perf_counter()
            token = REQUEST_ID.set(request_id(context))
            answered = False
            try:
                answer = respond(raw, context)
                answered = True
                return answer
            finally:
                # abort() raises after setting the code; any other exception is UNKNOWN.
                # (ServicerContext.code() is grpcio's since 1.38; typeshed's stubs lack it.)
                code = (context.code()  # type: ignore[attr-defined]
                        or (grpc.StatusCode.OK if answered else grpc.StatusCode.UNKNOWN))
                seconds = perf_counter() - started
                meter.record(code, seconds)
                level = (logging.INFO if code is not grpc.StatusCode.OK
                         or seconds > SLOW_CALL_SECONDS else logging.DEBUG)
                if log.isEnabledFor(level):
                    log.log(level, "%s answered %s in %.1f ms", meter.method, code.name,
                            seconds * 1000, extra={"service": meter.service,
                                                   "method": meter.method,
                                                   "code": code.name,
                                                   "seconds": round(seconds, 6)})
                REQUEST_ID.reset(token)

        return self._guarded.setdefault(method, grpc.unary_unary_rpc_method_handler(
            guarded, request_deserializer=None,
            response_serializer=handler.response_serializer))
