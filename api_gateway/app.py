"""The gateway's Flask app factory."""

from __future__ import annotations

from typing import Any

import flask_smorest
from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from . import config
from .fields import tagged_openapi
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


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """Build the gateway: defaults, then the config file, environment, and ``overrides``."""
    app = Flask(__name__)
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
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)

    app.register_error_handler(ProblemError, lambda error: error.response())
    app.register_error_handler(Exception, lambda error: unexpected(error).response())
    return app
