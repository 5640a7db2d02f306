"""Moving goods: is a move legal, and the town after it (FF-R2, FF-R3, FF-R17).

:func:`validate_transport` lists every violation (an illegal move is an answer, not an error);
:func:`apply_move` is the fast path for replaying a plan and raises
:class:`IllegalMoveError` instead. Each violation (:mod:`tabletop_rules.verdicts`) has a
machine :class:`Reason`, the rule it breaks, a message for the player and the path of
the part of the move that breaks it: ``("to",)`` for what is wrong with the destination,
``("from",)`` and ``("count",)`` for the origin and what it holds, ``()`` for a route
that does not exist; a haul's paths go into its ``picks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..messages import choice, template
from ..game import IllegalMoveError
from ..problems import Problem
from ..json_reading import out_of_range
from .catalog import MAX_SLOTS
from .effects import HAULERS_HUT_RULE, Haul
from .model import BuildingTile, Good, Goods, Position, Town, Variant
from .reasons import Reason, Violation
from .routes import Route
from .town import check_position

ROUTE_RULE = "FF-R2"
DESTINATION_RULE = "FF-R3"
MAX_MOVE_COUNT = MAX_SLOTS


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``count`` goods of type ``good`` from the building at ``origin`` to the one at
    ``destination`` (the contract's ``from`` and ``to``)."""

    good: Good
    count: int
    origin: Position
    destination: Position


