"""Construction: placing buildings and trails, upgrading trails, and paying for them
(FF-R9, FF-R10, FF-R11; the rulebook's "Construction Phase").

The checks take a town and one action's parts and return every violation, each with the
path of the part that breaks it (``("position",)``, ``("payment", 2, "goods")``,
``("trails", 1, "sides")``); the builders return the town after a legal action.

Interpretations, to set beside the rulings:

- A payment names the buildings the goods come from; it must be exactly the cost (no
  change is given), from goods the buildings hold (FF-R11).
- Trails built in one action are placed in the order listed; a later one may touch, and
  may upgrade, an earlier one. Their costs add up, paid from one payment.
- A new trail may be closed toward a neighbouring building; it may not be closed toward
  a neighbouring trail that is open toward it (FF-R9). A building never cuts off a trail,
  being open on all sides (FF-R1).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..messages import choice, template
from ..problems import Path
from .catalog import Building
from .model import (
    NO_GOODS,
    SIDES,
    BuildingTile,
    Good,
    Goods,
    Position,
    Side,
    Tile,
    TrailShape,
    TrailTile,
    Town,
)
from .production import GainOutcome, immediate_outcomes
from .reasons import Reason, Violation
from .town import MAX_TILES

PLACEMENT_RULE = "FF-R9"
UPGRADE_RULE = "FF-R10"
COST_RULE = "FF-R11"
BUILD_RULE = "FF-RULEBOOK-CONSTRUCT-A-BUILDING"
TRAIL_GOODS = frozenset({Good.WOOD, Good.STONE})
"""What pays for trails: stone or wood (FF-R11)."""

TRAIL_SIDES: tuple[frozenset[Side], ...] = tuple(
    frozenset(sides) for n in (2, 3) for sides in combinations(SIDES, n))
"""Every trail tile's open sides, each rotation once: 2 straight, 4 curved, 4 T-junction."""
T_JUNCTIONS = tuple(sides for sides in TRAIL_SIDES if len(sides) == 3)


@dataclass(frozen=True, slots=True)
class Payment:
    """Goods taken from the building at ``position`` to pay a cost (FF-R11)."""

    position: Position
    goods: Goods


@dataclass(frozen=True, slots=True)
class TrailWork:
    """A trail tile built at ``position`` open on ``sides``, or (``upgrade``) the trail
    there flipped to its T-junction side, open on ``sides`` (FF-R10)."""

    position: Position
    sides: frozenset[Side]
    upgrade: bool = False

    @property
    def cost(self) -> int:
        """Goods it costs, each stone or wood: 2 for a new T-junction, else 1 (FF-R11)."""
        return 2 if not self.upgrade and len(self.sides) == 3 else 1


# -- paying ----------------------------------------------------------------------------

def check_payment(town: Town, payment: Sequence[Payment]) -> tuple[list[Violation], Goods]:
    """What is wrong with where a payment's goods come from, and the goods it pays."""
    violations: list[Violation] = []
    taken: dict[Position, Goods] = {}
    total = NO_GOODS
    for i, part in enumerate(payment):
        tile = town.building_at(part.position)
        if tile is None:
            violations.append(Violation(Reason.PAYMENT_NOT_A_BUILDING, COST_RULE,
                                        _PAYMENT_NOT_A_BUILDING(row=part.position.row,
                                                                col=part.position.col),
                                        ("payment", i, "row")))
            continue
        taken[part.position] = taken.get(part.position, NO_GOODS).plus(part.goods)
        total = total.plus(part.goods)
        if not tile.goods.contains(taken[part.position]):
            violations.append(Violation(Reason.PAYMENT_NOT_HELD, COST_RULE, _PAYMENT_NOT_HELD(
                building=tile.named, held=tile.goods.words(),
                paid=taken[part.position].words()), ("payment", i, "goods")))
    return violations, total


_PAYMENT_NOT_A_BUILDING = template(
    "PAYMENT_NOT_A_BUILDING", "row {row}, col {col} is not a building of the town: goods are "
    "paid from building tiles", namespace="FF")
