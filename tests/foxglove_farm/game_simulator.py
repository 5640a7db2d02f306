"""Random complete games of Foxglove Farm, 1 to 4 players and solo, played through the
referee's own legal moves and validate, with a box of tiles standing in for the table.

The box holds each tier's tiles (the catalog's buildings of that tier, repeated to the
rulebook's stack sizes) shuffled; when the board waits for tiles the simulator draws
from it as players would: identical tiles stack, and drawing stops once every space is
filled.

The players are random but purposeful, so that games reach what scores. Most seats
play methodically: a trail spine of T-junctions along the row under the starting tile
(then above it), buildings on the squares its trails are open toward, so the buildings
along a spine are connected to each other through trails alone (as the expert variant
needs); the other seats place trails and buildings at random, favouring trails that
join tiles. All favour a processing building the town can feed and what feeds the ones
it has, keep back from construction the goods their processing buildings want, and in
transportation send goods where they are processed (as many as make complete batches)
or, like a Ranch's sheep, scored at the end, before their processing run.

Without ``composed`` every action is one the referee lists (``GAME.legal_moves``), so
a game can be held against the list. With ``composed`` the players also make what the
list leaves to them: several trails in one action (a trail built and then upgraded in
the same action among them), payments drawn from buildings of their choosing with wood and stone mixed at
random, an immediate gain's choice (the Emporium's type), production and processing
choices, and Hauler's Hut hauls (an empty one now and then) at the start of a
transportation phase (FF-R17). Each composed action is one the rules allow; the
simulator asserts that the referee agrees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tabletop_rules.foxglove_farm import builtin_catalog
from tabletop_rules.foxglove_farm.catalog import Building
from tabletop_rules.foxglove_farm.central_board import (
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
    Spaces,
    area_tier,
    board_spaces,
    refill,
)
from tabletop_rules.foxglove_farm.construction import (
    Payment,
    TrailWork,
    trail_placements,
    trail_upgrades,
)
from tabletop_rules.foxglove_farm.effects import (
    BonusIfHeld,
    Convert,
    ConvertDistinct,
    GainPerHeld,
    Haul,
    Phase,
)
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GamePhase,
    GameState,
    HaulGoods,
    Pass,
    Player,
    ProcessGoods,
    Produce,
    Seat,
    Setup,
    Transport,
)
from tabletop_rules.foxglove_farm.model import (
    GOODS,
    SIDES,
    BuildingTile,
    Good,
    Goods,
    Position,
    Side,
    Tile,
    TrailTile,
    Town,
    Variant,
)
from tabletop_rules.foxglove_farm.processing import processing_outcomes
from tabletop_rules.foxglove_farm.production import immediate_outcomes, production_outcomes
from tabletop_rules.foxglove_farm.transport import Pick

MAX_TRANSPORTS_A_PHASE = 12
"""Transports a player makes before their processing run (a bound, so phases end)."""
METHODICAL = 0.75
"""The share of seats that build a trail spine with buildings beside it."""
FINAL_ROUND_RUNS = 3
"""Processing runs a player makes at most in the fourth round before ending it."""


@dataclass
class PlayedGame:
    """A game played to its end: the setup, the log, the state before each action and
    the last."""

    setup: Setup
    moves: list[Any]
    states: list[GameState]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def setup_json(setup: Setup) -> dict[str, Any]:
    """``setup`` in the contract's JSON: what a client sends to start or replay the game."""
    body: dict[str, Any] = {"players": [{"name": seat.name, "variant": seat.variant.value}
                                        for seat in setup.players],
                            "start_player": setup.start_player, "a_tiles": list(setup.a_tiles),
                            "c_tiles": list(setup.c_tiles)}
    return body if setup.solo is None else {**body, "solo": setup.solo}


def new_box(rng: random.Random, laid_out: Sequence[str] = ()) -> dict[str, list[str]]:
    """Each tier's face-down stack, shuffled: the catalog's tiles of the tier repeated
    to the stack's size, less the tiles a solo setup lays out."""
    catalog = builtin_catalog()
    box = {}
    for tier, size in STACK_SIZES.items():
        kinds = sorted(b.id for b in catalog if tier in b.tiers and b.documented)
        size -= sum(tier in catalog[t].tiers and tier != "B" for t in laid_out)
        box[tier] = [kinds[i % len(kinds)] for i in range(size)]
        rng.shuffle(box[tier])
    return box


