"""Reading the contract's JSON form: small checks that record a Problem and carry on.

Each reader returns the value it could read (or ``None``) and appends to ``problems``
what is wrong, with the path it was given, so a reader lists every problem at once, as
the gateway does. Both games' ``json_form`` readers are made of these.

What a reader expected is either a :func:`noun` (a fragment, "a town object", named in
the problem's params by its key, ``what``: ``FF_NOUN_TOWN_OBJECT``, with the JSON type it
got, ``got``: ``number``), as Foxglove Farm words its problems, or one of the gateway's
own problems (:data:`EXPECTED_OBJECT`, ``NOT_AN_INGREDIENT``), said as the gateway's
schemas say it, null included (:data:`NOT_NULL`), as Downtown Farmers Market's reader
does: its problems are then the gateway's, word for word. The nouns' codes keep the
``FF_`` prefix they were first answered with: answers carry them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from .messages import Param, Say, Sentence, Template, find, part, template
from .problems import (
    NUMBER_OUT_OF_RANGE,
    TOO_LONG,
    InvalidInputError,
    Path,
    Problem,
    quoted,
    shortened,
)

T = TypeVar("T")
Reader = Callable[[object, Path, list[Problem]], T]
"""A reader of one value at a path, recording its problems: ``None`` if it has any."""


def noun(key: str, english: str) -> Template:
    """What a reader expects (``english``, "a town object"), as a fragment keyed
    ``FF_NOUN_<key>`` that its problem's params name. It may name params of its own
    ("a {kind} effect"), given with the reader's."""
    return part(f"FF_NOUN_{key}", english)


_TYPES = {name: part(f"JSON_TYPE_{name.upper().replace(' ', '_')}", english) for name, english in (
    ("null", "null"), ("boolean", "a boolean"), ("number", "a number"),
    ("fractional number", "a fractional number"), ("string", "a string"), ("list", "a list"),
    ("object", "an object"))}
"""The JSON types a reader names what it got by (:func:`json_type`), each worded."""


def _worded_nouns(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """The fields a reader's problem words from its params: what it expected (``what``,
    ``where``: a :func:`noun`'s key) and the JSON type it got (``got``)."""
    derived = {}
    for name in ("what", "where"):
        if name in params:
            made = find(str(params[name]))
            assert made is not None, params[name]
            derived[name] = say(made, **params)
    if "got" in params:
        got = _TYPES.get(str(params["got"]))
        derived["got"] = say(got) if got is not None else str(params["got"])
    return derived


# The problems' sentences, each named by its code, its format fields its params.
EXPECTED = template("FF_EXPECTED", "expected {what}; got {got}", derive=_worded_nouns)
EXPECTED_IN_RANGE = template("FF_EXPECTED_IN_RANGE", "expected {what} from {min} to {max}; "
                             "got {got}", derive=_worded_nouns)
NOT_ONE_OF = template("FF_NOT_ONE_OF", "{value} is not {what}; expected one of {expected}",
                      derive=_worded_nouns)
NOT_ONE_OF_TYPE = template("FF_NOT_ONE_OF_TYPE", "{got} is not {what}; expected one of "
                                                 "{expected}", derive=_worded_nouns)
UNKNOWN_KEY = template("FF_UNKNOWN_KEY", "unknown field {key} in {where}; expected {expected}",
                       derive=_worded_nouns)


# The gateway's problems with a value of the wrong JSON shape (its schemas word
# marshmallow's messages with them: api_gateway.parsing).
UNKNOWN_FIELD = template("UNKNOWN_FIELD",
                         "not a field here; check the spelling against the API reference")
REQUIRED = template("REQUIRED", "this field is required")
NOT_NULL = template("NOT_NULL", "may not be null")
EXPECTED_WHOLE_NUMBER = template("EXPECTED_WHOLE_NUMBER", "expected a whole number")
EXPECTED_ARRAY = template("EXPECTED_ARRAY", "expected a JSON array")
EXPECTED_STRING = template("EXPECTED_STRING", "expected a string")
EXPECTED_OBJECT = template("EXPECTED_OBJECT", "expected a JSON object")


AN_OBJECT = noun("OBJECT", "an object")
A_LIST = noun("LIST", "a list")
A_WHOLE_NUMBER = noun("WHOLE_NUMBER", "a whole number")
A_STRING = noun("STRING", "a string")


def json_type(value: object) -> str:
    """The JSON type of ``value``, as a reader's problem names what it got."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "number"
    if isinstance(value, float):
        return "fractional number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def expected(what: Template, value: object, path: Path, **about: Param) -> Sentence:
    """The problem of a ``value`` at ``path`` that is not ``what``: a :func:`noun` (its
    own params ``about``) worded with what ``value`` is, or a gateway's problem said as it
    is (or, for null anywhere but the whole document, :data:`NOT_NULL`, as the gateway
    says of a field)."""
    if not what.part:
        return NOT_NULL() if value is None and path else what()
    return EXPECTED(what=what.key, got=json_type(value), **about)


def read_object(value: object, path: Path, problems: list[Problem],
                what: Template = AN_OBJECT) -> Mapping[str, Any] | None:
    if isinstance(value, Mapping):
        return value
    problems.append(Problem(path, expected(what, value, path)))
    return None


def read_list(value: object, path: Path, problems: list[Problem],
              what: Template = A_LIST) -> list[Any] | None:
    if isinstance(value, list | tuple):
        return list(value)
    problems.append(Problem(path, expected(what, value, path)))
    return None


def read_int(value: object, path: Path, problems: list[Problem], low: int, high: int,
             what: Template = A_WHOLE_NUMBER) -> int | None:
    """A whole number from ``low`` to ``high``; ``3.0`` is accepted as 3, ``True`` is not."""
    number = read_whole(value, path, problems, low, high, what)
    if number is None:
        return None
    problem = out_of_range(number, path, low, high)
    if problem is not None:
        problems.append(problem)
        return None
    return number


def read_whole(value: object, path: Path, problems: list[Problem], low: int, high: int,
               what: Template = A_WHOLE_NUMBER) -> int | None:
    """A whole number whose range a rules check judges (``low`` and ``high`` only word
    the problem); ``3.0`` is accepted as 3, ``True`` is not."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem(path, EXPECTED_IN_RANGE(
            what=what.key, min=low, max=high, got=json_type(value)) if what.part
            else expected(what, value, path)))
        return None
    return value


