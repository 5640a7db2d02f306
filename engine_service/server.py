"""Building and running the engine's gRPC server.

:func:`create_server` is separate from :func:`serve` so tests can bind port 0 and dial
the port they got. The server registers every game's servicer, the standard health
service (SERVING per service) and server reflection, so grpcurl and Kubernetes probes
work out of the box. Every unary call passes :class:`.calls.CallPolicy` (requests parsed
with INVALID_ARGUMENT for bad bytes, seats for the expensive methods, metrics and request
ids). The server speaks TLS when given a certificate (:mod:`.tls`), and closes every
connection after a maximum age so that clients re-resolve the engines' addresses and
spread over new replicas. :func:`serve` runs the plaintext health port beside it when
given one (:mod:`.health_port`).
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import threading
import time
from collections.abc import Sequence
from concurrent import futures
from dataclasses import dataclass
from importlib.machinery import ExtensionFileLoader

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tabletop_rules.downtown_farmers_market import scoring

from . import version
from .calls import CallLimits, CallPolicy, method_name
from .downtown_farmers_market import servicer as downtown_farmers_market
from .foxglove_farm import servicer as foxglove_farm
from .health import HealthServicer
from .health_port import HealthPort
from .registration import GameRegistration, Seats
from .tls import ServerTls

log = logging.getLogger(__name__)

GAMES: tuple[GameRegistration, ...] = (downtown_farmers_market.REGISTRATION,
                                       foxglove_farm.REGISTRATION)
"""Every game the engine serves: adding one adds its registration here."""

MAX_MESSAGE_BYTES = 4 * 1024 * 1024

EXIT_MARGIN_SECONDS = 1.0
"""After the grace period, what stopping the server may take before the process exits
regardless (a computation that ignored its cancellation must not keep it alive)."""


PLAN_SEATS = 1
"""Final-round plans computed at once by default: a plan is CPU-bound and shares the
interpreter's lock with every other call; with two running, a board scored meanwhile took
110 ms instead of 8 (measured, 2 cores)."""
REPLAY_SEATS = 2
"""Game logs replayed at once by default (a replay is bounded by the log limit)."""

MIN_PING_INTERVAL_MS = 250
"""How often a client may ping (more often is abuse, and the connection is closed): the
gateway pings every 500 ms to notice a hung engine within a second (api_gateway/engine.py)."""
MAX_CONNECTION_AGE_SECONDS = 30.0
"""How long a client connection lives by default: then the engine sends GOAWAY and the
client reconnects, re-resolving its target, so that replicas started since get their
share of the calls."""
MAX_CONNECTION_AGE_GRACE_SECONDS = 5.0
"""What calls still running on a connection past its age get to finish (every call is
bounded by --max-call-seconds, 3 s by default)."""


def expensive_seats(plans: int = PLAN_SEATS, replays: int = REPLAY_SEATS,
                    games: Sequence[GameRegistration] = GAMES) -> dict[str, int]:
    """The methods of ``games`` whose calls are bounded in number, by full method name."""
    bounds = {Seats.PLANS: plans, Seats.REPLAYS: replays}
    return {method_name(game.service, method): bounds[seats]
            for game in games for method, seats in game.expensive.items()}


SIGNAL_CHECK_SECONDS = 0.1
"""How often the main thread wakes to run the signal handlers: the kernel may hand a
SIGTERM to any of the engine's threads, and Python runs the handler only in the main
thread, once it runs again (a main thread asleep until told to stop never would)."""

ANNOUNCE_SECONDS = 0.5
"""How long a stopping engine at least keeps answering, NOT_SERVING, so that probes and
balancers read the drain before calls are refused (within the grace period)."""


@dataclass
class Engine:
    """A built, not yet started, engine: the server, the port it bound, its health, and
    the policy that counts its calls."""

    server: grpc.Server
    port: int
    health: HealthServicer
    policy: CallPolicy


def create_server(address: str = "127.0.0.1:50051", max_workers: int = 8,
                  limits: CallLimits | None = None, *, tls: ServerTls | None = None,
                  max_connection_age: float = MAX_CONNECTION_AGE_SECONDS,
                  interceptors: Sequence[grpc.ServerInterceptor] = (),
                  games: Sequence[GameRegistration] = GAMES) -> Engine:
    """Build the server bound to ``address`` (port 0 picks a free port), over TLS when
    ``tls`` is given, serving ``games`` (a test serves one more); ``interceptors``
    (tracing) run before the call policy."""
    limits = limits or CallLimits(seats=expensive_seats(games=games))
    policy = CallPolicy(limits.seats)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rpc"),
        interceptors=[*interceptors, policy],
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                 ("grpc.so_reuseport", 0),
                 # Let the gateway's keepalive pings through, so a vanished or hung
                 # engine is noticed within a second.
                 ("grpc.keepalive_permit_without_calls", 1),
                 ("grpc.http2.min_ping_interval_without_data_ms", MIN_PING_INTERVAL_MS),
                 ("grpc.max_connection_age_ms", round(max_connection_age * 1000)),
                 ("grpc.max_connection_age_grace_ms",
                  round(MAX_CONNECTION_AGE_GRACE_SECONDS * 1000))],
    )
    names = [*(game.register(server, limits) for game in games),
             version.register(server)]
    health_servicer = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *names):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*names, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = (server.add_secure_port(address, tls.credentials()) if tls
            else server.add_insecure_port(address))
    if port == 0:
        raise OSError(f"could not bind the engine to {address}")
    return Engine(server, port, health_servicer, policy)


def serve(address: str, max_workers: int, grace_seconds: float,
          limits: CallLimits | None = None, *, tls: ServerTls | None = None,
          max_connection_age: float = MAX_CONNECTION_AGE_SECONDS,
          interceptors: Sequence[grpc.ServerInterceptor] = (),
          health_port: HealthPort | None = None) -> None:
    """Run until SIGTERM or SIGINT, then drain within ``grace_seconds``: report
    NOT_SERVING while still answering (so balancers stop sending first), for at least
    :data:`ANNOUNCE_SECONDS` and until no call is in flight; then stop, cancelling what
    is left at the end of the grace period. The process then exits even if a computation
    is still running (its call was cancelled, so no one waits for it). ``health_port``
    answers from the server's health servicer, so NOT_SERVING throughout the drain, and
    stops after the server."""
    engine = create_server(address, max_workers, limits, tls=tls,
                           max_connection_age=max_connection_age, interceptors=interceptors)
    engine.server.start()
    # What is made by now (the servicers, every Food tile by its encoding, the catalog)
    # lives as long as the process: kept out of the garbage collector's full passes, which
    # hold the interpreter's lock and so pause every call (about 8 ms a pass less).
    gc.freeze()
    # Which build runs (deploy/compiled.py chooses), as one of the compiled modules shows.
    log.info("the rules' hot modules run %s",
             "compiled" if isinstance(scoring.__loader__, ExtensionFileLoader)
             else "from their sources")
    host = address.rsplit(":", 1)[0]
    # The address is followed by a space: tools read it with "listening on (\S+)", in
    # text and JSON lines alike.
    log.info("engine listening on %s:%d (%s)", host, engine.port,
             tls.describe() if tls else "plaintext")
    if health_port:
        health_port.start(engine.health)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("received %s: draining for up to %.0f s", signal.Signals(signum).name,
                 grace_seconds)
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while not stopping.wait(SIGNAL_CHECK_SECONDS):
        pass
    drained_by = time.monotonic() + grace_seconds
    engine.health.enter_graceful_shutdown()  # probes see NOT_SERVING while draining
    time.sleep(min(ANNOUNCE_SECONDS, grace_seconds))
    while engine.policy.in_flight and time.monotonic() < drained_by:
        time.sleep(0.02)
    # What grace is left lets answers already computed be written out.
    left = max(0.0, drained_by - time.monotonic())
    engine.server.stop(left).wait(left + EXIT_MARGIN_SECONDS)
    if health_port:
        health_port.server.stop(0)  # health checks take no time to finish
    log.info("engine stopped")
    # The interpreter joins the executor's threads as it exits, so a computation that has
    # not yet seen its cancellation would hold the process past the grace period: a
    # watchdog ends it if the ordinary exit (which saves coverage data, say) takes longer.
    threading.Thread(target=_exit_after, args=(EXIT_MARGIN_SECONDS,), daemon=True).start()


def _exit_after(seconds: float) -> None:
    time.sleep(seconds)
    log.warning("calls still running %.0f s after the drain: exiting anyway", seconds)
    logging.shutdown()
    os._exit(0)
