"""The gateway's Flask app factory."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any
from urllib.parse import urlsplit

import flask_smorest
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from . import config
from .fields import alternatives_openapi, tagged_openapi
from .problems import PROBLEM_CONTENT_TYPE, ProblemError, from_http_exception, unexpected
from .resources import health
from .resources.downtown_farmers_market import routes as downtown_farmers_market
from .resources.foxglove_farm import routes as foxglove_farm

BLUEPRINTS = (health.blueprint, downtown_farmers_market.blueprint, foxglove_farm.blueprint)

PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details",
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {
            "type": "object",
            "properties": {"pointer": {"type": "string", "description": "RFC 6901 JSON Pointer"},
                           "detail": {"type": "string"}}}},
    },
    "required": ["type", "title", "status", "detail"],
}


class Api(flask_smorest.Api):
    """flask-smorest's Api with every error rendered, and documented, as problem+json."""

    DEFAULT_ERROR_RESPONSE_NAME = "Problem"

    def handle_http_exception(self, error: HTTPException) -> Response:
        return from_http_exception(error).response()

    def _register_responses(self) -> None:
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, {
            "description": "An error, as RFC 9457 problem details",
            "content": {PROBLEM_CONTENT_TYPE: {"schema": PROBLEM_SCHEMA}}})


SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""An API answer is data: it may load nothing, run nothing, and be framed nowhere."""
DOCUMENTATION_CACHE = "public, max-age=300"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _docs_policy(page: str) -> str:
    """The Swagger UI page's CSP: its scripts and styles from where the config says
    Swagger UI is served (the CDN, or this origin), its one inline script by hash (no
    other inline script may run), inline styles (Swagger UI sets style attributes), and
    requests only to this origin (the OpenAPI document, "Try it out")."""
    url = urlsplit(current_app.config["OPENAPI_SWAGGER_UI_URL"])
    source = f"{url.scheme}://{url.netloc}" if url.netloc else "'self'"
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
        for script in _INLINE_SCRIPT.findall(page))
    return (f"default-src 'none'; script-src {source} {hashes}; "
            f"style-src {source} 'unsafe-inline'; img-src 'self' data: {source}; "
            "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def secure_answers(app: Flask) -> None:
    """Give every answer of ``app`` its headers: no sniffing, no referrer, a strict CSP;
    API answers are not stored (they answer one body), the documentation may be cached."""
    prefix = app.config["OPENAPI_URL_PREFIX"].rstrip("/")
    docs = f"{prefix}/{app.config['OPENAPI_SWAGGER_UI_PATH']}"
    documentation = {docs, f"{prefix}/{app.config['OPENAPI_JSON_PATH']}"}

    @app.after_request
    def secure(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        rule = request.url_rule.rule if request.url_rule and response.status_code == 200 \
            else None
        response.headers["Cache-Control"] = (DOCUMENTATION_CACHE if rule in documentation
                                             else "no-store")
        response.headers["Content-Security-Policy"] = (
            _docs_policy(response.get_data(as_text=True)) if rule == docs else JSON_POLICY)
        return response


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """Build the gateway: defaults, then the config file, environment, and ``overrides``."""
    app = Flask(__name__)
    # No redirect to a "canonical" URL: werkzeug builds it from the Host header, so
    # /v1//docs would send the caller to whatever host it claimed. Such paths are 404s.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    app.config.from_object(config.DefaultConfig)
    app.config.from_envvar("REFEREE_GATEWAY_CONFIG", silent=True)
    app.config.update(config.from_environment())
    app.config.update(overrides or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the contract's field order
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # "8 × 3", not "8 \u00d7 3"

    api = Api(app, spec_kwargs={"info": {"description": (
        "A stateless rules referee for tabletop games. Every error is RFC 9457 "
        "problem+json; a 422 lists one JSON Pointer per problem.")}})
    api.ma_plugin.converter.add_attribute_function(tagged_openapi)
    api.ma_plugin.converter.add_attribute_function(alternatives_openapi)
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)

    app.register_error_handler(ProblemError, lambda error: error.response())
    app.register_error_handler(Exception, lambda error: unexpected(error).response())
    secure_answers(app)
    return app
