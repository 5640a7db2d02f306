"""OpenTelemetry traces of the gateway's requests and of its calls to the engine.

On only when an OTLP endpoint is configured (``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_ENDPOINT``, with the SDK's other ``OTEL_*`` variables); off, nothing
of the SDK is loaded and a request costs nothing more. Spans go by OTLP over HTTP, as
service ``referee-gateway`` unless ``OTEL_SERVICE_NAME`` says otherwise. A request's span
(opentelemetry-instrumentation-flask, which continues a caller's ``traceparent``) is the
parent of its gRPC client span (opentelemetry-instrumentation-grpc), whose context goes to
the engine in the call's metadata, so one trace runs through both processes.

The SDK is set up in the process that serves, once: each gunicorn worker builds its app
after the fork, so its exporter thread and its channel instrumentation are its own.
"""

from __future__ import annotations

import os

from flask import Flask
from opentelemetry import trace

from tabletop_rules.settings import Setting

SERVICE_NAME = "referee-gateway"
TRACES_ENDPOINT = Setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", None,
                          "OTLP/HTTP collector to export the gateway's traces to; unset: no traces")
ENDPOINT = Setting("OTEL_EXPORTER_OTLP_ENDPOINT", None,
                   "the same for every signal, when the traces' own is unset (with the "
                   "SDK's other `OTEL_*` variables)")
SERVICE = Setting("OTEL_SERVICE_NAME", SERVICE_NAME, "the service name on the gateway's spans")
SETTINGS = (TRACES_ENDPOINT, ENDPOINT, SERVICE)
"""The OpenTelemetry SDK's variables the gateway reads itself."""
ENDPOINT_VARIABLES = (TRACES_ENDPOINT.name, ENDPOINT.name)
UNTRACED_ROUTES = "healthz,readyz,metrics"
"""Probes and scrapes: frequent, and nothing to learn from their traces."""

_set_up_in: int | None = None
"""The process id the SDK was set up in, if it was."""


def enabled() -> bool:
    """True when an OTLP endpoint for traces is configured."""
    return any(os.environ.get(name) for name in ENDPOINT_VARIABLES)


def configure(app: Flask) -> None:
    """Trace ``app``'s requests and this process's engine calls, if :func:`enabled`.

    Before the engine channel is opened: the gRPC instrumentation wraps the channels
    ``grpc.insecure_channel`` and ``grpc.secure_channel`` make from then on.
    """
    global _set_up_in
    if not enabled():
        return
    # Imported here: a gateway that does not trace never loads the SDK.
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.flask import FlaskInstrumentor
    from opentelemetry.instrumentation.grpc import GrpcInstrumentorClient, filters
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    if _set_up_in != os.getpid():
        named = {} if os.environ.get(SERVICE.name) else {"service.name": SERVICE_NAME}
        provider = TracerProvider(resource=Resource.create(named))
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        trace.set_tracer_provider(provider)
        GrpcInstrumentorClient(filter_=filters.negate(filters.health_check())).instrument()
        _set_up_in = os.getpid()
    FlaskInstrumentor().instrument_app(app, excluded_urls=UNTRACED_ROUTES)


def current_trace_id() -> str:
    """The trace id (32 hex digits) of the span being recorded here, or ``""``."""
    if _set_up_in is None:
        return ""
    context = trace.get_current_span().get_span_context()
    return trace.format_trace_id(context.trace_id) if context.is_valid else ""
