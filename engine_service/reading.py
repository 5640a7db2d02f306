"""What every game's protobuf reader shares: problems collected with their paths.

A converter reads a request message straight into rule values with a :class:`Reader`,
noting each wire-shape problem (an enum value left unset or unknown, a oneof with no
member, ...) at its JSON Pointer path instead of stopping at the first; :meth:`done`
then adds what the rules' own checks find and raises every problem at once, so a
request with both a misspelt name and a bad enum hears about both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from mypy_extensions import mypyc_attr

from tabletop_rules.messages import Sentence, Template
from tabletop_rules.problems import InvalidInputError, Path, Problem, quoted

Value = TypeVar("Value")
Check = Callable[[], Iterable[Problem]]


@mypyc_attr(allow_interpreted_subclasses=True)  # each game's reader subclasses it
class Reader:
    """Collects the problems found reading one request."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, path: Path, message: Sentence) -> None:
        self.problems.append(Problem(path, message))

    def enum(self, number: int, values: Mapping[int, Value], default: Value, path: Path,
             not_one_of: Template, expected: tuple[str, ...], named: EnumTypeWrapper) -> Value:
        """The rule value for enum ``number``; for a number ``values`` lacks, a problem
        (``not_one_of``: "'SIDE_UNSPECIFIED' is not a side; expected one of N, E, S, W",
        naming the number's protobuf name in ``named``, its enum) and ``default``."""
        if number in values:
            return values[number]
        self.problem(path, not_one_of(value=quoted(enum_name(named, number)),
                                      expected=expected))
        return default

    def done(self, check: Check | None = None, *, partial: bool = False) -> None:
        """Raise every problem: the wire-shape ones found reading, then the rules'
        ``check``. The check runs only on input that read cleanly, unless it is
        ``partial``: a check told what could not be read (so it skips what needs the
        whole input), whose problems are reported beside the wire-shape ones."""
        if check is not None and (partial or not self.problems):
            self.problems.extend(check())
        if self.problems:
            raise InvalidInputError(self.problems)


def enum_name(enum: EnumTypeWrapper, number: int) -> str:
    """The protobuf name of an enum value (``SIDE_UNSPECIFIED``), or of an unknown number."""
    try:
        return enum.Name(number)
    except ValueError:
        return f"{enum.DESCRIPTOR.name} number {number}"
