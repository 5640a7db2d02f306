"""The gateway's logs: one JSON object a line (or plain text), each line about a request
carrying its id, and its trace id when tracing.

``REFEREE_LOG_FORMAT`` is ``json`` (the default: what a log collector reads) or ``text``
(for a terminal). gunicorn applies :func:`logging_config` to its error log and to the
root logger, which the app's loggers propagate to (``deploy/gunicorn.conf.py``); under
other servers (``flask run``, the tests) logging is left as the host sets it. The gunicorn
master imports this module before it forks: it loads neither the app nor grpcio.

One line per request: at INFO when it failed on our side (5xx) or took longer than
``SLOW_REQUEST_SECONDS``; otherwise at DEBUG (a 4xx is the caller's mistake, not ours,
and nginx in front logs every request anyway).
"""

from __future__ import annotations

import logging
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from . import tracing
from .request_ids import current_request_id

FORMATS = ("json", "text")
PROCESS = "gateway"
"""The ``process`` field of every JSON line (the engine's say ``engine``)."""

log = logging.getLogger(__name__)


class RequestFilter(logging.Filter):
    """Adds ``request_id`` (inside a request) and ``trace_id`` (inside a traced span) to
    each record that passes the handler it is on."""

    def filter(self, record: logging.LogRecord) -> bool:
        if request_id := current_request_id():
            record.request_id = request_id
        if trace_id := tracing.current_trace_id():
            record.trace_id = trace_id
        return True


def formatter(kind: str) -> logging.Formatter:
    """The formatter for ``REFEREE_LOG_FORMAT`` = ``kind``; a record's ``extra`` fields
    become members of its JSON object."""
    if kind == "json":
        return JsonFormatter(
            "{levelname}{name}{message}", style="{", timestamp="ts",
            rename_fields={"levelname": "level", "name": "logger"},
            static_fields={"process": PROCESS})
    return logging.Formatter(
        f"%(asctime)s %(levelname)s {PROCESS} %(name)s [%(request_id)s] %(message)s",
        defaults={"request_id": "-"})


def logging_config(kind: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` (gunicorn's ``logconfig_dict``) that writes the root
    logger and gunicorn's error log to standard error in ``kind``'s format."""
    if kind not in FORMATS:
        raise ValueError(f"REFEREE_LOG_FORMAT is {kind!r}; it may be json or text")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"referee": {"()": f"{__name__}.formatter", "kind": kind}},
        "filters": {"request": {"()": f"{__name__}.RequestFilter"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                                "formatter": "referee", "filters": ["request"]}},
        "root": {"level": level.upper(), "handlers": ["stderr"]},
        "loggers": {"gunicorn.error": {"level": level.upper(), "handlers": [],
                                       "propagate": True}},
    }


def request_answered(route: str, method: str, status: int, seconds: float,
                     slow: float) -> None:
    """Log a request that failed on our side or took longer than ``slow`` seconds (INFO),
    and every other one at DEBUG (``REFEREE_LOG_LEVEL=DEBUG`` follows each request)."""
    level = logging.INFO if status >= 500 or seconds > slow else logging.DEBUG
    if log.isEnabledFor(level):
        log.log(level, "%s %s answered %d in %.3f s", method, route, status, seconds,
                extra={"method": method, "route": route, "status": status,
                       "seconds": round(seconds, 6)})
