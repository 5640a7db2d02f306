"""The format of a building's effects in the catalog, read and written.

Each effect is an object with a ``kind`` (``gain``, ``convert``, ``haul``, ...), the
fields its kind takes and an optional ``rule``; ``docs/foxglove-catalog.md`` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..messages import choice, template
from ..problems import Path, Problem
from ..json_reading import (
    noun,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_str,
    unknown_keys,
)
from ._json import read_good, read_goods
from .catalog import MAX_EFFECTS, MAX_GOODS_PER_TYPE, MAX_POINTS, MAX_SLOTS
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
)
from .pieces import GOODS, NO_GOODS, Good, Goods

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

EFFECTS = noun("EFFECTS", "a list of effects")
EFFECT_OBJECT = noun("EFFECT_OBJECT", "an effect object")
EFFECT_KIND = noun("EFFECT_KIND", "an effect kind")
KIND_EFFECT = noun("KIND_EFFECT", "a {kind} effect")
RULE_ID = noun("RULE_ID", "a rule id")
PHASE_FOR = noun("PHASE_FOR", "a phase for {kind}")
BUNDLES = noun("BUNDLES", "a list of goods objects to choose from")

# The problems' sentences, each named by its code, its format fields its params.
TOO_MANY_EFFECTS = template("FF_TOO_MANY_EFFECTS", "at most {limit} effects; got {count}")
GIVE_GOODS_FOR = template("FF_GIVE_GOODS_FOR", "give the goods for {kind}")
GIVE_A_GOOD = template("FF_GIVE_A_GOOD", "give at least one good")
GAINS_NOTHING = choice(
    "FF_GAINS_NOTHING", lambda p: str(p["kind"]),
    gain="a gain gains goods or points; give one",
    gain_per_held="gain_per_held gains goods or points; give one",
    convert="a conversion gains goods or points; give one")
END_GAME_GOODS = template("FF_END_GAME_GOODS",
                          "at the end of the game an effect gains points only")
ONE_GAIN = template("FF_ONE_GAIN", "give one of goods, one_of or any_one_type; got {given:and}")
BUNDLE_COUNT = template("FF_BUNDLE_COUNT", "give 2 to 10 bundles to choose from")


def parse_effects(value: object, path: Path, problems: list[Problem],
                   ) -> tuple[Effect, ...] | None:
    items = read_list(value, path, problems, EFFECTS)
    if items is None:
        return None
    if len(items) > MAX_EFFECTS:
        problems.append(Problem(path, TOO_MANY_EFFECTS(limit=MAX_EFFECTS, count=len(items))))
        return None
    effects = [parse_effect(item, (*path, i), problems) for i, item in enumerate(items)]
    if any(e is None for e in effects):
        return None
    return tuple(e for e in effects if e is not None)


def parse_effect(value: object, path: Path, problems: list[Problem]) -> Effect | None:
    """One effect from its JSON form, or ``None`` with the problems recorded."""
    obj = read_object(value, path, problems, EFFECT_OBJECT)
    if obj is None:
        return None
    kind = read_choice(obj.get("kind"), (*path, "kind"), problems, _EFFECT_FIELDS,
                       EFFECT_KIND)
    if kind is None:
        return None
    before = len(problems)
    unknown_keys(obj, ("kind", "rule", *_EFFECT_FIELDS[kind]), path, problems,
                 KIND_EFFECT, kind=kind)
    rule = read_str(obj.get("rule", ""), (*path, "rule"), problems, RULE_ID, 60) or ""
    phase = Phase.PROCESSING
    if kind in _WHEN:
        when = read_choice(obj.get("when"), (*path, "when"), problems, _WHEN[kind],
                           PHASE_FOR, kind=kind)
        phase = Phase(when) if when else Phase.PRODUCTION

    def points(low: int = -MAX_POINTS, default: int | None = 0) -> int:
        if "points" not in obj and default is not None:
            return default
        got = read_int(obj.get("points"), (*path, "points"), problems, low, MAX_POINTS)
        return got if got is not None else 0

    def goods(key: str, minimum_total: int = 0) -> Goods:
        if key not in obj:
            if minimum_total:
                problems.append(Problem((*path, key), GIVE_GOODS_FOR(kind=kind)))
            return NO_GOODS
        got = read_goods(obj[key], (*path, key), problems, MAX_GOODS_PER_TYPE)
        if got is not None and got.total < minimum_total:
            problems.append(Problem((*path, key), GIVE_A_GOOD()))
        return got if got is not None else NO_GOODS

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
            problems.append(Problem(path, GAINS_NOTHING(kind=kind)))
    elif kind == "gain_per_held":
        effect = GainPerHeld(phase, held(), count("per", 1, MAX_SLOTS, 1), goods("goods"),
                             points(), rule)
        if not any(effect.goods) and not effect.points:
            problems.append(Problem(path, GAINS_NOTHING(kind=kind)))
        if any(effect.goods) and phase is Phase.END_GAME:
            problems.append(Problem((*path, "goods"), END_GAME_GOODS()))
    elif kind == "bonus_if_held":
        effect = BonusIfHeld(phase, held(), count("at_least", 1, MAX_SLOTS),
                             points(default=None), rule)
    elif kind == "convert":
        effect = Convert(goods("inputs", minimum_total=1), goods("goods"), points(0), rule)
        if not any(effect.goods) and not effect.points:
            problems.append(Problem(path, GAINS_NOTHING(kind=kind)))
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
        problems.append(Problem(path, ONE_GAIN(given=tuple(given))))
        return (NO_GOODS,)
    if "one_of" in obj:
        items = read_list(obj["one_of"], (*path, "one_of"), problems, BUNDLES)
        if items is None:
            return (NO_GOODS,)
        if not 2 <= len(items) <= 10:
            problems.append(Problem((*path, "one_of"), BUNDLE_COUNT()))
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
        elif any(effect.options[0]):
            out["goods"] = effect.options[0].to_dict()
        if effect.points:
            out["points"] = effect.points
    elif isinstance(effect, GainPerHeld):
        out.update(when=effect.phase.value, held=effect.held.value, per=effect.per)
        if any(effect.goods):
            out["goods"] = effect.goods.to_dict()
        if effect.points:
            out["points"] = effect.points
    elif isinstance(effect, BonusIfHeld):
        out.update(when=effect.phase.value, held=effect.held.value,
                   at_least=effect.at_least, points=effect.points)
    elif isinstance(effect, Convert):
        out["inputs"] = effect.inputs.to_dict()
        if any(effect.goods):
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