def read_integer(value: object, path: Path, problems: list[Problem]) -> int | None:
    """A JSON integer read as strictly as the gateway reads one (neither ``3.0`` nor
    ``true``); its range is the rules' to judge."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    problems.append(Problem(path, expected(EXPECTED_WHOLE_NUMBER, value, path)))
    return None


def out_of_range(value: int, path: Path, low: int, high: int) -> Problem | None:
    """The problem with a number outside ``low`` to ``high``, if it is."""
    if low <= value <= high:
        return None
    return Problem(path, NUMBER_OUT_OF_RANGE(min=low, max=high, value=quoted(value)))


def read_str(value: object, path: Path, problems: list[Problem],
             what: Template = A_STRING, max_length: int | None = 200) -> str | None:
    """A string, at most ``max_length`` characters unless that is ``None`` (a rules check
    then judges its length)."""
    if not isinstance(value, str):
        problems.append(Problem(path, expected(what, value, path)))
        return None
    problem = None if max_length is None else too_long(value, path, max_length)
    if problem is not None:
        problems.append(problem)
        return None
    return value


def too_long(text: str, path: Path, max_length: int) -> Problem | None:
    """The problem with a string longer than ``max_length`` characters, if it is."""
    if len(text) <= max_length:
        return None
    return Problem(path, TOO_LONG(limit=max_length, length=len(text)))


def read_choice(value: object, path: Path, problems: list[Problem],
                choices: Iterable[str], what: Template, **about: Param) -> str | None:
    """One of ``choices``; ``what`` (a :func:`noun` and its params ``about``, or a
    :func:`.not_one_of` template) says what."""
    options = tuple(choices)
    if isinstance(value, str) and value in options:
        return value
    problems.append(Problem(path, _not_one_of(value, path, what, options, about)))
    return None


def _not_one_of(value: object, path: Path, what: Template, options: tuple[str, ...],
                about: Mapping[str, Param]) -> Sentence:
    """A noun's "not one of" problem, or the gateway's (:func:`.not_one_of`), which quotes
    a value that is no string as its JSON (and says null is :data:`NOT_NULL`)."""
    if not what.part:
        if value is None and path:
            return NOT_NULL()
        shown = quoted(value) if isinstance(value, str) else shortened(json.dumps(value))
        return what(value=shown, expected=options)
    if isinstance(value, str):
        return NOT_ONE_OF(value=quoted(value), what=what.key, expected=options, **about)
    return NOT_ONE_OF_TYPE(got=json_type(value), what=what.key, expected=options, **about)


def unknown_keys(obj: Mapping[str, Any], allowed: Iterable[str], path: Path,
                 problems: list[Problem], where: Template, **about: Param) -> None:
    """A problem for each key of ``obj`` not in ``allowed`` (a likely typo); ``where``
    (a :func:`noun` and its params ``about``) names the object, or is the problem said."""
    known = tuple(allowed)
    for key in obj:
        if key not in known:
            problems.append(Problem((*path, key), UNKNOWN_KEY(
                key=quoted(key), where=where.key, expected=known, **about)
                if where.part else where()))


def read_each(value: object, path: Path, problems: list[Problem],
              reader: Reader[T]) -> list[T] | None:
    """A JSON array whose items ``reader`` reads, each at its index; ``None`` if the array
    or any item has a problem (an item may read as ``None``: an empty space)."""
    items = read_list(value, path, problems, EXPECTED_ARRAY)
    if items is None:
        return None
    before = len(problems)
    read = [reader(item, (*path, i), problems) for i, item in enumerate(items)]
    return read if len(problems) == before else None


def read_fields(value: object, path: Path, problems: list[Problem],
                readers: Mapping[str, Reader[Any]],
                defaults: Mapping[str, object] | None = None) -> dict[str, Any] | None:
    """A JSON object read as the gateway's schemas read one: each field its reader
    reads, a field without a default :data:`REQUIRED`, a key with no reader an
    :data:`UNKNOWN_FIELD`; ``None`` if any has a problem. A field left out takes its
    default as it is (unread)."""
    obj = read_object(value, path, problems, EXPECTED_OBJECT)
    if obj is None:
        return None
    before = len(problems)
    unknown_keys(obj, readers, path, problems, UNKNOWN_FIELD)
    fields = {}
    for key, reader in readers.items():
        if key in obj:
            fields[key] = reader(obj[key], (*path, key), problems)
        elif defaults is not None and key in defaults:
            fields[key] = defaults[key]
        else:
            problems.append(Problem((*path, key), REQUIRED()))
    return fields if len(problems) == before else None


def refuse(problems: list[Problem], path: Path = ()) -> None:
    """Raise :class:`.InvalidInputError` with every problem found, if there is one, each
    seen from a document that nests the one read under ``path``."""
    if problems:
        raise InvalidInputError([p.under(*path) for p in problems])
