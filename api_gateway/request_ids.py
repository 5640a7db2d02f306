"""Each request's id: the caller's ``X-Request-ID`` when it is a plausible id, a new one
otherwise.

The id ties together everything about one request: the ``X-Request-ID`` answer header,
the ``request_id`` member of a problem+json body, the gateway's log lines and, sent as
gRPC metadata ``x-request-id``, the engine's. A caller's id is kept only when it is a
short token of safe characters, so it can neither forge log lines nor grow without bound.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from flask import Flask

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

HEADER = "X-Request-ID"
_ENVIRON_KEY = "HTTP_X_REQUEST_ID"
_acceptable = re.compile(r"[A-Za-z0-9._-]{1,64}").fullmatch
_UUID4_FIXED = ~((0xF << 76) | (0x3 << 62))
_UUID4_MARKS = (0x4 << 76) | (0x2 << 62)
"""The bits a version 4 UUID fixes (version 4, RFC 9562 variant), as masks of its
integer."""


def new_id() -> str:
    """A new random (version 4) UUID's 32 hex digits.

    Its 122 random bits come from :func:`random.getrandbits`: an id must be unique, not
    secret, and ``uuid.uuid4().hex`` (a system call and a UUID object) costs 5 to 9 µs,
    several times this, on every request that comes without an id. The generator is
    seeded afresh in every forked worker (the standard library re-seeds it on fork)."""
    return f"{random.getrandbits(128) & _UUID4_FIXED | _UUID4_MARKS:032x}"


_current: ContextVar[str] = ContextVar("request_id", default="")


def current_request_id() -> str:
    """The id of the request this thread is handling; ``""`` outside a request."""
    return _current.get()


def install(app: Flask) -> None:
    """Give each request of ``app`` its id, and every answer its ``X-Request-ID`` header.

    Around the WSGI app: every answer passes there, whatever made it, and the id is known
    from the request's first line of code to its last log line. A context variable holds
    it (read in a few nanoseconds where a ``flask.g`` or ``request`` lookup costs about a
    microsecond; the engine channel reads it on every call)."""
    wsgi_app: WSGIApp = app.wsgi_app

    def identified(environ: dict[str, Any], start_response: StartResponse
                   ) -> Iterable[bytes]:
        offered = environ.get(_ENVIRON_KEY)
        request_id = offered if offered and _acceptable(offered) else new_id()

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None
                  ) -> Any:
            headers.append((HEADER, request_id))
            return start_response(status, headers, exc_info)

        token = _current.set(request_id)
        try:
            return wsgi_app(environ, start)
        finally:
            _current.reset(token)

    app.wsgi_app = identified  # type: ignore[method-assign]
