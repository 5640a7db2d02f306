"""The most sets a line forms for a Points per set challenge (DFM-R7).

Each ingredient of the line goes into at most one set, and where several sets are shown
the combination that forms the most counts. Counts are packed into one int, a few bits
an ingredient with the top one a guard (as :func:`.model.pack` packs a line: a byte an
ingredient), so that "does this set fit in what is left?" is three operations on ints:
with every guard bit set, subtracting the set clears the guard of each ingredient it
needs more of than is left, and borrows from no other.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from operator import mul

from .tallies import INGREDIENTS, PACK_BITS, Ingredient, Tally, counts_tally, pack

Sets = tuple[tuple[Ingredient, ...], ...]
Formed = tuple[tuple[int, int], ...]
"""Sets formed: each shown set's index, with the times it is formed."""

MAX_PACKED = (1 << PACK_BITS - 1) - 1
"""The most of an ingredient a :func:`.model.pack` holds with room for a guard bit: 127
(a line holds at most 12)."""
GUARD = sum(1 << PACK_BITS * k + PACK_BITS - 1 for k in range(len(INGREDIENTS)))
"""The guard bits of a :func:`.model.pack`: the top bit of each ingredient's byte."""


def packed_sets(sets: Sets) -> tuple[int, ...] | None:
    """The sets as :func:`.model.pack` packs them, as :func:`most_packed` and
    :func:`best_packed` take them; None
    if a set shows an ingredient 128 times or more (no well-formed challenge does)."""
    if max(map(len, sets), default=0) > MAX_PACKED:
        return None
    return _fewest({pack(s) for s in sets if s}, GUARD)


def most_sets(sets: Sets, counts: Counter[Ingredient] | Tally) -> int:
    """The most disjoint sets the counts (a ``Counter`` or a tally) can form, choosing
    among the shown sets; counts of any size, packed as wide as they need."""
    return sum([times for _, times in formed_sets(sets, counts)])


def formed_sets(sets: Sets, counts: Counter[Ingredient] | Tally) -> Formed:
    """A combination of the shown sets forming the most sets the counts can form: each
    set by its index in ``sets`` (the first shown, of equal ones), with how many times
    it is formed (:func:`best_packed`, packed as wide as the counts need)."""
    have = counts_tally(counts) if isinstance(counts, Counter) else counts
    have = tuple(max(n, 0) for n in have)  # less than none (a Counter may say so) is none
    bits = max(*have, *map(len, sets)).bit_length() + 1
    units = {ingredient: 1 << bits * k for k, ingredient in enumerate(INGREDIENTS)}
    guard = sum(units.values()) << bits - 1
    packs = [sum(map(units.__getitem__, s)) for s in sets]
    needs = _fewest({pack for pack, s in zip(packs, sets) if s}, guard)
    return formed_from(best_packed(needs, sum(map(mul, have, units.values())), guard), packs)


def formed_from(combination: tuple[tuple[int, int], ...], packs: list[int] | tuple[int, ...]
                ) -> Formed:
    """:func:`best_packed`'s combination with each packed set named by its index in the
    shown sets (``packs``: each shown set packed)."""
    return tuple((packs.index(need), times) for need, times in combination)


def _fewest(needs: set[int], guard: int) -> tuple[int, ...]:
    """The distinct packed sets, less each that holds another: never the better choice.
    A set packs to more than each set it holds, so smallest first, each is compared with
    the sets kept before it."""
    kept: list[int] = []
    for need in sorted(needs):
        for smaller in kept:
            if (need | guard) - smaller & guard == guard:
                break
        else:
            kept.append(need)
    return tuple(kept)


@lru_cache(maxsize=4096)
def most_packed(needs: tuple[int, ...], line: int, guard: int) -> int:
    """How many sets ``needs`` form in ``line`` at most, all packed with ``guard``: the
    count alone, as scoring needs it (:func:`best_packed` names a combination that forms
    them, when asked)."""
    usable = [n for n in needs if (line | guard) - n & guard == guard]
    if len(usable) < 2:  # no choice to make: as many as fit
        return sum([_as_many(need, line, guard) for need in usable])
    return _Search(usable, guard).most(0, line)


class _Search:
    """:meth:`most`: the most sets ``usable[i:]`` form in ``left``, remembering what it
    found (a class rather than a recursive closure, which would leave a reference cycle
    behind every search for the garbage collector)."""

    __slots__ = ("usable", "guard", "last", "known")

    def __init__(self, usable: list[int], guard: int) -> None:
        self.usable = usable
        self.guard = guard
        self.last = len(usable) - 1
        self.known: list[dict[int, int]] = [{} for _ in usable]

    def most(self, i: int, left: int) -> int:
        guard = self.guard
        if i == self.last:
            return _as_many(self.usable[i], left, guard)
        best = self.known[i].get(left)
        if best is None:
            need, start, taken, best = self.usable[i], left, 0, 0
            while True:
                best = max(best, taken + self.most(i + 1, left))
                if (left | guard) - need & guard != guard:
                    break
                left -= need
                taken += 1
            self.known[i][start] = best
        return best


@lru_cache(maxsize=4096)
def best_packed(needs: tuple[int, ...], line: int, guard: int) -> tuple[tuple[int, int], ...]:
    """A combination forming the most sets ``needs`` form in ``line``, all packed with
    ``guard``: each set taken, with how many times, in the order of ``needs``.

    Each set in turn is taken as many times as it can be, less and less, the sets after
    it deciding what is left; what the sets after the ``i``-th form in a remainder is
    remembered, so the search is polynomial: at most 3^6 = 729 remainders of a line of
    12 ingredients, for each set, each taken at most 12 times. The combination is then
    read back from what was remembered: each set taken as often as the best needs.
    """
    usable = [n for n in needs if (line | guard) - n & guard == guard]
    if len(usable) < 2:  # no choice to make: as many as fit
        return tuple((need, times) for need in usable
                     if (times := _as_many(need, line, guard)))
    search = _Search(usable, guard)
    most, last = search.most, search.last
    combination, left = [], line
    for i, need in enumerate(usable):
        target, taken = most(i, left), 0
        while taken + (most(i + 1, left) if i < last else 0) != target:
            left -= need
            taken += 1
        if taken:
            combination.append((need, taken))
    return tuple(combination)


def _as_many(need: int, left: int, guard: int) -> int:
    """How many times ``need`` fits in ``left``."""
    taken = 0
    while (left | guard) - need & guard == guard:
        left -= need
        taken += 1
    return taken
