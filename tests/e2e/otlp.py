"""An OTLP/HTTP trace receiver for the tests: the engine and the gateway export their spans
to it (``OTEL_EXPORTER_OTLP_ENDPOINT``), and it keeps each span with its service's name,
decoded with opentelemetry-proto."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span

WAIT_SECONDS = 15


class Collector(ThreadingHTTPServer):
    """Every span posted to ``url``/v1/traces, as (service name, span)."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Receive)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        self.spans: list[tuple[str, Span]] = []

    def wait_for(self, trace_id: str, count: int) -> list[tuple[str, Span]]:
        """The spans of ``trace_id`` once ``count`` of them have arrived."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            found = [(service, span) for service, span in list(self.spans)
                     if span.trace_id.hex() == trace_id]
            if len(found) >= count or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert len(found) >= count, (
            f"{len(found)} spans of trace {trace_id}; all: {[s.name for _, s in self.spans]}")
        return found


class _Receive(BaseHTTPRequestHandler):
    server: Collector

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        export = ExportTraceServiceRequest.FromString(
            self.rfile.read(int(self.headers["Content-Length"])))
        for resource in export.resource_spans:
            service = next(a.value.string_value for a in resource.resource.attributes
                           if a.key == "service.name")
            self.server.spans += [(service, span) for scope in resource.scope_spans
                                  for span in scope.spans]
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextmanager
def collecting() -> Iterator[Collector]:
    """A collector listening on a free loopback port while the block runs."""
    collector = Collector()
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    try:
        yield collector
    finally:
        collector.shutdown()
        collector.server_close()
