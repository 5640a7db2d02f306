"""Reading the contract's JSON form: small checks that record a Problem and carry on.

Each reader returns the value it could read (or ``None``) and appends to ``problems``
what is wrong, with the path it was given, so a validator lists every problem at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..problems import Path, Problem, quoted
from .model import GOODS, Good, Goods

GOOD_NAMES = ", ".join(g.value for g in GOODS)


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a fractional number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def read_object(value: object, path: Path, problems: list[Problem],
                what: str = "an object") -> Mapping[str, Any] | None:
    if isinstance(value, Mapping):
        return value
    problems.append(Problem(path, f"expected {what}; got {type_name(value)}"))
    return None


def read_list(value: object, path: Path, problems: list[Problem],
              what: str = "a list") -> list[Any] | None:
    if isinstance(value, list | tuple):
        return list(value)
    problems.append(Problem(path, f"expected {what}; got {type_name(value)}"))
    return None


def read_int(value: object, path: Path, problems: list[Problem], low: int, high: int,
             what: str = "a whole number") -> int | None:
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
               what: str = "a whole number") -> int | None:
    """A whole number whose range a rules check judges (``low`` and ``high`` only word
    the problem); ``3.0`` is accepted as 3, ``True`` is not."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem(path, f"expected {what} from {low} to {high}; "
                                f"got {type_name(value)}"))
        return None
    return value


def out_of_range(value: int, path: Path, low: int, high: int) -> Problem | None:
    """The problem with a number outside ``low`` to ``high``, if it is."""
    if low <= value <= high:
        return None
    return Problem(path, f"must be from {low} to {high}; got {quoted(value)}")


def read_str(value: object, path: Path, problems: list[Problem],
             what: str = "a string", max_length: int | None = 200) -> str | None:
    """A string, at most ``max_length`` characters unless that is ``None`` (a rules check
    then judges its length)."""
    if not isinstance(value, str):
        problems.append(Problem(path, f"expected {what}; got {type_name(value)}"))
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
    return Problem(path, f"at most {max_length} characters; got {len(text)}")


def read_choice(value: object, path: Path, problems: list[Problem],
                choices: Iterable[str], what: str) -> str | None:
    options = tuple(choices)
    if isinstance(value, str) and value in options:
        return value
    shown = quoted(value) if isinstance(value, str) else type_name(value)
    problems.append(Problem(path, f"{shown} is not {what}; expected one of "
                            f"{', '.join(options)}"))
    return None


def read_good(value: object, path: Path, problems: list[Problem]) -> Good | None:
    name = read_choice(value, path, problems, (g.value for g in GOODS), "a goods type")
    return Good(name) if name is not None else None


def read_goods(value: object, path: Path, problems: list[Problem], max_each: int,
               min_each: int = 0, *, ranged: bool = True) -> Goods | None:
    """A goods object ``{"wood": 2}``; each count from ``min_each`` to ``max_each``, or
    any whole number if not ``ranged`` (a rules check then judges the counts)."""
    obj = read_object(value, path, problems, f"an object of goods counts ({GOOD_NAMES})")
    if obj is None:
        return None
    counts: dict[Good, int] = {}
    ok = True
    for name, n in obj.items():
        if name not in Good._value2member_map_:
            problems.append(Problem((*path, name), f"{quoted(name)} is not a goods type; expected "
                                    f"one of {GOOD_NAMES}"))
            ok = False
            continue
        count = (read_int if ranged else read_whole)(n, (*path, name), problems, min_each,
                                                     max_each)
        if count is None:
            ok = False
        else:
            counts[Good(name)] = count
    return Goods.of(counts) if ok else None


def unknown_keys(obj: Mapping[str, Any], allowed: Iterable[str], path: Path,
                 problems: list[Problem], where: str) -> None:
    """A problem for each key of ``obj`` not in ``allowed`` (a likely typo)."""
    known = tuple(allowed)
    for key in obj:
        if key not in known:
            problems.append(Problem((*path, key), f"unknown field {quoted(key)} in {where}; "
                                    f"expected {', '.join(known)}"))