_PAYMENT_NOT_HELD = template(
    "PAYMENT_NOT_HELD", "the {building:label} holds {held:goods}; it cannot pay {paid:goods}",
    namespace="FF")
_OCCUPIED = template("OCCUPIED", "row {row}, col {col} already holds a tile", namespace="FF")
_TOWN_FULL = template("TOWN_FULL", "the town has {limit} tiles, the most the referee reads",
                      namespace="FF")
_NOT_ADJACENT = choice(
    "NOT_ADJACENT", lambda p: str(p["touch"]), namespace="FF",
    corner="row {row}, col {col} only touches the town at a corner: a new tile is placed "
           "orthogonally next to a building or trail tile",
    none="row {row}, col {col} does not touch the town: a new tile is placed orthogonally "
         "next to a building or trail tile")
_CUTS_OFF_TRAIL = template(
    "CUTS_OFF_TRAIL", "a trail at row {row}, col {col} must be open on {sides:term}, where a "
    "neighbouring trail is open toward it: a new trail may not cut off a trail",
    namespace="FF")
_NOT_A_TRAIL = template("NOT_A_TRAIL", "row {row}, col {col} holds no trail tile to upgrade",
                        namespace="FF")
_ALREADY_T_JUNCTION = template(
    "ALREADY_T_JUNCTION", "the trail at row {row}, col {col} is already a T-junction",
    namespace="FF")
_NOT_A_T_JUNCTION = template(
    "NOT_A_T_JUNCTION", "an upgraded trail is flipped to its T-junction side, open on three "
    "sides", namespace="FF")
_BREAKS_CONNECTION = template(
    "BREAKS_CONNECTION", "the trail at row {row}, col {col} is connected on {sides:term}; its "
    "T-junction must stay open there (any rotation that keeps its connections)",
    namespace="FF")
_WRONG_PAYMENT = choice(
    "WRONG_PAYMENT", lambda p: str(p["paying"]), namespace="FF",
    trails="these trails cost {cost:# good|# goods}, each stone or wood (a straight or "
           "curved trail 1, a new T-junction 2, an upgrade 1); the payment is {paid:goods}",
    building="the {building} costs {costs:goods}; the payment is {paid:goods}")
_COST_UNKNOWN = template(
    "COST_UNKNOWN", "the {building}'s cost and effects are not printed in the rulebook; define "
    "it in the game's catalog to build it", namespace="FF")
_NOT_A_GAIN_CHOICE = choice(
    "NOT_A_GAIN_CHOICE", lambda p: str(p["asked"]), namespace="FF",
    goods="the {building}'s immediate effect cannot leave it holding {gain:goods}; it can "
          "leave: {choices:bundles}",
    that="the {building}'s immediate effect cannot leave it holding that; it can leave: "
         "{choices:bundles}")


def paid(town: Town, payment: Sequence[Payment]) -> dict[Position, Goods]:
    """The goods left on each paying building (the payment checked)."""
    left: dict[Position, Goods] = {}
    for part in payment:
        left[part.position] = left.get(part.position, town.goods_at(part.position)).minus(
            part.goods)
    return left


def pay_from(town: Town, wanted: Goods) -> tuple[Payment, ...] | None:
    """The default payment of ``wanted``: from the buildings in the town's order."""
    left, payment = list(wanted), []
    for tile in town.buildings:
        take = Goods(*(min(have, need) for have, need in zip(tile.goods, left)))
        if any(take):
            payment.append(Payment(tile.position, take))
            left = [need - n for need, n in zip(left, take)]
    return None if any(left) else tuple(payment)


def trail_payment(town: Town, count: int) -> Goods | None:
    """The default goods for ``count`` trail costs: wood first, then stone; None if the
    town has too few."""
    held = NO_GOODS
    for tile in town.buildings:
        held = held.plus(tile.goods)
    wood = min(held.wood, count)
    stone = count - wood
    return Goods(wood=wood, stone=stone) if stone <= held.stone else None


# -- placing ---------------------------------------------------------------------------

