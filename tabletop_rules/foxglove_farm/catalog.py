"""The building catalog: every building the rulebook names, and request-level definitions.

The built-in catalog is one reviewed data file, ``catalog.json`` beside this module. A
request may add or override definitions with its own ``catalog`` object (the contract's
town field). Both use one format, documented in ``docs/foxglove-catalog.md``:

- a field's value may be given plainly (``"slots": 4``) or with its provenance
  (``"slots": {"value": 4, "source": "provisional", "note": "..."}``); the rulebook does not
  print every slot count and cost, so the built-in file records for each field whether the
  rulebook states it (``rulebook``) or the project chose it until the printed tile is known
  (``provisional``). Request definitions are ``request`` unless they say otherwise.
- a building the rulebook names without describing it is ``"status": "undocumented"``: a
  town using it is refused with a Problem saying how to define it in the request's catalog.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..problems import InvalidInputError, Path, Problem, quoted
from ._json import (
    read_choice,
    read_good,
    read_goods,
    read_int,
    read_list,
    read_object,
    read_str,
    unknown_keys,
)
from .effects import (
    BonusIfHeld,
    Convert,
    ConvertDistinct,
    Effect,
    Gain,
    GainPerHeld,
    Haul,
    PerBuildingViaTrails,
    PerSurroundingProcessor,
    Phase,
    ProcessingEffect,
)
from .model import GOODS, NO_GOODS, Good, Goods

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

    def with_definitions(self, definitions: Mapping[str, Building]) -> Catalog:
        """This catalog with ``definitions`` added or replacing entries of the same id."""
        if not definitions:
            return self
        return Catalog({**self.buildings, **definitions},
                       self.requested | frozenset(definitions))


@cache
def builtin_catalog() -> Catalog:
    """The catalog of every building the rulebook names (loaded once from catalog.json)."""
    text = resources.files(__package__).joinpath("catalog.json").read_text(encoding="utf-8")
    try:
        return read_catalog_file(json.loads(text))
    except InvalidInputError as error:  # a broken package file: say where, loudly
        raise RuntimeError(f"catalog.json is invalid: {error}") from error


def read_catalog_file(data: object) -> Catalog:
    """A whole catalog in the file format of ``catalog.json``: ``{"buildings": {id:
    definition}}``, where a definition may be ``"status": "undocumented"``."""
    problems: list[Problem] = []
    obj = read_object(data, (), problems, "a catalog file object")
    if obj is None or "buildings" not in obj:
        raise InvalidInputError(problems or [Problem(("buildings",), "give the buildings")])
    return Catalog(_parse_definitions(obj["buildings"], None, ("buildings",), builtin=True))


def parse_catalog(data: object, base: Catalog | None = None,
                  path: Path = ("catalog",)) -> Catalog:
    """``base`` (the built-in catalog by default) with a request's ``catalog`` object
    applied: each entry adds a building or overrides fields of an existing one.

    Raises :class:`InvalidInputError` with every problem, paths under ``path``
    (``("catalog", "windmill", "effects", 0, "kind")``).
    """
    base = base if base is not None else builtin_catalog()
    if data is None:
        return base
    return base.with_definitions(_parse_definitions(data, base, path, builtin=False))


def undocumented_problem(building: Building, path: Path) -> Problem:
    """The Problem for a town that uses a building the rulebook does not describe."""
    return Problem(path, (
        f"{building.id!r} ({building.name}) is named in the rulebook but its effects are "
        f"not printed there, so it cannot be refereed as is; define it in this request's "
        f"\"catalog\", for example \"catalog\": {{\"{building.id}\": {{\"slots\": 3, "
        f"\"effects\": [{{\"kind\": \"gain\", \"when\": \"production\", \"goods\": "
        f"{{\"wheat\": 1}}}}]}}}} with the printed tile's slots and effects "
        f"(format: {CATALOG_DOC})"))


# -- parsing definitions ---------------------------------------------------------------

_FIELDS = ("name", "status", "tiers", "slots", "cost", "effects", "expert", "text")


def _parse_definitions(data: object, base: Catalog | None, path: Path,
                       builtin: bool) -> dict[str, Building]:
    problems: list[Problem] = []
    obj = read_object(data, path, problems, "an object of building definitions by id")
    definitions: dict[str, Building] = {}
    if obj is not None and len(obj) > MAX_DEFINITIONS:
        problems.append(Problem(path, f"at most {MAX_DEFINITIONS} definitions; got {len(obj)}"))
        obj = None
    for building_id, raw in (obj or {}).items():
        where = (*path, building_id)
        if not _valid_id(building_id):
            problems.append(Problem(where, f"{quoted(building_id)} is not a building id: use the "
                                    "tile's name in snake_case, apostrophes dropped "
                                    "(e.g. haulers_hut), at most 40 characters"))
            continue
        previous = base.get(building_id) if base is not None else None
        building = _parse_definition(building_id, raw, previous, where, problems, builtin)
        if building is not None:
            definitions[building_id] = building
    if problems:
        raise InvalidInputError(problems)
    return definitions


def _valid_id(building_id: object) -> bool:
    return (isinstance(building_id, str) and 0 < len(building_id) <= MAX_ID_LENGTH and building_id[0].isascii()
            and building_id[0].isalpha() and building_id.islower()
            and all(ch.isascii() and (ch.isalnum() or ch == "_") for ch in building_id))


def _split(raw: Any, name: str, path: Path, problems: list[Problem],
           default_source: str) -> tuple[Any, Provenance | None]:
    """A field's value and provenance, from ``value`` or ``{"value", "source", "note"}``."""
    if not (isinstance(raw, Mapping) and "value" in raw):
        return raw, Provenance(default_source)
    unknown_keys(raw, ("value", "source", "note"), path, problems, f"the {name} field")
    source = read_choice(raw.get("source", default_source), (*path, "source"), problems,
                         SOURCES, "a source")
    note = read_str(raw.get("note", ""), (*path, "note"), problems, max_length=500)
    if source is None or note is None:
        return raw["value"], None
    return raw["value"], Provenance(source, note)


