"""Gaining goods and points: the production phase (FF-R5) and a new building's immediate
effect (the rulebook's "Construct a Building").

A tile's gains go on its own free slots; what does not fit is lost (FF-R5). Where a
gain leaves a choice (several bundles, such as the Emporium's "5 of any one type", or
more goods than free slots, such as the Scrapyard's wood or stone on its last slot), the
player says which goods the tile ends with; otherwise the referee takes the default.

Interpretations, to set beside the rulings:

- The default outcome takes a gain's first bundle, and fills free slots in the
  contract's goods order (wood, stone, wheat, coal, sheep).
- A tile's production effects run in the catalog's order, each once; effects that count
  goods "on this tile" count them when they run (FF-R5).
- The player may order the tiles as they like ("in any order you like"), so losses (the
  Charred Grounds' "lose 1 point per coal") come before gains: the score floor (FF-R18)
  applies to the losses, and the gains are added in full after them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from ..messages import template
from .catalog import Building
from .effects import PRODUCTION_RULE, Effect, Gain, GainPerHeld, Phase
from .model import NO_GOODS, Goods, Position, Town
from .reasons import Reason, Violation


@dataclass(frozen=True, slots=True)
class GainOutcome:
    """What a tile holds after its gains run, and the points they give."""

    goods: Goods
    points: int


_NOT_A_PRODUCTION_CHOICE = template(
    "NOT_A_PRODUCTION_CHOICE", "row {row}, col {col} cannot end the production phase holding "
    "{goods:goods}: a tile's production goes on its own free slots and each effect runs once",
    namespace="FF")


MAX_GAIN_OUTCOMES = 256
"""The most different holdings one tile's gains are weighed in. The printed tiles leave
at most 5 (the Emporium's five types, or which goods take the last free slots); only a
request-defined tile can leave more, and it is judged on the first 256 found (the
default first), so no catalog makes a call's work grow without bound."""
MAX_GAIN_CANDIDATES = 1000
"""The most ways of gaining one tile's goods looked at, for the same reason."""


def gain_outcomes(goods: Goods, slots: int, effects: Sequence[Effect]) -> tuple[GainOutcome, ...]:
    """Every outcome of ``effects`` on a tile with ``slots`` slots holding ``goods``, each
    distinct goods once, the default first (within :data:`MAX_GAIN_OUTCOMES` and
    :data:`MAX_GAIN_CANDIDATES`)."""
    outcomes = [GainOutcome(goods, 0)]
    budget = MAX_GAIN_CANDIDATES
    for effect in effects:
        candidates = ((before, kept, points) for before in outcomes
                      for bundle, points in _bundles(effect, before.goods)
                      for kept in _fitting(bundle, slots - before.goods.total))
        found: dict[Goods, GainOutcome] = {}
        for before, kept, points in islice(candidates, max(budget, 1)):
            budget -= 1
            after = before.goods.plus(kept)
            found.setdefault(after, GainOutcome(after, before.points + points))
            if len(found) == MAX_GAIN_OUTCOMES:
                break
        outcomes = list(found.values())
    return tuple(outcomes)


def _bundles(effect: Effect, goods: Goods) -> Iterator[tuple[Goods, int]]:
    if isinstance(effect, Gain):
        yield from ((option, effect.points) for option in effect.options)
    elif isinstance(effect, GainPerHeld):
        times = effect.times(goods)
        yield effect.goods.scaled(times), effect.points * times
    else:  # no other effect gains in these phases
        yield NO_GOODS, 0


def _fitting(bundle: Goods, free: int) -> Iterator[Goods]:
    """Every part of ``bundle`` that fills ``free`` slots (all of it if it fits), the one
    filled in contract order first."""
    free = max(free, 0)
    if bundle.total <= free:
        yield bundle
        return
    yield from (Goods(*counts) for counts in _parts(tuple(bundle), free))


def _parts(bundle: tuple[int, ...], total: int) -> Iterator[tuple[int, ...]]:
    """Each way of taking ``total`` from ``bundle``, most of the earlier types first."""
    if not bundle:
        if total == 0:
            yield ()
        return
    first, rest = bundle[0], bundle[1:]
    for n in range(min(first, total), max(0, total - sum(rest)) - 1, -1):
        yield from ((n, *tail) for tail in _parts(rest, total - n))


def production_outcomes(town: Town, position: Position) -> tuple[GainOutcome, ...]:
    """The outcomes of the production phase on the building at ``position``."""
    tile = town.building_at(position)
    assert tile is not None
    return gain_outcomes(tile.goods, tile.building.slots,
                         tile.building.effects_in(Phase.PRODUCTION))


def produce(town: Town, choices: Sequence[tuple[Position, Goods]] = ()
            ) -> tuple[Town, int] | Violation:
    """The town after its production phase, and how far its score track moved (losses
    first, floored at 0 by FF-R18, then gains); or the violation of a choice (path
    ``("choices", i)``) that no outcome of that tile allows."""
    chosen: dict[Position, Goods] = {}
    for i, (position, goods) in enumerate(choices):
        tile = town.building_at(position)
        if tile is None or goods not in {o.goods for o in production_outcomes(town, position)}:
            return Violation(Reason.NOT_A_PRODUCTION_CHOICE, PRODUCTION_RULE,
                             _NOT_A_PRODUCTION_CHOICE(row=position.row, col=position.col,
                                                      goods=goods.words()), ("choices", i))
        chosen[position] = goods
    changes: dict[Position, Goods] = {}
    gains = losses = 0
    for tile in town.buildings:
        if not tile.building.effects_in(Phase.PRODUCTION):
            continue
        outcomes = production_outcomes(town, tile.position)
        wanted = chosen.get(tile.position, outcomes[0].goods)
        outcome = next(o for o in outcomes if o.goods == wanted)
        changes[tile.position] = outcome.goods
        if outcome.points > 0:
            gains += outcome.points
        else:
            losses -= outcome.points
    after = town.with_goods(changes)
    floored = max(0, after.score_track - losses)
    return after.with_score_track(floored + gains), floored + gains - town.score_track


def immediate_outcomes(building: Building) -> tuple[GainOutcome, ...]:
    """The outcomes of a new building's immediate effects on its empty slots."""
    return gain_outcomes(NO_GOODS, building.slots, building.effects_in(Phase.IMMEDIATE))