def draw(spaces: Spaces, stack: list[str]) -> list[str]:
    """Draw from ``stack`` as players do until no space of ``spaces`` is empty."""
    drawn: list[str] = []
    while None in spaces and stack:
        drawn.append(stack.pop())
        spaces = refill(spaces, drawn[-1:], 1).spaces
    return drawn


def random_setup(rng: random.Random, players: int, box: dict[str, list[str]],
                 solo: int | None = None, variant: Variant | None = None) -> Setup:
    """Named seats, each playing ``variant`` (each a random one when None)."""
    seats = tuple(Seat(f"Player {i + 1}", variant or rng.choice(list(Variant)))
                  for i in range(players))
    laid_out = SOLO_SETUPS[solo] if solo is not None else None
    a_tiles: tuple[str, ...] = ()
    c_tiles: tuple[str, ...] = ()
    if laid_out is None or not laid_out.a_tiles:
        a_tiles = tuple(draw((None,) * board_spaces(players, solo is not None), box["A"]))
        c_tiles = tuple(draw((None,) * C_SPACES, box["C"]))
    return Setup(seats, rng.randrange(players), a_tiles, c_tiles, solo)


# -- what a building is good for -------------------------------------------------------

def processes(building: Building, good: Good) -> bool:
    """``building`` turns ``good`` into points (or, like the Charcoal Kiln, into goods)
    in the processing phase."""
    return any(isinstance(e, ConvertDistinct) or (isinstance(e, Convert)
                                                  and e.inputs.count(good))
               for e in building.processing)


def scores_points(building: Building) -> bool:
    """``building`` gives points when it processes or at the end of the game."""
    return (any(e.points > 0 for e in building.processing)
            or bool(building.effects_in(Phase.END_GAME)))


def scores_at_end(building: Building, good: Good) -> bool:
    """``building``'s end-game effect counts ``good`` on it (the Ranch's sheep)."""
    return any(isinstance(e, GainPerHeld | BonusIfHeld) and e.held is good
               for e in building.effects_in(Phase.END_GAME))


def wants(building: Building, good: Good) -> bool:
    return processes(building, good) or scores_at_end(building, good)


def building_of(town: Town, position: Position) -> Building:
    tile = town.building_at(position)
    assert tile is not None
    return tile.building


def room_for(tile: BuildingTile, good: Good) -> int:
    """How many more ``good`` the building wants: enough for the most complete batches
    its slots hold (a Butcher with 4 slots: 2 coal and 2 sheep; a Market, each type
    once, then more), or, for the Ranch, every free slot."""
    building, goods = tile.building, tile.goods
    for effect in building.processing:
        if isinstance(effect, Convert) and effect.inputs.count(good):
            batches = building.slots // effect.inputs.total
            return max(0, min(batches * effect.inputs.count(good) - goods.count(good),
                              tile.free_slots))
        if isinstance(effect, ConvertDistinct):
            if not goods.count(good):  # a new type first
                return min(1, tile.free_slots)
            if len(goods.types) < effect.count:
                return 0
            # then more of each, one more than the batches take, so that which goods
            # are left over can be a choice
            return max(0, min(building.slots // effect.count + 1 - goods.count(good),
                              tile.free_slots))
    return tile.free_slots if scores_at_end(building, good) else 0


def supplies(town: Town) -> frozenset[Good]:
    """The goods the town's buildings produce each production phase."""
    return frozenset(g for t in town.buildings for e in t.building.effects_in(
        Phase.PRODUCTION) for g in e.depicts)


def needs(building: Building) -> frozenset[Good]:
    """The goods ``building``'s processing effects take (none for "different types")."""
    return frozenset(g for e in building.processing if isinstance(e, Convert)
                     for g in e.inputs.types)


def fed(town: Town, building: Building) -> bool:
    """The town makes, or holds enough of, every good a batch of ``building`` takes."""
    made, have = supplies(town), held(town)
    for effect in building.processing:
        if isinstance(effect, Convert):
            if any(g not in made and have.count(g) < n for g, n in effect.inputs.items()):
                return False
        elif len(made | have.types) < effect.count:
            return False
    return True


def reserve(town: Town) -> Goods:
    """The goods a player keeps out of construction: what the processing buildings (and
    Ranches) want, as far as the town holds it."""
    want = [0] * len(GOODS)
    for tile in town.buildings:
        for good in GOODS:
            if wants(tile.building, good) and scores_points(tile.building):
                want[good.index] += room_for(tile, good) + tile.goods.count(good)
    have = held(town)
    return Goods(*(min(w, h) for w, h in zip(want, have)))


