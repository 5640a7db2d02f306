"""The project's flask-smorest Blueprint: strict body parsing and problem+json errors, and
the fast path that reads well-formed bodies and writes answers with compiled schemas."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, cast

import flask_smorest
import marshmallow as ma
import orjson
from flask import Response, current_app, request
from flask.json.provider import DefaultJSONProvider
from google.protobuf.message import Message

from .compiled import Compiler, Loader, Unsupported
from .i18n import localize
from .parsing import ProblemParser, load_json_document
from .problems import ProblemError
from .standins import whole_transcription

View = Callable[..., Any]

log = logging.getLogger(__name__)

BODY_PROBLEMS = (400, 401, 413, 415, 422, 429, 503, 504)
"""What any endpoint that reads a JSON body and asks the engine may answer besides 200:
401 and 429 where API keys are configured (api_gateway/access.py), 429 also from the
engine, which bounds how many plans and replays it computes at once."""

COMPILER = Compiler()
"""The compiled readers and writers of every ``json_post`` endpoint's schemas."""


def _identity(value: Any) -> Any:
    return value


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint whose bodies are read by :class:`ProblemParser`."""

    ARGUMENTS_PARSER = ProblemParser()

    def problem_responses(self, *statuses: int) -> Callable[[View], View]:
        """Document the problem+json answers an endpoint may give."""
        def decorate(view: View) -> View:
            for status in statuses:
                view = self.alt_response(status, response="Problem")(view)
            return view
        return decorate

    def json_post(self, rule: str, body: type[ma.Schema], answer: type[ma.Schema], *,
                  whole: bool = False) -> Callable[[View], View]:
        """``POST rule``: the body read by ``body`` is the view's one argument, what it
        returns is written by ``answer``, and the problem answers are documented.

        flask-smorest documents the endpoint and, as its slow path, reads and writes it:
        webargs and marshmallow read a body that the compiled ``body`` schema refuses (so
        every bad body gets marshmallow's problems, exactly), and marshmallow writes an
        answer that the compiled ``answer`` schema cannot vouch for. Everything else takes
        the fast path: orjson and the compiled schemas (:mod:`api_gateway.compiled`).

        ``whole``: the body is a transcription the engine checks whole; where the gateway
        refuses it, the view is still called with the rest of it, stood in for, and the
        rules' problems join the gateway's in one 422 (:mod:`api_gateway.standins`)."""
        documentation = (self.arguments(body, as_kwargs=False), self.response(200, answer),
                         self.problem_responses(*BODY_PROBLEMS))
        slow_read = self.arguments(body, as_kwargs=False)(_identity)
        slow_write = self.response(200, answer)(_identity)
        read = _fast_reader(body(), slow_read)
        write = _fast_writer(answer(), slow_write)
        rest = body() if whole else None

        def decorate(view: View) -> View:
            documented = view
            for decorator in reversed(documentation):
                documented = decorator(documented)

            @functools.wraps(view)
            def endpoint(*args: Any, **kwargs: Any) -> Any:
                try:
                    data = read()
                except ProblemError as refused:
                    if rest is None or refused.status != 422:
                        raise
                    raise whole_transcription(
                        refused, rest, lambda data: view(*args, data, **kwargs)) from None
                answer = view(*args, data, **kwargs)
                return write(localize(answer) if isinstance(answer, Message) else answer)

            endpoint._apidoc = documented._apidoc  # type: ignore[attr-defined]
            self.post(rule)(endpoint)
            return endpoint
        return decorate


def _fast_reader(schema: ma.Schema, slow: Callable[[], Any]) -> Callable[[], Any]:
    """Reads the request's body into what ``schema.load`` makes of it: compiled when it
    can be, by ``slow`` (webargs and marshmallow, with their problems) otherwise."""
    try:
        loader: Loader = COMPILER.schema_loader(schema)
    except Unsupported as why:
        log.info("%s is read by marshmallow alone: %s", type(schema).__name__, why)
        return slow
    load, depth = loader.load, loader.depth

    def read() -> Any:
        if not current_app.config["COMPILED_SCHEMAS"]:
            return slow()
        # The request itself, not its proxy: each attribute read through the proxy costs
        # a lookup of the context, and reading the body reads several.
        document = load_json_document(request._get_current_object(),  # type: ignore[attr-defined]
                                      depth)  # or the problem slow would raise
        try:
            return load(document)
        except Exception:  # Refused, or an error marshmallow will meet again
            return slow()
    return read


def _fast_writer(schema: ma.Schema, slow: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Writes a view's answer as ``slow`` (flask-smorest: ``schema.dump`` and
    ``jsonify``) does, compiled and with orjson when the compiled schema vouches for it."""
    try:
        dump = COMPILER.schema_dumper(schema)
    except Unsupported as why:
        log.info("%s is written by marshmallow alone: %s", type(schema).__name__, why)
        return slow

    def write(result: Any) -> Any:
        if isinstance(result, tuple | Response) or not current_app.config["COMPILED_SCHEMAS"]:
            return slow(result)
        try:
            data = dump(result)
        except Exception:  # Refused, or an error marshmallow will raise again
            return slow(result)
        return json_response(data)
    return write


def json_response(data: Any) -> Response:
    """``jsonify(data)``, written by orjson where it writes the same bytes: the app's
    JSON provider is Flask's own, compact, neither sorting keys nor escaping non-ASCII
    characters, and ``data`` is plain JSON (orjson refuses integers past 64 bits)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # not the proxy
    provider = app.json
    if (type(provider) is DefaultJSONProvider and not provider.sort_keys
            and not provider.ensure_ascii
            and not ((provider.compact is None and app.debug) or provider.compact is False)):
        try:
            body = orjson.dumps(data)
        except TypeError:
            pass
        else:
            answer: Response = app.response_class(body + b"\n", mimetype=provider.mimetype)
            return answer
    return cast(Response, provider.response(data))
