"""The catalog format, read and written: building definitions by id.

One format serves the built-in ``catalog.json`` (:func:`builtin_catalog`, read once) and a
request's ``catalog`` object (``docs/foxglove-catalog.md``):

- a field's value may be given plainly (``"slots": 4``) or with its provenance
  (``"slots": {"value": 4, "source": "provisional", "note": "..."}``); the rulebook does not
  print every slot count and cost, so the built-in file records for each field whether the
  rulebook states it (``rulebook``) or the project chose it until the printed tile is known
  (``provisional``). Request definitions are ``request`` unless they say otherwise.
- a building the rulebook names without describing it is ``"status": "undocumented"``: a
  town using it is refused with a Problem saying how to define it in the request's catalog.

Effects have their own format (:mod:`.effect_format`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..messages import template
from ..problems import EXPECTED_BOOLEAN, InvalidInputError, Path, Problem, quoted
from ..json_reading import (
    noun,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_str,
    unknown_keys,
)
from ._json import read_goods
from .catalog import (
    CATALOG_DOC,
    MAX_DEFINITIONS,
    MAX_GOODS_PER_TYPE,
    MAX_ID_LENGTH,
    MAX_SLOTS,
    PROVENANCED_FIELDS,
    SOURCES,
    TIERS,
    Building,
    Catalog,
    Provenance,
)
from .effect_format import effect_to_dict, parse_effects
from .effects import Convert, Effect
from .pieces import NO_GOODS, Good, Goods

CATALOG_FILE = noun("CATALOG_FILE", "a catalog file object")
DEFINITIONS = noun("DEFINITIONS", "an object of building definitions by id")
THE_FIELD = noun("THE_FIELD", "the {field} field")
A_SOURCE = noun("SOURCE", "a source")
DEFINITION_OBJECT = noun("DEFINITION_OBJECT", "a building definition object")
A_DEFINITION = noun("DEFINITION", "a building definition")
A_STATUS = noun("STATUS", "a status")
TILE_NAME = noun("TILE_NAME", "the tile's name")
TILE_TEXT = noun("TILE_TEXT", "the tile's printed text")
TIER_LIST = noun("TIER_LIST", f"a list of tiers ({', '.join(TIERS)})")
A_TIER = noun("TIER", "a tier")

# The problems' sentences, each named by its code, its format fields its params.
GIVE_BUILDINGS = template("FF_GIVE_BUILDINGS", "give the buildings")
TOO_MANY_DEFINITIONS = template("FF_TOO_MANY_DEFINITIONS",
                                "at most {limit} definitions; got {count}")
NOT_A_BUILDING_ID = template(
    "FF_NOT_A_BUILDING_ID", "{building} is not a building id: use the tile's name in "
    "snake_case, apostrophes dropped (e.g. haulers_hut), at most {max} characters")
STATUS_IN_REQUEST = template(
    "FF_STATUS_IN_REQUEST", "a request defines a building fully; leave status out (or "
    "\"documented\")")
GIVE_SLOTS = template("FF_GIVE_SLOTS", "give the tile's number of goods slots")
GIVE_EFFECTS = template("FF_GIVE_EFFECTS",
                        "list the tile's effects (an empty list for none; format: {doc})")
UNDOCUMENTED_FIELD = template(
    "FF_UNDOCUMENTED_FIELD", "an undocumented building has no {field}; mark it documented to "
    "give them")
CONVERSION_GROWS = template(
    "FF_CONVERSION_GROWS", "a conversion may not make more goods than it spends (processing "
    "would never end)")
CONVERSIONS_CYCLE = template(
    "FF_CONVERSIONS_CYCLE", "these conversions turn goods back into a type they came from "
    "without using any up, so processing would never end")
UNBOUNDED_PLAN = template(
    "FF_UNBOUNDED_PLAN", "the final round's score is unbounded: conversions on different "
    "buildings turn goods back into a type they came from and score each time "
    "(FF-R4, FF-R15)")
"""What planning the final round finds of a request catalog whose conversions on
different buildings make a loop (:class:`.planner.UnboundedPlanError`): said by the
planner, declared here with the catalog's other checks so the gateway knows it too."""


def read_catalog_file(data: object) -> Catalog:
    """A whole catalog in the file format of ``catalog.json``: ``{"buildings": {id:
    definition}}``, where a definition may be ``"status": "undocumented"``."""
    problems: list[Problem] = []
    obj = read_object(data, (), problems, CATALOG_FILE)
    if obj is None or "buildings" not in obj:
        raise InvalidInputError(problems or [Problem(("buildings",), GIVE_BUILDINGS())])
    return Catalog(_parse_definitions(obj["buildings"], None, ("buildings",), builtin=True))


def _catalog_text() -> str:
    return resources.files(__package__).joinpath("catalog.json").read_text(encoding="utf-8")


