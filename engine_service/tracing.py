"""OpenTelemetry traces of the engine's calls, exported by OTLP/HTTP when an endpoint is
configured (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) and
off otherwise, without even importing OpenTelemetry.

Each call to a game service (not health checks nor reflection) gets a server span named
by its full method, a child of the caller's span when its metadata carries a W3C
``traceparent`` (the gateway's instrumented channel sends one). The exporter follows the
standard ``OTEL_*`` variables (endpoint, headers, timeouts, ``OTEL_BSP_*`` batching);
the service name is ``referee-engine`` unless ``OTEL_SERVICE_NAME`` says otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import grpc

from tabletop_rules.settings import Setting

from .logs import TraceIds

SERVICE_NAME = "referee-engine"
TRACES_ENDPOINT = Setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", None,
                          "OTLP/HTTP collector to export the engine's traces to; unset: no "
                          "traces, and OpenTelemetry is not even imported")
ENDPOINT = Setting("OTEL_EXPORTER_OTLP_ENDPOINT", None,
                   "the same for every signal, when the traces' own is unset (with the "
                   "SDK's other `OTEL_*` variables)")
SERVICE = Setting("OTEL_SERVICE_NAME", SERVICE_NAME, "the service name on the engine's spans")
SETTINGS = (TRACES_ENDPOINT, ENDPOINT, SERVICE)
"""The OpenTelemetry SDK's variables the engine reads itself."""
ENDPOINT_VARIABLES = (TRACES_ENDPOINT.name, ENDPOINT.name)


@dataclass(frozen=True)
class Tracing:
    """What the engine needs from tracing: the interceptor that makes the spans (first,
    so calls refused by :class:`.calls.CallPolicy` have theirs too), and the current
    trace id for log lines."""

    interceptor: grpc.ServerInterceptor
    trace_ids: TraceIds


def from_environment(environ: Mapping[str, str] = os.environ) -> Tracing | None:
    """Set up the global tracer provider and its OTLP exporter if an endpoint is set."""
    if not any(environ.get(name) for name in ENDPOINT_VARIABLES):
        return None
    # Imported here: an engine without tracing does not pay for loading OpenTelemetry.
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.grpc import filters, server_interceptor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create(
        {"service.name": environ.get(SERVICE.name) or SERVICE_NAME}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    game_calls = filters.negate(filters.any_of(filters.health_check(),
                                               filters.service_prefix("grpc.reflection")))

    def trace_ids() -> str | None:
        span = trace.get_current_span().get_span_context()
        return trace.format_trace_id(span.trace_id) if span.is_valid else None

    return Tracing(server_interceptor(provider, filter_=game_calls), trace_ids)
