"""Scoring a town whose goods counts were read in doubt: every reading at once.

A photo's reading may leave a count in doubt ("7 or 8 sheep on the Ranch"): a
:class:`DoubtfulCount` lists the counts it may be, the likeliest first, and the town
holds the likeliest, so :func:`.score_town` scores the likeliest reading.
:func:`score_town_readings` adds what the other readings do: the lowest and highest
totals, and for each doubtful count whether the total depends on it and the total each
of its candidates gives.

A reading is possible when every building holds what it may (FF-R19: goods its effects
depict, no more than its slots); impossible readings are not counted. Each candidate
must be possible with the building's other counts at their likeliest
(:func:`check_town_readings` says which is not), so the candidates' totals are defined.

How, without scoring readings one by one: goods on a building change only that
building's own end-game effects (what it holds: a Ranch's sheep), never another's (a
Community Centre counts buildings, a Guildhall their neighbours), and an effect reads
only the counts of the goods it depicts. So each building with doubtful counts is
weighed for each reading of its own counts (at most 4^5 = 1,024: five goods types), each
of its effects worked out once per reading of the counts it reads (at most 4 for most);
the town's total is the score track plus the sum over buildings, floored at 0 (FF-R18):
the lowest and highest totals are those of the lowest and highest sums, and a count
decides the total when, for some reading of its building's other counts, two of its
candidates score differently and the higher gives a total above 0 with the other
buildings at their highest. The worst town within the limits (120 tiles, 8 doubtful
counts on two buildings of ten effects) answers in a few milliseconds
(``benchmarks/bench_uncertain.py``).

Limits (:data:`MAX_DOUBTFUL_COUNTS`, :data:`MAX_CANDIDATES`) are checked by
:func:`check_town_readings` with the town's own checks, every problem at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod

from ..messages import template
from ..problems import Path, Problem
from ..json_reading import out_of_range
from .effects import Phase
from .model import GOODS, BuildingTile, Good, Goods, Position, Town
from .scoring import TownScore, effect_points
from .town import MAX_GOODS_COUNT, check_holding, check_town

MAX_DOUBTFUL_COUNTS = 8
"""The most goods counts a town may carry in doubt: a photo's reading rarely doubts more
than two or three, and a building's readings are at most 4^5."""
MIN_CANDIDATES = 2
MAX_CANDIDATES = 4
"""A doubtful count lists 2 to 4 candidate counts, the likeliest first."""

# The problems' sentences, each named by its code, its format fields its params.
TOO_MANY_DOUBTFUL_COUNTS = template(
    "TOO_MANY_DOUBTFUL_COUNTS", "at most {limit} doubtful goods counts in a town (the "
                                "limit); got {count}")
CANDIDATE_COUNT = template(
    "DOUBTFUL_COUNT_CANDIDATES", "a doubtful count lists {minimum} to {limit} candidate "
                                 "counts, the likeliest first; got {count}")
CANDIDATE_REPEATED = template("DOUBTFUL_COUNT_REPEATED", "the same count as candidate {index}")
# Said by the engine's protobuf reader, declared with the rules so that the gateway, which
# words a 422 detail again in the caller's language, knows them too.
ONLY_SCORED = template("FF_ONLY_SCORED", "only a town being scored may list candidates for a "
                                         "goods count; give the count")
COUNTED_TWICE = template("FF_COUNTED_TWICE",
                         "a good is counted once: as a count, or as its candidates")


@dataclass(frozen=True, slots=True)
class DoubtfulCount:
    """A building's count of one good read as one of several numbers, likeliest first."""

    position: Position
    good: Good
    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CountReadings:
    """What one doubtful count does to the total."""

    position: Position
    good: Good
    path: Path
    """Where it is in the town's JSON form (:func:`count_path`)."""
    decides: bool
    """The total depends on it: some possible reading scores differently with another of
    its candidates."""
    totals: tuple[int, ...]
    """For each candidate, in order: the total with it there and every other doubtful
    count at its likeliest."""


