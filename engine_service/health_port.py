"""The engine's health port: the standard ``grpc.health.v1.Health`` service alone, in
plaintext, on an address of its own (``--health-address``), for probes that cannot speak
to the main port.

Kubernetes' native gRPC probe dials without TLS and without a client certificate, so an
engine that requires mutual TLS on its main port refuses it. This port answers from the
main server's own health servicer, so a probe reads what the gateways read there,
NOT_SERVING from the first moment of the drain; and it serves nothing else (no game
method, no reflection), so plaintext tells a caller only whether the engine serves.
"""

from __future__ import annotations

import logging
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2_grpc

log = logging.getLogger(__name__)

HEALTH_THREADS = 2
"""Threads answering health calls: a Check takes microseconds, and a Watch holds none
(the servicer answers it from its own callbacks); apart from the main server's threads,
so a probe is answered even while every one of those computes."""


@dataclass
class HealthPort:
    """A plaintext server bound to its address, not yet answering: :meth:`start` gives it
    the engine's health servicer. Bound first, so that an address that cannot work stops
    the engine before it serves anything."""

    server: grpc.Server
    address: str
    """``host:port`` as bound (the port it got, if asked for port 0)."""

    @classmethod
    def bind(cls, address: str) -> HealthPort:
        """Bind ``address`` (``host:port``, port 0 picks a free one); :class:`OSError` if
        it cannot be (taken, or not an address of this machine: grpc logs which)."""
        server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=HEALTH_THREADS,
                                       thread_name_prefix="health"),
            options=[("grpc.so_reuseport", 0)])
        try:
            port = server.add_insecure_port(address)
        except RuntimeError:
            raise OSError(f"cannot listen on {address}") from None
        return cls(server, f"{address.rpartition(':')[0]}:{port}")

    def start(self, servicer: health.HealthServicer) -> None:
        health_pb2_grpc.add_HealthServicer_to_server(servicer, self.server)
        self.server.start()
        # As the main server's line: tools read the address with "health on (\S+)".
        log.info("engine health on %s (plaintext)", self.address)