def check_placement(tiles: Mapping[Position, Tile], position: Position, path: Path
                    ) -> list[Violation]:
    """A new tile goes on an empty position orthogonally next to the town (FF-R9)."""
    if position in tiles:
        return [Violation(Reason.OCCUPIED, PLACEMENT_RULE,
                          _OCCUPIED(row=position.row, col=position.col), path)]
    if any(n in tiles for n in position.neighbours()):
        if len(tiles) >= MAX_TILES:
            return [Violation(Reason.TOWN_FULL, PLACEMENT_RULE, _TOWN_FULL(limit=MAX_TILES),
                              path)]
        return []
    corner = any(p in tiles for p in position.surrounding())
    return [Violation(Reason.NOT_ADJACENT, PLACEMENT_RULE, _NOT_ADJACENT(
        touch="corner" if corner else "none", row=position.row, col=position.col), path)]


def open_toward(tiles: Mapping[Position, Tile], position: Position) -> frozenset[Side]:
    """The sides of ``position`` whose neighbouring trail is open toward it."""
    return frozenset(side for side in SIDES
                     if isinstance(t := tiles.get(position.neighbour(side)), TrailTile)
                     and side.opposite in t.sides)


def connected_sides(tiles: Mapping[Position, Tile], trail: TrailTile) -> frozenset[Side]:
    """The sides on which ``trail`` is connected: open toward a building, or toward a trail
    open back (FF-R1)."""
    return frozenset(side for side in trail.sides
                     if (other := tiles.get(trail.position.neighbour(side))) is not None
                     and side.opposite in other.open_sides)


def cut_off(tiles: Mapping[Position, Tile], position: Position, sides: frozenset[Side]
            ) -> frozenset[Side]:
    """The sides on which a trail open on ``sides`` at ``position`` would cut off a
    neighbouring trail that is open toward it (FF-R9)."""
    return open_toward(tiles, position) - sides


def _side_names(sides: frozenset[Side]) -> tuple[str, ...]:
    return tuple([s.value for s in SIDES if s in sides])


def check_trail(tiles: Mapping[Position, Tile], work: TrailWork, path: Path
                ) -> list[Violation]:
    """What is wrong with building or upgrading one trail in a town with ``tiles``."""
    where = {"row": work.position.row, "col": work.position.col}
    if not work.upgrade:
        violations = check_placement(tiles, work.position, (*path, "position"))
        blocked = cut_off(tiles, work.position, work.sides)
        if blocked and not violations:
            violations.append(Violation(Reason.CUTS_OFF_TRAIL, PLACEMENT_RULE, _CUTS_OFF_TRAIL(
                **where, sides=_side_names(blocked)), (*path, "sides")))
        return violations
    tile = tiles.get(work.position)
    if not isinstance(tile, TrailTile):
        return [Violation(Reason.NOT_A_TRAIL, UPGRADE_RULE, _NOT_A_TRAIL(**where),
                          (*path, "position"))]
    if tile.shape is TrailShape.T_JUNCTION:
        return [Violation(Reason.ALREADY_T_JUNCTION, UPGRADE_RULE,
                          _ALREADY_T_JUNCTION(**where), (*path, "position"))]
    if len(work.sides) != 3:
        return [Violation(Reason.NOT_A_T_JUNCTION, UPGRADE_RULE, _NOT_A_T_JUNCTION(),
                          (*path, "sides"))]
    broken = connected_sides(tiles, tile) - work.sides
    if broken:
        return [Violation(Reason.BREAKS_CONNECTION, UPGRADE_RULE, _BREAKS_CONNECTION(
            **where, sides=_side_names(broken)), (*path, "sides"))]
    return []


def check_trails(town: Town, works: Sequence[TrailWork], payment: Sequence[Payment]
                 ) -> tuple[list[Violation], dict[Position, Tile]]:
    """Every violation of a trail action, and the tiles after it (meaningful when legal)."""
    tiles: dict[Position, Tile] = dict(town.tiles)
    violations: list[Violation] = []
    for i, work in enumerate(works):
        violations.extend(check_trail(tiles, work, ("trails", i)))
        tiles[work.position] = TrailTile(work.position, work.sides)
    paying, goods = check_payment(town, payment)
    violations.extend(paying)
    cost = sum(work.cost for work in works)
    if goods.total != cost or not goods.types <= TRAIL_GOODS:
        violations.append(Violation(Reason.WRONG_PAYMENT, COST_RULE, _WRONG_PAYMENT(
            paying="trails", cost=cost, paid=goods.words()), ("payment",)))
    return violations, tiles


