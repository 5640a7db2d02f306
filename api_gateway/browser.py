"""What a web app in a browser needs from the gateway: CORS, and compressed answers.

**CORS** (flask-cors), off by default: ``CORS_ORIGINS`` (``REFEREE_CORS_ORIGINS``) lists
the origins whose pages may call the API, comma-separated (``https://app.example.org,
http://localhost:5173``), or ``*`` for any. No credentials are involved (an API key
travels in its own header), so ``*`` grants nothing a page could not do from a server.
Preflights allow ``GET``, ``HEAD`` and ``POST`` with the ``Content-Type``, ``X-API-Key``
and ``X-Request-ID`` headers, and are answered before any other check of the request
(a preflight never carries the API key); pages may read the ``X-Request-ID`` and
``Retry-After`` answer headers.

**Compression** (flask-compress): a 2xx answer of at least :data:`COMPRESS_MIN_SIZE`
bytes is gzipped when the request's ``Accept-Encoding`` allows it. Here and not in nginx:
the app is the one layer every deployment has (nginx in front on one machine, a
Kubernetes Ingress whose settings this repository does not own, gunicorn alone where
nginx is missing), and it is where the threshold and the ETag of each coding are set and
tested. nginx passes the coded answer through (its ``gzip`` stays off).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request
from flask_compress import Compress
from flask_cors import CORS
from werkzeug.http import parse_accept_header

from .headers import parsed_once, vary

COMPRESS_MIN_SIZE = 1024
"""Answers smaller than this go as they are. Measured (gzip level 6, this machine, the
gateway's own answers): gzip costs 4-6 us under 600 bytes and saves under 300; a 1.1 KB
score answer becomes 300-450 bytes in 7 us, a 60 KB legal-moves answer 1.8 KB in 140 us.
Below about 1 KB an answer and its ~450 bytes of headers fit one 1460-byte TCP segment
whatever is done, so compressing it costs time and saves no packet (issue 10's finding);
from 1 KB on, one segment instead of two or more is worth the few microseconds."""

COMPRESSION = {
    "COMPRESS_ALGORITHM": "gzip",  # every HTTP client decodes it; one coding, one variant
    "COMPRESS_MIN_SIZE": COMPRESS_MIN_SIZE,
    # Only buffered answers: a streamed one (a file) keeps its length and validators.
    "COMPRESS_STREAMS": False,
    "COMPRESS_REGISTER": False,  # registered below, to run last
}
"""flask-compress's settings, defaults under the app's config."""

ALLOWED_HEADERS = ["Content-Type", "X-API-Key", "X-Request-ID"]
EXPOSED_HEADERS = ["X-Request-ID", "Retry-After"]
METHODS = ["GET", "HEAD", "POST", "OPTIONS"]
PREFLIGHT_MAX_AGE_SECONDS = 3600
"""How long a browser may reuse a preflight's answer: the origins change only when the
gateway restarts, and every answer carries its own CORS headers anyway."""


@parsed_once
def _takes_gzip(accepted: str) -> bool:
    """Whether an Accept-Encoding value gives gzip a quality above 0, as werkzeug reads
    it (``request.accept_encodings``)."""
    return bool(parse_accept_header(accepted)["gzip"])


class SettingsError(ValueError):
    """A browser-access setting the gateway cannot start with."""


def cors_origins(setting: str | list[str]) -> list[str]:
    """The allowed origins from ``CORS_ORIGINS``: a comma-separated string or a list; each
    ``*`` or ``scheme://host[:port]`` exactly as browsers send it in ``Origin`` (no
    path, not even ``/``), else :class:`SettingsError` naming it, so a typo stops the
    gateway as it starts instead of silently refusing every page."""
    origins = [o.strip() for o in (setting.split(",") if isinstance(setting, str) else setting)
               if o.strip()]
    for origin in origins:
        parts = urlsplit(origin)
        if origin != "*" and (parts.scheme not in ("http", "https") or not parts.netloc
                              or origin != f"{parts.scheme}://{parts.netloc}"):
            raise SettingsError(f"REFEREE_CORS_ORIGINS: {origin!r} is not an origin; give "
                                "scheme://host[:port] (e.g. https://app.example.org), "
                                "or * for any")
    return origins


def install(app: Flask) -> None:
    """CORS for ``app`` when ``CORS_ORIGINS`` names origins; compression always."""
    for key, value in COMPRESSION.items():
        app.config.setdefault(key, value)
    compress = Compress(app)

    def compressed(response: Response) -> Response:
        """flask-compress's answer for a request that takes gzip. werkzeug reads the
        header's qualities (``gzip;q=0`` refuses gzip, which flask-compress 1.25 takes as
        a yes); every answer may vary by it."""
        accepted = request.environ.get("HTTP_ACCEPT_ENCODING")
        if accepted and _takes_gzip(accepted):
            return compress.after_request(response)
        vary(response, "Accept-Encoding")
        return response

    # Last of all: it compresses the final bytes, after every other hook (the docs
    # page's CSP reads the page as written) has seen them.
    app.after_request_funcs.setdefault(None, []).insert(0, compressed)

    origins = cors_origins(app.config["CORS_ORIGINS"])
    if not origins:
        return
    CORS(app, origins=origins, methods=METHODS, allow_headers=ALLOWED_HEADERS,
         expose_headers=EXPOSED_HEADERS, max_age=PREFLIGHT_MAX_AGE_SECONDS,
         always_send=False, vary_header=False, intercept_exceptions=False)

    def preflight() -> Response | None:
        """A CORS preflight answered at once (flask-cors adds its headers): it carries no
        API key nor body for any other check to judge."""
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            return app.make_default_options_response()
        return None

    def vary_by_origin(response: Response) -> Response:
        """Answers differ by Origin (only allowed ones get the CORS headers): a cache must
        keep them apart, even with a single allowed origin (flask-cors would say so only
        for several)."""
        vary(response, "Origin")
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, preflight)
    app.after_request(vary_by_origin)
