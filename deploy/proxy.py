"""nginx in front of gunicorn: installed if missing, configured from one template.

Why a buffering reverse proxy, and not gevent or async workers: a gthread worker gives
each connection a thread from the moment it is accepted, so a few dozen clients that send
their headers or body one byte a second hold every thread and the gateway stops answering
(gunicorn's deployment guide says to put such a proxy in front of it for exactly this).
Async workers would move the slow clients to greenlets but keep them inside the gateway
process, with no header or body deadline, and would need the engine client (grpcio) made
cooperative. nginx reads a request's headers and whole body on its event loop, under
``client_header_timeout``/``client_body_timeout``, refuses bodies past the limit (chunked
too) with a 413 the client reads, and only then hands the request to a gunicorn thread.
Its own errors (400, 408, 413, 414, 431, 5xx when gunicorn fails) are rendered as the
contract's problem+json by small internal locations.

Standard library only (and the gateway's stdlib-only settings): ``deploy/run.py`` renders
the configuration before the venv exists.
"""

from __future__ import annotations

import grp
import http
import json
import os
import pwd
import string
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from api_gateway.config import MAX_BODY_BYTES, DefaultConfig
from tabletop_rules.settings import Setting

from .packages import ensure_command

TEMPLATE = Path(__file__).resolve().parent / "nginx" / "nginx.conf.template"
PROBLEM_TYPE_BASE = "https://tabletop-referee.example/problems/"
"""The same as the app's ``PROBLEM_TYPE_BASE`` (a test checks they agree)."""

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
"""What every proxy error answer carries, as the app's JSON answers do."""

PROBLEMS: dict[int, tuple[str, str, str]] = {
    400: ("bad-request", "Bad Request",
          "The request is not valid HTTP (its request line or headers cannot be read)."),
    403: ("forbidden", "Forbidden", "The request is not allowed."),
    404: ("not-found", "Not Found", "There is nothing at this path."),
    405: ("method-not-allowed", "Method Not Allowed", "This method is not allowed here."),
    408: ("request-timeout", "Request Timeout",
          "The request did not arrive in time; send it at once."),
    411: ("length-required", "Length Required", "Send the body with its length."),
    413: ("body-too-large", "Content Too Large",
          "The request body is larger than the limit of {max_body_bytes} bytes."),
    414: ("uri-too-long", "URI Too Long", "The request line is too long."),
    417: ("expectation-failed", "Expectation Failed",
          "Only Expect: 100-continue is supported."),
    431: ("headers-too-large", "Request Header Fields Too Large",
          "The request headers are too large."),
    500: ("internal-error", "Internal error", "The referee failed to answer."),
    501: ("not-implemented", "Not Implemented",
          "The request uses an HTTP feature the referee does not support "
          "(e.g. a transfer coding other than chunked)."),
    502: ("gateway-unavailable", "Bad Gateway",
          "The gateway behind the proxy is not answering."),
    503: ("service-unavailable", "Service Unavailable", "The referee is not serving now."),
    504: ("gateway-timeout", "Gateway Timeout",
          "The gateway behind the proxy did not answer in time."),
    505: ("http-version-not-supported", "HTTP Version Not Supported",
          "Use HTTP/1.0 or HTTP/1.1."),
}
"""The server layers' own error answers (nginx's, and gunicorn's for a request it cannot
parse): (slug, title, detail), with the app's slugs where both answer. No ``'`` or ``$``:
nginx would read them in the string it returns."""

NGINX_STATUSES = {494: 431}
"""nginx's own codes, answered as the standard one (494: request header too large)."""


@dataclass(frozen=True)
class ProxySettings:
    """What the proxy listens on, where it forwards to, and how long it waits for clients."""

    listen: str
    upstream: str
    max_body_bytes: int = DefaultConfig.MAX_CONTENT_LENGTH
    header_timeout_seconds: float = 10
    body_timeout_seconds: float = 10
    send_timeout_seconds: float = 10
    keepalive_timeout_seconds: float = 5
    upstream_timeout_seconds: float = 35  # past gunicorn's 30 s worker timeout
    worker_connections: int = 4096
    log_level: str = "error"  # "warn" logs every body buffered to a temp file

    @classmethod
    def from_environment(cls, env: Mapping[str, str], listen: str, upstream: str
                         ) -> ProxySettings:
        """The settings, with the variables of :data:`SETTINGS` in ``env``."""
        return cls(
            listen=listen, upstream=upstream,
            max_body_bytes=int(MAX_BODY_BYTES.get(env)),
            header_timeout_seconds=float(HEADER_TIMEOUT.get(env)),
            body_timeout_seconds=float(BODY_TIMEOUT.get(env)),
            send_timeout_seconds=float(SEND_TIMEOUT.get(env)),
            worker_connections=int(MAX_CONNECTIONS.get(env)))


HEADER_TIMEOUT = Setting("REFEREE_PROXY_HEADER_TIMEOUT_SECONDS",
                         ProxySettings.header_timeout_seconds,
                         "nginx closes a connection whose request headers take longer")
