"""The gateway's settings: defaults here, then a file named by ``REFEREE_GATEWAY_CONFIG``,
then ``REFEREE_*`` environment variables for the common ones."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop_rules.settings import Setting


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


@dataclass(frozen=True)
class ConfigSetting(Setting):
    """A variable that sets one of :class:`DefaultConfig`'s keys (its default)."""

    key: str = ""
    cast: Callable[[str], Any] = str


def _config(name: str, key: str, cast: Callable[[str], Any], meaning: str) -> ConfigSetting:
    return ConfigSetting(name, getattr(DefaultConfig, key), meaning, key=key, cast=cast)


MAX_BODY_BYTES = _config("REFEREE_MAX_BODY_BYTES", "MAX_CONTENT_LENGTH", int,
                         "larger bodies get 413, from nginx (`deploy/proxy.py`) and the "
                         "gateway alike")
ENVIRONMENT = (
    _config("REFEREE_ENGINE_ADDRESS", "ENGINE_ADDRESS", str,
            "the engines the gateway dials: `host:port`, any gRPC target "
            "(`dns:///name:port` reaches every address the name resolves to) or a "
            "comma-separated list of IP `host:port`"),
    _config("REFEREE_ENGINE_TIMEOUT_SECONDS", "ENGINE_TIMEOUT_SECONDS", float,
            "the deadline on every engine call"),
    _config("REFEREE_ENGINE_TLS_CA", "ENGINE_TLS_CA", str,
            "PEM CA: dial the engines over TLS, checking their certificates against it; "
            "unset: plaintext"),
    _config("REFEREE_ENGINE_TLS_CERT", "ENGINE_TLS_CERT", str,
            "PEM client certificate the gateway presents to the engines (with the key)"),
    _config("REFEREE_ENGINE_TLS_KEY", "ENGINE_TLS_KEY", str,
            "PEM private key of the gateway's client certificate"),
    _config("REFEREE_ENGINE_TLS_SERVER_NAME", "ENGINE_TLS_SERVER_NAME", str,
            "the name checked in the engines' certificates; unset: the target's host name"),
    MAX_BODY_BYTES,
    _config("REFEREE_API_KEYS_FILE", "API_KEYS_FILE", str,
            "a file of `name:sha256-hex` lines (`python -m api_gateway.access hash NAME`); "
            "set: `X-API-Key` required; unset: no keys"),
    _config("REFEREE_RATE_LIMIT", "RATE_LIMIT", str,
            "requests per key name (flask-limiter syntax; only with keys)"),
    _config("REFEREE_RATE_LIMIT_STORAGE_URI", "RATE_LIMIT_STORAGE_URI", str,
            "where rate limits are counted: `memory://` in each process, "
            "`redis://host:port` shared across workers and replicas"),
    _config("REFEREE_CORS_ORIGINS", "CORS_ORIGINS", str,
            "origins whose pages may call the API from a browser, comma-separated "
            "`scheme://host[:port]`, or `*`; unset: no CORS headers"),
)
"""The app's settings given as environment variables, each over its :class:`DefaultConfig`
key."""

CONFIG_FILE = Setting("REFEREE_GATEWAY_CONFIG", None,
                      "a Python config file for the Flask app: any `api_gateway/config.py` "
                      "key (read before the variables above)")
# gunicorn's (deploy/gunicorn.conf.py).
BIND = Setting("REFEREE_GATEWAY_BIND", "127.0.0.1:8080",
               "the public address: nginx's (gunicorn is behind it on a unix socket), or "
               "gunicorn's without nginx")
WORKERS = Setting("REFEREE_GATEWAY_WORKERS", None,
                  "gunicorn gthread workers; unset: the CPUs, at most 4")
THREADS = Setting("REFEREE_GATEWAY_THREADS", 8, "threads of each gunicorn worker")
ACCESS_LOG = Setting("REFEREE_GATEWAY_ACCESS_LOG", None,
                     "gunicorn's own access log (`-` for stdout, or a path); unset: off, as "
                     "nginx in front logs every request already, and gunicorn's line costs "
                     "about 8% of the gateway's throughput")
MULTIPROCESS_METRICS = Setting("PROMETHEUS_MULTIPROC_DIR", None,
                               "where gunicorn workers keep their metrics; unset: a fresh "
                               "temporary directory of each gunicorn master")
LOG_FORMAT = Setting("REFEREE_LOG_FORMAT", "json",
                     "`json` lines (`ts`, `level`, `process`, `logger`, `message`, "
                     "`request_id`, `trace_id`), or `text` for a terminal")
LOG_LEVEL = Setting("REFEREE_LOG_LEVEL", "INFO",
                    "the lowest level logged; `DEBUG` logs every request")
SETTINGS = (*ENVIRONMENT, CONFIG_FILE, BIND, WORKERS, THREADS, ACCESS_LOG,
            MULTIPROCESS_METRICS, LOG_FORMAT, LOG_LEVEL)
"""Every setting the gateway reads, but tracing's (:data:`.tracing.SETTINGS`)."""


def from_environment() -> dict[str, Any]:
    """Settings given as environment variables, converted to their types."""
    return {setting.key: setting.cast(os.environ[setting.name]) for setting in ENVIRONMENT
            if setting.name in os.environ}
