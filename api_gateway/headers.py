"""Request and answer headers as werkzeug reads and writes them, at a fraction of the cost
on the common path, since the after-request hooks run on every answer.

A request header is parsed once per distinct value (clients send the same few), and not
at all when it is absent, which is how most API clients call (neither Accept-Language
nor Accept-Encoding). An answer's ``Vary`` grows without werkzeug parsing and writing it
back through a :class:`~werkzeug.datastructures.HeaderSet`, when it is absent or the
plain list of names the hooks themselves write. Each helper gives werkzeug's result
exactly (``tests/platform/test_headers.py`` compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from werkzeug.wrappers import Response

T = TypeVar("T")

PARSED_VALUES = 256
"""How many distinct values of a request header are kept parsed: plenty for real
clients, and a bound for a caller that sends a new one every time."""

_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_plain_list = re.compile(f"{_TOKEN}(?:, {_TOKEN})*").fullmatch
"""A list header as werkzeug writes it: tokens (which it never quotes) joined by ", "."""


def parsed_once(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse``, remembered for the last :data:`PARSED_VALUES` distinct header values."""
    return lru_cache(maxsize=PARSED_VALUES)(parse)


def vary(response: Response, name: str) -> None:
    """``response.vary.add(name)`` for a header ``name`` (a token).

    werkzeug parses ``Vary`` into a set and writes it back whole; where it is absent or
    a plain list, the result is the name alone or appended (unless already there, in any
    case), which is what is written here directly. Any other ``Vary`` (quoted, oddly
    spaced) is left to werkzeug."""
    headers = response.headers
    current = headers.get("Vary")
    if current is None:
        headers["Vary"] = name
    elif not _plain_list(current):
        response.vary.add(name)
    elif name.lower() not in current.lower().split(", "):
        headers["Vary"] = f"{current}, {name}"
