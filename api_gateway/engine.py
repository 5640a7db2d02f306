"""The gateway's channel to the engines, and what its failures mean to a REST caller.

The engine target (``ENGINE_ADDRESS``) names one engine or many: a ``host:port``, any gRPC
target (``dns:///engine-headless.referee.svc.cluster.local:50051`` reaches every address
the name resolves to), or a comma-separated list of IP ``host:port`` for local runs (made
grpc's ``ipv4:``/``ipv6:`` target). The channel's service config balances round-robin over
the engines that are connected and say SERVING on the health service (client-side health
checking: a draining engine gets no new calls), and retries a call that met an UNAVAILABLE
engine on another one: every RPC is a pure function, so a retry is always safe.

An engine that stops answering without closing its connections (a cable cut, a frozen
host, a process stopped or paused, its kernel still acknowledging bytes) is noticed by
keepalive pings, within :data:`KEEPALIVE_TIME_MS` + :data:`KEEPALIVE_TIMEOUT_MS` (a
second), busy or idle: the connection is closed, its calls fail UNAVAILABLE and are retried
on another engine, and it is out of the rotation until it answers again. A ping measures
whether the engine is alive, not how long a call takes, so it cuts no long computation (a
per-attempt deadline would, and would then retry it); grpcio has no hedging, and outlier
detection ejects only after failures, which a hung engine gives only at the deadline.

grpcio and ``fork()`` do not mix, so no channel exists at import time: each worker
process opens its own on first use (after gunicorn has forked it) and reopens it if it
finds itself in a new process. Every call carries a deadline and fails fast while no
engine is reachable (503); the channel retries each connection every half second at most,
so a returning engine has calls again within a second. Readiness is the channel's own
connectivity state (ready while one engine serves), watched as it changes, plus a health
check once connected.
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import grpc
from flask import current_app
from google.protobuf import duration_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2
from referee.v1 import referee_service_pb2
from referee_wire.rich_status import field_violation_params, status_details

from .config import ENVIRONMENT
from .i18n import params_from_proto
from .problems import (
    TOO_MANY_REQUESTS,
    FieldProblem,
    ProblemError,
    answer_template,
    invalid_request,
)
from .request_ids import current_request_id

Response = TypeVar("Response", bound=Message)
Stub = TypeVar("Stub")

GAME_SERVICES = tuple(
    service.full_name
    for module in (downtown_farmers_market_service_pb2, foxglove_farm_service_pb2,
                   referee_service_pb2)
    for service in module.DESCRIPTOR.services_by_name.values())
"""The engine's services (the games' and the referee's own), by full name, as the
generated descriptors name them."""

RETRY_POLICY = {
    # 4 attempts: enough to pass over two engines that died at once.
    "maxAttempts": 4,
    "initialBackoff": "0.05s",
    "maxBackoff": "0.5s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE"],
}

KEEPALIVE_TIME_MS = 500
"""A ping after this long without data from the engine: twice the interval the engine
accepts pings at (``MIN_PING_INTERVAL_MS``, engine_service/server.py), so timer jitter does
not count as abuse. Measured with an engine stopped (SIGSTOP) under 150 requests a second,
6 s here let 31 of 3,601 requests wait out their whole 5 s deadline (docs: Failover)."""
KEEPALIVE_TIMEOUT_MS = 500
"""No answer to a ping (or no ACK for a call's bytes) this long: the engine is gone. Far
below the calls' deadline (ENGINE_TIMEOUT_SECONDS), so a call caught by a hang is retried."""


def service_config() -> str:
    """The channel's gRPC service config (JSON): round-robin over the healthy engines, and
    every method of both game services retried on UNAVAILABLE."""
    return json.dumps({
        "loadBalancingConfig": [{"round_robin": {}}],
        "healthCheckConfig": {"serviceName": ""},
        "methodConfig": [{"name": [{"service": name} for name in GAME_SERVICES],
                          "retryPolicy": RETRY_POLICY}],
    })


CHANNEL_OPTIONS = [
    ("grpc.service_config", service_config()),
    ("grpc.enable_retries", 1),
    ("grpc.max_receive_message_length", 16 * 1024 * 1024),
    # The engine's INVALID_ARGUMENT details travel in trailing metadata; between grpc's
    # soft and hard limits it drops them at random, so both sit well above the largest
    # detail the engine sends (100 field violations).
    ("grpc.max_metadata_size", 1024 * 1024),
    ("grpc.absolute_max_metadata_size", 1024 * 1024),
    # Reconnect quickly once an engine is back (grpc's defaults back off to 120 s).
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
    # grpc's name for how long one connection attempt may take (default 20 s).
    ("grpc.min_reconnect_backoff_ms", 1_000),
    # Notice an engine that vanished without closing its connections, idle or not.
    ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
    ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
    # Any ping's timeout, not only keepalive's: while grpc's own pings (flow control's
    # BDP probes) are unanswered it sends no keepalive ping, and theirs is a minute by
    # default, so a call sent to a hung engine waited out its whole deadline.
    ("grpc.http2.ping_timeout_ms", KEEPALIVE_TIMEOUT_MS),
    ("grpc.keepalive_permit_without_calls", 1),
    # Keep pinging an idle engine (grpc stops after 2 pings without data by default), so a
    # hung one is out of the rotation before the next call comes.
    ("grpc.http2.max_pings_without_data", 0),
]


class SettingsError(ValueError):
    """An engine setting the gateway cannot start with."""


def _name(key: str) -> str:
    """How the operator spells config key ``key``: its environment variable."""
    return next((setting.name for setting in ENVIRONMENT if setting.key == key), key)


def engine_target(address: str) -> str:
    """The gRPC target for ``ENGINE_ADDRESS``: a single ``host:port`` or gRPC target as
    given; a comma-separated list of IP ``host:port`` (IPv6 in brackets) as grpc's
    ``ipv4:a,b`` or ``ipv6:[a]:p,[b]:q`` target. A list may not mix families or name
    hosts (grpc resolves no names in it: use ``dns:///name:port`` for those)."""
    address = address.strip()
    if not address:
        raise SettingsError(f"{_name('ENGINE_ADDRESS')} is empty")
    if "," not in address:
        return address
    families = {_address_family(item.strip(), address) for item in address.split(",")}
    if len(families) > 1:
        raise SettingsError(f"{_name('ENGINE_ADDRESS')}={address!r} mixes IPv4 and IPv6 "
                            "addresses; a list must hold one kind")
    return f"{families.pop()}:" + ",".join(item.strip() for item in address.split(","))


def _address_family(item: str, address: str) -> str:
    """``"ipv4"`` or ``"ipv6"`` for a list item ``a.b.c.d:port`` or ``[v6]:port``."""
    problem = (f"{_name('ENGINE_ADDRESS')}={address!r}: {item!r} is not an IP address and "
               "port (a list holds IPv4 a.b.c.d:port or IPv6 [addr]:port; for a name "
               "resolving to many engines give one dns:///name:port target)")
    host, _, port = item.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise SettingsError(problem)
    try:
        if host.startswith("[") and host.endswith("]"):
            ipaddress.IPv6Address(host[1:-1])
            return "ipv6"
        ipaddress.IPv4Address(host)
    except ValueError:
        raise SettingsError(problem) from None
    return "ipv4"


SETTING_KEYS = ("ENGINE_ADDRESS", "ENGINE_TLS_CA", "ENGINE_TLS_CERT", "ENGINE_TLS_KEY",
                "ENGINE_TLS_SERVER_NAME")
"""The settings this process's channel is made from (a new channel when one changes)."""


@dataclass(frozen=True)
class Settings:
    """What this process's channel is built from: the target, and the engine hop's TLS
    material (PEM bytes) when ``ENGINE_TLS_CA`` is set (plaintext otherwise)."""

    target: str
    ca: bytes | None = None
    cert: bytes | None = None
    key: bytes | None = None
    server_name: str = ""

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        """Parse and read the ``ENGINE_*`` settings; :class:`SettingsError` names what is
        wrong (a malformed target, a certificate without its key, an unreadable file)."""
        address, ca, cert, key, server_name = (config.get(name) or "" for name in SETTING_KEYS)
        target = engine_target(address)
        if not ca:
            given = [_name(n) for n, v in (("ENGINE_TLS_CERT", cert), ("ENGINE_TLS_KEY", key),
                                           ("ENGINE_TLS_SERVER_NAME", server_name)) if v]
            if given:
                raise SettingsError(f"{', '.join(given)} set but {_name('ENGINE_TLS_CA')} "
                                    "is not: the engine hop is TLS only with a CA")
            return cls(target)
        if bool(cert) != bool(key):
            raise SettingsError(f"{_name('ENGINE_TLS_CERT')} and {_name('ENGINE_TLS_KEY')} "
                                "go together (the gateway's client certificate and its key)")
        return cls(target, _read("ENGINE_TLS_CA", ca), _read("ENGINE_TLS_CERT", cert),
                   _read("ENGINE_TLS_KEY", key), server_name)

    def open(self) -> grpc.Channel:
        """A channel to the target, with TLS if configured."""
        if self.ca is None:
            return grpc.insecure_channel(self.target, options=CHANNEL_OPTIONS)
        credentials = grpc.ssl_channel_credentials(self.ca, self.key, self.cert)
        override = [("grpc.ssl_target_name_override", self.server_name)] if self.server_name \
            else []
        return grpc.secure_channel(self.target, credentials, options=CHANNEL_OPTIONS + override)


def _read(key: str, path: str | None) -> bytes | None:
    if not path:
        return None
    try:
        with open(path, "rb") as pem:
            return pem.read()
    except OSError as error:
        raise SettingsError(f"{_name(key)}={path!r} cannot be read: {error.strerror}") from None


class _Engine:
    """This process's channel for one set of settings and the connectivity state it last
    saw (READY while one engine is connected and serving)."""

    def __init__(self, given: tuple[Any, ...], settings: Settings) -> None:
        self.pid = os.getpid()
        self.given = given
        self.channel = settings.open()
        self.state = grpc.ChannelConnectivity.IDLE
        self.stubs: dict[Callable[[grpc.Channel], object], object] = {}
        self.channel.subscribe(self._saw, try_to_connect=True)

    def _saw(self, state: grpc.ChannelConnectivity) -> None:
        self.state = state


_lock = threading.Lock()
_engine: _Engine | None = None


def _current() -> _Engine:
    global _engine
    config = current_app.config
    given = tuple(config.get(key) for key in SETTING_KEYS)
    with _lock:
        if _engine is None or (_engine.pid, _engine.given) != (os.getpid(), given):
            _engine = _Engine(given, Settings.from_config(config))
        return _engine


def channel() -> grpc.Channel:
    """This process's channel to the configured engines, opened on first use."""
    return _current().channel


def stub(kind: Callable[[grpc.Channel], Stub]) -> Stub:
    """A ``kind`` stub on this process's channel, made once per channel: making one makes
    a callable per method of the service, which cost tens of microseconds a request."""
    engine = _current()
    made = engine.stubs.get(kind)
    if made is None:
        made = engine.stubs[kind] = kind(engine.channel)
    return cast(Stub, made)  # kept under the kind that made it


def request_metadata() -> tuple[tuple[str, str], ...]:
    """The request's id for the engine's logs, as gRPC metadata (none when it has none)."""
    request_id = current_request_id()
    return (("x-request-id", request_id),) if request_id else ()


def call(method: Callable[..., Response], request: Message, *,
         strip_prefix: str = "") -> Response:
    """Call ``method`` with the configured deadline; map failures to problems.

    ``strip_prefix`` removes the wrapper the gRPC request puts around the REST body (the
    engine's pointers are into the gRPC request's JSON form, e.g. ``/board/grid/1``).
    """
    try:
        return method(request, timeout=current_app.config["ENGINE_TIMEOUT_SECONDS"],
                      metadata=request_metadata())
    except grpc.RpcError as error:
        raise problem_for(error, strip_prefix) from None


ENGINE_TIMEOUT = answer_template("TITLE_ENGINE_TIMEOUT", "Engine timeout")
ENGINE_LATE = answer_template("ENGINE_TIMEOUT", "The rules engine did not answer in time.")
REQUEST_TOO_LARGE = answer_template("TITLE_REQUEST_TOO_LARGE", "Request too large")
ENGINE_REQUEST_TOO_LARGE = answer_template(
    "ENGINE_REQUEST_TOO_LARGE", "The request is larger than the engine accepts.")
ENGINE_BUSY = answer_template(
    "ENGINE_BUSY", "The referee is already working on as many requests of this kind as it "
                   "takes at once; try again in {seconds} s.")
ENGINE_UNAVAILABLE = answer_template("TITLE_ENGINE_UNAVAILABLE", "Engine unavailable")
ENGINE_UNREACHABLE = answer_template(
    "ENGINE_UNAVAILABLE", "The rules engine cannot be reached; try again shortly.")


def problem_for(error: grpc.RpcError, strip_prefix: str) -> ProblemError:
    code = error.code()
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        return invalid_request(_field_problems(error, strip_prefix))
    if code is grpc.StatusCode.UNAVAILABLE:
        return engine_unavailable()
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return ProblemError(504, "engine-timeout", ENGINE_TIMEOUT(), ENGINE_LATE())
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        retry_after = _retry_after(error)
        if retry_after is None:
            return ProblemError(413, "body-too-large", REQUEST_TOO_LARGE(),
                                ENGINE_REQUEST_TOO_LARGE())
        return ProblemError(429, "engine-busy", TOO_MANY_REQUESTS(),
                            ENGINE_BUSY(seconds=retry_after),
                            headers={"Retry-After": str(retry_after)})
    # CANCELLED (an engine stopping), INTERNAL, UNKNOWN...: the contract allows only 503.
    return engine_unavailable()


def _retry_after(error: grpc.RpcError) -> int | None:
    """Whole seconds from the status's ``google.rpc.RetryInfo``, if it carries one."""
    infos = status_details(error, error_details_pb2.RetryInfo)
    if not infos:
        return None
    delay: duration_pb2.Duration = infos[0].retry_delay
    return max(1, math.ceil(delay.seconds + delay.nanos / 1e9))


def engine_unavailable() -> ProblemError:
    """503 with Retry-After: no engine can be reached or none is serving."""
    return ProblemError(503, "engine-unavailable", ENGINE_UNAVAILABLE(),
                        ENGINE_UNREACHABLE(),
                        headers={"Retry-After": str(current_app.config["RETRY_AFTER_SECONDS"])})


def _field_problems(error: grpc.RpcError, strip_prefix: str) -> list[FieldProblem]:
    """The engine's field violations: pointer, words, code (the ``reason``) and params
    (the ``BadRequestParams`` detail beside the ``BadRequest``)."""
    violations = [v for bad_request in status_details(error, error_details_pb2.BadRequest)
                  for v in bad_request.field_violations]
    params = field_violation_params(error)
    if len(params) != len(violations):
        params = [[] for _ in violations]
    problems = [FieldProblem(v.field.removeprefix(strip_prefix), v.description, v.reason,
                             params_from_proto(p)) for v, p in zip(violations, params)]
    return problems or [FieldProblem("", error.details() or "invalid request")]


def engine_ready() -> bool:
    """True when this process's channel is not failing (one engine is connected and
    serving) and an engine says SERVING (the check waits, within the readiness timeout,
    for a channel that is still connecting)."""
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
    serving: bool = answer.status == health_pb2.HealthCheckResponse.SERVING
    return serving