def spare(town: Town) -> Goods:
    """What the town holds beyond its :func:`reserve`."""
    return held(town).minus(reserve(town))


def building_weight(town: Town, building: Building) -> float:
    """How much a player likes building ``building``: what supplies goods a processing
    building of the town lacks, and a processing building the town can supply, most."""
    have = supplies(town) | held(town).types
    lacking = frozenset().union(*(needs(t.building) for t in town.buildings)) - have
    gives = {g for e in building.effects if e.phase in (Phase.PRODUCTION, Phase.IMMEDIATE)
             for g in e.depicts} | {g for e in building.processing if isinstance(e, Convert)
                                    for g in e.goods.types}
    if building.processing and scores_points(building):
        return 10.0 if fed(town, building) else 0.5 if lacking else 4.0
    if gives & lacking:
        return 12.0
    if any(isinstance(e, Haul) for e in building.effects):
        return 4.0
    if building.effects_in(Phase.END_GAME):
        return 3.0
    return 2.0


def connections(tiles: dict[Position, Tile] | Any, position: Position,
                sides: frozenset[Any]) -> tuple[int, int]:
    """For a trail open on ``sides`` at ``position``: how many of its sides meet a tile
    open toward it (connections), and how many face an empty square (room to grow)."""
    joined = free = 0
    for side in sides:
        other = tiles.get(position.neighbour(side))
        if other is None:
            free += 1
        elif side.opposite in other.open_sides:
            joined += 1
    return joined, free


def trail_weight(tiles: Any, work: TrailWork) -> float:
    joined, free = connections(tiles, work.position, work.sides)
    if work.upgrade:
        before = tiles[work.position]
        was, _ = connections(tiles, work.position, before.sides)
        return 1.0 + 4.0 * max(0, joined - was)
    return 0.3 + 4.0 * joined * joined + 0.5 * free - (1.0 if len(work.sides) == 3 else 0.0)


def sketch(town: Town, tiles: dict[Position, Tile]) -> Town:
    """``town`` with ``tiles``: trails planned in an action, before it is made."""
    return Town(tiles, town.catalog, town.variant, town.score_track)


def weighted(rng: random.Random, items: Sequence[Any], weights: Sequence[float]) -> Any:
    return rng.choices(items, weights=weights)[0]


SPINE_ROWS = (1, -1)
"""The rows a methodical player lays trail spines along: under the starting tile, then
above it."""


def spine(town: Town, row: int) -> list[Position]:
    """A methodical player's spine along ``row``: a trail in the Forest's column open
    east, then the trails open east and west after it (empty without the first)."""
    def along(col: int) -> bool:
        tile = town.tiles.get(Position(row, col))
        return (isinstance(tile, TrailTile) and Side.E in tile.sides
                and (col == 0 or Side.W in tile.sides))

    if not along(0):
        return []
    high = 0
    while along(high + 1):
        high += 1
    return [Position(row, col) for col in range(high + 1)]


def spine_work(tiles: Any, run: list[Position], row: int, rng: random.Random
               ) -> list[TrailWork]:
    """The trails that would grow a spine by one, keeping open every side a trail is
    open toward (FF-R9): to begin with, a T-junction in the Forest's column open toward
    the Forest, east and away from the Forest (a square for a building at once); then
    one at its east end, open west, east and toward a building above or below it (else
    either way); and the upgrades of its straight trails toward a building (FF-R10)."""
    works = []
    if not run:
        square = Position(row, 0)
        toward = Side.N if row > 0 else Side.S
        options = [frozenset({toward, Side.E, toward.opposite})]
    else:
        square = run[-1].neighbour(Side.E)
        toward_building = [s for s in (Side.N, Side.S)
                           if isinstance(tiles.get(square.neighbour(s)), BuildingTile)]
        options = [frozenset({Side.E, Side.W, side})
                   for side in toward_building or rng.sample([Side.N, Side.S], 2)]
    if square not in tiles and any(n in tiles for n in square.neighbours()):
        needed = open_toward_sides(tiles, square)
        fitting = [sides for sides in options if needed <= sides]
        if fitting:
            works.append(TrailWork(square, fitting[0]))
    for position in run:
        tile = tiles[position]
        if len(tile.sides) == 2:
            for side in (Side.N, Side.S):
                if side not in tile.sides and isinstance(tiles.get(position.neighbour(side)),
                                                         BuildingTile):
                    works.append(TrailWork(position, tile.sides | {side}, upgrade=True))
    return works


