"""The gateway's Flask app factory."""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import flask_smorest
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from . import access, browser, config, i18n, metrics, openapi, pad, request_ids, tracing
from .blueprint import Blueprint
from .games import GameRoutes
from .problems import ProblemError, from_http_exception, unexpected
from .resources import health
from .resources.discovery import routes as discovery
from .resources.downtown_farmers_market import routes as downtown_farmers_market
from .resources.foxglove_farm import routes as foxglove_farm

GAMES: tuple[GameRoutes, ...] = (downtown_farmers_market.ROUTES, foxglove_farm.ROUTES)
"""Every game the gateway serves: adding one adds its routes here."""
API_KEY_SCHEME = "ApiKey"


class Api(flask_smorest.Api):
    """flask-smorest's Api with every error rendered, and documented, as problem+json."""

    DEFAULT_ERROR_RESPONSE_NAME = "Problem"

    def handle_http_exception(self, error: HTTPException) -> Response:
        return from_http_exception(error).response()

    def _register_responses(self) -> None:
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME,
                                      openapi.problem_response(self.spec))

    def _register_pagination_header(self) -> None:
        """No endpoint pages its answers: no pagination header, nor its schema."""


SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""An API answer is data: it may load nothing, run nothing, and be framed nowhere."""
NO_STORE = "no-store"
DOCUMENTATION_CACHE = "public, max-age=300"
API_HEADERS = (*SECURITY_HEADERS.items(), ("Cache-Control", NO_STORE),
               ("Content-Security-Policy", JSON_POLICY))
"""What :func:`secure_answers` adds, in its order, to an answer that has none of them
and is not documentation: almost every answer."""
_SECURED = frozenset(name.lower() for name, _ in API_HEADERS)
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _docs_policy(page: str) -> str:
    """The Swagger UI page's CSP: its scripts and styles from where the config says
    Swagger UI is served (this gateway, by default: then only 'self'), its one inline
    script by hash (no other inline script may run), inline styles (Swagger UI sets style
    attributes), and requests only to this origin (the OpenAPI document, "Try it out")."""
    url = urlsplit(current_app.config["OPENAPI_SWAGGER_UI_URL"])
    sources = "'self'" if not url.netloc else f"'self' {url.scheme}://{url.netloc}"
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
        for script in _INLINE_SCRIPT.findall(page))
    return (f"default-src 'none'; script-src {sources} {hashes}; "
            f"style-src {sources} 'unsafe-inline'; img-src {sources} data:; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def secure_answers(app: Flask) -> None:
    """Give every answer of ``app`` its headers: no sniffing, no referrer, a strict CSP
    (a page's own where its view set one: the score pad's); API answers are not stored
    (they answer one body) unless their view says otherwise (the discovery answers), the
    documentation may be cached."""
    prefix = app.config["OPENAPI_URL_PREFIX"].rstrip("/")
    docs = f"{prefix}/{app.config['OPENAPI_SWAGGER_UI_PATH']}"
    documentation = {docs, f"{prefix}/{app.config['OPENAPI_JSON_PATH']}"}
    assets = openapi.swagger_ui_rule(app.config)
    if assets is not None:
        documentation.add(assets)

    @app.after_request
    def secure(response: Response) -> Response:
        headers = response.headers
        url_rule = request.url_rule
        rule = url_rule.rule if url_rule and response.status_code == 200 else None
        if rule not in documentation and _SECURED.isdisjoint(
                [name.lower() for name, _ in headers]):
            headers.extend(API_HEADERS)  # in one step what the lines below come to
            return response
        headers.update(SECURITY_HEADERS)
        headers["Cache-Control"] = (
            DOCUMENTATION_CACHE if rule in documentation
            else headers.get("Cache-Control", NO_STORE))
        headers["Content-Security-Policy"] = (
            _docs_policy(response.get_data(as_text=True)) if rule == docs
            else headers.get("Content-Security-Policy", JSON_POLICY))
        return response


@functools.cache
def game_blueprint(game: GameRoutes) -> Blueprint:
    """``game``'s blueprint, made once per process (its compiled schemas with it)."""
    return game.blueprint()


def create_app(overrides: dict[str, Any] | None = None,
               games: Sequence[GameRoutes] = GAMES) -> Flask:
    """Build the gateway: defaults, then the config file, environment, and ``overrides``;
    serving ``games`` (a test serves one more)."""
    app = Flask(__name__)
    # No redirect to a "canonical" URL: werkzeug builds it from the Host header, so
    # /v1//docs would send the caller to whatever host it claimed. Such paths are 404s.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    app.config.from_object(config.DefaultConfig)
    app.config.from_envvar(config.CONFIG_FILE.name, silent=True)
    app.config.update(config.from_environment())
    app.config.update(overrides or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the contract's field order
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # "8 × 3", not "8 \u00d7 3"

    metrics.instrument(app)
    request_ids.install(app)  # around the rest: the id is known while it is measured
    tracing.configure(app)

    api = Api(app, spec_kwargs={
        "marshmallow_plugin": openapi.Plugin(), "info": {"description": openapi.DESCRIPTION},
        # A referee may run with keys or without: either way is documented.
        "security": [{}, {API_KEY_SCHEME: []}]})
    api.spec.components.security_scheme(API_KEY_SCHEME, {
        "type": "apiKey", "in": "header", "name": access.HEADER,
        "description": "An API key, when the referee is configured with keys."})
    for blueprint in (health.blueprint, *map(game_blueprint, games), discovery.blueprint):
        api.register_blueprint(blueprint)
    openapi.serve_swagger_ui(app)
    app.register_blueprint(pad.blueprint)

    access.install(app)
    app.register_error_handler(ProblemError, lambda error: error.response())
    app.register_error_handler(Exception, lambda error: unexpected(error).response())
    secure_answers(app)
    i18n.content_language(app)
    browser.install(app)
    return app
