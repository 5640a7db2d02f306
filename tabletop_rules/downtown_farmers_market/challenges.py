"""The seven Challenge types, and how each one judges a line.

Each type is a small frozen dataclass with ``points`` (the number on the wooden crate)
and a ``judge`` method that reads the tally of one row or column (how many of each
ingredient it shows: :data:`.tallies.Tally`) and returns a :class:`.LineVerdict` carrying
the points, a player-readable explanation (a :class:`~tabletop_rules.messages.Sentence`
with its code and params) and the ruling applied, and what an app draws: the ingredients
that counted, the ingredient chosen, the majority found, the sets formed; ``evaluate``
does the same from a ``Counter`` of ingredients. This module is the one place to look for
"how is a Majority challenge scored?"; the sentences the verdicts say are
:mod:`.challenge_sentences`'.

A verdict depends only on the challenge and the few counts it reads, which recur from
board to board: ``judge`` picks those counts out of the tally, and the type's
``_explain`` formats the verdict they make, once, remembering the last
:data:`REMEMBERED_VERDICTS` it made. A per_set verdict rests on the whole line (the sets
it forms), which seldom recurs: only its words and its count are remembered.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from ..messages import Param, Wording
from .challenge_sentences import (
    ALL_SIX_MET,
    ALL_SIX_NOT_MET,
    CHOICE_MET,
    CHOICE_NOT_MET,
    EXACT_COUNT_MET,
    EXACT_COUNT_NOT_MET,
    FORBIDDEN_BROKEN,
    FORBIDDEN_MET,
    MAJORITY_ABSENT,
    MAJORITY_BEATEN,
    MAJORITY_MET,
    MAJORITY_TIED,
    PER_SET_MET,
    PER_SET_NOT_MET,
    TOTAL_MET,
    TOTAL_NOT_MET,
)
from .line_verdict import EVERYTHING, Counted, LineVerdict, SetsFormed, counting
from .sets import (
    GUARD,
    MAX_PACKED,
    Formed,
    best_packed,
    formed_sets,
    most_packed,
    packed_sets,
)
from .tallies import INGREDIENTS, Ingredient, Tally, counts_tally, pack

Counts = Counter[Ingredient]

REMEMBERED_VERDICTS = 4096
"""Verdicts each Challenge type keeps, the least recently used dropped first."""

_remembered = lru_cache(maxsize=REMEMBERED_VERDICTS, typed=True)

_BY_NAME = {ingredient.value: ingredient for ingredient in INGREDIENTS}


def _names(ingredients: tuple[Ingredient, ...]) -> tuple[str, ...]:
    return tuple([i.value for i in ingredients])


@lru_cache(maxsize=1024)
def _sets_in(shown: tuple[str, ...]) -> tuple[tuple[Ingredient, ...], ...]:
    """Sets in words read back: ``("bread+milk", "egg")``."""
    return tuple([tuple(map(_BY_NAME.__getitem__, s.split("+"))) for s in shown])


@lru_cache(maxsize=1024)
def _in_words(shown: tuple[Ingredient, ...]) -> str:
    """A set in words, ``bread+milk``: once for each set, as challenge tiles repeat."""
    return "+".join([i.value for i in shown])


def _earned(met: bool, points: int) -> int:
    return points if met else 0


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

    def __hash__(self) -> int:
        """Challenges are values: the engine remembers what it wrote of each."""
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
        met = all(have == n for (_, n), have in zip(counts, seen))
        shown = tuple([i for i, _ in counts])
        wanted: dict[str, Param] = {"ingredients": _names(shown),
                                    "counts": tuple([n for _, n in counts])}
        said = (EXACT_COUNT_MET.later(**wanted, points=points) if met
                else EXACT_COUNT_NOT_MET.later(**wanted, seen=seen))
        return LineVerdict(met, _earned(met, points), said, ExactCount.rule, counting(*shown))


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
        present = tuple([i for i, n in zip(ingredients, seen) if n])
        if present:
            said = FORBIDDEN_BROKEN.later(ingredients=_names(ingredients), seen=seen)
            return LineVerdict(False, 0, said, Forbidden.rule, counting(*present))
        said = FORBIDDEN_MET.later(ingredients=_names(ingredients), points=points)
        return LineVerdict(True, points, said, Forbidden.rule)


@dataclass(frozen=True, slots=True)
class ExactCountAny(_Judged):
    """Some ingredient of the player's choice appears exactly ``count`` times (DFM-R3).

    Where several do, the player's choice is the first in :data:`.model.INGREDIENTS`
    order (the points are the same whichever is chosen)."""

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
        if chosen:
            said = CHOICE_MET.later(count=count, ingredients=_names(chosen), points=points)
            return LineVerdict(True, points, said, ExactCountAny.rule, counting(chosen[0]),
                               chosen[0])
        return LineVerdict(False, 0, CHOICE_NOT_MET.later(count=count), ExactCountAny.rule)


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
        met = total == count
        said = (TOTAL_MET.later(count=count, total=total, points=points) if met
                else TOTAL_NOT_MET.later(count=count, total=total))
        return LineVerdict(met, _earned(met, points), said, ExactTotal.rule, EVERYTHING)


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
            return LineVerdict(False, 0, ALL_SIX_NOT_MET.later(missing=_names(missing)),
                               OneOfEach.rule, EVERYTHING)
        return LineVerdict(True, points, ALL_SIX_MET.later(points=points), OneOfEach.rule,
                           EVERYTHING)


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
            return self._explain(self.ingredient, self.points, mine, None, 0, self.ingredient)
        found = INGREDIENTS[tally.index(most)] if most and tally.count(most) == 1 else None
        if mine == 0:
            return self._explain(self.ingredient, self.points, 0, self.ingredient, 0, found)
        first = tally.index(most)  # the rival: the first other ingredient seen most often
        rival = INGREDIENTS[tally.index(most, at + 1) if first == at else first]
        return self._explain(self.ingredient, self.points, mine, rival, most, found)

    @staticmethod
    @_remembered
    def _explain(ingredient: Ingredient, points: int, mine: int, rival: Ingredient | None,
                 rival_count: int, found: Ingredient | None) -> LineVerdict:
        """``rival`` is None when the ingredient has the majority, the ingredient itself
        when it is not on the line, otherwise the first other ingredient seen most
        often, ``rival_count`` times; ``found`` is the ingredient with the majority, if
        any."""
        name = ingredient.value
        if rival is None:
            said = MAJORITY_MET.later(ingredient=name, count=mine, points=points)
            return LineVerdict(True, points, said, Majority.rule, counting(ingredient),
                               majority=found)
        if rival is ingredient:
            said = MAJORITY_ABSENT.later(ingredient=name)
            return LineVerdict(False, 0, said, Majority.rule, majority=found)
        said = (MAJORITY_TIED.later(ingredient=name, rival=rival.value, count=mine)
                if mine == rival_count else
                MAJORITY_BEATEN.later(ingredient=name, count=mine, rival=rival.value,
                                rival_count=rival_count))
        return LineVerdict(False, 0, said, Majority.rule, counting(ingredient, rival),
                           majority=found)


@dataclass(frozen=True, slots=True)
class PerSet(_Judged):
    """``points`` for each set formed; each ingredient in at most one set (DFM-R7).

    A set of one ingredient is the rulebook's "1 point per bread". Where several sets are
    shown, the combination that forms the most sets counts (:mod:`.sets`); the verdict
    names one such combination.
    """

    sets: tuple[tuple[Ingredient, ...], ...]
    points: int
    kind = "per_set"
    rule = "DFM-R7"
    _packed: tuple[int, ...] | None = field(init=False, repr=False, compare=False)
    """The sets packed as scoring packs a line (:func:`.sets.packed_sets`), once."""
    _shown: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The sets in words, once: ``("bread+milk", "egg")``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_packed", packed_sets(self.sets))
        object.__setattr__(self, "_shown", tuple([_in_words(s) for s in self.sets]))

    def judge(self, tally: Tally) -> LineVerdict:
        if self._packed is not None and isinstance(tally, bytes) and max(tally) <= MAX_PACKED:
            line = int.from_bytes(tally, "little")
            count = most_packed(self._packed, line, GUARD)
            return LineVerdict(count > 0, self.points * count,
                               _per_set_said(self._shown, self.points, count), PerSet.rule,
                               work_out=(_formed_in, (self._shown, self._packed, line)))
        # counts from a Counter, or too many to pack
        return self._explain(self._shown, self.points, formed_sets(self.sets, tally))

    @staticmethod
    @_remembered
    def _explain(shown: tuple[str, ...], points: int, formed: Formed) -> LineVerdict:
        """Keyed by the sets in words (strings hash once): the sets formed are read back
        from them (:func:`_made`)."""
        count = sum([times for _, times in formed])
        return LineVerdict(count > 0, points * count, _per_set_said(shown, points, count),
                           PerSet.rule, work_out=(_made, (shown, formed)))


@_remembered
def _per_set_said(shown: tuple[str, ...], points: int, count: int) -> Wording:
    """What a per_set verdict says: the same for every line forming as many sets (a packed
    line's verdict is not remembered, as lines seldom repeat: only its words, and the
    count, which :func:`.sets.most_packed` remembers)."""
    if count:
        return PER_SET_MET.later(set_points=points, sets=shown, formed=count,
                                 points=points * count)
    return PER_SET_NOT_MET.later(set_points=points, sets=shown, formed=0)


def _formed_in(shown: tuple[str, ...], needs: tuple[int, ...], line: int
               ) -> tuple[SetsFormed, Counted]:
    """The sets a packed ``line`` forms (:func:`.sets.best_packed`), and what they hold:
    the line less what is left of it."""
    combination = best_packed(needs, line, GUARD)
    by_pack = _by_pack(shown)
    made = tuple([by_pack[need] for need, times in combination for _ in range(times)])
    used = sum([need * times for need, times in combination])
    return made, tuple(used.to_bytes(len(INGREDIENTS), "little"))


@lru_cache(maxsize=1024)
def _by_pack(shown: tuple[str, ...]) -> dict[int, tuple[Ingredient, ...]]:
    """The sets shown (in words) by their pack (:func:`.model.pack`), the first shown of
    equal ones."""
    by_pack: dict[int, tuple[Ingredient, ...]] = {}
    for one in _sets_in(shown):
        by_pack.setdefault(pack(one), one)
    return by_pack


@lru_cache(maxsize=REMEMBERED_VERDICTS)
def _made(shown: tuple[str, ...], formed: Formed) -> tuple[SetsFormed, Counted]:
    """The sets ``formed`` of the sets ``shown`` (in words), each once per time formed, and
    the ingredients they hold (:data:`Counted`)."""
    sets = _sets_in(shown)
    made = tuple([sets[index] for index, times in formed for _ in range(times)])
    if sum(map(len, made)) <= MAX_PACKED:  # packed exactly: no ingredient reaches 256
        return made, tuple(sum(map(pack, made)).to_bytes(len(INGREDIENTS), "little"))
    return made, tuple([sum([s.count(i) for s in made]) for i in INGREDIENTS])