def spine_slots(tiles: Any, run: list[Position]) -> set[Position]:
    """The empty squares north or south of a spine that its trails are open toward: a
    building there is connected to the spine."""
    return {square for position in run for side in (Side.N, Side.S)
            if side in tiles[position].sides
            and (square := position.neighbour(side)) not in tiles}


def open_toward_sides(tiles: Any, square: Position) -> frozenset[Side]:
    """The sides of ``square`` whose neighbouring trail is open toward it."""
    return frozenset(s for s in SIDES if isinstance(t := tiles.get(square.neighbour(s)),
                                                    TrailTile) and s.opposite in t.sides)


# -- payments --------------------------------------------------------------------------

def held(town: Town) -> Goods:
    return Goods(*(sum(t.goods[i] for t in town.buildings) for i in range(len(GOODS))))


def random_payment(town: Town, cost: Goods, rng: random.Random) -> tuple[Payment, ...] | None:
    """``cost`` taken from buildings chosen at random (one part per building)."""
    parts: dict[Position, list[int]] = {}
    for good, need in cost.items():
        holders = [t for t in town.buildings if t.goods.count(good)]
        rng.shuffle(holders)
        for tile in holders:
            if not need:
                break
            take = min(need, tile.goods.count(good), rng.randint(1, need))
            if rng.random() < 0.5:
                take = min(need, tile.goods.count(good))
            parts.setdefault(tile.position, [0] * len(GOODS))[good.index] += take
            need -= take
        for tile in holders:  # whatever is still owed, from whoever has some left
            if not need:
                break
            left = tile.goods.count(good) - parts.get(tile.position, [0] * 5)[good.index]
            take = min(need, left)
            if take:
                parts.setdefault(tile.position, [0] * len(GOODS))[good.index] += take
                need -= take
        if need:
            return None
    order = list(parts.items())
    rng.shuffle(order)
    return tuple(Payment(p, Goods(*counts)) for p, counts in order)


def random_trail_goods(town: Town, count: int, rng: random.Random) -> Goods | None:
    """``count`` trail costs as a random mix of wood and stone the town holds."""
    have = held(town)
    low, high = max(0, count - have.stone), min(count, have.wood)
    if low > high:
        return None
    wood = rng.randint(low, high)
    return Goods(wood=wood, stone=count - wood)


# -- the players -----------------------------------------------------------------------

