"""The effect language: what a building does, as small declarative values.

Every building's effects are a tuple of these dataclasses, loaded from the catalog's
JSON (see ``docs/foxglove-catalog.md`` for the format and :mod:`.catalog` for the parser).
Eight kinds cover every tile the rulebook describes:

===========================  =================================================  ==========
kind                         meaning                                            example
===========================  =================================================  ==========
``gain``                     gain goods (one of several bundles) and/or points  Forest,
                             once, immediately or each production phase        Emporium
``gain_per_held``            for each ``per`` goods of ``held`` on this tile,    Barn, Coal
                             gain goods and/or points (negative: a loss); the   Shed,
                             held goods are not spent                           Ranch
``bonus_if_held``            points when this tile holds at least ``at_least``  Ranch
                             goods of ``held``
``convert``                  processing: spend ``inputs``, gain goods/points,   Butcher,
                             repeated while the inputs are there (FF-R4)        Kiln
``convert_distinct``         processing: spend ``count`` goods of different     Market
                             types for points, repeated (FF-R4)
``per_building_via_trails``  end of game: points per building reached through   Community
                             trail tiles only (FF-R6)                           Centre
``per_surrounding_processor``  end of game: points per surrounding building     Guildhall
                             with a processing effect, capped (FF-R8)
``haul``                     start of transportation: up to ``count`` goods     Hauler's
                             from other buildings placed here (FF-R17)          Hut
===========================  =================================================  ==========

Each effect knows its :class:`Phase`, the goods types it *depicts* (what the tile may
receive and hold, FF-R3 and FF-R19) and the rule id an answer cites for it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .pieces import ALL_GOODS, NO_GOODS, Good, Goods


class Phase(enum.Enum):
    """When an effect happens (the icon colours of the rulebook)."""

    IMMEDIATE = "immediate"
    PRODUCTION = "production"
    TRANSPORTATION = "transportation"
    PROCESSING = "processing"
    END_GAME = "end_game"


PRODUCTION_RULE = "FF-R5"
PROCESSING_RULE = "FF-R4"
COMMUNITY_CENTRE_RULE = "FF-R6"
RANCH_RULE = "FF-R7"
GUILDHALL_RULE = "FF-R8"
HAULERS_HUT_RULE = "FF-R17"
IMMEDIATE_RULE = "FF-RULEBOOK-CONSTRUCT-A-BUILDING"
END_OF_GAME_RULE = "FF-RULEBOOK-END-OF-GAME"
"""Rules the rulebook states plainly are cited by section (the two ``FF-RULEBOOK-`` ids);
the rulings' ids (``FF-Rn``) where a ruling settles the case."""


@dataclass(frozen=True, slots=True)
class Gain:
    """Gain one of ``options`` (a bundle of goods) and ``points``.

    One option is a plain gain (Forest: 5 wood); several are a choice (Emporium: 5 of any
    one type). ``phase`` is :attr:`Phase.IMMEDIATE` or :attr:`Phase.PRODUCTION`.
    """

    phase: Phase
    options: tuple[Goods, ...] = (NO_GOODS,)
    points: int = 0
    rule: str = ""
    kind = "gain"

    @property
    def depicts(self) -> frozenset[Good]:
        return frozenset().union(*(option.types for option in self.options))


@dataclass(frozen=True, slots=True)
class GainPerHeld:
    """For each ``per`` goods of ``held`` on this tile, gain ``goods`` and ``points``.

    The held goods stay (there is no arrow). Barn: per 2 sheep, 2 sheep; Coal Shed: per
    coal, 2 points; Charred Grounds: per coal, -1 point; Ranch: per sheep, 3 points at the
    end of the game. ``phase`` is :attr:`Phase.PRODUCTION` or :attr:`Phase.END_GAME`.
    """

    phase: Phase
    held: Good
    per: int = 1
    goods: Goods = NO_GOODS
    points: int = 0
    rule: str = ""
    kind = "gain_per_held"

    @property
    def depicts(self) -> frozenset[Good]:
        return self.goods.types | {self.held}

    def times(self, goods: Goods) -> int:
        """How many times the gain applies to a tile holding ``goods``."""
        return goods.count(self.held) // self.per


