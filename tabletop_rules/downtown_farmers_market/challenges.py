"""The seven Challenge types, and how each one judges a line.

Each type is a small frozen dataclass with ``points`` (the number on the wooden crate)
and an ``evaluate`` method that reads the ingredient counts of one row or column and
returns a :class:`LineVerdict` carrying the points, a player-readable explanation and
the ruling applied. This module is the one place to look for "how is a Majority
challenge scored?".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ..problems import quantity
from .model import INGREDIENTS, Ingredient

Counts = Counter[Ingredient]


@dataclass(frozen=True, slots=True)
class LineVerdict:
    """What a challenge (or the Young Shopper rule) makes of one line."""

    met: bool
    points: int
    explanation: str
    rule: str


def _names(ingredients: tuple[Ingredient, ...] | list[Ingredient], conjunction: str = "and"
           ) -> str:
    names = [i.value for i in ingredients]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


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

    def evaluate(self, counts: Counts) -> LineVerdict:
        """Judge one line from how many of each ingredient it shows."""
        ...


@dataclass(frozen=True, slots=True)
class ExactCount:
    """Each illustrated ingredient exactly as many times as shown; others ignored (DFM-R2)."""

    counts: tuple[tuple[Ingredient, int], ...]
    points: int
    kind = "exact_count"
    rule = "DFM-R2"

    def evaluate(self, counts: Counts) -> LineVerdict:
        wrong = [(i, n) for i, n in self.counts if counts[i] != n]
        wanted = ", ".join(f"{i.value} exactly {_times(n)}" for i, n in self.counts)
        if wrong:
            seen = ", ".join(f"{i.value} appears {_times(counts[i])}" if counts[i]
                             else f"there is no {i.value}" for i, _ in wrong)
            reason = f"Needs {wanted}; {seen}"
            return _verdict(False, self.points, reason, self.rule)
        return _verdict(True, self.points, f"Needs {wanted}, and so it is", self.rule)


@dataclass(frozen=True, slots=True)
class Forbidden:
    """None of the illustrated ingredients may appear (DFM-R6)."""

    ingredients: tuple[Ingredient, ...]
    points: int
    kind = "forbidden"
    rule = "DFM-R6"

    def evaluate(self, counts: Counts) -> LineVerdict:
        present = [i for i in self.ingredients if counts[i]]
        if present:
            found = ", ".join(f"{i.value} appears {_times(counts[i])}" for i in present)
            return _verdict(False, self.points, f"No {_names(self.ingredients, 'or')} allowed; {found}",
                            self.rule)
        return _verdict(True, self.points, f"No {_names(self.ingredients, 'or')} on the line",
                        self.rule)


@dataclass(frozen=True, slots=True)
class ExactCountAny:
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3)."""

    count: int
    points: int
    kind = "exact_count_any"
    rule = "DFM-R3"

    def evaluate(self, counts: Counts) -> LineVerdict:
        chosen = [i for i in INGREDIENTS if counts[i] == self.count]
        wanted = f"One ingredient of your choice exactly {_times(self.count)}"
        if chosen:
            return _verdict(True, self.points, f"{wanted}; {_names(chosen)} "
                            f"appear{'s' if len(chosen) == 1 else ''} {_times(self.count)}",
                            self.rule)
        return _verdict(False, self.points, f"{wanted}; no ingredient appears "
                        f"{_times(self.count)}", self.rule)


@dataclass(frozen=True, slots=True)
class ExactTotal:
    """Exactly ``count`` ingredients on the line in all, repeats counted (DFM-R4)."""

    count: int
    points: int
    kind = "exact_total"
    rule = "DFM-R4"

    def evaluate(self, counts: Counts) -> LineVerdict:
        total = sum(counts.values())
        return _verdict(total == self.count, self.points,
                        f"Needs exactly {self.count} ingredients in all; the line holds {total}",
                        self.rule)