@dataclass(frozen=True, slots=True)
class TownReadings:
    """The totals a town with doubtful counts may come to."""

    count: int
    """How many possible readings there are (FF-R19 rules some out)."""
    lowest_total: int
    highest_total: int
    likely_total: int
    """The likeliest reading's total (each count at its first candidate): the score's."""
    counts: tuple[CountReadings, ...]


def count_path(doubt: DoubtfulCount, index: Mapping[Position, int]) -> Path:
    """Where a doubtful count is in the town's JSON form: ``("tiles", i, "goods", good)``."""
    return ("tiles", index[doubt.position], "goods", doubt.good.value)


def check_town_readings(town: Town, doubts: Sequence[DoubtfulCount], *,
                        index: Mapping[Position, int] | None = None,
                        unread: Mapping[Position, int] | None = None,
                        complete: bool = True) -> list[Problem]:
    """Every problem with a town whose doubtful counts hold their likeliest candidate:
    the town's own (:func:`.check_town`, with ``index``, ``unread`` and ``complete``;
    what it says of a doubtful count's likeliest number is said of the candidate here
    instead), and the doubtful counts' limits and candidates, each possible with its
    building's other counts at their likeliest (FF-R19). ``doubts`` are on building
    tiles of the town."""
    if index is None:
        index = {position: i for i, position in enumerate(town.tiles)}
    counted = {count_path(doubt, index) for doubt in doubts}
    problems = [p for p in check_town(town, index=index, unread=unread, complete=complete)
                if p.path not in counted]
    if len(doubts) > MAX_DOUBTFUL_COUNTS:
        problems.append(Problem(("tiles",), TOO_MANY_DOUBTFUL_COUNTS(
            limit=MAX_DOUBTFUL_COUNTS, count=len(doubts))))
    for doubt in doubts:
        tile = town.building_at(doubt.position)
        assert tile is not None  # the reader puts doubts on building tiles only
        problems.extend(_check_candidates(doubt, tile, (*count_path(doubt, index),
                                                         "candidates")))
    return problems


def _check_candidates(doubt: DoubtfulCount, tile: BuildingTile, where: Path
                      ) -> list[Problem]:
    count = len(doubt.candidates)
    if not MIN_CANDIDATES <= count <= MAX_CANDIDATES:  # none read one by one
        return [Problem(where, CANDIDATE_COUNT(minimum=MIN_CANDIDATES,
                                                      limit=MAX_CANDIDATES, count=count))]
    problems = []
    for k, n in enumerate(doubt.candidates):
        path = (*where, k)
        wrong = out_of_range(n, path, 0, MAX_GOODS_COUNT)
        if wrong is not None:
            problems.append(wrong)
        elif n in doubt.candidates[:k]:
            problems.append(Problem(path, CANDIDATE_REPEATED(
                index=doubt.candidates.index(n))))
        elif k and tile.building.documented:  # the likeliest is the town's own,
            # which check_town judges (an undocumented building is said once there)
            read = BuildingTile(tile.position, tile.building, _with(tile.goods, doubt.good, n))
            problems.extend(Problem(path, p.message) for p in check_holding(read, ()))
    return problems


def _with(goods: Goods, good: Good, n: int) -> Goods:
    return goods.add(good, n - goods.count(good))


@dataclass(frozen=True, slots=True)
class _Building:
    """One building's doubtful counts and what each reading of them scores there: entry
    ``sum(k[j] * weights[j])`` for candidate ``k[j]`` of ``doubts[j]``, None where the
    reading cannot be (FF-R19)."""

    doubts: tuple[int, ...]
    """Indices into the town's doubtful counts."""
    radices: tuple[int, ...]
    weights: tuple[int, ...]
    points: tuple[int | None, ...]

    @property
    def possible(self) -> list[int]:
        return [p for p in self.points if p is not None]


