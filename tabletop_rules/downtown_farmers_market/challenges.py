"""The seven Challenge types, and how each one judges a line.

Each type is a small frozen dataclass with ``points`` (the number on the wooden crate)
and a ``judge`` method that reads the tally of one row or column (how many of each
ingredient it shows: :data:`.model.Tally`) and returns a :class:`LineVerdict` carrying
the points, a player-readable explanation and the ruling applied; ``evaluate`` does the
same from a ``Counter`` of ingredients. This module is the one place to look for "how is a
Majority challenge scored?".

A verdict depends only on the challenge and the few counts it reads, which recur from
board to board: ``judge`` picks those counts out of the tally, and the type's
``_explain`` formats the verdict they make, once, remembering the last
:data:`REMEMBERED_VERDICTS` it made.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from ..problems import quantity
from .model import INGREDIENTS, Ingredient, Tally, counts_tally
from .sets import GUARD, MAX_PACKED, most_packed, most_sets, packed_sets

Counts = Counter[Ingredient]

REMEMBERED_VERDICTS = 4096
"""Verdicts each Challenge type keeps, the least recently used dropped first."""

_remembered = lru_cache(maxsize=REMEMBERED_VERDICTS, typed=True)


@dataclass(frozen=True, slots=True)
class LineVerdict:
    """What a challenge (or the Young Shopper rule) makes of one line."""

    met: bool
    points: int
    explanation: str
    rule: str


def _names(ingredients: tuple[Ingredient, ...], conjunction: str = "and") -> str:
    names = [i.value for i in ingredients]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


@lru_cache(maxsize=1024)
def _in_words(shown: tuple[Ingredient, ...]) -> str:
    """A set in words, ``bread+milk``: once for each set, as challenge tiles repeat."""
    return "+".join([i.value for i in shown])


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _verdict(met: bool, points_if_met: int, reason: str, rule: str) -> LineVerdict:
    earned = points_if_met if met else 0
    outcome = f"met, {quantity(earned, 'point')}" if met else "not met, 0 points"
    return LineVerdict(met, earned, f"{reason}: {outcome}", rule)


class Challenge(Protocol):
    """What every Challenge type offers."""

    @property
    def points(self) -> int:
        """The number on the wooden crate (read-only: the types are frozen dataclasses)."""
        ...

    @property
    def kind(self) -> str:
        """The contract's ``type`` name for this challenge."""
        ...

    def judge(self, tally: Tally) -> LineVerdict:
        """Judge one line from how many of each ingredient it shows."""
        ...

    def evaluate(self, counts: Counts) -> LineVerdict:
        """:meth:`judge`, the line's ingredients counted in a ``Counter``."""
        ...


class _Judged:
    """What every type shares: :meth:`evaluate` in terms of the type's own ``judge``."""

    __slots__ = ()

    def judge(self, tally: Tally) -> LineVerdict:
        raise NotImplementedError

    def evaluate(self, counts: Counts) -> LineVerdict:
        return self.judge(counts_tally(counts))


@dataclass(frozen=True, slots=True)
class ExactCount(_Judged):
    """Each illustrated ingredient exactly as many times as shown; others ignored (DFM-R2)."""

    counts: tuple[tuple[Ingredient, int], ...]
    points: int
    kind = "exact_count"
    rule = "DFM-R2"

    def judge(self, tally: Tally) -> LineVerdict:
        seen = tuple([tally[INGREDIENTS.index(i)] for i, _ in self.counts])
        return self._explain(self.counts, self.points, seen)

    @staticmethod
    @_remembered
    def _explain(counts: tuple[tuple[Ingredient, int], ...], points: int,
                 seen: tuple[int, ...]) -> LineVerdict:
        wanted = ", ".join(f"{i.value} exactly {_times(n)}" for i, n in counts)
        wrong = [(i, have) for (i, n), have in zip(counts, seen) if have != n]
        if wrong:
            found = ", ".join(f"{i.value} appears {_times(have)}" if have
                              else f"there is no {i.value}" for i, have in wrong)
            return _verdict(False, points, f"Needs {wanted}; {found}", ExactCount.rule)
        return _verdict(True, points, f"Needs {wanted}, and so it is", ExactCount.rule)


@dataclass(frozen=True, slots=True)
class Forbidden(_Judged):
    """None of the illustrated ingredients may appear (DFM-R6)."""

    ingredients: tuple[Ingredient, ...]
    points: int
    kind = "forbidden"
    rule = "DFM-R6"

    def judge(self, tally: Tally) -> LineVerdict:
        seen = tuple([tally[INGREDIENTS.index(i)] for i in self.ingredients])
        return self._explain(self.ingredients, self.points, seen)

    @staticmethod
    @_remembered
    def _explain(ingredients: tuple[Ingredient, ...], points: int, seen: tuple[int, ...]
                 ) -> LineVerdict:
        shown = _names(ingredients, "or")
        present = [(i, n) for i, n in zip(ingredients, seen) if n]
        if present:
            found = ", ".join(f"{i.value} appears {_times(n)}" for i, n in present)
            return _verdict(False, points, f"No {shown} allowed; {found}", Forbidden.rule)
        return _verdict(True, points, f"No {shown} on the line", Forbidden.rule)


