"""Time the whole Foxglove Farm game (``tabletop_rules.foxglove_farm.farm_game.GAME``).

    .venv/bin/python benchmarks/bench_foxglove_farm_game.py [--repeat 30] [--games 5]
        [--tiles 40] [--profile]

1. ``GAME.legal_moves`` for a construction-phase state of a 4-player game in round 3
   (8 B tiles and 4 C tiles on offer) whose current player has a town of ``--tiles``
   tiles, every building holding goods it depicts, wood and stone plentiful, so every
   building on offer and every trail is affordable. Two layouts (``--layouts``): a
   ``block`` (40 tiles: 5 rows of 8, buildings on rows 0, 2 and 4, trails between) and
   a ``line`` (one row: the most free squares for its size, so the most moves). The
   other seats have such towns too. Timed
   *cold*, as the stateless referee meets a state (every town rebuilt, so its trail
   network is computed again), and *warm* (the same state object again: the networks
   are cached). The issue's target: well under 50 ms on one core.
2. ``GAME.validate`` of every listed move of that state, and of every action of
   simulated 4-player games (``tests/foxglove_farm/game_simulator.py``, composed
   actions included).
3. ``replay`` of those games' whole logs.

Prints medians (and the worst) and the number of legal moves; ``--profile`` adds the
top functions of a cProfile run of the cold ``legal_moves``. The process is pinned to one
core. A measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop_rules.foxglove_farm import Goods, Position, Side, builtin_catalog  # noqa: E402
from tabletop_rules.foxglove_farm.farm_game import GAME  # noqa: E402
from tabletop_rules.foxglove_farm.game_checks import check_state  # noqa: E402
from tabletop_rules.foxglove_farm.game_state import (  # noqa: E402
    BuildBuilding,
    BuildTrails,
    GamePhase,
    GameState,
)
from tabletop_rules.foxglove_farm.model import BuildingTile, Tile, TrailTile, Town  # noqa: E402
from tabletop_rules.game import replay  # noqa: E402
from tests.foxglove_farm.game_simulator import PlayedGame, play_random_game  # noqa: E402

COLUMNS = 8
BUILDINGS = (  # the stores of wood and stone first: every cost is affordable
    "factory", "foundry", "cafe", "furniture_store", "charcoal_kiln", "market",
    "marketplace", "trading_company", "haulers_hut", "scrapyard", "alpine_meadow",
    "distillery", "stonemason", "butcher", "bakery", "grocer", "ranch", "coal_mine",
    "granary", "lambing_shed", "emporium", "barn", "brewery", "baths", "guildhall",
)


def big_town(seed: int, tiles: int, variant: Any, layout: str = "block") -> Town:
    """``tiles`` tiles. ``block``: rows of :data:`COLUMNS`, buildings on even rows (the
    starting tile first), trails on odd rows, each trail open east, west and,
    alternately, north or south (every third one straight or curved, so upgrades are
    listed too). ``line``: one row, the starting tile then trails and buildings in turn
    (the most free squares around a town of that size)."""
    rng = random.Random(seed)
    catalog = builtin_catalog()
    placed: dict[Position, Tile] = {}
    for index in range(tiles):
        if layout == "block":
            row, col = divmod(index, COLUMNS)
            trail = row % 2 == 1
        else:
            row, col = 0, index
            trail = index >= 2 and index % 2 == 0
        position = Position(row, col)
        if trail:
            toward = Side.N if (row // 2 + col) % 2 else Side.S
            sides = frozenset({Side.E, Side.W, toward})
            if col % 3 == 2:
                sides = frozenset({Side.E, Side.W}) if col % 2 else frozenset({Side.W, toward})
            placed[position] = TrailTile(position, sides)
            continue
        name = {0: "forest", 1: "mine"}.get(index) or rng.choice(BUILDINGS)
        building = catalog[name]
        kinds = sorted(building.depicts, key=lambda g: g.index)
        counts = [0] * 5
        for _ in range(building.slots):
            if kinds:
                counts[rng.choice(kinds).index] += 1
        placed[position] = BuildingTile(position, building, Goods(*counts))
    return Town(placed, catalog, variant, 60)


def fresh(state: GameState) -> GameState:
    """The state with every town rebuilt: nothing cached, as a request arrives."""
    players = tuple(replace(p, town=Town(dict(p.town.tiles), p.town.catalog, p.town.variant,
                                         p.town.score_track)) for p in state.players)
    return replace(state, players=players)


def construction_state(tiles: int, layout: str) -> GameState:
    """Round 3's construction phase of a simulated 4-player game, every town replaced by
    a :func:`big_town`."""
    for seed in range(100):
        game = play_random_game(random.Random(seed), 4)
        for state in game.states:
            if (state.round == 3 and state.phase is GamePhase.CONSTRUCTION
                    and GAME.turn(state).player is not None):
                players = tuple(replace(p, town=big_town(seed * 10 + i, tiles, p.variant, layout))
                                for i, p in enumerate(state.players))
                built = replace(state, players=players)
                problems = check_state(built)
                assert not problems, problems
                return built
    raise RuntimeError("no simulated game reached round 3's construction phase")


def timed(calls: Sequence[Callable[[], object]]) -> list[float]:
    """Milliseconds each call takes."""
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times: list[float], extra: str = "") -> None:
    print(f"{label:<44} median {statistics.median(times):8.2f} ms   worst "
          f"{max(times):8.2f} ms   ({len(times)} calls){extra}")


def profile(state: GameState, repeat: int) -> None:
    profiler = cProfile.Profile()
    states = [fresh(state) for _ in range(repeat)]
    profiler.enable()
    for each in states:
        GAME.legal_moves(each)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(25)
    print(f"\ncProfile of {repeat} cold legal_moves calls (cumulative time):")
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--tiles", type=int, default=40)
    parser.add_argument("--layouts", nargs="+", choices=["block", "line"],
                        default=["block", "line"])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    print(f"pinned to core {core}; Python {sys.version.split()[0]}")

    for layout in args.layouts:
        state = construction_state(args.tiles, layout)
        town = state.players[state.current_player].town
        legal = GAME.legal_moves(fresh(state))
        kinds = {kind.__name__: sum(isinstance(m, kind) for m in legal)
                 for kind in (BuildBuilding, BuildTrails)}
        print(f"\nconstruction, round 3, 4 players, {layout} layout: the current town has "
              f"{len(town.tiles)} tiles ({len(town.buildings)} buildings, "
              f"{town.goods_remaining} goods)")
        print(f"legal moves: {len(legal)} ({kinds['BuildBuilding']} buildings, "
              f"{kinds['BuildTrails']} trails, 1 pass)")
        for _ in range(3):  # warm up
            GAME.legal_moves(fresh(state))
        colds = [fresh(state) for _ in range(args.repeat)]
        report("legal_moves, cold (towns rebuilt)",
               timed([partial(GAME.legal_moves, cold) for cold in colds]))
        report("legal_moves, warm (same state again)",
               timed([partial(GAME.legal_moves, state)] * args.repeat))
        report("validate, each listed move (warm)",
               timed([partial(GAME.validate, state, move) for move in legal]))
        if args.profile:
            profile(state, args.repeat)

    games: list[PlayedGame] = [play_random_game(random.Random(seed), 4, composed=seed % 2 == 0)
                               for seed in range(args.games)]
    actions = sum(len(g.moves) for g in games)
    biggest = max(len(p.town.tiles) for g in games for p in g.final.players)
    print(f"\n{args.games} simulated 4-player games: {actions} actions, towns up to "
          f"{biggest} tiles")
    report("validate, each action of the games", timed([
        partial(GAME.validate, state, move) for g in games
        for state, move in zip(g.states, g.moves)]))
    report("replay, a whole game", timed([partial(replay, GAME, g.setup, g.moves)
                                          for g in games]),
           f"   {actions / len(games):.0f} actions a game")


if __name__ == "__main__":
    main()