def _parse_definition(building_id: str, raw: object, previous: Building | None, path: Path,
                      problems: list[Problem], builtin: bool) -> Building | None:
    obj = read_object(raw, path, problems, "a building definition object")
    if obj is None:
        return None
    before = len(problems)
    unknown_keys(obj, _FIELDS, path, problems, "a building definition")
    default_source = "rulebook" if builtin else "request"

    status = obj.get("status", "documented")
    if builtin:
        status = read_choice(status, (*path, "status"), problems,
                             ("documented", "undocumented"), "a status")
    elif status != "documented":
        problems.append(Problem((*path, "status"), "a request defines a building fully; "
                                "leave status out (or \"documented\")"))
    documented = status == "documented"
    patching = previous is not None and previous.documented and not builtin

    name = read_str(obj.get("name", previous.name if previous else _title(building_id)),
                    (*path, "name"), problems, "the tile's name", 100)
    text = read_str(obj.get("text", previous.text if patching and previous else ""),
                    (*path, "text"), problems, "the tile's printed text", 1000)
    expert_raw = obj.get("expert", previous.expert if previous else False)
    if not isinstance(expert_raw, bool):
        problems.append(Problem((*path, "expert"), "expected true or false"))

    provenance: dict[str, Provenance] = dict(previous.provenance) if previous else {}
    values: dict[str, Any] = {}
    for name_ in PROVENANCED_FIELDS:
        if name_ not in obj:
            continue
        value, prov = _split(obj[name_], name_, (*path, name_), problems, default_source)
        values[name_] = value
        if prov is not None:
            provenance[name_] = prov

    tiers: frozenset[str] | None = previous.tiers if previous else frozenset()
    if "tiers" in values:
        tiers = _parse_tiers(values["tiers"], (*path, "tiers"), problems)

    slots: int | None = previous.slots if patching and previous else 0
    cost: Goods | None = previous.cost if patching and previous else NO_GOODS
    effects: tuple[Effect, ...] | None = previous.effects if patching and previous else ()
    if documented:
        if "slots" in values:
            slots = read_int(values["slots"], (*path, "slots"), problems, 0, MAX_SLOTS)
        elif not patching:
            problems.append(Problem((*path, "slots"), "give the tile's number of goods slots"))
        if "cost" in values:
            cost = read_goods(values["cost"], (*path, "cost"), problems, MAX_GOODS_PER_TYPE)
        elif not patching:
            provenance["cost"] = Provenance("provisional", "cost not given")
        if "effects" in values:
            effects = _parse_effects(values["effects"], (*path, "effects"), problems)
        elif not patching:
            problems.append(Problem((*path, "effects"), "list the tile's effects "
                                    f"(an empty list for none; format: {CATALOG_DOC})"))
        if effects:
            problems.extend(_check_processing_terminates(effects, (*path, "effects")))
    else:
        for name_ in ("slots", "cost", "effects"):
            if name_ in obj:
                problems.append(Problem((*path, name_), "an undocumented building has no "
                                        f"{name_}; mark it documented to give them"))

    if len(problems) > before:
        return None
    assert name is not None and text is not None and tiers is not None
    assert slots is not None and cost is not None and effects is not None
    return Building(building_id, name, tiers, slots, cost, effects, documented,
                    bool(expert_raw), text, tuple(sorted(provenance.items())))


