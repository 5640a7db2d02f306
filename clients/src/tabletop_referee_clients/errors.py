"""The errors both clients raise, so callers handle REST and gRPC failures alike."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RefereeError(Exception):
    """The referee refused or failed a call: a status, a title and a detail."""

    status: int | str
    title: str
    detail: str

    def __str__(self) -> str:
        return f"{self.status} {self.title}: {self.detail}"


@dataclass
class InvalidRequestError(RefereeError):
    """The request broke the contract: ``problems`` maps JSON Pointers to what is wrong;
    ``codes`` holds, in the same order, each problem's ``code`` and ``params`` (the
    sentence for machines, to word it another way), when the referee named them."""

    problems: list[tuple[str, str]] = field(default_factory=list)
    codes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __str__(self) -> str:
        listed = "; ".join(f"{pointer or '/'}: {detail}" for pointer, detail in self.problems)
        return f"{super().__str__()} ({listed})"


def json_pointer(path: Iterable[str | int]) -> str:
    """``path`` as a JSON Pointer, each part escaped as RFC 6901 says (``~`` as ``~0``,
    then ``/`` as ``~1``): the pointers a client reports are the gateway's own."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
