"""How the rules report input they cannot accept.

A :class:`Problem` names where the input is wrong (a path into the request's JSON form,
as in the public contract) and says why in words a player understands. Validators
collect every problem instead of stopping at the first, the way a chess library lists
everything wrong with a hand-entered position.
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import Sentence, Template, template

PathPart = str | int
Path = tuple[PathPart, ...]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, where it is, and why."""

    path: Path
    message: Sentence
    """Why, in English, with its code and params (each problem's :func:`.template` is
    declared beside the check that finds it)."""

    @property
    def pointer(self) -> str:
        """The path as an RFC 6901 JSON Pointer ("" is the whole document)."""
        return json_pointer(self.path)

    def under(self, *prefix: PathPart) -> Problem:
        """The same problem seen from a document that nests this one under ``prefix``."""
        return Problem((*prefix, *self.path), self.message)


def quantity(n: int, noun: str) -> str:
    """``quantity(1, "point")`` is "1 point", ``quantity(2, "point")`` "2 points" (and
    ``-1`` "-1 point"): the one pluralising helper for every game's sentences."""
    return f"{n} {noun}{'' if abs(n) == 1 else 's'}"


QUOTE_LIMIT = 60
"""The most characters of a request's value a message quotes: enough to recognise it,
while a 100 KB string is not sent back whole."""


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value of the request as a message quotes it: a string in quotes (its ``repr``,
    which also escapes what cannot be printed), anything else as ``str``; cut to
    ``limit`` characters with an ellipsis."""
    if not isinstance(value, str):
        return shortened(str(value), limit)
    if len(value) <= limit:
        return repr(value)
    cut = repr(value[:limit])
    return f"{cut[:-1]}…{cut[-1]}"


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else f"{text[:limit]}…"


def json_pointer(path: Path) -> str:
    """Render ``path`` as a JSON Pointer, escaping ``~`` and ``/`` as RFC 6901 says."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class InvalidInputError(ValueError):
    """Input that breaks the contract; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            raise ValueError("InvalidInputError needs at least one problem")
        self.problems: tuple[Problem, ...] = tuple(problems)
        count = len(self.problems)
        summary = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in self.problems[:3])
        more = f" (and {count - 3} more)" if count > 3 else ""
        super().__init__(f"{quantity(count, 'problem')}: {summary}{more}")

    def under(self, *prefix: PathPart) -> InvalidInputError:
        """The same error with every path nested under ``prefix``."""
        return InvalidInputError([p.under(*prefix) for p in self.problems])


TOO_LONG = template("TOO_LONG", "at most {limit} characters; got {length}")
"""A string longer than its field takes (a name, a building id...)."""
NUMBER_OUT_OF_RANGE = template("NUMBER_OUT_OF_RANGE", "must be from {min} to {max}; got {value}")
"""A number beyond what the rules take (``value`` as :func:`quoted` shows it)."""
def not_one_of(noun: str) -> Template:
    """The problem of a name that is not one of ``noun``'s (``NOT_AN_INGREDIENT``: "{value}
    is not an ingredient; expected one of {expected}"), said alike by the gateway's JSON
    reader and the engine's protobuf reader (each declares those it says)."""
    code = "NOT_" + "_".join(noun.upper().split())
    return template(code, f"{{value}} is not {noun}; expected one of {{expected}}")


def give_the(noun: str) -> Template:
    """The problem of a tagged object without its tag (``GIVE_THE_CHALLENGE_TYPE``: "give
    the challenge type; expected one of {expected}"), said alike by the gateway's JSON
    reader and the rules' own."""
    kind = noun.split(" ", 1)[-1]  # drop "a"/"an"
    return template(f"GIVE_THE_{'_'.join(kind.upper().split())}",
                    f"give the {kind}; expected one of {{expected}}")


def not_one_of_like(noun: str) -> Template:
    """:func:`not_one_of` for a near miss, with the nearest names (``like``: "{value} is
    not an ingredient; did you mean egg? ...")."""
    code = "NOT_" + "_".join(noun.upper().split()) + "_LIKE"
    return template(code, f"{{value}} is not {noun}; did you mean {{like:term,or}}? Expected "
                          f"one of {{expected}}")


EXPECTED_BOOLEAN = template("EXPECTED_BOOLEAN", "expected true or false")
"""A JSON value that should be true or false (the gateway's schemas and the rules' own
JSON readers say it alike)."""
MORE_PROBLEMS = template(
    "MORE_PROBLEMS", "{count:# more problem|# more problems} found but not listed (at most "
    "{limit} are); fix these and send the request again")
NOT_A_PROTOBUF_MESSAGE = template(
    "NOT_A_PROTOBUF_MESSAGE", "these bytes are not a valid protobuf message of the method's "
                              "request type (or a string in it is not UTF-8)")
"""Bytes a gRPC caller sent that are no request of the method (the engine's own check)."""
INVALID_VALUE = template("INVALID_VALUE", "{message}")
"""A message no template of ours words: one of a library's own (marshmallow's, should
the gateway's JSON reader meet one it does not know), its words the ``message`` param.
Every problem the rules and the engine find has a template of its own."""


def worded(message: str) -> Sentence:
    """A library's ``message`` as a Sentence: itself, or an :data:`INVALID_VALUE` one."""
    return message if isinstance(message, Sentence) else INVALID_VALUE(message=message)
