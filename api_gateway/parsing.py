"""Reading request bodies strictly, and turning marshmallow's errors into JSON Pointers.

flask-smorest parses bodies with webargs; :class:`ProblemParser` replaces the lenient
parts: a body must be declared JSON (415 for another media type) and be JSON (400
otherwise: deep nesting, invalid UTF-8 and lone surrogates included), it is refused past
the size limit however it is sent (413), and every schema error becomes one pointer in a
422 answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, NoReturn

import marshmallow as ma
import orjson
from flask import Request
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge

from tabletop_rules.json_reading import (
    EXPECTED_ARRAY,
    EXPECTED_OBJECT,
    EXPECTED_STRING,
    EXPECTED_WHOLE_NUMBER,
    NOT_NULL,
    REQUIRED,
    UNKNOWN_FIELD,
)
from tabletop_rules.messages import Sentence, template
from tabletop_rules.problems import EXPECTED_BOOLEAN, Path, json_pointer, quoted, worded

from .problems import (
    FieldProblem,
    answer_template,
    invalid_request,
    malformed_body,
    unsupported_media_type,
)

MAX_JSON_DEPTH = 64
"""No contract body nests deeper; anything deeper is refused before it is parsed."""

LONE_SURROGATE = template(
    "LONE_SURROGATE", "a lone UTF-16 surrogate is not a character (escape a character "
    "outside the BMP as a pair)")
LONE_SURROGATE_KEY = template(
    "LONE_SURROGATE_KEY", "a key of this object holds a lone UTF-16 surrogate, which is not "
    "a character")
NO_CONTENT_TYPE = answer_template(
    "NO_CONTENT_TYPE", "Send the body as JSON with Content-Type: application/json (got no "
    "content type).")
NOT_JSON_TYPE = answer_template(
    "NOT_JSON_TYPE", "Send the body as JSON with Content-Type: application/json (got "
    "{value}).")
NOT_UTF8_CHARSET = answer_template("NOT_UTF8_CHARSET", "Send JSON in UTF-8 (got charset {value}).")
CONTENT_CODING = answer_template(
    "CONTENT_CODING", "Send the body without a content coding (got Content-Encoding {value}).")
NOT_UTF8 = answer_template("NOT_UTF8", "The body is not valid UTF-8.")
EMPTY_BODY = answer_template("EMPTY_BODY", "The body is empty; send a JSON object.")
TOO_DEEP = answer_template("TOO_DEEP", "The JSON nests deeper than {limit} levels.")
NOT_JSON = answer_template("NOT_JSON", "The body is not valid JSON: {error}.")
SURROGATES_FOUND = answer_template(
    "SURROGATES_FOUND", "The JSON holds a lone UTF-16 surrogate, which is no character; see "
    "errors for where.")


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


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogates(value: Any, path: Path = ()) -> list[FieldProblem]:
    """Where ``value`` holds a lone UTF-16 surrogate (JSON's ``"\\ud800"`` escape with no
    pair): no character, and no UTF-8 can carry it. A key holding one is reported at its
    object (the key itself cannot be written in a pointer)."""
    if isinstance(value, str):
        return ([FieldProblem(json_pointer(path), LONE_SURROGATE())]
                if _SURROGATE.search(value) else [])
    if isinstance(value, dict):
        found: list[FieldProblem] = []
        for key, item in value.items():
            if _SURROGATE.search(key):
                found.append(FieldProblem(json_pointer(path), LONE_SURROGATE_KEY()))
            else:
                found.extend(_lone_surrogates(item, (*path, key)))
        return found
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _lone_surrogates(item, (*path, i))]
    return []


def _check_declared_json(request: Request) -> None:
    """400 for a body declared as nothing; 415 for one declared as anything but JSON in
    UTF-8 without a content coding (RFC 8259: JSON is UTF-8)."""
    environ = request.environ
    if environ.get("CONTENT_TYPE") == "application/json" and "HTTP_CONTENT_ENCODING" not in environ:
        return  # what most clients send, and right: no header to parse
    if not request.mimetype:
        raise malformed_body(NO_CONTENT_TYPE())
    if not request.is_json:
        raise unsupported_media_type(NOT_JSON_TYPE(value=quoted(request.mimetype)))
    charset = request.mimetype_params.get("charset", "utf-8").lower()
    if charset not in ("utf-8", "utf8"):
        raise unsupported_media_type(NOT_UTF8_CHARSET(value=quoted(charset)))
    coding = request.headers.get("Content-Encoding", "identity").strip().lower()
    if coding != "identity":
        raise unsupported_media_type(CONTENT_CODING(value=quoted(coding)))


_BODY = "referee.body"
"""Where :func:`read_body` keeps a chunked body it has read, for a second reader."""


def read_body(request: Request) -> bytes:
    """The request's body, refused with a 413 past ``MAX_CONTENT_LENGTH`` however it is
    sent: werkzeug refuses a declared Content-Length past it, but cuts a chunked body
    (no Content-Length, the server terminates the stream) at the limit without a word.
    Read once: a second call answers the same bytes."""
    limit = request.max_content_length
    if (request.content_length is not None or limit is None
            or not request.environ.get("wsgi.input_terminated")):
        return request.get_data(cache=True)
    if _BODY in request.environ:
        kept: bytes = request.environ[_BODY]
        return kept
    body: bytes = request.environ["wsgi.input"].read(limit + 1)
    if len(body) > limit:
        raise RequestEntityTooLarge()
    request.environ[_BODY] = body
    return body


def load_json_body(request: Request) -> Any:
    """The request's JSON body, or a problem (400, 413, 415) saying why it cannot be read."""
    _check_declared_json(request)
    return _parse_json(read_body(request))


