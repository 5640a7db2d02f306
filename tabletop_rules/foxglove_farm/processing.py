"""The processing phase: every processing effect executed fully (FF-R4, FF-R15).

Processing is mandatory. On each building, its processing effects run in the order the
catalog lists them, each as many times as its inputs allow; goods an effect makes go on
the same tile, and if they feed an effect listed earlier, that one runs again, until no
effect can run. (Every built-in building has one processing effect; the order only
matters for request-defined buildings.) A conversion never makes more goods than it
spends (the catalog refuses such definitions), so made goods always fit.

For "goods of different types" (:class:`ConvertDistinct`), the goods spent are chosen so
that the most conversions happen (FF-R4). When several choices reach that most, any of
them is legal: :func:`run_processing` takes the canonical one (at each conversion, the
types it holds most of, ties in contract order) unless ``choices`` says which goods a
building is left with; :func:`processing_outcomes` lists every legal outcome, for a
planner that cares which goods are left over.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from ..problems import quantity
from .catalog import Building
from .effects import Convert, ConvertDistinct, ProcessingEffect, rule_of
from .model import GOODS, NO_GOODS, Goods, Position, Town


@dataclass(frozen=True, slots=True)
class Step:
    """One processing effect run ``times`` times on a building."""

    effect: ProcessingEffect
    times: int
    spent: Goods
    made: Goods
    points: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What processing leaves on one building: its goods, the points, and the steps."""

    goods: Goods
    points: int
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class ProcessingEntry:
    """One line of a processing log: an effect run on one building."""

    building: str
    position: Position
    times: int
    spent: Goods
    made: Goods
    points: int
    rule: str
    explanation: str

    @property
    def row(self) -> int:
        return self.position.row

    @property
    def col(self) -> int:
        return self.position.col


class ProcessingResult(NamedTuple):
    """``town_after, points, log = run_processing(town)``."""

    town: Town
    points: int
    log: tuple[ProcessingEntry, ...]


def run_processing(town: Town, choices: Mapping[Position, Goods] | None = None,
                   ) -> ProcessingResult:
    """Run every processing effect of ``town`` fully (FF-R4).

    The town after has the goods processing leaves and its score track advanced by the
    points gained (processing never loses points). ``choices`` may name, for a building
    with a "different types" effect, the goods it is to be left with; it must be one of
    :func:`processing_outcomes`' outcomes, else ``ValueError``.
    """
    changes: list[tuple[Position, Goods]] = []
    log: list[ProcessingEntry] = []
    total = 0
    tiles = town.tiles
    for position in town.network.processor_positions:
        tile = tiles[position]
        building, goods = tile.building, tile.goods  # type: ignore[union-attr]
        wanted = choices.get(position) if choices else None
        if wanted is None:
            outcome = process(building, goods)
        else:
            outcome = _chosen(building, goods, wanted, position)
        if not outcome.steps:
            continue
        changes.append((position, outcome.goods))
        total += outcome.points
        log.extend(_entry(building, position, step) for step in outcome.steps)
    if not changes:
        return ProcessingResult(town, 0, ())
    after = town.with_goods(changes)
    if total:
        after = after.with_score_track(town.score_track + total)
    return ProcessingResult(after, total, tuple(log))


def process(building: Building, goods: Goods) -> Outcome:
    """The canonical outcome of processing one building holding ``goods``."""
    steps: list[Step] = []
    points = 0
    effects = building.processing
    while True:
        for effect in effects:
            if isinstance(effect, Convert):
                times = effect.times(goods)
                if not times:
                    continue
                spent = effect.inputs.scaled(times)
            else:
                spent = _canonical_distinct(effect, goods)
                if not any(spent):
                    continue
                times = spent.total // effect.count
            step = _step(effect, times, spent)
            goods = goods.minus(spent).plus(step.made)
            points += step.points
            steps.append(step)
            break
        else:
            return Outcome(goods, points, tuple(steps))


