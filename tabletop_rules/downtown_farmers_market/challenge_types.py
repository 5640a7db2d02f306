"""The seven Challenge types as data: each one's name, ruling, meaning and parameters, with
the values each parameter accepts, so an app can offer them without a copy of the rules.

Derived, not written twice: the types are the challenge classes (:mod:`.challenges`), a
type's parameters are its dataclass fields in the contract's JSON names, and each limit is
the constant :func:`.validation.check_challenge` checks it against. A field without a
description here (a new challenge type's) fails :func:`challenge_types` loudly.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache

from .challenges import (
    ExactCount,
    ExactCountAny,
    ExactTotal,
    Forbidden,
    Majority,
    OneOfEach,
    PerSet,
)
from .model import INGREDIENTS, MAX_CHALLENGE_POINTS, MAX_LINE_INGREDIENTS, MAX_SETS

ChallengeClass = type[ExactCount | Forbidden | ExactCountAny | ExactTotal | OneOfEach | Majority
                      | PerSet]

CHALLENGE_CLASSES: tuple[ChallengeClass, ...] = (
    ExactCount, Forbidden, ExactCountAny, ExactTotal, OneOfEach, Majority, PerSet)
"""The seven types, in the contract's order."""


@dataclass(frozen=True)
class Values:
    """What a parameter accepts, in the contract's JSON: a ``whole_number`` from
    ``minimum`` to ``maximum``; an ``ingredient``; a ``list`` of ``min_items`` to
    ``max_items`` ``items`` (each value at most once when ``unique``); or an ``object``
    whose keys are ingredients, ``min_items`` to ``max_items`` of them, each value one of
    ``items``."""

    kind: str
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False
    items: Values | None = None


@dataclass(frozen=True)
class Parameter:
    """One field of a challenge's JSON object besides its ``type``."""

    name: str
    description: str
    values: Values


@dataclass(frozen=True)
class ChallengeType:
    """One Challenge type: its ``type`` name, the ruling it follows, what it asks of a
    line, and its parameters in the order the contract writes them."""

    type: str
    rule: str
    description: str
    parameters: tuple[Parameter, ...]


_INGREDIENT = Values("ingredient")
_LINE_COUNT = Values("whole_number", 1, MAX_LINE_INGREDIENTS)
"""A number of ingredients on one line: a line holds at most 12."""

PARAMETERS = {parameter.name: parameter for parameter in (
    Parameter("counts", "each illustrated ingredient and how many times it must appear",
              Values("object", min_items=1, max_items=len(INGREDIENTS), items=_LINE_COUNT)),
    Parameter("ingredients", "the illustrated ingredients, none of which may appear",
              Values("list", min_items=1, max_items=len(INGREDIENTS), unique=True,
                     items=_INGREDIENT)),
    Parameter("count", "how many times (exact_count_any: some one ingredient; exact_total: "
                       "all ingredients together) must appear", _LINE_COUNT),
    Parameter("ingredient", "the illustrated ingredient", _INGREDIENT),
    Parameter("sets", "the sets shown; a set of one ingredient is 'points per ingredient'",
              Values("list", min_items=1, max_items=MAX_SETS,
                     items=Values("list", min_items=1, max_items=MAX_LINE_INGREDIENTS,
                                  items=_INGREDIENT))),
    Parameter("points", "the number on the wooden crate: the points a met challenge "
                        "scores (per_set: per set formed)",
              Values("whole_number", 0, MAX_CHALLENGE_POINTS)),
)}
"""Every challenge field by its JSON name, with the limits the rules check it against."""


def _description(kind: ChallengeClass) -> str:
    """The first line of the class's docstring, as plain text: what the type asks of a
    line."""
    return (kind.__doc__ or "").strip().splitlines()[0].replace("``", "")


@cache
def challenge_types() -> tuple[ChallengeType, ...]:
    """The seven Challenge types, their parameters and the values each accepts."""
    return tuple(
        ChallengeType(kind.kind, kind.rule, _description(kind),
                      tuple(PARAMETERS[f.name] for f in dataclasses.fields(kind) if f.init))
        for kind in CHALLENGE_CLASSES)
