"""RFC 9457 problem details: the one shape every gateway error takes.

Views and helpers raise :class:`ProblemError`; the app turns it (and every HTTP error
Flask or werkzeug raises) into an ``application/problem+json`` answer, which names the
request's id (``request_id``) for whoever reports it. No error ever reaches the caller as
HTML or a stack trace.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, json
from werkzeug.exceptions import HTTPException

from tabletop_rules.problems import quantity

from .request_ids import current_request_id

log = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"


@dataclass(frozen=True)
class FieldProblem:
    """One problem in the request body: a JSON Pointer and what is wrong there."""

    pointer: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "detail": self.detail}


@dataclass
class ProblemError(Exception):
    """An error answer: status, a stable ``slug`` for its type URI, title and detail."""

    status: int
    slug: str
    title: str
    detail: str
    errors: list[FieldProblem] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    def response(self) -> Response:
        body: dict[str, Any] = {
            "type": current_app.config["PROBLEM_TYPE_BASE"] + self.slug,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
        }
        if self.errors:
            body["errors"] = [e.to_json() for e in self.errors]
        body["request_id"] = current_request_id()
        return Response(json.dumps(body), status=self.status, headers=self.headers,
                        content_type=PROBLEM_CONTENT_TYPE)


def invalid_request(errors: list[FieldProblem]) -> ProblemError:
    """422: JSON that breaks the contract, one entry per problem."""
    return ProblemError(422, "invalid-request", "Invalid request",
                        f"{quantity(len(errors), 'problem')} in the request body", errors)


def malformed_body(detail: str, errors: list[FieldProblem] | None = None) -> ProblemError:
    """400: a body that is not JSON, or not declared as JSON; ``errors`` say where, when
    a place in the JSON can be named."""
    return ProblemError(400, "malformed-body", "Malformed request body", detail, errors or [])


def unsupported_media_type(detail: str) -> ProblemError:
    """415: a body declared as something else than JSON (another media type, charset or
    content coding)."""
    return ProblemError(415, "unsupported-media-type", "Unsupported media type", detail,
                        headers={"Accept-Post": "application/json"})


_HTTP_SLUGS = {
    400: "bad-request", 404: "not-found", 405: "method-not-allowed",
    413: "body-too-large", 415: "unsupported-media-type", 431: "headers-too-large",
}


def from_http_exception(error: HTTPException) -> ProblemError:
    """The problem for an HTTP error raised by Flask or werkzeug (404, 405, 413, ...)."""
    status = error.code or 500
    detail = error.description or ""
    headers = {}
    if status == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        detail = f"The request body is larger than the limit of {limit} bytes."
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return ProblemError(status, _HTTP_SLUGS.get(status, "http-error"), error.name, detail,
                        headers=headers)


def unexpected(error: Exception) -> ProblemError:
    """A bug: logged with its traceback, answered without one."""
    log.exception("unexpected error", exc_info=error)
    return ProblemError(500, "internal-error", "Internal error",
                        "The referee failed to answer; the error has been logged.")