@dataclass(frozen=True, slots=True)
class TransportVerdict:
    """The verdict on a move: legal with its route and the town after, or the violations."""

    move: Move
    path: Route
    town: Town | None
    violations: tuple[Violation, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations


_SAME_BUILDING = template(
    "SAME_BUILDING", "from and to are both the {building:label}: a move takes goods to another "
    "building", namespace="FF")
_NOT_ENOUGH_GOODS = choice(
    "NOT_ENOUGH_GOODS", lambda p: str(p["why"]), namespace="FF",
    send="the {building:label} holds {held} {good:term=held}; it cannot send {count}",
    haul="the {building:label} holds {held} {good:term=held}")
_NOT_DEPICTED = template(
    "DESTINATION_DOES_NOT_DEPICT_GOOD", "the {building:label} does not depict {good:term} on "
    "any of its effects, so {good:term} cannot be delivered there", namespace="FF")
_NO_ROOM = choice(
    "NOT_ENOUGH_FREE_SLOTS", lambda p: str(p["why"]), namespace="FF",
    move="the {building:label} has {free:# free slot|# free slots}; {count} "
         "{good:term=count} do not fit (a full building can still be passed through)",
    haul="the {building:label} has {free:# free slot|# free slots}; {count} goods do not fit")
_NOT_A_BUILDING = {reason: choice(
    reason.value, lambda p: str(p["what"]), namespace="FF",
    trail="\"{field}\" (row {row}, col {col}) is a trail tile: goods sit on building tiles and "
          "move between them",
    empty="\"{field}\" (row {row}, col {col}) is no tile: goods sit on building tiles and "
          "move between them")
    for reason in (Reason.ORIGIN_NOT_A_BUILDING, Reason.DESTINATION_NOT_A_BUILDING)}
_EXPERT_BLOCKED = template(
    "EXPERT_ROUTE_BLOCKED", "in the expert variant {good:term} may pass only through "
    "buildings that depict it; every connected way from the {origin:label} to the "
    "{destination:label} passes through one that does not (such as the {blocking:labels})",
    namespace="FF")
_NO_ROUTE = template(
    "NO_ROUTE", "no trail route joins the {origin:label} to the {destination:label}: goods "
    "move only along connected trails, and neighbouring buildings are not connected to each "
    "other", namespace="FF")
_NOT_A_HAULER = template(
    "NOT_A_HAULER", "row {row}, col {col} is not a building that hauls goods (such as the "
    "Hauler's Hut)", namespace="FF")
_TOO_MANY_GOODS = template(
    "TOO_MANY_GOODS", "the {building:label} takes up to {most} goods; {count} were picked",
    namespace="FF")
_NOT_ANOTHER_BUILDING = template(
    "ORIGIN_NOT_ANOTHER_BUILDING", "row {row}, col {col} is not another building",
    namespace="FF")


def check_move(move: Move) -> list[Problem]:
    """What is wrong with a move as written, whatever the town: its count (1 to
    :data:`MAX_MOVE_COUNT`) and rows and columns beyond the table. Paths are the move's
    JSON form (``("from", "row")``); :func:`validate_transport` takes a move this accepts."""
    problems = check_position(move.origin, ("from",)) + check_position(move.destination,
                                                                        ("to",))
    count = out_of_range(move.count, ("count",), 1, MAX_MOVE_COUNT)
    return problems if count is None else [count, *problems]


def free_slots(town: Town, position: Position) -> int:
    """Free goods slots on the building at ``position`` (0 where there is none)."""
    tile = town.building_at(position)
    return tile.free_slots if tile is not None else 0


def validate_transport(town: Town, move: Move) -> TransportVerdict:
    """Every violation of ``move`` in ``town``; when legal, the route and the town after."""
    network = town.network
    origin, destination = town.building_at(move.origin), town.building_at(move.destination)
    good, n = move.good, move.count
    violations = []
    if origin is None:
        violations.append(_not_a_building(town, move.origin, Reason.ORIGIN_NOT_A_BUILDING,
                                          "from"))
    if destination is None:
        violations.append(_not_a_building(town, move.destination,
                                          Reason.DESTINATION_NOT_A_BUILDING, "to"))
    if origin is not None and destination is not None and origin is destination:
        violations.append(Violation(Reason.SAME_BUILDING, ROUTE_RULE,
                                    _SAME_BUILDING(building=origin.named), ("to",)))
        return TransportVerdict(move, (), None, tuple(violations))
    if origin is not None and origin.goods.count(good) < n:
        held = origin.goods.count(good)
        violations.append(Violation(Reason.NOT_ENOUGH_GOODS, ROUTE_RULE, _NOT_ENOUGH_GOODS(
            why="send", building=origin.named, held=held, good=good.value, count=n),
            ("count",)))
    if destination is not None:
        if good not in destination.building.depicts:
            violations.append(Violation(
                Reason.DESTINATION_DOES_NOT_DEPICT_GOOD, DESTINATION_RULE,
                _NOT_DEPICTED(building=destination.named, good=good.value), ("to",)))
        elif destination.free_slots < n:
            violations.append(Violation(Reason.NOT_ENOUGH_FREE_SLOTS, DESTINATION_RULE,
                                        _NO_ROOM(why="move", building=destination.named,
                                                 free=max(destination.free_slots, 0), count=n,
                                                 good=good.value), ("to",)))
    path: Route | None = None
    if origin is not None and destination is not None:
        path = network.path(origin.position, destination.position, good, town.variant)
        if path is None:
            violations.append(_no_route(town, origin, destination, good))
    if violations or path is None:
        return TransportVerdict(move, (), None, tuple(violations))
    assert origin is not None and destination is not None
    after = town.with_goods(((origin.position, origin.goods.add(good, -n)),
                             (destination.position, destination.goods.add(good, n))))
    return TransportVerdict(move, path, after)


def apply_move(town: Town, move: Move) -> Town:
    """The town after ``move``; raises :class:`IllegalMoveError` if it is illegal.

    Fast when legal: a cached route look-up and two goods updates.
    """
    origin, destination = town.building_at(move.origin), town.building_at(move.destination)
    good, n = move.good, move.count
    if (origin is not None and destination is not None and origin is not destination
            and origin.goods.count(good) >= n and destination.free_slots >= n
            and town.network.route(move.origin, move.destination, good, town.variant)):
        return town.with_goods(((move.origin, origin.goods.add(good, -n)),
                                (move.destination, destination.goods.add(good, n))))
    raise IllegalMoveError(validate_transport(town, move).violations)


def _not_a_building(town: Town, position: Position, reason: Reason, field: str
                    ) -> Violation:
    what = "trail" if town.tile_at(position) is not None else "empty"
    return Violation(reason, ROUTE_RULE, _NOT_A_BUILDING[reason](
        what=what, field=field, row=position.row, col=position.col), (field,))


def _no_route(town: Town, origin: BuildingTile, destination: BuildingTile,
              good: Good) -> Violation:
    if town.variant is Variant.EXPERT:
        standard = town.network.path(origin.position, destination.position, good)
        if standard is not None:
            blocking = [town.building_at(p) for p in standard[1:-1]]
            names = [b.named for b in blocking
                     if b is not None and good not in b.building.depicts]
            return Violation(Reason.EXPERT_ROUTE_BLOCKED, ROUTE_RULE, _EXPERT_BLOCKED(
                good=good.value, origin=origin.named, destination=destination.named,
                blocking=tuple([part for named in names for part in named])))
    return Violation(Reason.NO_ROUTE, ROUTE_RULE, _NO_ROUTE(
        origin=origin.named, destination=destination.named))


# -- Hauler's Hut ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pick:
    """``count`` goods of type ``good`` taken from the building at ``origin``."""

    good: Good
    count: int
    origin: Position


def check_haul(town: Town, hut: Position, picks: Sequence[Pick]) -> tuple[Violation, ...]:
    """Every violation of hauling ``picks`` onto the building at ``hut`` at the start of a
    transportation phase: up to its ``haul`` count, from other buildings, onto free slots,
    ignoring routes (FF-R17)."""
    tile = town.building_at(hut)
    effect = next((e for e in tile.building.effects if isinstance(e, Haul)), None) \
        if tile is not None else None
    if tile is None or effect is None:
        return (Violation(Reason.NOT_A_HAULER, HAULERS_HUT_RULE,
                          _NOT_A_HAULER(row=hut.row, col=hut.col), ("to",)),)
    violations = []
    total = sum(p.count for p in picks)
    if total > effect.count:
        violations.append(Violation(Reason.TOO_MANY_GOODS, HAULERS_HUT_RULE, _TOO_MANY_GOODS(
            building=tile.named, most=effect.count, count=total), ("picks",)))
    if total > tile.free_slots:
        violations.append(Violation(Reason.NOT_ENOUGH_FREE_SLOTS, HAULERS_HUT_RULE, _NO_ROOM(
            why="haul", building=tile.named, free=tile.free_slots, count=total), ("picks",)))
    taken: dict[Position, Goods] = {}
    for i, pick in enumerate(picks):
        source = town.building_at(pick.origin)
        if source is None or source is tile:
            violations.append(Violation(
                Reason.ORIGIN_NOT_ANOTHER_BUILDING, HAULERS_HUT_RULE,
                _NOT_ANOTHER_BUILDING(row=pick.origin.row, col=pick.origin.col),
                ("picks", i, "from")))
            continue
        taken[pick.origin] = taken.get(pick.origin, Goods()).add(pick.good, pick.count)
        if pick.count < 1 or not source.goods.contains(taken[pick.origin]):
            violations.append(Violation(Reason.NOT_ENOUGH_GOODS, HAULERS_HUT_RULE,
                                        _NOT_ENOUGH_GOODS(
                why="haul", building=source.named, held=source.goods.count(pick.good),
                good=pick.good.value), ("picks", i, "count")))
    return tuple(violations)


def apply_haul(town: Town, hut: Position, picks: Sequence[Pick]) -> Town:
    """The town after hauling ``picks`` onto ``hut``; raises :class:`IllegalMoveError`."""
    violations = check_haul(town, hut, picks)
    if violations:
        raise IllegalMoveError(violations)
    return haul_unchecked(town, hut, picks)


def haul_unchecked(town: Town, hut: Position, picks: Sequence[Pick]) -> Town:
    """The town after hauling ``picks`` onto ``hut``, which :func:`check_haul` accepted."""
    changes = {p: town.goods_at(p) for p in {pick.origin for pick in picks} | {hut}}
    for pick in picks:
        changes[pick.origin] = changes[pick.origin].add(pick.good, -pick.count)
        changes[hut] = changes[hut].add(pick.good, pick.count)
    return town.with_goods(changes)
