"""Reading request bodies strictly, and turning marshmallow's errors into JSON Pointers.

flask-smorest parses bodies with webargs; :class:`ProblemParser` replaces the lenient
parts: a body must be declared JSON and be JSON (400 otherwise, deep nesting included),
and every schema error becomes one pointer in a 422 answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

import marshmallow as ma
from flask import Request
from webargs.flaskparser import FlaskParser

from tabletop_rules.problems import json_pointer

from .problems import FieldProblem, invalid_request, malformed_body

MAX_JSON_DEPTH = 64
"""No contract body nests deeper; anything deeper is refused before it is parsed."""


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def _nesting_depth_exceeds(text: str, limit: int) -> bool:
    """True if brackets outside strings nest deeper than ``limit`` (cheap, linear)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def load_json_body(request: Request) -> Any:
    """The request's JSON body, or a 400 problem saying why it cannot be read."""
    if not request.is_json:
        raise malformed_body("Send the body as JSON with Content-Type: application/json "
                             f"(got {request.mimetype or 'no content type'}).")
    raw = request.get_data(cache=True)  # werkzeug raises 413 past MAX_CONTENT_LENGTH
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise malformed_body("The body is not valid UTF-8.") from None
    if not text.strip():
        raise malformed_body("The body is empty; send a JSON object.")
    if _nesting_depth_exceeds(text, MAX_JSON_DEPTH):
        raise malformed_body(f"The JSON nests deeper than {MAX_JSON_DEPTH} levels.")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as error:
        raise malformed_body(f"The body is not valid JSON: {error}.") from None


_DICT_ENTRY_KEYS = {"key", "value"}


def pointers(messages: Any, path: tuple[str | int, ...] = ()) -> list[FieldProblem]:
    """Flatten marshmallow's nested error messages into one problem per message."""
    if isinstance(messages, Mapping) and messages and set(messages) <= _DICT_ENTRY_KEYS:
        # A Dict field's entry: errors on its "key" or "value" both belong to the entry.
        return [p for m in messages.values() for p in pointers(m, path)]
    if isinstance(messages, Mapping):
        found: list[FieldProblem] = []
        for key, value in messages.items():
            # "_schema" is marshmallow's key for errors about the object itself.
            found.extend(pointers(value, path if key == ma.exceptions.SCHEMA else
                                  (*path, key)))
        return found
    if isinstance(messages, list | tuple) and all(isinstance(m, str) for m in messages):
        return [FieldProblem(json_pointer(path), _humane(m)) for m in messages]
    if isinstance(messages, list | tuple):
        return [p for m in messages for p in pointers(m, path)]
    return [FieldProblem(json_pointer(path), _humane(str(messages)))]


def _humane(message: str) -> str:
    """marshmallow's few terse messages, said the way the rest of our messages are."""
    return {
        "Unknown field.": "not a field here; check the spelling against the API reference",
        "Missing data for required field.": "this field is required",
        "Field may not be null.": "may not be null",
        "Invalid input type.": "expected a JSON object",
        "Not a valid integer.": "expected a whole number",
        "Not a valid list.": "expected a JSON array",
        "Not a valid string.": "expected a string",
        "Not a valid mapping type.": "expected a JSON object",
        "Not a valid boolean.": "expected true or false",
    }.get(message, message)


class ProblemParser(FlaskParser):
    """webargs' Flask parser with strict JSON reading and problem+json errors."""

    DEFAULT_VALIDATION_STATUS = 422

    def _raw_load_json(self, req: Request) -> Any:
        return load_json_body(req)

    def handle_error(self, error: ma.ValidationError, req: Request, schema: ma.Schema, *,
                     error_status_code: int | None, error_headers: Mapping[str, str] | None
                     ) -> NoReturn:
        messages = error.messages
        if isinstance(messages, Mapping) and set(messages) == {"json"}:
            messages = messages["json"]  # webargs nests errors by location
        raise invalid_request(pointers(messages))