BODY_TIMEOUT = Setting("REFEREE_PROXY_BODY_TIMEOUT_SECONDS", ProxySettings.body_timeout_seconds,
                       "nginx closes a connection whose body's next bytes take longer")
SEND_TIMEOUT = Setting("REFEREE_PROXY_SEND_TIMEOUT_SECONDS", ProxySettings.send_timeout_seconds,
                       "nginx closes a connection that reads its answer slower")
MAX_CONNECTIONS = Setting("REFEREE_PROXY_MAX_CONNECTIONS", ProxySettings.worker_connections,
                          "connections nginx holds at once")
SETTINGS = (HEADER_TIMEOUT, BODY_TIMEOUT, SEND_TIMEOUT, MAX_CONNECTIONS)
"""What the proxy reads, beside the gateway's ``REFEREE_MAX_BODY_BYTES``."""


class _Template(string.Template):
    delimiter = "%"  # nginx's variables are written $name


def _duration(seconds: float) -> str:
    return f"{max(1, round(seconds * 1000))}ms"


def problem_body(status: int, max_body_bytes: int = ProxySettings.max_body_bytes) -> str:
    """The problem+json body of a server layer's ``status`` answer."""
    phrase = http.HTTPStatus(status).phrase
    slug, title, detail = PROBLEMS.get(status, ("http-error", phrase, phrase + "."))
    return json.dumps({"type": PROBLEM_TYPE_BASE + slug, "title": title, "status": status,
                       "detail": detail.format(max_body_bytes=max_body_bytes)})


def problem_response(status: int) -> bytes:
    """A whole HTTP/1.1 answer, problem+json, that closes the connection: what gunicorn
    sends for a request it cannot parse (instead of its HTML page)."""
    body = problem_body(status).encode()
    head = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}", "Connection: close",
            "Content-Type: application/problem+json", f"Content-Length: {len(body)}",
            *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items())]
    return "\r\n".join([*head, "", ""]).encode("latin-1") + body


def _problem_location(status: int, max_body_bytes: int) -> str:
    body = problem_body(status, max_body_bytes)
    headers = "".join(f"        add_header {name} \"{value}\" always;\n"
                      for name, value in SECURITY_HEADERS.items())
    return (f"    location = /_problem/{status} {{\n        internal;\n"
            f"        default_type application/problem+json;\n{headers}"
            f"        return {status} '{body}\\n';\n    }}\n")


def _error_pages() -> list[tuple[int, int]]:
    """(nginx's code, the status answered) for each error nginx answers as a problem."""
    return [*((status, status) for status in PROBLEMS if status not in NGINX_STATUSES.values()),
            *NGINX_STATUSES.items()]


def _worker_user() -> str:
    """nginx started as root runs its workers as an unprivileged user that exists here."""
    if os.geteuid() != 0:
        return ""
    for user, group in (("www-data", "www-data"), ("nobody", "nogroup"), ("nobody", "nobody")):
        try:
            pwd.getpwnam(user), grp.getgrnam(group)
        except KeyError:
            continue
        return f"user {user} {group};"
    return "user root root;"


def render(settings: ProxySettings, runtime: Path) -> Path:
    """Write the configuration into ``runtime`` (which also takes nginx's pid and temp
    files) and return its path."""
    text = _Template(TEMPLATE.read_text()).substitute(
        runtime=runtime, user_line=_worker_user(), log_level=settings.log_level,
        worker_connections=settings.worker_connections,
        header_timeout=_duration(settings.header_timeout_seconds),
        body_timeout=_duration(settings.body_timeout_seconds),
        send_timeout=_duration(settings.send_timeout_seconds),
        keepalive_timeout=_duration(settings.keepalive_timeout_seconds),
        upstream_timeout=_duration(settings.upstream_timeout_seconds),
        max_body_bytes=settings.max_body_bytes,
        error_pages="".join(f"        error_page {code} ={status} /_problem/{status};\n"
                            for code, status in _error_pages()),
        listen=settings.listen, upstream=settings.upstream,
        problem_locations="".join(_problem_location(status, settings.max_body_bytes)
                                  for status in PROBLEMS))
    path = runtime / "nginx.conf"
    path.write_text(text)
    return path


def runtime_directory() -> Path:
    """A fresh directory for the config, pid, temp files and gunicorn's socket; others
    may traverse it (nginx's workers run unprivileged when started as root)."""
    runtime = Path(tempfile.mkdtemp(prefix="referee-"))
    runtime.chmod(0o711)
    return runtime


def command(nginx: str, config: Path) -> list[str]:
    """The command that runs ``nginx`` in the foreground with ``config``."""
    return [nginx, "-p", str(config.parent), "-c", str(config), "-e", "stderr"]


def ensure_nginx() -> str | None:
    """nginx's path, installing Debian's ``nginx-light`` first if it is missing (None, and
    a message saying why, if it cannot be: not root, or no apt-get)."""
    return ensure_command("nginx", "nginx-light", who="proxy")
