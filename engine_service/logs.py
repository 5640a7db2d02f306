"""The engine's log lines: JSON (the default) or text, each naming the call it is about.

:data:`REQUEST_ID` holds the ``x-request-id`` metadata of the call being answered
(:class:`.calls.CallPolicy` sets it, as the gateway sends its ``X-Request-ID`` there);
:class:`CallContext` copies it, and the trace id when tracing is on, onto every record
written meanwhile. ``REFEREE_LOG_FORMAT=json`` gives one JSON object a line: ``ts``,
``level``, ``logger``, ``message``, ``process`` ("engine"), ``request_id`` and
``trace_id`` when known, and whatever ``extra`` fields the line carries.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

FORMATS = ("json", "text")

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The ``x-request-id`` of the call this thread answers, if its client sent one."""

TraceIds = Callable[[], str | None]
"""The current trace id in hex, if any (given by :mod:`.tracing` when tracing is on)."""


class CallContext(logging.Filter):
    """Adds ``request_id`` (and ``trace_id``) to each record written during a call; only
    those known, so a JSON line has no empty members."""

    def __init__(self, trace_ids: TraceIds | None = None) -> None:
        super().__init__()
        self._trace_ids = trace_ids

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        if request_id is not None:
            record.request_id = request_id
        if self._trace_ids is not None and (trace_id := self._trace_ids()) is not None:
            record.trace_id = trace_id
        return True


def formatter(log_format: str) -> logging.Formatter:
    """The formatter for ``REFEREE_LOG_FORMAT`` (one of :data:`FORMATS`)."""
    if log_format == "text":
        return logging.Formatter(
            "%(asctime)s engine %(levelname)s %(name)s [%(request_id)s]: %(message)s",
            defaults={"request_id": "-"})
    return JsonFormatter(["levelname", "name", "message"], timestamp="ts",
                         rename_fields={"levelname": "level", "name": "logger"},
                         static_fields={"process": "engine"})


def configure(log_format: str, level: str, trace_ids: TraceIds | None = None) -> None:
    """Send every logger's records to stderr in ``log_format``, call ids attached."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(log_format))
    handler.addFilter(CallContext(trace_ids))
    logging.basicConfig(level=level, handlers=[handler], force=True)
