"""The ingredients, and a line's tally of them: what the Challenge types judge.

The bottom floor of Downtown Farmers Market's values: the sets a line forms (:mod:`.sets`),
the Challenge types (:mod:`.challenges`) and the boards (:mod:`.model`, which re-exports
all of this) stand on it.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence


class IdentityHashedEnum(enum.Enum):
    """An enum whose members hash by identity: each member is the one object with its
    value, so identity is equality, and the hash is C code (Enum's own is Python), which
    counts where scoring and the draft look members up by the thousand."""

    __hash__ = object.__hash__


class Ingredient(IdentityHashedEnum):
    """The six ingredients, in the contract's order."""

    BREAD = "bread"
    CARROT = "carrot"
    CORN = "corn"
    CHEESE = "cheese"
    MILK = "milk"
    EGG = "egg"

    def __repr__(self) -> str:
        return f"Ingredient.{self.name}"


INGREDIENTS: tuple[Ingredient, ...] = tuple(Ingredient)

Tally = Sequence[int]
"""How many times each ingredient appears on a line, in :data:`INGREDIENTS` order: ``bytes``
as scoring counts a line (``b"\\0\\0\\2\\0\\0\\1"`` is two corns and an egg), or a tuple."""

PACK_BITS = 8
"""Bits per ingredient in a packed count (:func:`pack`): a line of a well-formed board
shows at most :data:`.model.MAX_LINE_INGREDIENTS` of an ingredient, far under 256."""


_UNIT = {ingredient: 1 << PACK_BITS * k for k, ingredient in enumerate(INGREDIENTS)}


def pack(ingredients: Sequence[Ingredient]) -> int:
    """``ingredients`` counted into one int, :data:`PACK_BITS` bits per ingredient in
    :data:`INGREDIENTS` order, so that adding packs adds their counts (exactly, while no
    ingredient reaches 256); a sum's bytes, little-endian, are its :data:`Tally`."""
    return sum(map(_UNIT.__getitem__, ingredients))


def counts_tally(counts: Counter[Ingredient]) -> tuple[int, ...]:
    """The :data:`Tally` of ingredients counted in a ``Counter``."""
    return tuple(counts[i] for i in INGREDIENTS)
