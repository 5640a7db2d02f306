"""``python -m engine_service``: run the referee engine in the foreground.

Flags win over environment variables, which win over the defaults. A setting that cannot
work (a TLS file that cannot be read, a metrics or health port already taken) stops the
engine at once with exit code 2 and a message naming the flag. Logs go to stderr as JSON
lines (``REFEREE_LOG_FORMAT=text`` for plain lines), at ``REFEREE_LOG_LEVEL`` (INFO);
traces are exported when ``OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`` is set (:mod:`.tracing`).
"""

from __future__ import annotations

import argparse
from typing import Any

from tabletop_rules.settings import Setting

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

ADDRESS = Setting("REFEREE_ENGINE_ADDRESS", "127.0.0.1:50051",
                  "host:port to listen on; port 0 picks a free one", "--address")
WORKERS = Setting("REFEREE_ENGINE_WORKERS", 8, "threads answering calls", "--workers")
GRACE_SECONDS = Setting("REFEREE_ENGINE_GRACE_SECONDS", 10,
                        "seconds in-flight calls get to finish on SIGTERM", "--grace")
MAX_CALL_SECONDS = Setting("REFEREE_ENGINE_MAX_CALL_SECONDS", 3,
                           "no call computes longer, whatever its client's deadline",
                           "--max-call-seconds")
PLAN_SECONDS = Setting("REFEREE_ENGINE_PLAN_SECONDS", 0.8,
                       "time the final-round planner spends before answering its best plan",
                       "--plan-seconds")
MAX_CONCURRENT_PLANS = Setting(
    "REFEREE_ENGINE_MAX_CONCURRENT_PLANS", PLAN_SEATS,
    "final-round plans computed at once; more are refused with RESOURCE_EXHAUSTED (a 429 "
    "through the gateway)", "--max-concurrent-plans")
MAX_CONCURRENT_REPLAYS = Setting(
    "REFEREE_ENGINE_MAX_CONCURRENT_REPLAYS", REPLAY_SEATS,
    "game logs replayed at once, for each game; more are refused with RESOURCE_EXHAUSTED",
    "--max-concurrent-replays")
MAX_CONNECTION_AGE = Setting(
    "REFEREE_ENGINE_MAX_CONNECTION_AGE_SECONDS", f"{MAX_CONNECTION_AGE_SECONDS:g}",
    "seconds after which a client connection is closed (GOAWAY, running calls get 5 s "
    "more), so clients re-resolve and new replicas get traffic", "--max-connection-age")
METRICS_ADDRESS = Setting(
    "REFEREE_ENGINE_METRICS_ADDRESS", None,
    "host:port to serve Prometheus metrics at /metrics on; port 0 picks a free one; unset: "
    "not served", "--metrics-address")
HEALTH_ADDRESS = Setting(
    "REFEREE_ENGINE_HEALTH_ADDRESS", None,
    "host:port to serve the standard gRPC health service on, alone and in plaintext, for "
    "probes that cannot present a client certificate (the kubelet's); port 0 picks a free "
    "one; unset: not served", "--health-address")
TLS_CERT = Setting("REFEREE_ENGINE_TLS_CERT", None,
                   "PEM certificate chain: serve TLS instead of plaintext (needs --tls-key)",
                   "--tls-cert")
TLS_KEY = Setting("REFEREE_ENGINE_TLS_KEY", None, "PEM private key of --tls-cert",
                  "--tls-key")
TLS_CLIENT_CA = Setting("REFEREE_ENGINE_TLS_CLIENT_CA", None,
                        "PEM CA certificate(s): require client certificates it signed "
                        "(mutual TLS: only the gateway may call)", "--tls-client-ca")
LOG_FORMAT = Setting("REFEREE_LOG_FORMAT", "json",
                     "`json` lines (`ts`, `level`, `logger`, `message`, `process`, "
                     "`request_id`, `trace_id`) or `text` for a terminal")
LOG_LEVEL = Setting("REFEREE_LOG_LEVEL", "INFO",
                    "the lowest level logged; `DEBUG` logs every call")
SETTINGS = (ADDRESS, WORKERS, GRACE_SECONDS, MAX_CALL_SECONDS, PLAN_SECONDS,
            MAX_CONCURRENT_PLANS, MAX_CONCURRENT_REPLAYS, MAX_CONNECTION_AGE, METRICS_ADDRESS,
            HEALTH_ADDRESS, TLS_CERT, TLS_KEY, TLS_CLIENT_CA, LOG_FORMAT, LOG_LEVEL)
"""Every setting the engine reads, but tracing's (:data:`.tracing.SETTINGS`)."""


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

    def option(setting: Setting, **kwargs: Any) -> None:
        """``setting``'s flag, its default from the environment; the help names both."""
        assert setting.flag is not None, f"{setting.name} has no flag"
        shown = "; default %(default)s" if setting.default is not None else ""
        parser.add_argument(setting.flag, default=setting.get() or None,
                            help=f"{setting.meaning} (env {setting.name}{shown})", **kwargs)

    option(ADDRESS)
    option(WORKERS, type=int)
    option(GRACE_SECONDS, type=float)
    option(MAX_CALL_SECONDS, type=float)
    option(PLAN_SECONDS, type=float)
    option(MAX_CONCURRENT_PLANS, type=int)
    option(MAX_CONCURRENT_REPLAYS, type=int)
    option(MAX_CONNECTION_AGE, type=_positive_seconds)
    option(METRICS_ADDRESS, type=_host_port)
    option(HEALTH_ADDRESS, type=_host_port)
    option(TLS_CERT)
    option(TLS_KEY)
    option(TLS_CLIENT_CA)
    args = parser.parse_args(argv)
    log_format = LOG_FORMAT.get()
    if log_format not in logs.FORMATS:
        parser.error(f"{LOG_FORMAT.name}={log_format!r}: expected one of "
                     f"{', '.join(logs.FORMATS)}")
    try:
        tls = read_server_tls(args.tls_cert or "", args.tls_key or "", args.tls_client_ca or "")
    except TlsSettingsError as error:
        parser.error(str(error))
    traces = tracing.from_environment()
    logs.configure(log_format, LOG_LEVEL.get(),
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