@dataclass(frozen=True, slots=True)
class OneOfEach:
    """All six ingredients at least once (DFM-R5)."""

    points: int
    kind = "one_of_each"
    rule = "DFM-R5"

    def evaluate(self, counts: Counts) -> LineVerdict:
        missing = [i for i in INGREDIENTS if not counts[i]]
        if missing:
            return _verdict(False, self.points, f"Needs all six ingredients; {_names(missing)} "
                            f"{'is' if len(missing) == 1 else 'are'} missing", self.rule)
        return _verdict(True, self.points, "All six ingredients appear", self.rule)


@dataclass(frozen=True, slots=True)
class Majority:
    """The shown ingredient strictly more often than each other one; a tie is none (DFM-R1)."""

    ingredient: Ingredient
    points: int
    kind = "majority"
    rule = "DFM-R1"

    def evaluate(self, counts: Counts) -> LineVerdict:
        mine = counts[self.ingredient]
        rival, rival_count = max(((i, counts[i]) for i in INGREDIENTS if i != self.ingredient),
                                 key=lambda pair: pair[1])
        name = self.ingredient.value
        if mine > rival_count:
            reason = (f"A majority of {name}: {name} appears {_times(mine)}, "
                      f"more than any other ingredient")
            return _verdict(True, self.points, reason, self.rule)
        if mine == 0:
            reason = f"A majority of {name}: there is no {name} on the line"
        elif mine == rival_count:
            reason = (f"A majority of {name}: {name} and {rival.value} both appear "
                      f"{_times(mine)}, and a tie is no majority")
        else:
            reason = (f"A majority of {name}: {name} appears {_times(mine)} but "
                      f"{rival.value} {_times(rival_count)}")
        return _verdict(False, self.points, reason, self.rule)


@dataclass(frozen=True, slots=True)
class PerSet:
    """``points`` for each set formed; each ingredient in at most one set (DFM-R7).

    A set of one ingredient is the rulebook's "1 point per bread". Where several sets are
    shown, the combination that forms the most sets counts.
    """

    sets: tuple[tuple[Ingredient, ...], ...]
    points: int
    kind = "per_set"
    rule = "DFM-R7"

    def evaluate(self, counts: Counts) -> LineVerdict:
        formed = most_sets(self.sets, counts)
        shown = " or ".join("+".join(i.value for i in s) for s in self.sets)
        reason = f"{quantity(self.points, 'point')} per {shown}; {quantity(formed, 'set')} formed"
        return _verdict(formed > 0, self.points * formed, reason, self.rule)


def most_sets(sets: tuple[tuple[Ingredient, ...], ...], counts: Counts) -> int:
    """The most disjoint sets the counts can form, choosing among the shown sets (DFM-R7).

    Dynamic programming over what is left of the line: a line holds at most 12
    ingredients, so at most 3^6 = 729 distinct remainders exist, and each is tried once
    against each distinct set. That is a few thousand steps however the sets are chosen
    (the recursion is at most 12 deep: every set takes at least one ingredient).
    """
    needs = {tuple(Counter(s).get(i, 0) for i in INGREDIENTS) for s in sets if s}
    # A set that holds another shown set is never the better choice: drop it.
    smallest = {n for n in needs
                if not any(m != n and all(a <= b for a, b in zip(m, n)) for m in needs)}
    return _most_sets(tuple(sorted(smallest)), tuple(counts[i] for i in INGREDIENTS))


@lru_cache(maxsize=1024)
def _most_sets(needs: tuple[tuple[int, ...], ...], have: tuple[int, ...]) -> int:
    best: dict[tuple[int, ...], int] = {}

    def most(left: tuple[int, ...]) -> int:
        known = best.get(left)
        if known is None:
            known = max((1 + most(tuple(h - n for h, n in zip(left, need)))
                         for need in needs if all(n <= h for n, h in zip(need, left))),
                        default=0)
            best[left] = known
        return known

    return most(have)
