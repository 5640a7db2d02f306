"""The engine's ``grpc.health.v1.Health`` servicer: grpc_health's, its watches answered
from a thread of their own.

grpc_health's servicer sends a watch's statuses while holding its lock (a new watch's
first status, and every change), and each send waits until grpcio's serving thread has
completed it. That same thread runs the callback of a watch that ended, which takes the
lock. A watch that starts as another ends, which is what every reconnecting client does
(a gateway's connection reaching the engine's maximum age, a restarted gateway), could
therefore leave each thread waiting for the other: the engine then accepts no call
again. Here a watch's sends are queued to one thread, so nothing waits under the lock,
and each watch's statuses still leave in the order they were set.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2

SendResponse = Callable[[health_pb2.HealthCheckResponse | None], None]
"""grpcio's callback sending a watch's next status (None: ending the watch)."""


class HealthServicer(health.HealthServicer):
    """grpc_health's servicer, each watch's statuses sent by :attr:`_sender`."""

    def __init__(self) -> None:
        super().__init__()
        self._sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="health-watch")

    def Watch(self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext,
              send_response_callback: SendResponse) -> None:
        """grpc_health's watch, its statuses queued; grpcio passes the callback, as the
        servicer marks this method non-blocking."""

        def queued(response: health_pb2.HealthCheckResponse | None) -> None:
            self._sender.submit(send_response_callback, response)

        super().Watch(request, context, queued)