@cache
def builtin_catalog_version() -> str:
    """The built-in catalog's version, a digest of its file: a game state names the
    catalog it was made under, and one made under another is refused, not misread."""
    return "builtin-" + hashlib.sha256(_catalog_text().encode()).hexdigest()[:12]


@cache
def builtin_catalog() -> Catalog:
    """The catalog of every building the rulebook names (loaded once from catalog.json)."""
    text = _catalog_text()
    try:
        return read_catalog_file(json.loads(text))
    except InvalidInputError as error:  # a broken package file: say where, loudly
        raise RuntimeError(f"catalog.json is invalid: {error}") from error


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


# -- parsing definitions ---------------------------------------------------------------

_FIELDS = ("name", "status", "tiers", "slots", "cost", "effects", "expert", "text")


def _parse_definitions(data: object, base: Catalog | None, path: Path,
                       builtin: bool) -> dict[str, Building]:
    problems: list[Problem] = []
    obj = read_object(data, path, problems, DEFINITIONS)
    definitions: dict[str, Building] = {}
    if obj is not None and len(obj) > MAX_DEFINITIONS:
        problems.append(Problem(path, TOO_MANY_DEFINITIONS(limit=MAX_DEFINITIONS,
                                                           count=len(obj))))
        obj = None
    for building_id, raw in (obj or {}).items():
        where = (*path, building_id)
        if not _valid_id(building_id):
            problems.append(Problem(where, NOT_A_BUILDING_ID(building=quoted(building_id),
                                                             max=MAX_ID_LENGTH)))
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
    unknown_keys(raw, ("value", "source", "note"), path, problems, THE_FIELD, field=name)
    source = read_choice(raw.get("source", default_source), (*path, "source"), problems,
                         SOURCES, A_SOURCE)
    note = read_str(raw.get("note", ""), (*path, "note"), problems, max_length=500)
    if source is None or note is None:
        return raw["value"], None
    return raw["value"], Provenance(source, note)


def _parse_definition(building_id: str, raw: object, previous: Building | None, path: Path,
                      problems: list[Problem], builtin: bool) -> Building | None:
    obj = read_object(raw, path, problems, DEFINITION_OBJECT)
    if obj is None:
        return None
    before = len(problems)
    unknown_keys(obj, _FIELDS, path, problems, A_DEFINITION)
    default_source = "rulebook" if builtin else "request"

    status = obj.get("status", "documented")
    if builtin:
        status = read_choice(status, (*path, "status"), problems,
                             ("documented", "undocumented"), A_STATUS)
    elif status != "documented":
        problems.append(Problem((*path, "status"), STATUS_IN_REQUEST()))
    documented = status == "documented"
    patching = previous is not None and previous.documented and not builtin

    name = read_str(obj.get("name", previous.name if previous else _title(building_id)),
                    (*path, "name"), problems, TILE_NAME, 100)
    text = read_str(obj.get("text", previous.text if patching and previous else ""),
                    (*path, "text"), problems, TILE_TEXT, 1000)
    expert_raw = obj.get("expert", previous.expert if previous else False)
    if not isinstance(expert_raw, bool):
        problems.append(Problem((*path, "expert"), EXPECTED_BOOLEAN()))

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
            problems.append(Problem((*path, "slots"), GIVE_SLOTS()))
        if "cost" in values:
            cost = read_goods(values["cost"], (*path, "cost"), problems, MAX_GOODS_PER_TYPE)
        elif not patching:
            provenance["cost"] = Provenance("provisional", "cost not given")
        if "effects" in values:
            effects = parse_effects(values["effects"], (*path, "effects"), problems)
        elif not patching:
            problems.append(Problem((*path, "effects"), GIVE_EFFECTS(doc=CATALOG_DOC)))
        if effects:
            problems.extend(_check_processing_terminates(effects, (*path, "effects")))
    else:
        for name_ in ("slots", "cost", "effects"):
            if name_ in obj:
                problems.append(Problem((*path, name_), UNDOCUMENTED_FIELD(field=name_)))

    if len(problems) > before:
        return None
    assert name is not None and text is not None and tiers is not None
    assert slots is not None and cost is not None and effects is not None
    return Building(building_id, name, tiers, slots, cost, effects, documented,
                    bool(expert_raw), text, tuple(sorted(provenance.items())))


def _title(building_id: str) -> str:
    return " ".join(part.capitalize() for part in building_id.split("_"))


def _parse_tiers(value: object, path: Path, problems: list[Problem]) -> frozenset[str] | None:
    items = read_list(value, path, problems, TIER_LIST)
    if items is None:
        return None
    tiers = [read_choice(t, (*path, i), problems, TIERS, A_TIER) for i, t in enumerate(items)]
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
            problems.append(Problem((*path, i, "goods"), CONVERSION_GROWS()))
        elif effect.goods.total == effect.inputs.total:
            for source in effect.inputs.types:
                edges.setdefault(source, set()).update(effect.goods.types)
    if _has_cycle(edges):
        problems.append(Problem(path, CONVERSIONS_CYCLE()))
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