def _title(building_id: str) -> str:
    return " ".join(part.capitalize() for part in building_id.split("_"))


def _parse_tiers(value: object, path: Path, problems: list[Problem]) -> frozenset[str] | None:
    items = read_list(value, path, problems, f"a list of tiers ({', '.join(TIERS)})")
    if items is None:
        return None
    tiers = [read_choice(t, (*path, i), problems, TIERS, "a tier") for i, t in enumerate(items)]
    if None in tiers:
        return None
    return frozenset(t for t in tiers if t is not None)


def _check_processing_terminates(effects: tuple[Effect, ...], path: Path) -> list[Problem]:
    """Processing repeats while inputs remain (FF-R4), so it must end: no conversion may
    make more goods than it spends, and conversions that make as many as they spend must
    not turn goods back into a type they came from."""
    problems: list[Problem] = []
    edges: dict[Good, set[Good]] = {}
    for i, effect in enumerate(effects):
        if not isinstance(effect, Convert):
            continue
        if effect.goods.total > effect.inputs.total:
            problems.append(Problem((*path, i, "goods"), "a conversion may not make more "
                                    "goods than it spends (processing would never end)"))
        elif effect.goods.total == effect.inputs.total:
            for source in effect.inputs.types:
                edges.setdefault(source, set()).update(effect.goods.types)
    if _has_cycle(edges):
        problems.append(Problem(path, "these conversions turn goods back into a type they "
                                "came from without using any up, so processing would never "
                                "end"))
    return problems


def _has_cycle(edges: dict[Good, set[Good]]) -> bool:
    state: dict[Good, int] = {}

    def visit(node: Good) -> bool:
        state[node] = 1
        for nxt in edges.get(node, ()):
            if state.get(nxt) == 1 or (nxt not in state and visit(nxt)):
                return True
        state[node] = 2
        return False

    return any(node not in state and visit(node) for node in list(edges))


# -- parsing effects -------------------------------------------------------------------

_EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "gain": ("when", "goods", "one_of", "any_one_type", "points"),
    "gain_per_held": ("when", "held", "per", "goods", "points"),
    "bonus_if_held": ("when", "held", "at_least", "points"),
    "convert": ("inputs", "goods", "points"),
    "convert_distinct": ("count", "points"),
    "per_building_via_trails": ("points",),
    "per_surrounding_processor": ("points", "max"),
    "haul": ("count",),
}
_WHEN: dict[str, tuple[str, ...]] = {
    "gain": ("immediate", "production"),
    "gain_per_held": ("production", "end_game"),
    "bonus_if_held": ("production", "end_game"),
}


def _parse_effects(value: object, path: Path, problems: list[Problem],
                   ) -> tuple[Effect, ...] | None:
    items = read_list(value, path, problems, "a list of effects")
    if items is None:
        return None
    if len(items) > MAX_EFFECTS:
        problems.append(Problem(path, f"at most {MAX_EFFECTS} effects; got {len(items)}"))
        return None
    effects = [parse_effect(item, (*path, i), problems) for i, item in enumerate(items)]
    if any(e is None for e in effects):
        return None
    return tuple(e for e in effects if e is not None)


