"""How the engine turns the rules' exceptions into gRPC statuses.

Invalid input becomes INVALID_ARGUMENT with a ``google.rpc.BadRequest`` detail listing one
field violation per problem, at most :data:`MAX_REPORTED_PROBLEMS` of them and then one
saying how many more were found; ``field`` is a JSON Pointer into the request's JSON
form, so the gateway can hand it to REST callers unchanged. Bytes that are not a valid
message (or hold invalid UTF-8 in a string) become INVALID_ARGUMENT with one violation
at the root, where grpcio would answer INTERNAL "Exception deserializing request!".
Anything unexpected is logged and answered INTERNAL without internals.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import grpc
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from tabletop_rules.messages import Sentence
from tabletop_rules.problems import (
    MORE_PROBLEMS,
    NOT_A_PROTOBUF_MESSAGE,
    InvalidInputError,
    quantity,
)

from .wording import bad_request_params, code_of

log = logging.getLogger(__name__)

Servicer = TypeVar("Servicer")
Request = TypeVar("Request")
Response = TypeVar("Response")
Handler = Callable[[Servicer, Request, grpc.ServicerContext], Response]


MAX_REPORTED_PROBLEMS = 100
"""Field violations one answer carries (then one more saying how many were left out): a
transcription with more problems than this is better fixed from the top and sent again,
and the answer stays far below the gateway channel's metadata limit."""


def status_of(code: int, message: str, *details: Any) -> grpc.Status:
    """A status with ``details`` (messages, each packed as an ``Any``)."""
    status = status_pb2.Status(code=code, message=message)
    for detail in details:
        status.details.add().Pack(detail)
    return rpc_status.to_status(status)


_NOT_A_MESSAGE = NOT_A_PROTOBUF_MESSAGE()
MALFORMED_REQUEST = status_of(
    code_pb2.INVALID_ARGUMENT, "the request is not a valid protobuf message for this method",
    error_details_pb2.BadRequest(field_violations=[error_details_pb2.BadRequest.FieldViolation(
        field="", description=_NOT_A_MESSAGE, reason=_NOT_A_MESSAGE.code)]),
    bad_request_params([_NOT_A_MESSAGE]))


def invalid_argument_status(error: InvalidInputError) -> grpc.Status:
    """The rich INVALID_ARGUMENT status for ``error``, one field violation per problem:
    its pointer, words and code (``reason``), and beside the ``google.rpc.BadRequest`` a
    ``referee.common.v1.BadRequestParams`` with each one's params, in the same order."""
    shown = error.problems[:MAX_REPORTED_PROBLEMS]
    texts: list[Sentence] = [p.message for p in shown]
    fields = [p.pointer for p in shown]
    count = len(error.problems)
    if count > len(shown):
        texts.append(MORE_PROBLEMS(count=count - len(shown), limit=MAX_REPORTED_PROBLEMS))
        fields.append("")
    bad_request = error_details_pb2.BadRequest(field_violations=[
        error_details_pb2.BadRequest.FieldViolation(field=field, description=text,
                                                    reason=code_of(text))
        for field, text in zip(fields, texts)])
    status = status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT,
        message=f"{quantity(count, 'problem')} in the request",
    )
    status.details.add().Pack(bad_request)
    status.details.add().Pack(bad_request_params(texts))
    return rpc_status.to_status(status)


def abort_with_status(context: grpc.ServicerContext, status: grpc.Status) -> NoReturn:
    """End the call with ``status``, its details in the trailers: what
    ``context.abort_with_status`` does, spelled out, because OpenTelemetry's server
    instrumentation records the status code on the call's span only when ``abort``
    itself is called."""
    context.set_trailing_metadata(status.trailing_metadata)
    context.abort(status.code, status.details)
    raise AssertionError("unreachable: abort() raises")


def translate_errors(handler: Handler[Servicer, Request, Response]
                     ) -> Handler[Servicer, Request, Response]:
    """Wrap an RPC method so rule errors become statuses and nothing leaks a traceback."""

    @functools.wraps(handler)
    def wrapper(self: Servicer, request: Request, context: grpc.ServicerContext) -> Response:
        try:
            return handler(self, request, context)
        except InvalidInputError as error:
            abort_with_status(context, invalid_argument_status(error))
        except DecodeError:  # a servicer that reads the request's bytes parsed them
            abort_with_status(context, MALFORMED_REQUEST)
        except Exception:  # the contract: no caller ever sees a stack trace
            log.exception("unexpected error in %s", handler.__qualname__)
            context.abort(grpc.StatusCode.INTERNAL, "the engine failed to answer; "
                          "the error has been logged")
        raise AssertionError("unreachable: abort() raises")

    return wrapper