def _parse_json(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise malformed_body(NOT_UTF8()) from None
    if not text.strip():
        raise malformed_body(EMPTY_BODY())
    if _nesting_depth_exceeds(text, MAX_JSON_DEPTH):
        raise malformed_body(TOO_DEEP(limit=MAX_JSON_DEPTH))
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except ValueError as error:
        raise malformed_body(NOT_JSON(error=str(error))) from None
    if _SURROGATE_ESCAPE.search(text) and (where := _lone_surrogates(document)):
        raise malformed_body(SURROGATES_FOUND(), where)
    return document


_NUMBER_SHAPES = bytes(ord("0") if chr(byte) in "0123456789" else ord(".")
                       if chr(byte) in ".eE" else ord(" ") for byte in range(256))
"""Each digit as 0, a decimal point or exponent mark as ".", every other byte a space."""

_LONG_INTEGER = b"0" * 19


def _unsure_number(raw: bytes) -> bool:
    """Whether orjson and ``json.loads`` may read a number in ``raw`` differently: an
    integer of 19 or more digits (orjson reads one past 64 bits as a float) or a digit
    before a fraction or exponent (two float parsers). Contract bodies carry neither; a
    match anywhere (inside a string too) only sends the body the standard way.

    ``raw`` is mapped to the shapes of its bytes (:data:`_NUMBER_SHAPES`), where both
    are plain substrings: the regular expression ``[0-9](?:[0-9]{18}|[.eE])`` finds the
    same bodies, but tries it at every byte, 11 µs for a 3 KB state against 4."""
    shapes = raw.translate(_NUMBER_SHAPES)
    return b"0." in shapes or _LONG_INTEGER in shapes


def load_json_document(request: Request, depth: int | None) -> Any:
    """The request's JSON body as :func:`load_json_body` reads it (the same document, or
    the same problem), for a reader that accepts JSON at most ``depth`` levels deep
    (``None``: any depth).

    orjson reads it when it vouches for the result: it refuses what is not UTF-8, empty,
    a lone surrogate or NaN as the standard reader does, the body holds no number that the
    two could read differently, and (``depth`` within :data:`MAX_JSON_DEPTH`) a document
    nested deeper than the limit is one the reader cannot accept anyway; read again by
    :func:`load_json_body`, it gets its 400. Any other body is read the standard way."""
    _check_declared_json(request)
    raw = read_body(request)
    if depth is not None and depth <= MAX_JSON_DEPTH and not _unsure_number(raw):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:  # the standard reader says why
            pass
    return _parse_json(raw)


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


_MARSHMALLOW = {
    "Unknown field.": UNKNOWN_FIELD,
    "Missing data for required field.": REQUIRED,
    "Field may not be null.": NOT_NULL,
    "Invalid input type.": EXPECTED_OBJECT,
    "Not a valid integer.": EXPECTED_WHOLE_NUMBER,
    "Not a valid list.": EXPECTED_ARRAY,
    "Not a valid string.": EXPECTED_STRING,
    "Not a valid mapping type.": EXPECTED_OBJECT,
    "Not a valid boolean.": EXPECTED_BOOLEAN,
}
"""marshmallow's few terse messages, and the templates saying them the way the rest of
our messages are (the rules' own JSON readers word the same problems with them)."""


def _humane(message: str) -> str:
    """A message as a Sentence: ours already is; marshmallow's said our way."""
    if isinstance(message, Sentence):
        return message
    known = _MARSHMALLOW.get(message)
    return known() if known is not None else worded(message)


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