def parse_effect(value: object, path: Path, problems: list[Problem]) -> Effect | None:
    """One effect from its JSON form, or ``None`` with the problems recorded."""
    obj = read_object(value, path, problems, "an effect object")
    if obj is None:
        return None
    kind = read_choice(obj.get("kind"), (*path, "kind"), problems, _EFFECT_FIELDS,
                       "an effect kind")
    if kind is None:
        return None
    before = len(problems)
    unknown_keys(obj, ("kind", "rule", *_EFFECT_FIELDS[kind]), path, problems,
                 f"a {kind} effect")
    rule = read_str(obj.get("rule", ""), (*path, "rule"), problems, "a rule id", 60) or ""
    phase = Phase.PROCESSING
    if kind in _WHEN:
        when = read_choice(obj.get("when"), (*path, "when"), problems, _WHEN[kind],
                           f"a phase for {kind}")
        phase = Phase(when) if when else Phase.PRODUCTION

    def points(low: int = -MAX_POINTS, default: int | None = 0) -> int:
        if "points" not in obj and default is not None:
            return default
        got = read_int(obj.get("points"), (*path, "points"), problems, low, MAX_POINTS)
        return got if got is not None else 0

    def goods(key: str, minimum_total: int = 0) -> Goods:
        if key not in obj:
            if minimum_total:
                problems.append(Problem((*path, key), f"give the goods for {kind}"))
            return NO_GOODS
        got = read_goods(obj[key], (*path, key), problems, MAX_GOODS_PER_TYPE)
        if got is not None and got.total < minimum_total:
            problems.append(Problem((*path, key), "give at least one good"))
        return got or NO_GOODS

    def count(key: str, low: int, high: int, default: int | None = None) -> int:
        if key not in obj and default is not None:
            return default
        got = read_int(obj.get(key), (*path, key), problems, low, high)
        return got if got is not None else low

    def held() -> Good:
        return read_good(obj.get("held"), (*path, "held"), problems) or Good.WOOD

    effect: Effect
    if kind == "gain":
        options = _gain_options(obj, path, problems)
        effect = Gain(phase, options, points(), rule)
        if not effect.depicts and not effect.points:
            problems.append(Problem(path, "a gain gains goods or points; give one"))
    elif kind == "gain_per_held":
        effect = GainPerHeld(phase, held(), count("per", 1, MAX_SLOTS, 1), goods("goods"),
                             points(), rule)
        if not effect.goods and not effect.points:
            problems.append(Problem(path, "gain_per_held gains goods or points; give one"))
        if effect.goods and phase is Phase.END_GAME:
            problems.append(Problem((*path, "goods"), "at the end of the game an effect "
                                    "gains points only"))
    elif kind == "bonus_if_held":
        effect = BonusIfHeld(phase, held(), count("at_least", 1, MAX_SLOTS),
                             points(default=None), rule)
    elif kind == "convert":
        effect = Convert(goods("inputs", minimum_total=1), goods("goods"), points(0), rule)
        if not effect.goods and not effect.points:
            problems.append(Problem(path, "a conversion gains goods or points; give one"))
    elif kind == "convert_distinct":
        effect = ConvertDistinct(count("count", 1, len(GOODS)), points(0, default=None), rule)
    elif kind == "per_building_via_trails":
        effect = PerBuildingViaTrails(points(default=None), rule)
    elif kind == "per_surrounding_processor":
        per = points(default=None)
        effect = PerSurroundingProcessor(per, count("max", -8 * MAX_POINTS, 8 * MAX_POINTS,
                                                    8 * per), rule)
    else:
        effect = Haul(count("count", 1, MAX_SLOTS), rule)
    return effect if len(problems) == before else None


