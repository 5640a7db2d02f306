"""The gateway's Prometheus metrics, and ``GET /metrics`` that serves them.

Under gunicorn each worker is a process of its own: prometheus_client's multiprocess mode
keeps every process's values in files under ``PROMETHEUS_MULTIPROC_DIR`` (which
``deploy/gunicorn.conf.py`` sets before the workers start, and cleans), and ``/metrics``
adds them all up, whichever worker answers the scrape. Without that variable (the Flask
test client, ``flask run``) the process's own registry answers.

Every label is bounded: ``route`` is the URL rule, never the path (a scan of random paths
is one ``<unmatched>`` series), ``method`` one of HTTP's or ``other``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from .config import MULTIPROCESS_METRICS
from .logs import request_answered
from .request_ids import StartResponse, WSGIApp

REQUESTS = Counter("referee_gateway_requests_total", "Requests answered.",
                   ("route", "method", "status"))
SECONDS = Histogram(
    "referee_gateway_request_seconds", "Time from a request's arrival to its answer.",
    ("route", "method"),
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
IN_FLIGHT = Gauge("referee_gateway_requests_in_flight", "Requests being handled now.",
                  multiprocess_mode="livesum")

UNMATCHED = "<unmatched>"
"""The route of a request that matches no URL rule (404) or not with its method (405)."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
STARTED = "referee.started"
"""The environ key holding when the request reached the app (``time.perf_counter()``)."""


def registry() -> CollectorRegistry:
    """What ``/metrics`` shows: every gunicorn worker's values in multiprocess mode, this
    process's registry otherwise."""
    if MULTIPROCESS_METRICS.name not in os.environ:
        return REGISTRY
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected)
    return collected


def instrument(app: Flask) -> None:
    """Count, time and gauge every request ``app`` answers, log the failed and slow ones
    (:func:`api_gateway.logs.request_answered`), and serve ``/metrics`` (a plain route,
    not an API operation: it is not in the OpenAPI document)."""
    wsgi_app: WSGIApp = app.wsgi_app

    def measured(environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterable[bytes]:
        environ[STARTED] = time.perf_counter()
        IN_FLIGHT.inc()
        try:
            return wsgi_app(environ, start_response)
        finally:
            IN_FLIGHT.dec()

    app.wsgi_app = measured  # type: ignore[method-assign]

    # The labelled children, looked up once per series: labels() validates and locks on
    # every call, a dict lookup does not.
    series: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    slow = app.config["SLOW_REQUEST_SECONDS"]

    @app.after_request
    def measure(response: Response) -> Response:
        # The request itself, not its proxy: each attribute read through the proxy
        # costs about a microsecond.
        current = request._get_current_object()  # type: ignore[attr-defined]
        seconds = time.perf_counter() - current.environ[STARTED]
        rule = current.url_rule
        method = current.method
        key = (rule.rule if rule else UNMATCHED, method if method in METHODS else "other",
               response.status_code)
        children = series.get(key)
        if children is None:
            children = series[key] = (REQUESTS.labels(key[0], key[1], str(key[2])),
                                      SECONDS.labels(key[0], key[1]))
        children[0].inc()
        children[1].observe(seconds)
        request_answered(*key, seconds, slow)
        return response

    shown = registry()

    def metrics() -> Response:
        return Response(generate_latest(shown), content_type=CONTENT_TYPE_LATEST)

    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])
