"""Building and running the engine's gRPC server.

:func:`create_server` is separate from :func:`serve` so tests can bind port 0 and dial
the port they got. The server registers every game's servicer, the standard health
service (SERVING per service) and server reflection, so grpcurl and Kubernetes probes
work out of the box.
"""

from __future__ import annotations

import logging
import signal
import threading
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from .downtown_farmers_market import servicer as downtown_farmers_market
from .foxglove_farm import servicer as foxglove_farm

log = logging.getLogger(__name__)

GAME_SERVICES = (downtown_farmers_market.register, foxglove_farm.register)
"""Each game's ``register(server) -> service name``."""

MAX_MESSAGE_BYTES = 4 * 1024 * 1024


@dataclass
class Engine:
    """A built, not yet started, engine: the server, the port it bound, its health."""

    server: grpc.Server
    port: int
    health: health.HealthServicer


def create_server(address: str = "127.0.0.1:50051", max_workers: int = 8) -> Engine:
    """Build the server bound to ``address`` (port 0 picks a free port)."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rpc"),
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                 ("grpc.so_reuseport", 0)],
    )
    names = [register(server) for register in GAME_SERVICES]
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *names):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*names, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"could not bind the engine to {address}")
    return Engine(server, port, health_servicer)


def serve(address: str, max_workers: int, grace_seconds: float) -> None:
    """Run until SIGTERM or SIGINT, then stop taking calls and let in-flight ones finish."""
    engine = create_server(address, max_workers)
    engine.server.start()
    host = address.rsplit(":", 1)[0]
    log.info("engine listening on %s:%d", host, engine.port)
    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("received %s: draining for up to %.0f s", signal.Signals(signum).name,
                 grace_seconds)
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    stopping.wait()
    engine.health.enter_graceful_shutdown()  # probes see NOT_SERVING while draining
    engine.server.stop(grace_seconds).wait()
    log.info("engine stopped")
