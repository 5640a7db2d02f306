"""What a Challenge type (or the Young Shopper rule) makes of one line: a
:class:`LineVerdict`, and which of the line's ingredients it counted.

Below the Challenge types (:mod:`.challenges`), which make the verdicts, and the scoring
(:mod:`.scoring`), which reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..messages import NO_PARAMS, Params, Wording
from .tallies import INGREDIENTS, Ingredient

EVERY = 1 << 30
"""In :attr:`LineVerdict.counted`: every one of that ingredient on the line counted."""

Counted = tuple[int, ...]
"""How many of each ingredient on a line counted toward a verdict, in :data:`INGREDIENTS`
order (:data:`EVERY`: all of them)."""

NOTHING: Counted = (0,) * len(INGREDIENTS)
EVERYTHING: Counted = (EVERY,) * len(INGREDIENTS)


def counting(*ingredients: Ingredient) -> Counted:
    """Every one of ``ingredients`` counted, nothing else."""
    return _counting(ingredients)


@lru_cache(maxsize=256)
def _counting(ingredients: tuple[Ingredient, ...]) -> Counted:
    return tuple([EVERY if i in ingredients else 0 for i in INGREDIENTS])


SetsFormed = tuple[tuple[Ingredient, ...], ...]
"""Sets formed (per_set): each set's ingredients, once per time it is formed."""

WorkOut = tuple[Callable[..., tuple[SetsFormed, Counted]], tuple[Any, ...]]
"""A function and its arguments, giving the sets formed and what they counted."""


class LineVerdict:
    """What a challenge (or the Young Shopper rule) makes of one line.

    ``explanation`` is a :class:`~tabletop_rules.messages.Sentence`: its ``code`` and
    ``params`` (the verdict's own :attr:`code` and :attr:`params`) let an app word it.
    What an app draws: ``counted``, the ingredients the verdict rests on (how many of
    each; the line's cells holding them are :attr:`.scoring.LineScore.cells`);
    ``chosen``, the ingredient the player's choice falls on (exact_count_any; Young
    Shopper: the most frequent one, counted); ``majority``, the ingredient seen strictly
    more often than every other (majority), if any; ``sets``, each set formed (per_set),
    once per time formed.

    Made for every line of every board scored, where most callers read only ``met`` and
    ``points``: the English words are made when :attr:`explanation` is first read (``said``
    is a :class:`~tabletop_rules.messages.Wording` until then), and a per_set verdict
    searches for the sets it formed when :attr:`sets` or :attr:`counted` is first read
    (``work_out``). Equal to another verdict saying the same. Not to be changed: the
    types remember their verdicts, and every line judged alike shares one, per_set's
    packed lines aside (a plain class
    with slots, as a frozen dataclass would cost a call per field to make).
    """

    __slots__ = ("met", "points", "said", "rule", "chosen", "majority", "_counted", "_sets",
                 "_work_out", "memo")

    met: bool
    points: int
    said: str | Wording
    """The explanation as made: a :class:`~tabletop_rules.messages.Wording` (the
    verdicts' own) or words already made."""
    rule: str
    chosen: Ingredient | None
    majority: Ingredient | None
    memo: Any
    """Free for whoever writes verdicts out to keep what it made of this one, once (the
    engine keeps its encoding here): a verdict seen again is the same object, kept as
    long as the type remembers it. None until then; no part of the verdict."""

    def __init__(self, met: bool, points: int, said: str | Wording, rule: str,
                 counted: Counted = NOTHING, chosen: Ingredient | None = None,
                 majority: Ingredient | None = None, sets: SetsFormed = (), *,
                 work_out: WorkOut | None = None) -> None:
        self.met = met
        self.points = points
        self.said = said
        self.rule = rule
        self.chosen = chosen
        self.majority = majority
        self._counted = counted
        self._sets = sets
        self._work_out = work_out
        self.memo = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (LineVerdict, self._fields())

    @property
    def explanation(self) -> str:
        """Why, in English: a :class:`~tabletop_rules.messages.Sentence`, with its code and
        params."""
        said = self.said
        return said.sentence() if isinstance(said, Wording) else said

    @property
    def code(self) -> str:
        return getattr(self.said, "code", "")

    @property
    def params(self) -> Params:
        params: Params = getattr(self.said, "params", NO_PARAMS)
        return params

    @property
    def counted(self) -> Counted:
        if self._work_out is not None:
            self._worked_out()
        return self._counted

    @property
    def sets(self) -> SetsFormed:
        if self._work_out is not None:
            self._worked_out()
        return self._sets

    def _worked_out(self) -> None:
        """Work out the sets and what they counted, once (a thread finding the work done
        by another since it looked finds nothing left to do: ``_work_out`` is cleared
        last)."""
        work_out = self._work_out
        if work_out is not None:
            function, arguments = work_out
            self._sets, self._counted = function(*arguments)
            self._work_out = None

    def _fields(self) -> tuple[Any, ...]:
        return (self.met, self.points, self.said, self.rule, self.counted, self.chosen,
                self.majority, self.sets)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, LineVerdict):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((self.met, self.points, self.said, self.rule, self.chosen, self.majority))

    def __repr__(self) -> str:
        names = ("met", "points", "said", "rule", "counted", "chosen", "majority", "sets")
        return "LineVerdict(" + ", ".join(
            f"{name}={value!r}" for name, value in zip(names, self._fields())) + ")"
