"""Who may call the API: optional API keys, and a rate limit per key.

Keys: ``REFEREE_API_KEYS_FILE`` names a file of lines ``name:sha256-hex-of-the-key``
(``#`` comments and blank lines allowed; ``python -m api_gateway.access hash NAME`` makes
a line). Only hashes are stored, and a presented key is hashed and compared to each with
``hmac.compare_digest``. With the file set, every request but the open ones (``/healthz``,
``/readyz``, ``/metrics``, ``/v1/docs``, ``/v1/openapi.json``, the score pad's page and
files) needs its key in the ``X-API-Key`` header; a missing or unknown key is a 401 problem+json with
``WWW-Authenticate: ApiKey realm="referee"``. Several keys may share a name (a key and
the one replacing it): the name is who calls, for the rate limit and the logs.

Rate limits (flask-limiter): ``REFEREE_RATE_LIMIT`` (flask-limiter's syntax, default
``600/minute``) per key name, one budget for every endpoint, counted in
``REFEREE_RATE_LIMIT_STORAGE_URI``: ``memory://`` counts in each process (so each gunicorn
worker has the whole budget), ``redis://host:port`` in one Redis that every worker and
replica shares. Past the rate: 429 problem+json with ``Retry-After``. While the store
cannot be reached each process counts in memory (flask-limiter logs a warning, and goes
back to the store once it answers again), and a failing count lets the request pass: the
limit protects capacity, not secrets. Without keys there are no limits here: an anonymous
caller has no name to count against (nginx or the ingress can limit by address).
"""

from __future__ import annotations

import argparse
import getpass
import hashlib
import hmac
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many

from .problems import ProblemError

HEADER = "X-API-Key"
REALM = 'ApiKey realm="referee"'
OPEN_ENDPOINTS = frozenset({"health.healthz", "health.readyz", "metrics",
                            "api-docs.openapi_json", "api-docs.openapi_swagger_ui",
                            "pad.page", "pad.asset"})
"""Probes, the scrape, the API's documentation and the score pad's files: no key needed
(the pad's calls to the API send the key its user gives)."""
CALLER = "referee.api_key_name"
"""The environ key holding the name of the key a request came with."""
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
_LINE = re.compile(r"(?P<name>[^:\s]*)\s*:\s*(?P<digest>[0-9A-Fa-f]{64})")


@dataclass(frozen=True)
class ApiKeys:
    """The keys a gateway accepts: each key's SHA-256 digest and its name."""

    digests: tuple[tuple[bytes, str], ...]

    @classmethod
    def read(cls, path: str | Path) -> ApiKeys:
        """The keys in the file at ``path``; ``ValueError`` naming the first bad line."""
        digests = []
        for number, raw in enumerate(Path(path).read_text().splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            match = _LINE.fullmatch(line)
            if not match or not _NAME.fullmatch(match["name"]):
                raise ValueError(f"{path}:{number}: expected name:sha256-hex-of-the-key, the "
                                 "name of 1 to 64 letters, digits, '.', '_' or '-'")
            digests.append((bytes.fromhex(match["digest"]), match["name"]))
        return cls(tuple(digests))

    def name_of(self, presented: str) -> str | None:
        """The name of the key ``presented``, or None. Every digest is compared, in
        constant time each, so the time taken tells nothing about which came close."""
        digest = hashlib.sha256(presented.encode("latin-1")).digest()
        found = None
        for known, name in self.digests:
            if hmac.compare_digest(digest, known):
                found = name
        return found


def line(name: str, key: str) -> str:
    """The keys file's line for ``key``, called ``name``."""
    if not _NAME.fullmatch(name):
        raise ValueError("a key's name has 1 to 64 letters, digits, '.', '_' or '-'")
    if not key or not key.isascii() or not key.isprintable() or key.strip() != key:
        raise ValueError("a key is printable ASCII without surrounding spaces")
    return f"{name}:{hashlib.sha256(key.encode('ascii')).hexdigest()}"


def key_needed(detail: str) -> ProblemError:
    """401, and how to authenticate."""
    return ProblemError(401, "api-key-needed", "API key needed", detail,
                        headers={"WWW-Authenticate": REALM})


def install(app: Flask) -> None:
    """Require a key and apply the rate limit on ``app``, if ``API_KEYS_FILE`` is set.

    Before anything else reads the request, so a refused one costs a hash; the limiter
    counts only requests that came with a good key (its hook runs after this one)."""
    path = app.config["API_KEYS_FILE"]
    if not path:
        return
    keys = ApiKeys.read(path)
    if not keys.digests:
        app.logger.warning("%s holds no key: every API request will be refused", path)

    @app.before_request
    def authenticate() -> None:
        if request.endpoint in OPEN_ENDPOINTS:
            return
        presented = request.headers.get(HEADER)
        if not presented:
            raise key_needed(f"This referee needs an API key: send yours in the {HEADER} "
                             "header.")
        name = keys.name_of(presented)
        if name is None:
            raise key_needed(f"The API key in the {HEADER} header is not one this referee "
                             "accepts; check it, or ask for a new one.")
        request.environ[CALLER] = name

    rate = app.config["RATE_LIMIT"]
    parse_many(rate)  # a typo fails at start, not on the first request
    limiter = Limiter(key_func=lambda: request.environ[CALLER], app=app,
                      application_limits=[rate],
                      storage_uri=app.config["RATE_LIMIT_STORAGE_URI"],
                      key_prefix="referee-gateway", in_memory_fallback_enabled=True,
                      swallow_errors=True)
    limiter.request_filter(lambda: CALLER not in request.environ)

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded) -> Response:
        limit = limiter.current_limit
        seconds = max(1, math.ceil(limit.window.reset_time - time.time())) if limit else 1
        return ProblemError(
            429, "rate-limited", "Too many requests",
            f"Calls with this API key are limited to {error.limit.limit}; try again in "
            f"{seconds} s.",
            headers={"Retry-After": str(seconds)}).response()


def main(argv: list[str] | None = None) -> int:
    """``python -m api_gateway.access hash NAME``: read a key from standard input (never
    from the command line, where other users and the shell history would see it) and
    print its line for ``REFEREE_API_KEYS_FILE``."""
    parser = argparse.ArgumentParser(prog="python -m api_gateway.access",
                                     description="The gateway's API keys.")
    commands = parser.add_subparsers(dest="command", required=True)
    hashing = commands.add_parser(
        "hash", help="print NAME:sha256-of-the-key, the key read from standard input")
    hashing.add_argument("name", help="who the key is for (1 to 64 of A-Z a-z 0-9 . _ -)")
    arguments = parser.parse_args(argv)
    key = (getpass.getpass("API key: ") if sys.stdin.isatty()
           else sys.stdin.readline().rstrip("\r\n"))
    try:
        print(line(arguments.name, key))
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