def _gain_options(obj: Mapping[str, Any], path: Path, problems: list[Problem],
                  ) -> tuple[Goods, ...]:
    given = [key for key in ("goods", "one_of", "any_one_type") if key in obj]
    if len(given) > 1:
        problems.append(Problem(path, f"give one of goods, one_of or any_one_type; got "
                                f"{' and '.join(given)}"))
        return (NO_GOODS,)
    if "one_of" in obj:
        items = read_list(obj["one_of"], (*path, "one_of"), problems,
                          "a list of goods objects to choose from")
        if items is None:
            return (NO_GOODS,)
        if not 2 <= len(items) <= 10:
            problems.append(Problem((*path, "one_of"), "give 2 to 10 bundles to choose from"))
        options = [read_goods(item, (*path, "one_of", i), problems, MAX_GOODS_PER_TYPE)
                   for i, item in enumerate(items)]
        return tuple(o for o in options if o is not None) or (NO_GOODS,)
    if "any_one_type" in obj:
        n = read_int(obj["any_one_type"], (*path, "any_one_type"), problems, 1,
                     MAX_GOODS_PER_TYPE)
        return tuple(Goods.single(g, n) for g in GOODS) if n else (NO_GOODS,)
    if "goods" in obj:
        got = read_goods(obj["goods"], (*path, "goods"), problems, MAX_GOODS_PER_TYPE)
        return (got,) if got is not None else (NO_GOODS,)
    return (NO_GOODS,)


# -- writing definitions back ----------------------------------------------------------

def effect_to_dict(effect: Effect) -> dict[str, Any]:
    """The JSON form of one effect (the inverse of :func:`parse_effect`)."""
    out: dict[str, Any] = {"kind": effect.kind}
    if isinstance(effect, Gain):
        out["when"] = effect.phase.value
        n = effect.options[0].total
        if len(effect.options) == len(GOODS) and all(
                o == Goods.single(g, n) for o, g in zip(effect.options, GOODS)):
            out["any_one_type"] = n
        elif len(effect.options) > 1:
            out["one_of"] = [o.to_dict() for o in effect.options]
        elif effect.options[0]:
            out["goods"] = effect.options[0].to_dict()
        if effect.points:
            out["points"] = effect.points
    elif isinstance(effect, GainPerHeld):
        out.update(when=effect.phase.value, held=effect.held.value, per=effect.per)
        if effect.goods:
            out["goods"] = effect.goods.to_dict()
        if effect.points:
            out["points"] = effect.points
    elif isinstance(effect, BonusIfHeld):
        out.update(when=effect.phase.value, held=effect.held.value,
                   at_least=effect.at_least, points=effect.points)
    elif isinstance(effect, Convert):
        out["inputs"] = effect.inputs.to_dict()
        if effect.goods:
            out["goods"] = effect.goods.to_dict()
        if effect.points:
            out["points"] = effect.points
    elif isinstance(effect, ConvertDistinct):
        out.update(count=effect.count, points=effect.points)
    elif isinstance(effect, PerBuildingViaTrails):
        out["points"] = effect.points
    elif isinstance(effect, PerSurroundingProcessor):
        out.update(points=effect.points, max=effect.max_points)
    else:
        out["count"] = effect.count
    if effect.rule:
        out["rule"] = effect.rule
    return out


def building_to_dict(building: Building) -> dict[str, Any]:
    """A definition in the catalog format, every field with its provenance."""
    def sourced(name: str, value: Any) -> dict[str, Any]:
        prov = building.source_of(name)
        out = {"value": value, "source": prov.source}
        if prov.note:
            out["note"] = prov.note
        return out

    out: dict[str, Any] = {"name": building.name}
    if not building.documented:
        out["status"] = "undocumented"
    out["tiers"] = sourced("tiers", sorted(building.tiers, key=TIERS.index))
    if building.documented:
        out["slots"] = sourced("slots", building.slots)
        out["cost"] = sourced("cost", building.cost.to_dict())
        out["effects"] = sourced("effects", [effect_to_dict(e) for e in building.effects])
    if building.expert:
        out["expert"] = True
    if building.text:
        out["text"] = building.text
    return out


def catalog_to_dict(catalog: Catalog, only_requested: bool = False) -> dict[str, Any]:
    """Definitions by id in the catalog format (those a request gave, if ``only_requested``)."""
    return {b.id: building_to_dict(b) for b in catalog
            if not only_requested or b.id in catalog.requested}
