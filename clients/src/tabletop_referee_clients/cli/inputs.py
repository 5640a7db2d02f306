"""What the command line reads: request bodies from files, directories or standard input.

Each input is one request body, the JSON an endpoint takes. What cannot be a body (not
UTF-8, not JSON, a NaN, a lone surrogate, too large) is refused here, with the status the
gateway would answer (400, 413), before any call; what is JSON is the referee's to judge.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ..errors import InvalidRequestError

MAX_INPUT_BYTES = 4 * 1024 * 1024
"""The largest body read: the engine takes no larger message (and the gateway, by
default, nothing over 256 KiB), so a larger file is refused before any call."""

MAX_INPUTS = 1000
"""Inputs in one run: a tournament has tens of boards; more is likely the wrong folder."""

STDIN = "-"


@dataclass(frozen=True)
class Source:
    """One input: its name as shown (a path, or ``-`` for standard input)."""

    name: str
    path: Path | None = field(default=None, compare=False)

    def pointer(self, pointer: str) -> str:
        """Where a problem at ``pointer`` in the body asked is, for a person: here the
        same place (the body is this input's)."""
        return pointer

    def read(self) -> Any:
        """The body's JSON; :class:`InvalidRequestError` (pointer ``""``) for what is not
        a JSON body."""
        try:
            with sys.stdin.buffer if self.path is None else self.path.open("rb") as stream:
                raw = stream.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise _unreadable(f"cannot be read: {error.strerror}") from None
        if len(raw) > MAX_INPUT_BYTES:
            detail = (f"larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB, the most a "
                      "request may be")
            raise InvalidRequestError(413, "Request too large", detail, [("", detail)])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _unreadable(f"not UTF-8 text (byte {error.start})") from None
        try:
            body = json.loads(text, parse_constant=_refuse_constant)
            json.dumps(body, ensure_ascii=False).encode("utf-8")
        except json.JSONDecodeError as error:
            raise _unreadable(f"not JSON: {error.msg} at line {error.lineno}, column "
                              f"{error.colno}") from None
        except UnicodeEncodeError:
            raise _unreadable("a string holds a lone UTF-16 surrogate, which is not "
                              "text") from None
        except ValueError as error:  # a NaN or infinity
            raise _unreadable(str(error)) from None
        except RecursionError:
            raise _unreadable("nested too deeply to read") from None
        return body


@dataclass(frozen=True)
class Table(Source):
    """Player files ranked as one table: each input is one player's board or town (the
    ``seat`` a ranking body gives it), named by its ``name`` field or else by its file,
    and the body asked is ``{"players": [...]}`` in the inputs' order."""

    members: tuple[Source, ...] = ()
    seat: str = ""

    def read(self) -> Any:
        players = []
        for member in self.members:
            try:
                item = member.read()
            except InvalidRequestError as error:
                raise InvalidRequestError(
                    error.status, error.title, f"{member.name}: {error.detail}",
                    [(f"{member.name}#{pointer}", detail)
                     for pointer, detail in error.problems]) from None
            named = dict(item)
            name = named.pop("name", None) or Path(member.name).stem
            players.append({"name": name, self.seat: named})
        return {"players": players}

    def pointer(self, pointer: str) -> str:
        """``/players/2/board/grid/1`` as ``boards/cy.json#/grid/1`` (a JSON Pointer as a
        URI fragment, RFC 6901), ``/players/2/name`` as ``boards/cy.json#/name``."""
        parts = pointer.split("/", 4)
        if len(parts) < 4 or parts[1] != "players" or not parts[2].isdigit() \
                or int(parts[2]) >= len(self.members):
            return pointer
        member = self.members[int(parts[2])].name
        if parts[3] == self.seat:
            return f"{member}#" + (f"/{parts[4]}" if len(parts) > 4 else "")
        return f"{member}#/{'/'.join(parts[3:])}"


def player_files(paths: tuple[str, ...], found: list[Source], seat: str,
                 marker: str) -> Table | None:
    """``found`` as one table when every input is a file holding a player's board or
    town (an object with ``marker``, its defining field); None when any is a request
    body of its own (or standard input, which is read once)."""
    for source in found:
        if source.path is None:
            return None
        try:
            body = source.read()
        except InvalidRequestError:
            continue  # the table's read names it, with its file
        if not isinstance(body, dict) or marker not in body:
            return None
    return Table(f"{', '.join(paths)} ({len(found)} players)", members=tuple(found),
                 seat=seat)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"not JSON: {name} is not a JSON number")


def _unreadable(detail: str) -> InvalidRequestError:
    """Refused as the gateway refuses a body that is not JSON."""
    return InvalidRequestError(400, "Malformed request body", detail, [("", detail)])


def sources(paths: tuple[str, ...]) -> list[Source]:
    """The inputs ``paths`` name, in order: ``-`` is standard input, a directory its
    ``*.json`` files by name, a file itself. At most :data:`MAX_INPUTS`, at least one."""
    found = list(_expand(paths))
    if not found:
        raise click.UsageError(f"no .json file in {', '.join(paths)}")
    if len(found) > MAX_INPUTS:
        raise click.UsageError(f"{len(found)} inputs; at most {MAX_INPUTS} are read in one run")
    if sum(source.path is None for source in found) > 1:
        raise click.UsageError("standard input (-) can be read only once")
    return found


def _expand(paths: tuple[str, ...]) -> Iterator[Source]:
    for given in paths:
        if given == STDIN:
            yield Source(STDIN)
            continue
        path = Path(given)
        if path.is_dir():
            yield from (Source(str(item), item) for item in sorted(path.glob("*.json"))
                        if item.is_file())
        else:
            yield Source(given, path)
