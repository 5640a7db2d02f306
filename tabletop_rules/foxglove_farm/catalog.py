"""The building catalog: every building the rulebook names, and request-level definitions.

:class:`Building` and :class:`Catalog` are the values, over the plain pieces and effects alone:
the formats (:mod:`.catalog_format`, :mod:`.effect_format`) read into them, and the tiles
and towns hold them. The reviewed data file ``catalog.json`` beside this module is the
built-in catalog (:func:`.catalog_format.builtin_catalog` loads it once). A request may
add or override definitions with its own ``catalog`` object (the contract's town field);
both are read and written in one format (:mod:`.catalog_format`, documented in
``docs/foxglove-catalog.md``), effects by :mod:`.effect_format`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..messages import template
from ..names import Names
from ..problems import Path, Problem
from .effects import Convert, ConvertDistinct, Effect, Phase, ProcessingEffect
from .pieces import Good, Goods

CATALOG_DOC = "docs/foxglove-catalog.md"
TIERS = ("start", "A", "B", "C")
SOURCES = ("rulebook", "provisional", "request")
PROVENANCED_FIELDS = ("tiers", "slots", "cost", "effects")

MAX_SLOTS = 30
MAX_GOODS_PER_TYPE = 20
MAX_POINTS = 100
MAX_EFFECTS = 10
MAX_DEFINITIONS = 200
MAX_ID_LENGTH = 40


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a catalog value comes from: ``rulebook``, ``provisional`` or ``request``."""

    source: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Building:
    """One building's definition (not a tile in a town: see :class:`.BuildingTile`).

    ``documented`` is False for a tile the rulebook only names: it has no slots or effects
    until a request defines it. ``provenance`` gives, for ``tiers``, ``slots``, ``cost``
    and ``effects``, where the value comes from (see :meth:`source_of`).
    """

    id: str
    name: str
    tiers: frozenset[str]
    slots: int
    cost: Goods
    effects: tuple[Effect, ...]
    documented: bool = True
    expert: bool = False
    text: str = ""
    provenance: tuple[tuple[str, Provenance], ...] = ()
    depicts: frozenset[Good] = field(init=False, compare=False)
    """The goods types its effects depict: what it may receive and hold (FF-R3, FF-R19)."""
    processing: tuple[ProcessingEffect, ...] = field(init=False, compare=False)
    """Its processing effects, in order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "depicts",
                           frozenset().union(*(e.depicts for e in self.effects)))
        object.__setattr__(self, "processing", tuple(
            e for e in self.effects if isinstance(e, Convert | ConvertDistinct)))

    def source_of(self, name: str) -> Provenance:
        """Where the value of field ``name`` (tiers, slots, cost, effects) comes from."""
        return dict(self.provenance).get(name, Provenance("rulebook"))

    @property
    def provisional(self) -> bool:
        """True when one of its values (tiers, slots, cost, effects) is the project's
        choice until the printed tile is known."""
        return any(self.source_of(name).source == "provisional" for name in PROVENANCED_FIELDS)

    def effects_in(self, phase: Phase) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.phase is phase)

    def __repr__(self) -> str:
        return f"Building({self.id!r})"


@dataclass(frozen=True)
class Catalog:
    """Building definitions by id. ``requested`` names those a request defined."""

    buildings: Mapping[str, Building]
    requested: frozenset[str] = frozenset()

    def get(self, building_id: str) -> Building | None:
        return self.buildings.get(building_id)

    def __getitem__(self, building_id: str) -> Building:
        return self.buildings[building_id]

    def __contains__(self, building_id: object) -> bool:
        return building_id in self.buildings

    def __iter__(self) -> Iterator[Building]:
        return iter(self.buildings.values())

    def __len__(self) -> int:
        return len(self.buildings)

    @cached_property
    def names(self) -> Names:
        """Its buildings' ids by the names a person writes: the id, or the printed name
        ("Hauler's Hut"), in any case and spacing."""
        return Names({building.id: (building.name,) for building in self})

    def with_definitions(self, definitions: Mapping[str, Building]) -> Catalog:
        """This catalog with ``definitions`` added or replacing entries of the same id."""
        if not definitions:
            return self
        return Catalog({**self.buildings, **definitions},
                       self.requested | frozenset(definitions))


UNDOCUMENTED = template(
    "FF_UNDOCUMENTED_BUILDING", "{quoted} ({name}) is named in the rulebook but its effects are "
    "not printed there, so it cannot be refereed as is; define it in this request's "
    "\"catalog\", for example \"catalog\": {{\"{building}\": {{\"slots\": 3, \"effects\": "
    "[{{\"kind\": \"gain\", \"when\": \"production\", \"goods\": {{\"wheat\": 1}}}}]}}}} "
    "with the printed tile's slots and effects")


def undocumented_problem(building: Building, path: Path) -> Problem:
    """The Problem for a town that uses a building the rulebook does not describe."""
    return Problem(path, UNDOCUMENTED(quoted=repr(building.id), name=building.name,
                                      building=building.id))
