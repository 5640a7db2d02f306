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

from tabletop_rules.messages import Params, Sentence, Template, template

from .i18n import say
from .request_ids import current_request_id

log = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"


@dataclass(frozen=True)
class FieldProblem:
    """One problem in the request body: a JSON Pointer, what is wrong there (English),
    and its ``code`` and ``params``: ``detail`` a Sentence carries them
    (:mod:`tabletop_rules.messages`), or the engine sent them."""

    pointer: str
    detail: str
    code: str = ""
    params: Params = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.code and isinstance(self.detail, Sentence):
            object.__setattr__(self, "code", self.detail.code)
            object.__setattr__(self, "params", self.detail.params)

    def to_json(self) -> dict[str, Any]:
        return {"pointer": self.pointer,
                "detail": say(self.code, self.params, fallback=self.detail),
                "code": self.code,
                "params": {name: list(value) if type(value) is tuple else value
                           for name, value in self.params.items()}}


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
            "title": _worded(self.title),
            "status": self.status,
            "detail": _worded(self.detail),
        }
        if self.errors:
            body["errors"] = [e.to_json() for e in self.errors]
        body["request_id"] = current_request_id()
        return Response(json.dumps(body), status=self.status, headers=self.headers,
                        content_type=PROBLEM_CONTENT_TYPE)


def _worded(text: str) -> str:
    """A title or detail in the request's language (a Sentence's code says which)."""
    if isinstance(text, Sentence):
        return say(text.code, text.params, fallback=text)
    return text


def answer_template(code: str, english: str) -> Template:
    """The template of a problem's title or detail (not a 422 entry's)."""
    return template(code, english, kind="answer")


INVALID_REQUEST = answer_template("TITLE_INVALID_REQUEST", "Invalid request")
PROBLEMS_FOUND = answer_template("PROBLEMS_IN_BODY",
                                 "{count:# problem|# problems} in the request body")
MALFORMED_BODY = answer_template("TITLE_MALFORMED_BODY", "Malformed request body")
UNSUPPORTED_MEDIA_TYPE = answer_template("TITLE_UNSUPPORTED_MEDIA_TYPE",
                                         "Unsupported media type")
BODY_TOO_LARGE = answer_template(
    "BODY_TOO_LARGE", "The request body is larger than the limit of {limit} bytes.")
TOO_MANY_REQUESTS = answer_template("TITLE_TOO_MANY_REQUESTS", "Too many requests")
INTERNAL_ERROR = answer_template("TITLE_INTERNAL_ERROR", "Internal error")
REFEREE_FAILED = answer_template(
    "REFEREE_FAILED", "The referee failed to answer; the error has been logged.")


def invalid_request(errors: list[FieldProblem]) -> ProblemError:
    """422: JSON that breaks the contract, one entry per problem."""
    return ProblemError(422, "invalid-request", INVALID_REQUEST(),
                        PROBLEMS_FOUND(count=len(errors)), errors)


def malformed_body(detail: str, errors: list[FieldProblem] | None = None) -> ProblemError:
    """400: a body that is not JSON, or not declared as JSON; ``errors`` say where, when
    a place in the JSON can be named."""
    return ProblemError(400, "malformed-body", MALFORMED_BODY(), detail, errors or [])


def unsupported_media_type(detail: str) -> ProblemError:
    """415: a body declared as something else than JSON (another media type, charset or
    content coding)."""
    return ProblemError(415, "unsupported-media-type", UNSUPPORTED_MEDIA_TYPE(), detail,
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
        detail = BODY_TOO_LARGE(limit=limit)
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        headers["Allow"] = ", ".join(error.valid_methods)  # type: ignore[attr-defined]
    return ProblemError(status, _HTTP_SLUGS.get(status, "http-error"), error.name, detail,
                        headers=headers)


def unexpected(error: Exception) -> ProblemError:
    """A bug: logged with its traceback, answered without one."""
    log.exception("unexpected error", exc_info=error)
    return ProblemError(500, "internal-error", INTERNAL_ERROR(), REFEREE_FAILED())
