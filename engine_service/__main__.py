"""``python -m engine_service``: run the referee engine in the foreground.

Flags win over environment variables, which win over the defaults. A setting that cannot
work (a TLS file that cannot be read, a metrics or health port already taken) stops the
engine at once with exit code 2 and a message naming the flag. Logs go to stderr as JSON
lines (``REFEREE_LOG_FORMAT=text`` for plain lines), at ``REFEREE_LOG_LEVEL`` (INFO);
traces are exported when ``OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`` is set (:mod:`.tracing`).
"""

from __future__ import annotations

import argparse
import os

from . import logs, tracing
from .calls import CallLimits
from .health_port import HealthPort
from .metrics import serve_metrics
from .server import (
    MAX_CONNECTION_AGE_SECONDS,
    PLAN_SEATS,
    REPLAY_SEATS,
    expensive_seats,
    serve,
)
from .tls import TlsSettingsError, read_server_tls


def _env(name: str, default: str) -> str:
    return os.environ.get(f"REFEREE_ENGINE_{name}", default)


def _host_port(value: str) -> str:
    """``host:port`` (``[::1]:port`` for IPv6), port 0 to 65535."""
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is not host:port")
    return value


def _positive_seconds(value: str) -> float:
    seconds = float(value)
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a positive number of seconds")
    return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="referee-engine",
                                     description="Run the stateless referee gRPC engine.")
    parser.add_argument("--address", default=_env("ADDRESS", "127.0.0.1:50051"),
                        help="host:port to listen on; port 0 picks a free one "
                             "(env REFEREE_ENGINE_ADDRESS; default %(default)s)")
    parser.add_argument("--workers", type=int,
                        default=int(_env("WORKERS", "8")),
                        help="threads answering calls (env REFEREE_ENGINE_WORKERS; "
                             "default %(default)s)")
    parser.add_argument("--grace", type=float,
                        default=float(_env("GRACE_SECONDS", "10")),
                        help="seconds in-flight calls get to finish on SIGTERM "
                             "(env REFEREE_ENGINE_GRACE_SECONDS; default %(default)s)")
    parser.add_argument("--max-call-seconds", type=float,
                        default=float(_env("MAX_CALL_SECONDS", "3")),
                        help="no call computes longer, whatever its client's deadline "
                             "(env REFEREE_ENGINE_MAX_CALL_SECONDS; default %(default)s)")
    parser.add_argument("--plan-seconds", type=float, default=float(_env("PLAN_SECONDS", "0.8")),
                        help="time the final-round planner spends before answering its best "
                             "plan (env REFEREE_ENGINE_PLAN_SECONDS; default %(default)s)")
    parser.add_argument("--max-concurrent-plans", type=int,
                        default=int(_env("MAX_CONCURRENT_PLANS", str(PLAN_SEATS))),
                        help="final-round plans computed at once; more are refused with "
                             "RESOURCE_EXHAUSTED (env REFEREE_ENGINE_MAX_CONCURRENT_PLANS; "
                             "default %(default)s)")
    parser.add_argument("--max-concurrent-replays", type=int,
                        default=int(_env("MAX_CONCURRENT_REPLAYS", str(REPLAY_SEATS))),
                        help="game logs replayed at once; more are refused with "
                             "RESOURCE_EXHAUSTED (env REFEREE_ENGINE_MAX_CONCURRENT_REPLAYS; "
                             "default %(default)s)")
    parser.add_argument("--max-connection-age", type=_positive_seconds,
                        default=_env("MAX_CONNECTION_AGE_SECONDS",
                                     f"{MAX_CONNECTION_AGE_SECONDS:g}"),
                        help="seconds after which a client connection is closed (GOAWAY, "
                             "running calls get 5 s more), so clients re-resolve and new "
                             "replicas get traffic (env "
                             "REFEREE_ENGINE_MAX_CONNECTION_AGE_SECONDS; default %(default)s)")
    parser.add_argument("--metrics-address", type=_host_port,
                        default=_env("METRICS_ADDRESS", "") or None,
                        help="host:port to serve Prometheus metrics at /metrics on; port 0 "
                             "picks a free one (env REFEREE_ENGINE_METRICS_ADDRESS; default: "
                             "not served)")
    parser.add_argument("--health-address", type=_host_port,
                        default=_env("HEALTH_ADDRESS", "") or None,
                        help="host:port to serve the standard gRPC health service on, alone "
                             "and in plaintext, for probes that cannot present a client "
                             "certificate (the kubelet's); port 0 picks a free one (env "
                             "REFEREE_ENGINE_HEALTH_ADDRESS; default: not served)")
    parser.add_argument("--tls-cert", default=_env("TLS_CERT", ""),
                        help="PEM certificate chain: serve TLS instead of plaintext (env "
                             "REFEREE_ENGINE_TLS_CERT; needs --tls-key)")
    parser.add_argument("--tls-key", default=_env("TLS_KEY", ""),
                        help="PEM private key of --tls-cert (env REFEREE_ENGINE_TLS_KEY)")
    parser.add_argument("--tls-client-ca", default=_env("TLS_CLIENT_CA", ""),
                        help="PEM CA certificate(s): require client certificates it signed "
                             "(mutual TLS; env REFEREE_ENGINE_TLS_CLIENT_CA)")
    args = parser.parse_args(argv)
    log_format = os.environ.get("REFEREE_LOG_FORMAT", "json")
    if log_format not in logs.FORMATS:
        parser.error(f"REFEREE_LOG_FORMAT={log_format!r}: expected one of "
                     f"{', '.join(logs.FORMATS)}")
    try:
        tls = read_server_tls(args.tls_cert, args.tls_key, args.tls_client_ca)
    except TlsSettingsError as error:
        parser.error(str(error))
    traces = tracing.from_environment()
    logs.configure(log_format, os.environ.get("REFEREE_LOG_LEVEL", "INFO"),
                   traces.trace_ids if traces else None)
    if args.metrics_address:
        try:
            serve_metrics(args.metrics_address)
        except OSError as error:
            parser.error(f"--metrics-address {args.metrics_address}: cannot serve metrics "
                         f"there ({error.strerror or error})")
    health_port = None
    if args.health_address:
        try:
            health_port = HealthPort.bind(args.health_address)
        except OSError:
            parser.error(f"--health-address {args.health_address}: cannot serve health "
                         "checks there (taken, or not an address of this machine)")
    limits = CallLimits(args.max_call_seconds, args.plan_seconds,
                        expensive_seats(args.max_concurrent_plans, args.max_concurrent_replays))
    serve(args.address, args.workers, args.grace, limits, tls=tls,
          max_connection_age=args.max_connection_age,
          interceptors=[traces.interceptor] if traces else [], health_port=health_port)


if __name__ == "__main__":
    main()