def build_trails(town: Town, tiles: Mapping[Position, Tile], payment: Sequence[Payment]
                 ) -> Town:
    """The town with ``tiles`` (from :func:`check_trails`) and the payment made."""
    left = paid(town, payment)
    for position, goods in left.items():
        building = town.building_at(position)
        assert building is not None
        tiles = {**tiles, position: BuildingTile(position, building.building, goods)}
    return Town(tiles, town.catalog, town.variant, town.score_track)


def check_building(town: Town, building: Building, position: Position,
                   payment: Sequence[Payment], gain: Goods | None
                   ) -> tuple[list[Violation], GainOutcome | None]:
    """Every violation of building ``building`` at ``position``, and the immediate
    effect's outcome (the player's ``gain``, or the default)."""
    if not building.documented:
        return [Violation(Reason.COST_UNKNOWN, BUILD_RULE, _COST_UNKNOWN(building=building.name),
                          ("building",))], None
    violations = check_placement(town.tiles, position, ("position",))
    paying, goods = check_payment(town, payment)
    violations.extend(paying)
    if goods != building.cost:
        violations.append(Violation(Reason.WRONG_PAYMENT, COST_RULE, _WRONG_PAYMENT(
            paying="building", building=building.name, costs=building.cost.words(),
            paid=goods.words()), ("payment",)))
    outcomes = immediate_outcomes(building)
    outcome = outcomes[0] if gain is None else next(
        (o for o in outcomes if o.goods == gain), None)
    if outcome is None:
        choices = tuple(["+".join(o.goods.words()) for o in outcomes])
        violations.append(Violation(Reason.NOT_A_GAIN_CHOICE, BUILD_RULE, _NOT_A_GAIN_CHOICE(
            asked="goods" if gain is not None else "that", building=building.name,
            gain=gain.words() if gain is not None else (), choices=choices), ("gain",)))
    return violations, outcome


def build_building(town: Town, building: Building, position: Position,
                   payment: Sequence[Payment], outcome: GainOutcome) -> Town:
    """The town with the building placed, paid for and its immediate effect applied."""
    tiles: dict[Position, Tile] = dict(town.tiles)
    for spot, goods in paid(town, payment).items():
        tile = town.building_at(spot)
        assert tile is not None
        tiles[spot] = BuildingTile(spot, tile.building, goods)
    tiles[position] = BuildingTile(position, building, outcome.goods)
    return Town(tiles, town.catalog, town.variant, max(0, town.score_track + outcome.points))


# -- what can be built -----------------------------------------------------------------

def free_positions(tiles: Mapping[Position, Tile]) -> tuple[Position, ...]:
    """Every empty position orthogonally next to the town, each once, in a fixed order."""
    if len(tiles) >= MAX_TILES:
        return ()
    return tuple(sorted({n for p in tiles for n in p.neighbours() if n not in tiles}))


def trail_placements(town: Town) -> Iterator[TrailWork]:
    """Every new trail the placement rules allow, each position and rotation once."""
    tiles = town.tiles
    for position in free_positions(tiles):
        needed = open_toward(tiles, position)
        for sides in TRAIL_SIDES:
            if needed <= sides:
                yield TrailWork(position, sides)


def trail_upgrades(town: Town) -> Iterator[TrailWork]:
    """Every upgrade FF-R10 allows: each trail that is not a T-junction, in each
    T-junction rotation that keeps its connections."""
    for trail in town.trails:
        if trail.shape is TrailShape.T_JUNCTION:
            continue
        keep = connected_sides(town.tiles, trail)
        for sides in T_JUNCTIONS:
            if keep <= sides:
                yield TrailWork(trail.position, sides, upgrade=True)
