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
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem(path, f"expected {what} from {low} to {high}; "
                                f"got {type_name(value)}"))
        return None
    if not low <= value <= high:
        problems.append(Problem(path, f"must be from {low} to {high}; got {quoted(value)}"))
        return None
    return value


def read_str(value: object, path: Path, problems: list[Problem],
             what: str = "a string", max_length: int = 200) -> str | None:
    if not isinstance(value, str):
        problems.append(Problem(path, f"expected {what}; got {type_name(value)}"))
        return None
    if len(value) > max_length:
        problems.append(Problem(path, f"at most {max_length} characters; got {len(value)}"))
        return None
    return value


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
               min_each: int = 0) -> Goods | None:
    """A goods object ``{"wood": 2}``; each count from ``min_each`` to ``max_each``."""
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
        count = read_int(n, (*path, name), problems, min_each, max_each)
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