@dataclass(frozen=True, slots=True)
class BonusIfHeld:
    """``points`` when the tile holds at least ``at_least`` goods of ``held`` (Ranch)."""

    phase: Phase
    held: Good
    at_least: int
    points: int
    rule: str = ""
    kind = "bonus_if_held"

    @property
    def depicts(self) -> frozenset[Good]:
        return frozenset({self.held})


@dataclass(frozen=True, slots=True)
class Convert:
    """Processing: spend ``inputs`` from this tile, gain ``goods`` (onto it) and ``points``.

    Repeats while the tile holds the inputs (FF-R4).
    """

    inputs: Goods
    goods: Goods = NO_GOODS
    points: int = 0
    rule: str = ""
    kind = "convert"
    phase = Phase.PROCESSING

    @property
    def depicts(self) -> frozenset[Good]:
        return self.inputs.types | self.goods.types

    def times(self, goods: Goods) -> int:
        """How many conversions a tile holding ``goods`` can make, ignoring outputs."""
        return min(have // need for have, need in zip(goods, self.inputs) if need)


@dataclass(frozen=True, slots=True)
class ConvertDistinct:
    """Processing: spend ``count`` goods of different types for ``points``, repeated.

    The goods spent are chosen so that the most conversions happen (FF-R4). Takes goods of
    any type, so it depicts them all (FF-R3).
    """

    count: int
    points: int
    rule: str = ""
    kind = "convert_distinct"
    phase = Phase.PROCESSING

    @property
    def depicts(self) -> frozenset[Good]:
        return ALL_GOODS

    def times(self, goods: Goods) -> int:
        """The most conversions ``goods`` allow: the largest t with sum(min(n, t)) >= count*t."""
        t = goods.total // self.count
        while t and sum(min(n, t) for n in goods) < self.count * t:  # feasibility is monotone
            t -= 1
        return t


@dataclass(frozen=True, slots=True)
class PerBuildingViaTrails:
    """End of game: ``points`` per other building reached through trail tiles only (FF-R6)."""

    points: int
    rule: str = ""
    kind = "per_building_via_trails"
    phase = Phase.END_GAME

    @property
    def depicts(self) -> frozenset[Good]:
        return frozenset()


@dataclass(frozen=True, slots=True)
class PerSurroundingProcessor:
    """End of game: ``points`` per building among the 8 surrounding positions that has a
    processing effect, at most ``max_points`` (FF-R8)."""

    points: int
    max_points: int
    rule: str = ""
    kind = "per_surrounding_processor"
    phase = Phase.END_GAME

    @property
    def depicts(self) -> frozenset[Good]:
        return frozenset()


@dataclass(frozen=True, slots=True)
class Haul:
    """Start of each transportation phase: up to ``count`` goods from other buildings are
    placed on this tile's free slots, ignoring routes (FF-R17). Takes any type."""

    count: int
    rule: str = ""
    kind = "haul"
    phase = Phase.TRANSPORTATION

    @property
    def depicts(self) -> frozenset[Good]:
        return ALL_GOODS


Effect = (Gain | GainPerHeld | BonusIfHeld | Convert | ConvertDistinct | PerBuildingViaTrails
          | PerSurroundingProcessor | Haul)
ProcessingEffect = Convert | ConvertDistinct

_DEFAULT_RULES = {
    "convert": PROCESSING_RULE,
    "convert_distinct": PROCESSING_RULE,
    "per_building_via_trails": COMMUNITY_CENTRE_RULE,
    "per_surrounding_processor": GUILDHALL_RULE,
    "haul": HAULERS_HUT_RULE,
}


def rule_of(effect: Effect) -> str:
    """The rule id an answer cites for ``effect``: its own, or its kind's default."""
    if effect.rule:
        return effect.rule
    if effect.kind in _DEFAULT_RULES:
        return _DEFAULT_RULES[effect.kind]
    return {Phase.PRODUCTION: PRODUCTION_RULE, Phase.IMMEDIATE: IMMEDIATE_RULE}.get(
        effect.phase, END_OF_GAME_RULE)

