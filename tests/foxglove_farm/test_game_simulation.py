"""Complete random games of Foxglove Farm (2 to 4 players, and each solo setup), checked
at every step, and their logs replayed.

The games come from :mod:`.game_simulator`. Each action is checked against what the
rulebook and the rulings say it does, worked out here from the state before it rather
than taken from the referee: a production puts on each tile only what its effect gains
and only on free slots (FF-R5); a payment takes exactly the cost (FF-R11); a transport or
a haul only moves goods (FF-R2, FF-R3, FF-R17); a processing run spends and makes what
its log says, and the log is the rulebook's conversions run fully (FF-R4); no action
cuts a trail connection (FF-R9, FF-R10) and a town stays one group. Each player's score
is kept on a ledger of its scoring events (production, immediate and processing points,
floored at 0 as FF-R18 says; in a production the player orders the tiles, so losses come
first) and must match the score track; the standings must add the end-game effects
(FF-R6 to FF-R8), worked out here too. The listed legal moves are checked against the
rules too, and the game's shape (turn order, one production and one pass a round).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules.foxglove_farm.central_board import SOLO_SETUPS, Area, Spaces
from tabletop_rules.foxglove_farm.construction import pay_from
from tabletop_rules.foxglove_farm.effects import (
    BonusIfHeld,
    Convert,
    ConvertDistinct,
    Gain,
    GainPerHeld,
    Haul,
    PerBuildingViaTrails,
    PerSurroundingProcessor,
    Phase,
)
from tabletop_rules.foxglove_farm.farm_game import GAME
from tabletop_rules.foxglove_farm.game_checks import check_state
from tabletop_rules.foxglove_farm.game_state import (
    BuildBuilding,
    BuildTrails,
    DrawTiles,
    EndRound,
    GamePhase,
    GameState,
    HaulGoods,
    Pass,
    ProcessGoods,
    Produce,
    Transport,
)
from tabletop_rules.foxglove_farm.model import (
    NO_GOODS,
    SIDES,
    BuildingTile,
    Good,
    Goods,
    Position,
    TrailTile,
    Town,
    Variant,
)
from tabletop_rules.foxglove_farm.processing import run_processing
from tabletop_rules.foxglove_farm.town import check_town
from tabletop_rules.foxglove_farm.production import immediate_outcomes
from tabletop_rules.game import replay

from .game_simulator import PlayedGame, play_random_game

SEATINGS = [(players, None) for players in (2, 3, 4)] + [(1, solo) for solo in SOLO_SETUPS]
"""(players, solo setup): 2 to 4 players, and one player in each solo setup (FF-R20)."""
ALL = frozenset(SIDES)


# -- the rules, written out independently of the referee -------------------------------

def open_sides(tile: Any) -> frozenset[Any]:
    return ALL if isinstance(tile, BuildingTile) else tile.sides


def links(town: Town) -> set[frozenset[Position]]:
    """Every pair of neighbouring tiles connected by trails (FF-R1): both open on the
    side they share, and not both buildings."""
    found = set()
    for position, tile in town.tiles.items():
        for side in SIDES:
            other = town.tiles.get(position.neighbour(side))
            if (other is not None and side in open_sides(tile)
                    and side.opposite in open_sides(other)
                    and not (isinstance(tile, BuildingTile)
                             and isinstance(other, BuildingTile))):
                found.add(frozenset({position, other.position}))
    return found


def neighbours_linked(town: Town) -> dict[Position, list[Position]]:
    linked: dict[Position, list[Position]] = {p: [] for p in town.tiles}
    for a, b in (tuple(pair) for pair in links(town)):
        linked[a].append(b)
        linked[b].append(a)
    return linked


def one_group(town: Town) -> bool:
    """Every tile reaches every other through orthogonal neighbours (FF-R9)."""
    start = next(iter(town.tiles))
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in queue.popleft().neighbours():
            if nxt in town.tiles and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == len(town.tiles)


def can_carry(town: Town, origin: Position, destination: Position, good: Good) -> bool:
    """A connected way from ``origin`` to ``destination`` that ``good`` may travel
    (FF-R2): through any building (standard) or only buildings depicting it (expert)."""
    linked = neighbours_linked(town)
    seen, queue = {origin}, deque([origin])
    while queue:
        here = queue.popleft()
        for nxt in linked[here]:
            if nxt == destination:
                return True
            if nxt in seen:
                continue
            seen.add(nxt)
            tile = town.tiles[nxt]
            if (isinstance(tile, TrailTile) or town.variant is Variant.STANDARD
                    or good in tile.building.depicts):
                queue.append(nxt)
    return False


def goods_in(town: Town) -> Goods:
    """Every goods cube in the town, by type."""
    total = NO_GOODS
    for tile in town.tiles.values():
        if isinstance(tile, BuildingTile):
            total = total.plus(tile.goods)
    return total


def goods_on(town: Town) -> dict[Position, Goods]:
    return {p: t.goods for p, t in town.tiles.items() if isinstance(t, BuildingTile)}


def fill(bundle: Goods, free: int) -> Goods:
    """The part of ``bundle`` that fits ``free`` slots, filled in contract order (the
    referee's default where the player names no choice)."""
    kept, left = [], max(free, 0)
    for n in bundle:
        kept.append(min(n, left))
        left -= kept[-1]
    return Goods(*kept)


def end_game_points(town: Town) -> int:
    """The end-game effects (FF-R6, FF-R7, FF-R8), from the tiles alone."""
    points = 0
    linked = neighbours_linked(town)
    for position, tile in town.tiles.items():
        if not isinstance(tile, BuildingTile):
            continue
        for effect in tile.building.effects_in(Phase.END_GAME):
            if isinstance(effect, GainPerHeld):
                points += tile.goods.count(effect.held) // effect.per * effect.points
            elif isinstance(effect, BonusIfHeld):
                points += effect.points if tile.goods.count(effect.held) >= effect.at_least \
                    else 0
            elif isinstance(effect, PerBuildingViaTrails):
                reached, seen, queue = set(), {position}, deque([position])
                while queue:
                    for nxt in linked[queue.popleft()]:
                        if nxt in seen:
                            continue
                        seen.add(nxt)
                        if isinstance(town.tiles[nxt], BuildingTile):
                            reached.add(nxt)  # a building ends the way (FF-R6)
                        else:
                            queue.append(nxt)
                points += effect.points * len(reached)
            elif isinstance(effect, PerSurroundingProcessor):
                around = sum(isinstance(t := town.tiles.get(p), BuildingTile)
                             and bool(t.building.processing) for p in position.surrounding())
                points += min(effect.points * around, effect.max_points)
            else:
                raise AssertionError(f"an end-game effect the test does not know: {effect}")
    return points


def conversions(building: Any, goods: Goods) -> tuple[int, Goods, Goods, int] | None:
    """What the building's processing effect does to ``goods`` run fully (FF-R4):
    (times, spent, made, points), the spent goods only for a fixed recipe; None when it
    cannot run. Every built-in building has at most one processing effect."""
    [effect] = building.processing
    if isinstance(effect, Convert):
        times = min(have // need for have, need in zip(goods, effect.inputs) if need)
        if not times:
            return None
        return (times, effect.inputs.scaled(times), effect.goods.scaled(times),
                effect.points * times)
    assert isinstance(effect, ConvertDistinct)
    times = max(t for t in range(goods.total // effect.count + 1)
                if sum(min(n, t) for n in goods) >= effect.count * t)
    return (times, NO_GOODS, NO_GOODS, effect.points * times) if times else None


def on_board(spaces: Spaces) -> int:
    return sum(space.count for space in spaces if space is not None)


def solo_removals(spaces: Spaces, taken: int) -> int:
    """FF-R20: after the constructed tile is taken, one tile leaves each row of the area
    that still holds one (two rows)."""
    left = [s.count - (i == taken) if s is not None else 0 for i, s in enumerate(spaces)]
    width = len(spaces) // 2
    return sum(any(left[r * width:(r + 1) * width]) for r in range(2))


def expected_transports(town: Town) -> set[tuple[Good, int, Position, Position]]:
    """Every transport the rules allow in ``town`` (FF-R2, FF-R3), each count."""
    found: set[tuple[Good, int, Position, Position]] = set()
    for origin, held in goods_on(town).items():
        for good in (g for g in Good if held.count(g)):
            for destination, there in goods_on(town).items():
                tile = town.building_at(destination)
                assert tile is not None
                room = min(held.count(good), tile.building.slots - there.total)
                if (destination != origin and good in tile.building.depicts and room >= 1
                        and can_carry(town, origin, destination, good)):
                    found.update((good, n, origin, destination) for n in range(1, room + 1))
    return found


SHAPES = [frozenset(s) for s in ({"N", "S"}, {"E", "W"}, {"N", "E"}, {"E", "S"}, {"S", "W"},
                                 {"W", "N"}, {"N", "E", "S"}, {"E", "S", "W"}, {"S", "W", "N"},
                                 {"W", "N", "E"})]


def expected_trail_works(town: Town) -> set[tuple[Position, frozenset[str], bool]]:
    """Every single trail a player may build or upgrade (FF-R9, FF-R10, FF-R11: it costs
    1, or 2 for a new T-junction, in wood or stone the town holds)."""
    held = goods_in(town)
    budget = held.wood + held.stone
    linked = neighbours_linked(town)
    found: set[tuple[Position, frozenset[str], bool]] = set()
    empty = {n for p in town.tiles for n in p.neighbours() if n not in town.tiles}
    for square in empty:
        needed = {s.value for s in SIDES if isinstance(t := town.tiles.get(square.neighbour(s)),
                                                       TrailTile) and s.opposite in t.sides}
        found.update((square, shape, False) for shape in SHAPES
                     if needed <= shape and (2 if len(shape) == 3 else 1) <= budget)
    for position, tile in town.tiles.items():
        if isinstance(tile, TrailTile) and len(tile.sides) == 2 and budget >= 1:
            keep = {next(s.value for s in SIDES if position.neighbour(s) == other)
                    for other in linked[position]}
            found.update((position, shape, True) for shape in SHAPES
                         if len(shape) == 3 and keep <= shape)
    return found


def check_listed_moves(state: GameState) -> None:
    """What ``legal_moves`` lists is what the rules allow: each transport; each building
    on offer the town can pay for at each free square; each single trail; and each
    listed move validates."""
    legal = GAME.legal_moves(state)
    assert len(set(legal)) == len(legal)
    if state.phase is GamePhase.TRANSPORTATION:
        for seat, player in enumerate(state.players):
            listed = {(m.good, m.count, m.origin, m.destination) for m in legal
                      if isinstance(m, Transport) and m.player == seat}
            assert listed == (set() if player.done else expected_transports(player.town))
    elif state.phase is GamePhase.CONSTRUCTION and state.board.awaiting(state.round) is None:
        seat = state.current_player
        town = state.players[seat].town
        held = goods_in(town)
        empty = {n for p in town.tiles for n in p.neighbours() if n not in town.tiles}
        offered = [s.building for area in Area for s in state.board.spaces(area)
                   if s is not None and state.catalog[s.building].documented
                   and held.contains(state.catalog[s.building].cost)]
        assert {(m.building, m.position) for m in legal if isinstance(m, BuildBuilding)} == {
            (b, p) for b in offered for p in empty}
        assert {(w.position, frozenset(s.value for s in w.sides), w.upgrade)
                for m in legal if isinstance(m, BuildTrails) for w in m.trails} == \
            expected_trail_works(town)
        assert Pass(seat) in legal
    for move in legal:
        verdict = GAME.validate(state, move)
        assert verdict.next_state is not None, (move, verdict.violations)


# -- each action -----------------------------------------------------------------------

def check_production(before: Town, after: Town, move: Produce) -> tuple[int, int]:
    """The points a production gains and loses (FF-R5): each producing tile gains what
    its effect gives, as far as its free slots allow (the player's choice, or filled in
    contract order); no other tile changes."""
    chosen = dict(move.choices)
    gains = losses = 0
    for position, old in goods_on(before).items():
        tile = before.building_at(position)
        assert tile is not None
        new = after.goods_at(position)
        effects = tile.building.effects_in(Phase.PRODUCTION)
        if not effects:
            assert new == old, (tile.label, old, new)
            continue
        [effect] = effects  # the built-in catalog: one production effect a tile
        if isinstance(effect, Gain):
            bundles, points = effect.options, effect.points
        else:
            assert isinstance(effect, GainPerHeld)
            times = old.count(effect.held) // effect.per
            bundles, points = (effect.goods.scaled(times),), effect.points * times
        assert new.contains(old), (tile.label, old, new)
        added = new.minus(old)
        free = tile.building.slots - old.total
        if position in chosen:
            assert new == chosen[position]
            assert any(b.contains(added) and (added == b or added.total == free)
                       for b in bundles), (tile.label, added, bundles)
        else:
            assert added == fill(bundles[0], free), (tile.label, added, bundles)
        assert new.types <= tile.building.depicts and new.total <= tile.building.slots
        if points > 0:
            gains += points
        else:
            losses -= points
    return gains, losses


def check_payment(before: Town, after: Town, payment: Sequence[Any], spared: set[Position]
                  ) -> Goods:
    """The goods a payment takes, each from the building it names: exactly those leave
    (FF-R11), and no other building's goods change (``spared`` are checked elsewhere)."""
    taken: dict[Position, Goods] = {}
    for part in payment:
        taken[part.position] = taken.get(part.position, NO_GOODS).plus(part.goods)
    for position, old in goods_on(before).items():
        if position in spared:
            continue
        assert after.goods_at(position) == old.minus(taken.get(position, NO_GOODS)), position
    total = NO_GOODS
    for goods in taken.values():
        total = total.plus(goods)
    return total


def check_build(state: GameState, after_state: GameState, move: BuildBuilding) -> int:
    before = state.players[move.player].town
    after = after_state.players[move.player].town
    building = state.catalog[move.building]
    assert check_payment(before, after, move.payment, set()) == building.cost
    assert set(after.tiles) == set(before.tiles) | {move.position}
    assert move.position not in before.tiles
    assert any(n in before.tiles for n in move.position.neighbours())  # FF-R9
    new = after.building_at(move.position)
    assert new is not None and new.building.id == move.building
    outcomes = immediate_outcomes(building)
    outcome = outcomes[0] if move.gain is None else next(
        o for o in outcomes if o.goods == move.gain)
    assert new.goods == outcome.goods and new.goods.total <= building.slots
    # the central board: the tile leaves its space (and, solo, one from each row, FF-R20)
    area, index = state.board.find(move.building)  # type: ignore[misc]
    spaces, spaces_after = state.board.spaces(area), after_state.board.spaces(area)
    gone = 1 + (solo_removals(spaces, index) if state.solo is not None else 0)
    assert on_board(spaces) - on_board(spaces_after) == gone
    other = Area.C if area is Area.OFFER else Area.OFFER
    assert state.board.spaces(other) == after_state.board.spaces(other)
    return outcome.points


def check_trails(before: Town, after: Town, move: BuildTrails) -> None:
    cost = sum(2 if not w.upgrade and len(w.sides) == 3 else 1 for w in move.trails)
    paid = check_payment(before, after, move.payment, set())
    assert paid.total == cost and paid.types <= {Good.WOOD, Good.STONE}, (paid, cost)
    placed = {w.position for w in move.trails}
    assert set(after.tiles) == set(before.tiles) | placed
    tiles = dict(before.tiles)  # the trails are built in the order listed
    for work in move.trails:
        old = tiles.get(work.position)
        if work.upgrade:  # FF-R10: a straight or curved trail flipped
            assert isinstance(old, TrailTile) and len(old.sides) == 2, work
            assert len(work.sides) == 3
        else:  # FF-R9: next to the town, open toward every trail open toward it
            assert old is None and any(n in tiles for n in work.position.neighbours())
            for side in SIDES:
                other = tiles.get(work.position.neighbour(side))
                if isinstance(other, TrailTile) and side.opposite in other.sides:
                    assert side in work.sides, ("cuts off a trail", work)
        tiles[work.position] = TrailTile(work.position, work.sides)
    assert dict(after.tiles) == {p: (after.tiles[p] if isinstance(t, BuildingTile) else t)
                                 for p, t in tiles.items()}


def check_transport(before: Town, after: Town, move: Transport) -> None:
    origin, destination = before.building_at(move.origin), before.building_at(move.destination)
    assert origin is not None and destination is not None and origin is not destination
    assert origin.goods.count(move.good) >= move.count >= 1
    assert move.good in destination.building.depicts  # FF-R3
    assert destination.free_slots >= move.count
    assert can_carry(before, move.origin, move.destination, move.good)  # FF-R2
    expected = goods_on(before)
    expected[move.origin] = origin.goods.add(move.good, -move.count)
    expected[move.destination] = destination.goods.add(move.good, move.count)
    assert goods_on(after) == expected


def check_haul(state: GameState, before: Town, after: Town, move: HaulGoods) -> None:
    player = state.players[move.player]
    assert not player.moved and move.hut not in player.hauled  # a phase's start (FF-R17)
    hut = before.building_at(move.hut)
    assert hut is not None
    [haul] = [e for e in hut.building.effects if isinstance(e, Haul)]
    picked = NO_GOODS
    expected = goods_on(before)
    for pick in move.picks:
        assert pick.origin != move.hut and pick.count >= 1
        expected[pick.origin] = expected[pick.origin].add(pick.good, -pick.count)
        picked = picked.add(pick.good, pick.count)
    assert picked.total <= min(haul.count, hut.free_slots)
    expected[move.hut] = hut.goods.plus(picked)
    assert all(goods.contains(NO_GOODS) and min(goods) >= 0 for goods in expected.values())
    assert goods_on(after) == expected


def check_processing(before: Town, after: Town, move: ProcessGoods) -> int:
    """The run's log is every processing effect run fully (FF-R4) and the goods after are
    what it spent and made; returns the log's points."""
    log = run_processing(before, dict(move.choices) or None).log
    logged = {entry.position: entry for entry in log}
    assert len(logged) == len(log)  # one effect a building: one entry a building
    chosen = dict(move.choices)
    points = 0
    for position, old in goods_on(before).items():
        tile = before.building_at(position)
        assert tile is not None
        new = after.goods_at(position)
        ran = conversions(tile.building, old) if tile.building.processing else None
        if ran is None:
            assert new == old and position not in logged, tile.label
            continue
        times, spent, made, gained = ran
        entry = logged[position]
        assert (entry.building, entry.times, entry.points) == (tile.building.id, times,
                                                                gained), entry
        if any(spent):  # a fixed recipe
            assert (entry.spent, entry.made) == (spent, made)
        else:  # goods of different types: times conversions of distinct types
            [effect] = tile.building.processing
            assert isinstance(effect, ConvertDistinct)
            assert entry.spent.total == effect.count * times and not any(entry.made)
            assert all(n <= times for n in entry.spent)
        assert new == old.minus(entry.spent).plus(entry.made), tile.label
        if position in chosen:
            assert new == chosen[position]
        assert conversions(tile.building, new) is None  # nothing left to run
        points += entry.points
    assert points == sum(e.points for e in log)
    return points


def check_step(state: GameState, move: Any, after: GameState, ledger: list[int]) -> None:
    """One action against the rules; ``ledger`` (each seat's score from its scoring
    events) moves with it."""
    assert check_state(after) == [], check_state(after)
    for seat, (old, new) in enumerate(zip(state.players, after.players)):
        assert links(old.town) <= links(new.town), "a trail connection was cut"
        assert one_group(new.town)
        for position, tile in old.town.tiles.items():  # tiles stay, buildings stay put
            kept = new.town.tiles[position]
            assert type(kept) is type(tile)
            if isinstance(tile, BuildingTile):
                assert kept.building.id == tile.building.id  # type: ignore[union-attr]
        assert check_town(new.town) == []  # FF-R19: slots and what a tile may hold
        if getattr(move, "player", None) != seat:
            assert new.town.tiles == old.town.tiles
            assert new.town.score_track == old.town.score_track
    if isinstance(move, DrawTiles):
        area = state.board.awaiting(state.round)
        assert area is not None
        drawn = len(move.tiles)
        assert (on_board(after.board.spaces(area)) - on_board(state.board.spaces(area))
                == drawn)
        return
    seat = move.player
    before, town = state.players[seat].town, after.players[seat].town
    if isinstance(move, Produce):
        # the player runs the tiles in the order they like (the rulebook's production
        # phase): losses first, so that the floor (FF-R18) takes what it can of them
        gains, losses = check_production(before, town, move)
        ledger[seat] = max(0, ledger[seat] - losses) + gains
    elif isinstance(move, BuildBuilding):
        ledger[seat] = max(0, ledger[seat] + check_build(state, after, move))
    elif isinstance(move, BuildTrails):
        check_trails(before, town, move)
    elif isinstance(move, Transport | HaulGoods):
        assert goods_in(town) == goods_in(before)  # goods are moved, never made or lost
        if isinstance(move, Transport):
            check_transport(before, town, move)
        else:
            check_haul(state, before, town, move)
    elif isinstance(move, ProcessGoods):
        ledger[seat] += check_processing(before, town, move)
    else:
        assert isinstance(move, Pass | EndRound)
        assert goods_on(town) == goods_on(before)
    if not isinstance(move, BuildBuilding | BuildTrails):
        assert set(town.tiles) == set(before.tiles)
    assert town.score_track == ledger[seat] >= 0, (move, town.score_track, ledger[seat])


def check_rounds(game: PlayedGame) -> None:
    """The game's shape, from the rulebook's round overview and FF-R14, FF-R15: four
    rounds; in each, every seat produces once, then construction turns go clockwise
    from the start player, skipping those who passed, until each has passed once; then
    each seat's transportation ends with one processing run (rounds 1 to 3), or with
    runs and one EndRound (round 4). The start player moves one seat clockwise a round."""
    n = len(game.setup.players)
    for number in range(1, 5):
        acted = [(state, move) for state, move in zip(game.states, game.moves)
                 if state.round == number and not isinstance(move, DrawTiles)]
        start = (game.setup.start_player + number - 1) % n
        assert all(state.start_player == start for state, _ in acted)
        for seat in range(n):
            mine = [type(m) for _, m in acted if m.player == seat]
            assert mine.count(Produce) == 1 and mine.count(Pass) == 1, (number, seat, mine)
            runs = mine.count(ProcessGoods)
            assert (runs >= 1 and mine.count(EndRound) == 1 if number == 4
                    else runs == 1 and EndRound not in mine), (number, seat, mine)
        turns = [m for _, m in acted if isinstance(m, BuildBuilding | BuildTrails | Pass)]
        passed: set[int] = set()
        seat = start
        for move in turns:
            assert move.player == seat, (number, move, seat)
            if isinstance(move, Pass):
                passed.add(seat)
            if len(passed) < n:
                seat = next(s for s in ((seat + step) % n for step in range(1, n + 1))
                            if s not in passed)
        assert len(passed) == n
    assert game.final.round == 4


def check_game(game: PlayedGame, rng: random.Random, listed: bool) -> None:
    """Every step, the end, and the replayed log. ``listed``: every action was one
    ``legal_moves`` listed (checked on a sample of states)."""
    states, moves = game.states, game.moves
    ledger = [0] * len(game.setup.players)
    assert check_state(states[0]) == []
    for before, move, after in zip(states, moves, states[1:]):
        assert GAME.turn(before).expected is not None and GAME.standings(before) is None
        check_step(before, move, after, ledger)
    check_rounds(game)
    final = game.final
    assert final.phase is GamePhase.GAME_OVER
    assert GAME.turn(final).expected is None and GAME.turn(final).player is None
    ranking = GAME.standings(final)
    assert ranking is not None and ranking.winners
    by_name = {p.name: p for p in final.players}
    keys = []
    for standing in ranking.standings:
        town = by_name[standing.name].town
        seat = final.players.index(by_name[standing.name])
        assert standing.score.total == max(0, ledger[seat] + end_game_points(town))
        keys.append((standing.score.total, -goods_in(town).total, len(town.tiles)))
    assert keys == sorted(keys, reverse=True)  # FF-R16
    for i, standing in enumerate(ranking.standings):
        same = i and keys[i] == keys[i - 1]
        assert standing.place == (ranking.standings[i - 1].place if same else i + 1)
    result = replay(GAME, game.setup, moves)
    assert result.legal and result.state == final and result.ranking == ranking
    cut = rng.randrange(len(moves))
    partial = replay(GAME, game.setup, moves[:cut])
    assert partial.legal and partial.state == states[cut] and partial.ranking is None
    for phase in (GamePhase.CONSTRUCTION, GamePhase.TRANSPORTATION):
        among = [s for s in states if s.phase is phase and GAME.turn(s).player is not None]
        for sampled in rng.sample(among, min(2, len(among))):
            check_listed_moves(sampled)
    if listed:
        for i in sorted(rng.sample(range(len(moves)), min(8, len(moves)))):
            legal = GAME.legal_moves(states[i])
            if isinstance(moves[i], DrawTiles):
                assert legal == () and GAME.turn(states[i]).player is None
            else:
                assert moves[i] in legal


# -- the games -------------------------------------------------------------------------

@pytest.mark.parametrize("composed", [False, True], ids=["listed", "composed"])
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
@pytest.mark.parametrize(("players", "solo"), SEATINGS,
                         ids=[f"solo{s}" if s else f"{p}p" for p, s in SEATINGS])
def test_every_seating_plays_a_whole_game_by_the_rules(players: int, solo: int | None,
                                                       variant: Variant,
                                                       composed: bool) -> None:
    rng = random.Random(f"{players}/{solo}/{variant.value}/{composed}")
    game = play_random_game(rng, players, solo, composed, variant=variant)
    assert len(game.final.players) == players and game.final.solo == solo
    assert all(p.variant is variant for p in game.final.players)
    check_game(game, rng, listed=not composed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seating=st.sampled_from(SEATINGS),
       composed=st.booleans())
def test_random_games_keep_every_invariant_and_replay_agrees(
        seed: int, seating: tuple[int, int | None], composed: bool) -> None:
    rng = random.Random(seed)
    game = play_random_game(rng, *seating, composed=composed)  # seats' variants mixed
    check_game(game, rng, listed=not composed)


def test_the_simulated_players_reach_what_the_checks_are_for() -> None:
    """The games exercise what the checks above are about: goods sent to processing
    buildings and processed for points, hauls, several trails in one action, upgrades
    (of a trail built in the same action too), payments from buildings of the player's
    choice, production, gain and processing choices. Deterministic (fixed seeds): 4-player
    composed games until each has been seen (the rarest, a processing choice, needs a
    building of "goods of different types" holding four types), at least 16 games."""
    seen = dict.fromkeys(("to processor", "haul", "trails", "upgrade", "built and upgraded",
                          "payment", "gain choice", "production choice",
                          "processing choice"), 0)
    towns = scored = games = 0
    while games < 16 or not all(seen.values()):
        assert games < 100, seen
        game = play_random_game(random.Random(games), 4, composed=True)
        games += 1
        for state, move in zip(game.states, game.moves):
            if isinstance(move, DrawTiles):
                continue
            town = state.players[move.player].town
            if isinstance(move, Transport):
                tile = town.building_at(move.destination)
                seen["to processor"] += bool(tile and tile.building.processing)
            elif isinstance(move, HaulGoods):
                seen["haul"] += bool(move.picks)
            elif isinstance(move, BuildTrails):
                seen["trails"] += len(move.trails) > 1
                seen["upgrade"] += any(w.upgrade for w in move.trails)
                new = {w.position for w in move.trails if not w.upgrade}
                seen["built and upgraded"] += any(w.upgrade and w.position in new
                                                  for w in move.trails)
            elif isinstance(move, BuildBuilding):
                building = state.catalog[move.building]
                seen["payment"] += move.payment != pay_from(town, building.cost)
                seen["gain choice"] += move.gain not in (None, immediate_outcomes(
                    building)[0].goods)
            elif isinstance(move, Produce):
                seen["production choice"] += bool(move.choices)
            elif isinstance(move, ProcessGoods):
                seen["processing choice"] += bool(move.choices)
        towns += len(game.final.players)
        scored += sum(p.score > 0 for p in game.final.players)
    assert seen["to processor"] >= towns, seen  # a transport to one a town, on average
    assert scored * 4 >= towns, (scored, towns)  # a quarter of the towns score points
