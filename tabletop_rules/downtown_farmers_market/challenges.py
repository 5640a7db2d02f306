"""The seven Challenge types, and how each one judges a line.

Each type is a small frozen dataclass with ``points`` (the number on the wooden crate)
and a ``judge`` method that reads the tally of one row or column (how many of each
ingredient it shows: :data:`.model.Tally`) and returns a :class:`LineVerdict` carrying
the points, a player-readable explanation (a :class:`~tabletop_rules.messages.Sentence`
with its code and params) and the ruling applied, and what an app draws: the ingredients
that counted, the ingredient chosen, the majority found, the sets formed; ``evaluate``
does the same from a ``Counter`` of ingredients. This module is the one place to look for "how is a
Majority challenge scored?".

A verdict depends only on the challenge and the few counts it reads, which recur from
board to board: ``judge`` picks those counts out of the tally, and the type's
``_explain`` formats the verdict they make, once, remembering the last
:data:`REMEMBERED_VERDICTS` it made. A per_set verdict rests on the whole line (the sets
it forms), which seldom recurs: only its words and its count are remembered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ..messages import NO_PARAMS, Param, Params, Say, Wording, part, template
from .tallies import INGREDIENTS, Ingredient, Tally, counts_tally, pack
from .sets import (
    GUARD,
    MAX_PACKED,
    Formed,
    best_packed,
    formed_sets,
    most_packed,
    packed_sets,
)

Counts = Counter[Ingredient]

REMEMBERED_VERDICTS = 4096
"""Verdicts each Challenge type keeps, the least recently used dropped first."""

_remembered = lru_cache(maxsize=REMEMBERED_VERDICTS, typed=True)

_BY_NAME = {ingredient.value: ingredient for ingredient in INGREDIENTS}

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


# The sentences, each ending in the outcome: ": met, 4 points" or ": not met, 0 points".
_WANTED = part("DFM_PART_EXACTLY", "{ingredient:term} exactly {count:times}")
_APPEARS = part("DFM_PART_APPEARS", "{ingredient:term} appears {count:times}")
_ABSENT = part("DFM_PART_ABSENT", "there is no {ingredient:term}")
_SET_OR = part("DFM_PART_SETS_OR", " or ")
"""What stands between two sets shown: "bread+milk or egg"."""


def _wanted(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """ExactCount: "bread exactly twice, milk exactly once"."""
    pairs = zip(params["ingredients"], params["counts"])
    return {"wanted": ", ".join([say(_WANTED, ingredient=i, count=n) for i, n in pairs])}


def _exact_found(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """ExactCount, not met: what the line shows of each ingredient not as wanted."""
    found = [say(_APPEARS, ingredient=i, count=have) if have else say(_ABSENT, ingredient=i)
             for i, n, have in zip(params["ingredients"], params["counts"],
                                   params["seen"]) if have != n]
    return {**_wanted(params, say), "found": ", ".join(found)}


def _forbidden_found(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """Forbidden, not met: each forbidden ingredient present, and how often."""
    return {"found": ", ".join([say(_APPEARS, ingredient=i, count=n) for i, n in zip(
        params["ingredients"], params["seen"]) if n])}


def _sets_shown(params: Mapping[str, Any], say: Say) -> dict[str, str]:
    """PerSet: the sets shown, "bread+milk or egg", each ingredient in the language:
    worded once for each challenge tile and language (there is one language a tag)."""
    language = say.language
    key = (params["sets"], language.tag)
    shown = _SHOWN.get(key)
    if shown is None:
        if len(_SHOWN) >= 1024:
            _SHOWN.clear()
        shown = _SHOWN[key] = language.text(_SET_OR).join(
            ["+".join([language.term(i, 1) for i in s.split("+")]) for s in params["sets"]])
    return {"shown": shown}


_SHOWN: dict[tuple[tuple[str, ...], str], str] = {}


EXACT_COUNT_MET = template(
    "DFM_EXACT_COUNT_MET", "Needs {wanted}, and so it is: met, {points:# point|# points}",
    derive=_wanted, kind="explanation")
EXACT_COUNT_NOT_MET = template(
    "DFM_EXACT_COUNT_NOT_MET", "Needs {wanted}; {found}: not met, 0 points",
    derive=_exact_found, kind="explanation")
FORBIDDEN_MET = template(
    "DFM_FORBIDDEN_MET", "No {ingredients:term,or} on the line: met, {points:# point|# points}", kind="explanation")
FORBIDDEN_BROKEN = template(
    "DFM_FORBIDDEN_BROKEN", "No {ingredients:term,or} allowed; {found}: not met, 0 points",
    derive=_forbidden_found, kind="explanation")
CHOICE_MET = template(
    "DFM_EXACT_COUNT_ANY_MET",
    "One ingredient of your choice exactly {count:times}; {ingredients:term,and} "
    "{ingredients:appears|appear} {count:times}: met, {points:# point|# points}", kind="explanation")
CHOICE_NOT_MET = template(
    "DFM_EXACT_COUNT_ANY_NOT_MET",
    "One ingredient of your choice exactly {count:times}; no ingredient appears "
    "{count:times}: not met, 0 points", kind="explanation")
TOTAL_MET = template(
    "DFM_EXACT_TOTAL_MET", "Needs exactly {count} ingredients in all; the line holds "
    "{total}: met, {points:# point|# points}", kind="explanation")
TOTAL_NOT_MET = template(
    "DFM_EXACT_TOTAL_NOT_MET", "Needs exactly {count} ingredients in all; the line holds "
    "{total}: not met, 0 points", kind="explanation")
ALL_SIX_MET = template(
    "DFM_ONE_OF_EACH_MET", "All six ingredients appear: met, {points:# point|# points}", kind="explanation")
ALL_SIX_NOT_MET = template(
    "DFM_ONE_OF_EACH_NOT_MET", "Needs all six ingredients; {missing:term,and} "
    "{missing:is|are} missing: not met, 0 points", kind="explanation")
MAJORITY_MET = template(
    "DFM_MAJORITY_MET", "A majority of {ingredient:term}: {ingredient:term} appears "
    "{count:times}, more than any other ingredient: met, {points:# point|# points}", kind="explanation")
MAJORITY_ABSENT = template(
    "DFM_MAJORITY_ABSENT", "A majority of {ingredient:term}: there is no {ingredient:term} on "
    "the line: not met, 0 points", kind="explanation")
MAJORITY_TIED = template(
    "DFM_MAJORITY_TIED", "A majority of {ingredient:term}: {ingredient:term} and "
    "{rival:term} both appear {count:times}, and a tie is no majority: not met, 0 points", kind="explanation")
MAJORITY_BEATEN = template(
    "DFM_MAJORITY_BEATEN", "A majority of {ingredient:term}: {ingredient:term} appears "
    "{count:times} but {rival:term} {rival_count:times}: not met, 0 points", kind="explanation")
PER_SET_MET = template(
    "DFM_PER_SET_MET", "{set_points:# point|# points} per {shown}; {formed:# set|# sets} "
    "formed: met, {points:# point|# points}", derive=_sets_shown, kind="explanation")
PER_SET_NOT_MET = template(
    "DFM_PER_SET_NOT_MET", "{set_points:# point|# points} per {shown}; "
    "{formed:# set|# sets} formed: not met, 0 points", derive=_sets_shown, kind="explanation")


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
