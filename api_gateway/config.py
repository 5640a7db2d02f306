"""The gateway's settings: defaults here, then a file named by ``REFEREE_GATEWAY_CONFIG``,
then ``REFEREE_*`` environment variables for the common ones."""

from __future__ import annotations

import os
from typing import Any


class DefaultConfig:
    ENGINE_ADDRESS = "127.0.0.1:50051"
    """The engines: ``host:port``, any gRPC target (``dns:///name:port`` for every address
    a name resolves to), or a comma-separated list of IP ``host:port``."""
    # PEM file paths for the engine hop: CA set -> TLS, checking the engines' certificates
    # against it (under ENGINE_TLS_SERVER_NAME if set, else the target's host name);
    # CERT + KEY -> the gateway's client certificate. CA unset -> plaintext.
    ENGINE_TLS_CA = ""
    ENGINE_TLS_CERT = ""
    ENGINE_TLS_KEY = ""
    ENGINE_TLS_SERVER_NAME = ""
    ENGINE_TIMEOUT_SECONDS = 5.0
    READINESS_TIMEOUT_SECONDS = 1.0
    RETRY_AFTER_SECONDS = 5
    MAX_CONTENT_LENGTH = 256 * 1024
    PROBLEM_TYPE_BASE = "https://tabletop-referee.example/problems/"
    # False: marshmallow reads every body and writes every answer, as the compiled
    # schemas' reference (api_gateway/compiled.py; the tests compare the two).
    COMPILED_SCHEMAS = True
    # A request slower than this is logged (api_gateway/logs.py).
    SLOW_REQUEST_SECONDS = 1.0
    # API keys and per-key rate limits (api_gateway/access.py): no keys file, no keys.
    API_KEYS_FILE: str | None = None
    RATE_LIMIT = "600/minute"
    RATE_LIMIT_STORAGE_URI = "memory://"

    API_TITLE = "Tabletop Referee"
    API_VERSION = "v1"
    OPENAPI_VERSION = "3.1.0"
    OPENAPI_URL_PREFIX = "/v1"
    OPENAPI_JSON_PATH = "openapi.json"
    OPENAPI_SWAGGER_UI_PATH = "docs"
    # Swagger UI from the gateway itself (flask-swagger-ui's build; api_gateway/openapi.py):
    # the page works offline and asks no other host for anything.
    OPENAPI_SWAGGER_UI_URL = "/v1/docs/assets/"
    OPENAPI_SWAGGER_UI_CONFIG = {"validatorUrl": None, "displayOperationId": True,
                                 "deepLinking": True}
    # The origins whose pages may call the API from a browser (CORS), comma-separated, or
    # "*"; empty: none (api_gateway/browser.py).
    CORS_ORIGINS = ""


ENVIRONMENT = {
    "REFEREE_ENGINE_ADDRESS": ("ENGINE_ADDRESS", str),
    "REFEREE_ENGINE_TIMEOUT_SECONDS": ("ENGINE_TIMEOUT_SECONDS", float),
    "REFEREE_ENGINE_TLS_CA": ("ENGINE_TLS_CA", str),
    "REFEREE_ENGINE_TLS_CERT": ("ENGINE_TLS_CERT", str),
    "REFEREE_ENGINE_TLS_KEY": ("ENGINE_TLS_KEY", str),
    "REFEREE_ENGINE_TLS_SERVER_NAME": ("ENGINE_TLS_SERVER_NAME", str),
    "REFEREE_MAX_BODY_BYTES": ("MAX_CONTENT_LENGTH", int),
    "REFEREE_API_KEYS_FILE": ("API_KEYS_FILE", str),
    "REFEREE_RATE_LIMIT": ("RATE_LIMIT", str),
    "REFEREE_RATE_LIMIT_STORAGE_URI": ("RATE_LIMIT_STORAGE_URI", str),
    "REFEREE_CORS_ORIGINS": ("CORS_ORIGINS", str),
}


def from_environment() -> dict[str, Any]:
    """Settings given as environment variables, converted to their types."""
    return {key: cast(os.environ[name]) for name, (key, cast) in ENVIRONMENT.items()
            if name in os.environ}