class Players:
    """The players' habits, and what they remember between actions: whether a seat
    plays methodically (a trail spine with buildings beside it) or at random, and the
    transports made in the current transportation phase, by seat."""

    def __init__(self, rng: random.Random, composed: bool) -> None:
        self.rng = rng
        self.composed = composed
        self.transports: dict[int, int] = {}
        self.methodical: dict[int, bool] = {}

    def choose(self, state: GameState, legal: Sequence[Any]) -> Any:
        if state.phase is GamePhase.PRODUCTION:
            return self.produce(state, self.rng.choice(legal))
        if state.phase is GamePhase.CONSTRUCTION:
            return self.construct(state, legal)
        return self.transport(state, legal)

    # -- production -------------------------------------------------------------------

    def produce(self, state: GameState, move: Produce) -> Produce:
        if not self.composed or self.rng.random() < 0.3:
            return move
        town = state.players[move.player].town
        choices = tuple((t.position, self.rng.choice(outcomes).goods) for t in town.buildings
                        if len(outcomes := production_outcomes(town, t.position)) > 1)
        return Produce(move.player, choices)

    # -- construction -----------------------------------------------------------------

    def construct(self, state: GameState, legal: Sequence[Any]) -> Any:
        rng, seat = self.rng, state.current_player
        town = state.players[seat].town
        free = spare(town) if rng.random() < 0.85 else held(town)
        builds = [m for m in legal if isinstance(m, BuildBuilding)
                  and free.contains(state.catalog[m.building].cost)]
        trails = [m for m in legal if isinstance(m, BuildTrails)
                  and m.trails[0].cost <= free.wood + free.stone]
        if seat not in self.methodical:
            self.methodical[seat] = rng.random() < METHODICAL
        if self.methodical[seat]:
            move = self.grow_spine(state, town, free, builds, trails)
            if move is not None:
                return move
        roll = rng.random()
        if builds and roll < 0.5:
            return self.build(state, town, builds)
        if trails and roll < 0.9:
            if self.composed and rng.random() < 0.5:
                run = self.trail_run(state, town, free, lambda tiles: [
                    w for w in (*trail_placements(sketch(town, tiles)),
                                *trail_upgrades(sketch(town, tiles)))])
                if run is not None:
                    return run
            return weighted(rng, trails, [trail_weight(town.tiles, m.trails[0])
                                          for m in trails])
        return Pass(seat)

    def grow_spine(self, state: GameState, town: Town, free: Goods,
                   builds: list[BuildBuilding], trails: list[BuildTrails]) -> Any:
        """A methodical player's turn: a building beside a spine, where a spine trail is
        open toward it, or a spine grown by a trail; None to play as the others."""
        rng = self.rng
        runs = {row: spine(town, row) for row in SPINE_ROWS}
        slots = set().union(*(spine_slots(town.tiles, run) for run in runs.values()))
        beside = [m for m in builds if m.position in slots]
        if beside and rng.random() < 0.65:
            return self.build(state, town, beside)
        row = next((r for r in SPINE_ROWS if spine_work(town.tiles, runs[r], r, rng)), None)
        if row is not None and rng.random() < (0.3 if slots else 0.9):
            if self.composed and rng.random() < 0.6:
                grown = self.trail_run(state, town, free, lambda tiles: spine_work(
                    tiles, spine(sketch(town, tiles), row), row, rng))
                if grown is not None:
                    return grown
            works = spine_work(town.tiles, runs[row], row, rng)
            listed = [m for m in trails if m.trails[0] in works]
            if listed:
                return rng.choice(listed)
        if not slots and row is None:
            return None  # the spines are hemmed in: play as the others do
        if builds and rng.random() < 0.15:
            return self.build(state, town, builds)
        return Pass(state.current_player) if rng.random() < 0.8 else None

    def build(self, state: GameState, town: Town, builds: list[BuildBuilding]) -> Any:
        rng = self.rng
        kinds = sorted({m.building for m in builds})
        kind = weighted(rng, kinds, [building_weight(town, state.catalog[k]) for k in kinds])
        move = rng.choice([m for m in builds if m.building == kind])
        if not self.composed:
            return move
        building = state.catalog[kind]
        payment = random_payment(town, building.cost, rng) if rng.random() < 0.7 else None
        gain = rng.choice(immediate_outcomes(building)).goods if rng.random() < 0.7 else None
        return BuildBuilding(move.player, kind, move.position, payment or move.payment, gain)

    def trail_run(self, state: GameState, town: Town, free: Goods,
                  options: Callable[[dict[Position, Tile]], list[TrailWork]]
                  ) -> BuildTrails | None:
        """One to four trails in one action, each chosen among ``options`` of the town as
        the ones before left it (now and then a new one upgraded at once, FF-R10), paid
        (wood and stone mixed at random) from buildings chosen at random."""
        rng, seat = self.rng, state.current_player
        tiles: dict[Position, Tile] = dict(town.tiles)
        works: list[TrailWork] = []
        cost = 0
        for _ in range(rng.randint(1, 4)):
            choices = [w for w in options(tiles) if cost + w.cost <= free.wood + free.stone]
            if not choices:
                break
            work = weighted(rng, choices, [trail_weight(tiles, w) for w in choices])
            if (not work.upgrade and len(work.sides) == 2 and rng.random() < 0.1
                    and cost + 2 <= free.wood + free.stone):  # built, then upgraded
                works.append(work)
                cost += work.cost
                tiles[work.position] = TrailTile(work.position, work.sides)
                work = rng.choice([w for w in trail_upgrades(sketch(town, tiles))
                                   if w.position == work.position])
            works.append(work)
            cost += work.cost
            tiles[work.position] = TrailTile(work.position, work.sides)
        if not works:
            return None
        goods = random_trail_goods(town, cost, rng)
        payment = random_payment(town, goods, rng) if goods is not None else None
        if payment is None:
            return None
        return BuildTrails(seat, tuple(works), payment)

    # -- transportation and processing ------------------------------------------------

    def transport(self, state: GameState, legal: Sequence[Any]) -> Any:
        rng = self.rng
        seats = sorted({m.player for m in legal})
        seat = rng.choice(seats)
        player = state.players[seat]
        town = player.town
        mine = [m for m in legal if m.player == seat]
        made = self.transports.get(seat, 0)
        if self.composed and not player.moved and rng.random() < 0.7:
            haul = self.haul(seat, player)
            if haul is not None:
                return haul
        moves = [m for m in mine if isinstance(m, Transport)]
        useful = [m for m in moves if self.useful(town, m)]
        if made < MAX_TRANSPORTS_A_PHASE:
            if useful and rng.random() < 0.9:
                return self.moved(seat, self.biggest(useful))
            aimless = [m for m in moves if not wants(building_of(town, m.origin), m.good)]
            if aimless and rng.random() < 0.08:
                return self.moved(seat, rng.choice(aimless))
        ends = [m for m in mine if isinstance(m, EndRound)]
        if ends and not player.moved and (player.runs >= FINAL_ROUND_RUNS or not useful
                                          or rng.random() < 0.1):
            return ends[0]  # mostly after a run that left nothing to send
        self.transports[seat] = 0
        return self.process(seat, town)

    def moved(self, seat: int, move: Transport) -> Transport:
        self.transports[seat] = self.transports.get(seat, 0) + 1
        return move

    @staticmethod
    def useful(town: Town, move: Transport) -> bool:
        """Goods sent where they are processed or scored, as many as make complete
        batches there, from where they are not."""
        destination = town.building_at(move.destination)
        assert destination is not None
        return (move.count <= room_for(destination, move.good)
                and not wants(building_of(town, move.origin), move.good))

    def biggest(self, moves: list[Transport]) -> Transport:
        """A random transport among ``moves``, mostly of as many goods as it can carry."""
        move = self.rng.choice(moves)
        if self.rng.random() < 0.2:
            return move
        return max((m for m in moves if (m.good, m.origin, m.destination)
                    == (move.good, move.origin, move.destination)), key=lambda m: m.count)

    def haul(self, seat: int, player: Player) -> HaulGoods | None:
        """Goods picked at random from other buildings onto a hut that has not hauled in
        this transportation phase (FF-R17)."""
        rng, town = self.rng, player.town
        huts = [t for t in town.buildings if t.position not in player.hauled
                and any(isinstance(e, Haul) for e in t.building.effects)]
        if not huts:
            return None
        hut = rng.choice(huts)
        limit = min(next(e.count for e in hut.building.effects if isinstance(e, Haul)),
                    hut.free_slots)
        cubes = [(good, t.position) for t in town.buildings if t is not hut
                 for good, n in t.goods.items() for _ in range(n)]
        picked = rng.sample(cubes, min(len(cubes), rng.randint(0, limit)))
        counts: dict[tuple[Good, Position], int] = {}
        for key in picked:
            counts[key] = counts.get(key, 0) + 1
        picks = tuple(Pick(good, n, origin) for (good, origin), n in counts.items())
        return HaulGoods(seat, hut.position, picks)

    def process(self, seat: int, town: Town) -> ProcessGoods:
        if not self.composed or self.rng.random() < 0.3:
            return ProcessGoods(seat)
        choices = []
        for position in town.network.processor_positions:
            tile = town.building_at(position)
            assert tile is not None
            outcomes = processing_outcomes(tile.building, tile.goods)
            if len(outcomes) > 1:
                choices.append((position, self.rng.choice(outcomes).goods))
        return ProcessGoods(seat, tuple(choices))


def play_random_game(rng: random.Random, players: int, solo: int | None = None,
                     composed: bool = False, max_actions: int = 3000, *,
                     variant: Variant | None = None) -> PlayedGame:
    """A complete game, each action legal; the states before each action and the last.
    ``variant`` is every seat's transport rule (by default each seat's is random)."""
    box = new_box(rng, SOLO_SETUPS[solo].a_tiles + SOLO_SETUPS[solo].c_tiles if solo else ())
    setup = random_setup(rng, players, box, solo, variant)
    state = GAME.new_game(setup)
    table = Players(rng, composed)
    moves: list[Any] = []
    states = [state]
    while (turn := GAME.turn(state)).expected is not None:
        assert len(moves) < max_actions, "the game does not end"
        if turn.expected == "draw_tiles":
            area = state.board.awaiting(state.round)
            assert area is not None
            move: Any = DrawTiles(tuple(draw(state.board.spaces(area),
                                             box[area_tier(area, state.round)])))
        else:
            move = table.choose(state, GAME.legal_moves(state))
        verdict = GAME.validate(state, move)
        assert verdict.next_state is not None, (move, verdict.violations)
        state = verdict.next_state
        moves.append(move)
        states.append(state)
    return PlayedGame(setup, moves, states)