def score_town_readings(town: Town, doubts: Sequence[DoubtfulCount], score: TownScore,
                        *, index: Mapping[Position, int] | None = None) -> TownReadings:
    """What the readings of ``doubts`` score, for a town :func:`check_town_readings`
    accepts (holding each count's likeliest candidate), whose ``score`` is
    :func:`.score_town`'s; ``index`` places each tile in the request (by default the
    order of ``town.tiles``)."""
    if index is None:
        index = {position: i for i, position in enumerate(town.tiles)}
    buildings = _buildings(town, doubts)
    unfloored = score.score_track + score.end_game_points
    likely = {id(b): b.points[0] or 0 for b in buildings}  # the likeliest is possible
    lowest = unfloored + sum(min(b.possible) - likely[id(b)] for b in buildings)
    highest = unfloored + sum(max(b.possible) - likely[id(b)] for b in buildings)
    counts = []
    for building in buildings:
        others_highest = highest - max(building.possible)  # this building's part left out
        base = unfloored - likely[id(building)]
        for j, i in enumerate(building.doubts):
            doubt = doubts[i]
            step = building.weights[j]
            totals = tuple(max(0, base + (building.points[k * step] or 0))
                           for k in range(building.radices[j]))
            counts.append((i, CountReadings(doubt.position, doubt.good,
                                            count_path(doubt, index),
                                            _decides(building, j, others_highest), totals)))
    return TownReadings(
        prod(len(b.possible) for b in buildings), max(0, lowest), max(0, highest),
        score.total, tuple(reading for _, reading in sorted(counts, key=lambda c: c[0])))


def _buildings(town: Town, doubts: Sequence[DoubtfulCount]) -> list[_Building]:
    """Each building with doubtful counts, scored for every reading of them."""
    by_position: dict[Position, list[int]] = {}
    for i, doubt in enumerate(doubts):
        by_position.setdefault(doubt.position, []).append(i)
    buildings = []
    for position, indices in by_position.items():
        tile = town.building_at(position)
        assert tile is not None
        radices = tuple(len(doubts[i].candidates) for i in indices)
        scored = _scorer(town, tile, frozenset(doubts[i].good for i in indices))
        points: list[int | None] = []
        # product() turns its last iterable fastest: reversed, the first doubt's
        # candidate is the fastest-changing digit of the entry's index
        at = [doubts[i].good.index for i in reversed(indices)]
        for reading in product(*(doubts[i].candidates for i in reversed(indices))):
            counts = list(tile.goods)
            for k, n in zip(at, reading):
                counts[k] = n
            read = BuildingTile(position, tile.building, Goods(*counts))
            points.append(None if check_holding(read, ()) else scored(read))
        buildings.append(_Building(tuple(indices), radices, tuple(
            prod(radices[:j]) for j in range(len(radices))), tuple(points)))
    return buildings


def _scorer(town: Town, tile: BuildingTile, doubtful: frozenset[Good]
            ) -> Callable[[BuildingTile], int]:
    """``tile``'s end-game points for a reading of its ``doubtful`` goods: an effect
    reads only the counts of the goods it depicts, so one that depicts none of them
    scores once, and each other once per reading of the counts it reads."""
    effects = tile.building.effects_in(Phase.END_GAME)
    fixed = sum(effect_points(town, tile, e) for e in effects if not e.depicts & doubtful)
    reading = [(k, effect, [g.index for g in GOODS if g in effect.depicts & doubtful])
               for k, effect in enumerate(effects) if effect.depicts & doubtful]
    known: dict[tuple[int, tuple[int, ...]], int] = {}

    def points(read: BuildingTile) -> int:
        total = fixed
        goods = read.goods
        for k, effect, at in reading:
            key = (k, tuple([goods[i] for i in at]))
            earned = known.get(key)
            if earned is None:
                earned = known[key] = effect_points(town, read, effect)
            total += earned
        return total
    return points


def _decides(building: _Building, j: int, others_highest: int) -> bool:
    """Whether the floored total depends on the building's ``j``-th doubtful count: for
    some reading of its other counts, two possible candidates score differently, and the
    higher lifts the total above 0 with the other buildings at their highest (below 0
    both floor to 0, FF-R18)."""
    step = building.weights[j]
    span = step * building.radices[j]
    points = building.points
    for start in range(len(points)):
        if start % span >= step:
            continue
        scores = {p for k in range(0, span, step) if (p := points[start + k]) is not None}
        if len(scores) > 1 and others_highest + max(scores) > 0:
            return True
    return False
