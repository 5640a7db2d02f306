"""Asking the referee: one request body in, one outcome out, whatever the transport.

The three transports are the existing clients: :class:`~tabletop_referee_clients.RestClient` for
``--url``, :class:`~tabletop_referee_clients.GrpcClient` for ``--grpc``, and a RestClient over the
in-process service for ``--local`` (:mod:`.local`). Each outcome has an exit code a
script can act on: 0 answered; 1 refused (the body breaks the contract, or the answer
says a move is illegal), fix the input; 2 unavailable (nothing answered, or the referee
could not answer now), try again later.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import requests

from ..errors import InvalidRequestError, RefereeError, json_pointer
from ..grpc_client import GrpcClient
from ..rest_client import RestClient
from .inputs import Source
from .local import local_client

Json = Any
Problem = tuple[str, str]
"""A JSON Pointer into the body, and what is wrong there."""

INPUT_STATUSES = {400, 413, 422}
"""The REST statuses that refuse the body itself; any other failure is the referee's."""


class Outcome(enum.Enum):
    """What became of one body, and the exit code it calls for."""

    ANSWERED = ("answered", 0)
    ILLEGAL = ("illegal", 1)
    INVALID = ("invalid", 1)
    UNAVAILABLE = ("unavailable", 2)

    def __init__(self, label: str, exit_code: int) -> None:
        self.label = label
        self.exit_code = exit_code


@dataclass(frozen=True)
class Call:
    """A client method, and how a body becomes its arguments: ``arguments`` names the one
    argument the whole body is (``"board"``), or the body's fields, each an argument
    (``("town", "move")``)."""

    game: str
    method: str
    arguments: str | tuple[str, ...]


@dataclass
class Result:
    """One input's outcome: the answer when the referee gave one, the problems by pointer
    (a refusal's or an illegal move's violations), and the failure when it refused or
    could not answer."""

    source: Source
    outcome: Outcome
    body: Json = None
    answer: Json = None
    problems: list[Problem] = field(default_factory=list)
    failure: RefereeError | None = None
    hint: str | None = None
    """For a refused input, the command that fits it, when it is another's."""


@dataclass
class Referee:
    """A client to ask, and how to name it. Problems are reported by pointer into the
    body, as REST names them: over gRPC a body that is the request's one field
    (``board``) has pointers into the request (``/board/grid/1``), unwrapped here."""

    client: RestClient | GrpcClient
    name: str

    def ask(self, call: Call, source: Source) -> Result:
        """``source``'s body asked of the referee with ``call``."""
        body = None
        try:
            body = source.read()
            answer = getattr(getattr(self.client, call.game), call.method)(
                *_arguments(call, body))
        except InvalidRequestError as error:
            return Result(source, Outcome.INVALID, body,
                          problems=self._problems(call, source, error), failure=error)
        except RefereeError as error:
            refused = error.status in INPUT_STATUSES
            return Result(source, Outcome.INVALID if refused else Outcome.UNAVAILABLE, body,
                          problems=[("", error.detail)] if refused else [], failure=error)
        except requests.RequestException as error:
            return Result(source, Outcome.UNAVAILABLE, body,
                          failure=RefereeError("UNREACHABLE", "Unreachable", _reason(error)))
        if isinstance(answer, dict) and answer.get("legal") is False:
            return Result(source, Outcome.ILLEGAL, body, answer, [
                (v.get("pointer", ""), f"{v['message']} ({v['reason']}, {v['rule']})")
                for v in answer.get("violations", [])])
        return Result(source, Outcome.ANSWERED, body, answer)

    def _problems(self, call: Call, source: Source,
                  error: InvalidRequestError) -> list[Problem]:
        """The error's problems, their pointers into the body (into its file, for a
        table of player files)."""
        wrapped = isinstance(self.client, GrpcClient) and isinstance(call.arguments, str)
        return [(source.pointer(_unwrapped(pointer, f"/{call.arguments}") if wrapped
                                else pointer), detail)
                for pointer, detail in error.problems]


def _reason(error: BaseException) -> str:
    """Why a request failed, from its innermost cause (``Connection refused``)."""
    while error.__cause__ or error.__context__:
        error = error.__cause__ or error.__context__  # type: ignore[assignment]
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)


def _unwrapped(pointer: str, wrapper: str) -> str:
    """``/board/grid/1`` as ``/grid/1``, and ``/board`` as the whole body (``""``)."""
    if pointer == wrapper or pointer.startswith(wrapper + "/"):
        return pointer[len(wrapper):]
    return pointer


def _arguments(call: Call, body: Json) -> list[Json]:
    """The call's arguments from ``body``; a body that is not an object of exactly the
    call's fields is refused as the gateway refuses it."""
    if isinstance(call.arguments, str):
        return [body]
    if not isinstance(body, dict):
        raise _refused([("", "expected a JSON object")])
    problems = [(f"/{name}", "this field is required") for name in call.arguments
                if name not in body]
    problems += [(json_pointer((key,)), "not a field here; check the spelling against the "
                                        "API reference")
                 for key in body if key not in call.arguments]
    if problems:
        raise _refused(problems)
    return [body[name] for name in call.arguments]


def _refused(problems: list[Problem]) -> InvalidRequestError:
    """Refused as the gateway refuses a body without the request's fields."""
    return InvalidRequestError(422, "Invalid request",
                               f"{len(problems)} problem{'s' * (len(problems) > 1)} in the "
                               "request body", problems)


@contextmanager
def connect(url: str, grpc_address: str | None, local: bool, timeout: float,
            language: str | None = None, api_key: str | None = None) -> Iterator[Referee]:
    """The referee to ask: in this process (``local``), the engine at ``grpc_address``,
    or the gateway at ``url``, with ``api_key``; the gateway words its answers in
    ``language``."""
    if local:
        with local_client(timeout, language) as client:
            yield Referee(client, "the referee in this process")
    elif grpc_address:
        with GrpcClient(grpc_address, timeout) as grpc_client:
            yield Referee(grpc_client, f"the engine at {grpc_address} (gRPC)")
    else:
        with RestClient(url, timeout, language=language, api_key=api_key) as rest_client:
            yield Referee(rest_client, f"the gateway at {url}")