def processing_outcomes(building: Building, goods: Goods) -> tuple[Outcome, ...]:
    """Every outcome FF-R4 allows for one building holding ``goods``, the canonical one
    (:func:`process`) first; distinct in the goods left. One outcome unless a "different
    types" effect has several ways to make its most conversions."""
    canonical = process(building, goods)
    found: dict[Goods, Outcome] = {canonical.goods: canonical}
    if any(isinstance(e, ConvertDistinct) for e in building.processing):
        finals = _finals(building.processing, goods, {})
        for final, (points, steps) in finals.items():
            found.setdefault(final, Outcome(final, points, steps))
    return tuple(found.values())


_Finals = dict[Goods, tuple[int, tuple[Step, ...]]]


def _finals(effects: tuple[ProcessingEffect, ...], goods: Goods,
            memo: dict[Goods, _Finals]) -> _Finals:
    """The goods processing can leave from ``goods``, each with points and steps (the
    first effect that can run runs fully, in each legal way; then the rest)."""
    if goods in memo:
        return memo[goods]
    result: _Finals = {}
    for effect in effects:
        if isinstance(effect, Convert):
            times = effect.times(goods)
            options = [effect.inputs.scaled(times)] if times else []
            per = effect.inputs.total
        else:
            options = list(_distinct_spends(effect, goods))
            per = effect.count
        if not options:
            continue
        for spent in options:
            step = _step(effect, spent.total // per, spent)
            after = goods.minus(spent).plus(step.made)
            for final, (points, steps) in _finals(effects, after, memo).items():
                result.setdefault(final, (step.points + points, (step, *steps)))
        break
    else:
        result = {goods: (0, ())}
    memo[goods] = result
    return result


def _step(effect: ProcessingEffect, times: int, spent: Goods) -> Step:
    made = effect.goods.scaled(times) if isinstance(effect, Convert) else NO_GOODS
    return Step(effect, times, spent, made, effect.points * times)


def _canonical_distinct(effect: ConvertDistinct, goods: Goods) -> Goods:
    """The goods spent by the most conversions, each taking the types held most."""
    times = effect.times(goods)
    left = list(goods)
    order = range(len(GOODS))
    for _ in range(times):
        for i in sorted(order, key=lambda i: -left[i])[:effect.count]:
            left[i] -= 1
    return goods.minus(Goods(*left))


def _distinct_spends(effect: ConvertDistinct, goods: Goods) -> Iterator[Goods]:
    """Every way to spend goods for the most conversions: ``t`` conversions of ``k``
    different types can spend ``x`` exactly when each ``x_i <= min(held_i, t)`` and the
    ``x_i`` add up to ``k * t``."""
    times = effect.times(goods)
    if not times:
        return
    need = effect.count * times
    for spent in product(*(range(min(n, times) + 1) for n in goods)):
        if sum(spent) == need:
            yield Goods(*spent)


def _chosen(building: Building, goods: Goods, wanted: Goods, position: Position) -> Outcome:
    for outcome in processing_outcomes(building, goods):
        if outcome.goods == wanted:
            return outcome
    raise ValueError(f"processing cannot leave {wanted.describe()} on the {building.name} at "
                     f"row {position.row}, col {position.col} (FF-R4)")


def _entry(building: Building, position: Position, step: Step) -> ProcessingEntry:
    effect = step.effect
    if isinstance(effect, Convert):
        each = effect.inputs.describe()
    else:
        each = f"{effect.count} goods of different types"
    gains = [part for part in (effect.goods.describe() if isinstance(effect, Convert)
                               and any(effect.goods) else "",
                               f"{effect.points} points" if effect.points else "") if part]
    result = " and ".join(gains)
    explanation = (f"{building.name} at row {position.row}, col {position.col}: "
                   f"{step.times} × ({each} → {result}); spent {step.spent.describe()}")
    if any(step.made):
        explanation += f", made {step.made.describe()}"
    if step.points:
        explanation += f", {quantity(step.points, 'point')}"
    return ProcessingEntry(building.id, position, step.times, step.spent, step.made,
                           step.points, rule_of(effect), explanation)