@dataclass(frozen=True, slots=True)
class ExactCountAny(_Judged):
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3)."""

    count: int
    points: int
    kind = "exact_count_any"
    rule = "DFM-R3"

    def judge(self, tally: Tally) -> LineVerdict:
        chosen = tuple([i for i, n in zip(INGREDIENTS, tally) if n == self.count])
        return self._explain(self.count, self.points, chosen)

    @staticmethod
    @_remembered
    def _explain(count: int, points: int, chosen: tuple[Ingredient, ...]) -> LineVerdict:
        wanted = f"One ingredient of your choice exactly {_times(count)}"
        if chosen:
            return _verdict(True, points, f"{wanted}; {_names(chosen)} "
                            f"appear{'s' if len(chosen) == 1 else ''} {_times(count)}",
                            ExactCountAny.rule)
        return _verdict(False, points, f"{wanted}; no ingredient appears {_times(count)}",
                        ExactCountAny.rule)


@dataclass(frozen=True, slots=True)
class ExactTotal(_Judged):
    """Exactly ``count`` ingredients on the line in all, repeats counted (DFM-R4)."""

    count: int
    points: int
    kind = "exact_total"
    rule = "DFM-R4"

    def judge(self, tally: Tally) -> LineVerdict:
        return self._explain(self.count, self.points, sum(tally))

    @staticmethod
    @_remembered
    def _explain(count: int, points: int, total: int) -> LineVerdict:
        return _verdict(total == count, points,
                        f"Needs exactly {count} ingredients in all; the line holds {total}",
                        ExactTotal.rule)


@dataclass(frozen=True, slots=True)
class OneOfEach(_Judged):
    """All six ingredients at least once (DFM-R5)."""

    points: int
    kind = "one_of_each"
    rule = "DFM-R5"

    def judge(self, tally: Tally) -> LineVerdict:
        return self._explain(self.points, tuple([i for i, n in zip(INGREDIENTS, tally) if not n]))

    @staticmethod
    @_remembered
    def _explain(points: int, missing: tuple[Ingredient, ...]) -> LineVerdict:
        if missing:
            return _verdict(False, points, f"Needs all six ingredients; {_names(missing)} "
                            f"{'is' if len(missing) == 1 else 'are'} missing", OneOfEach.rule)
        return _verdict(True, points, "All six ingredients appear", OneOfEach.rule)


@dataclass(frozen=True, slots=True)
class Majority(_Judged):
    """The shown ingredient strictly more often than each other one; a tie is none (DFM-R1)."""

    ingredient: Ingredient
    points: int
    kind = "majority"
    rule = "DFM-R1"

    def judge(self, tally: Tally) -> LineVerdict:
        at = INGREDIENTS.index(self.ingredient)
        mine, most = tally[at], max(tally)
        if mine == most and tally.count(most) == 1:  # more than any other
            return self._explain(self.ingredient, self.points, mine, None, 0)
        if mine == 0:
            return self._explain(self.ingredient, self.points, 0, self.ingredient, 0)
        first = tally.index(most)  # the rival: the first other ingredient seen most often
        rival = INGREDIENTS[tally.index(most, at + 1) if first == at else first]
        return self._explain(self.ingredient, self.points, mine, rival, most)

    @staticmethod
    @_remembered
    def _explain(ingredient: Ingredient, points: int, mine: int, rival: Ingredient | None,
                 rival_count: int) -> LineVerdict:
        """``rival`` is None when the ingredient has the majority, the ingredient itself
        when it is not on the line, otherwise the first other ingredient seen most
        often, ``rival_count`` times."""
        name = ingredient.value
        if rival is None:
            reason = (f"A majority of {name}: {name} appears {_times(mine)}, "
                      f"more than any other ingredient")
            return _verdict(True, points, reason, Majority.rule)
        if rival is ingredient:
            reason = f"A majority of {name}: there is no {name} on the line"
        elif mine == rival_count:
            reason = (f"A majority of {name}: {name} and {rival.value} both appear "
                      f"{_times(mine)}, and a tie is no majority")
        else:
            reason = (f"A majority of {name}: {name} appears {_times(mine)} but "
                      f"{rival.value} {_times(rival_count)}")
        return _verdict(False, points, reason, Majority.rule)


@dataclass(frozen=True, slots=True)
class PerSet(_Judged):
    """``points`` for each set formed; each ingredient in at most one set (DFM-R7).

    A set of one ingredient is the rulebook's "1 point per bread". Where several sets are
    shown, the combination that forms the most sets counts (:mod:`.sets`).
    """

    sets: tuple[tuple[Ingredient, ...], ...]
    points: int
    kind = "per_set"
    rule = "DFM-R7"
    _packed: tuple[int, ...] | None = field(init=False, repr=False, compare=False)
    """The sets packed as scoring packs a line (:func:`.sets.packed_sets`), once."""
    _shown: str = field(init=False, repr=False, compare=False)
    """The sets in words, once: ``bread+milk or egg``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_packed", packed_sets(self.sets))
        object.__setattr__(self, "_shown", " or ".join([_in_words(s) for s in self.sets]))

    def judge(self, tally: Tally) -> LineVerdict:
        if self._packed is not None and isinstance(tally, bytes) and max(tally) <= MAX_PACKED:
            formed = most_packed(self._packed, int.from_bytes(tally, "little"), GUARD)
        else:  # counts from a Counter, or too many to pack
            formed = most_sets(self.sets, tally)
        return self._explain(self._shown, self.points, formed)

    @staticmethod
    @_remembered
    def _explain(shown: str, points: int, formed: int) -> LineVerdict:
        reason = f"{quantity(points, 'point')} per {shown}; {quantity(formed, 'set')} formed"
        return _verdict(formed > 0, points * formed, reason, PerSet.rule)
