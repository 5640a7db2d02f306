"""Time the worst doubtful transcriptions within the limits: rules alone, and requests.

    .venv/bin/python benchmarks/bench_uncertain.py [--repeat 20]

The process is pinned to one core (the engine's threads included). For each input it
prints the rules' own time (``score_readings`` / ``score_town_readings``, each call on a
fresh copy of the input so no cache of a previous call helps) and a whole ``POST
/score`` (the gateway's schemas, the body read by marshmallow as every doubtful body
is, the gRPC call to an in-process engine, reading, checking and scoring, the answer
written), as median and worst wall time and the worst CPU time of the process over the
call, against the budget of 50 ms.

The inputs (limits in docs/api-guide.md, "Doubtful readings"):

- DFM, 8 doubtful spaces of 4 candidates each (65,536 readings) that all decide the
  total, in one group linked through lines (the most work: every reading in the
  vectorised sum), every line a per_set challenge of 12 sets worth 100 points a set
  (the costliest judge, the widest lanes): in a 2x4 block (two full rows) and spread
  two to a row and two to a column; and the block in Young Shopper mode;
- FF, a town of 120 tiles (the limit) with 8 doubtful counts of 4 candidates: five on
  one request-defined building depicting every good with ten end-game effects (1,024
  readings of it, some past its slots) and three on another; and 8 Ranches' sheep.

Runs on any machine (just reports). Exit status is 0 either way.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BUDGET = 0.050
INGREDIENTS = ["bread", "carrot", "corn", "cheese", "milk", "egg"]
GOODS = ["wood", "stone", "wheat", "coal", "sheep"]


def _pin_to_one_core() -> int:
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # before grpc starts its threads: they inherit it
    return core


# --- inputs, in the contract's JSON ---------------------------------------------------

PER_SET = {"type": "per_set", "points": 100,
           "sets": [[i] for i in INGREDIENTS] + [list(p) for p in combinations(INGREDIENTS, 2)][:6]}
"""12 sets (the limit): each ingredient alone, and six pairs."""
CANDIDATES = [["bread", "corn", "egg"], ["milk", "milk", "cheese"], ["carrot", "egg"],
              ["corn", "corn", "corn"]]

BLOCK = [(r, c) for r in range(2) for c in range(4)]
SPREAD = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 0)]


def doubtful_board(spaces: list[tuple[int, int]], mode: str = "standard") -> dict[str, Any]:
    grid: list[list[Any]] = [[list(CANDIDATES[(r + c) % 4]) for c in range(4)]
                             for r in range(4)]
    for k, (r, c) in enumerate(spaces):
        grid[r][c] = {"candidates": [CANDIDATES[(k + j) % 4] for j in range(4)]}
    board: dict[str, Any] = {"mode": mode, "grid": grid}
    if mode == "standard":
        board["row_challenges"] = board["column_challenges"] = [PER_SET] * 4
    return board


HOARD = {"slots": 12, "effects": [
    *({"kind": "gain_per_held", "when": "end_game", "held": g, "per": 1 + k % 2,
       "points": [3, 2, -1, 5, 1][k]} for k, g in enumerate(GOODS)),
    *({"kind": "bonus_if_held", "when": "end_game", "held": g, "at_least": 2, "points": 4}
      for g in GOODS)]}
"""A request-defined building depicting every good, ten end-game effects (the limit)."""


def _town(*tiles: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The starting tile, ``tiles``, and rows of trails to 120 tiles (the limit)."""
    placed = [{"row": 0, "col": 0, "building": "forest"},
              {"row": 0, "col": 1, "building": "mine"}, *tiles]
    taken = {(t["row"], t["col"]) for t in placed}
    row = 3
    while len(placed) < 120:
        for col in range(40):
            if len(placed) < 120 and (row, col) not in taken:
                placed.append({"row": row, "col": col, "trail": ["E", "W"]})
        row += 1
    return {"tiles": placed, **fields}


def hoard_town() -> dict[str, Any]:
    candidates = [[1, 2, 3, 0], [2, 0, 3, 1], [0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]]
    first = {g: {"candidates": candidates[k]} for k, g in enumerate(GOODS)}
    second = {g: {"candidates": candidates[k][::-1]} for k, g in enumerate(GOODS[:3])}
    tiles = [{"row": 1, "col": 0, "building": "hoard", "goods": first},
             {"row": 1, "col": 1, "building": "hoard", "goods": second},
             *({"row": 2, "col": c, "trail": ["N", "S"]} for c in range(2))]
    return _town(*tiles, catalog={"hoard": HOARD})


def ranch_town() -> dict[str, Any]:
    tiles = [{"row": 1, "col": c, "building": "ranch",
              "goods": {"sheep": {"candidates": [8, 7, 6, 5][c % 4:] + [8, 7, 6, 5][:c % 4]}}}
             for c in range(8)]
    return _town(*tiles, *({"row": 2, "col": c, "trail": ["N", "S"]} for c in range(8)))


# --- measuring --------------------------------------------------------------------------


@dataclass
class Timing:
    wall: list[float]
    cpu: list[float]

    def row(self) -> str:
        over = " OVER 50 ms" if max(self.wall) > BUDGET else ""
        return (f"{statistics.median(self.wall) * 1000:>7.1f} {max(self.wall) * 1000:>7.1f} "
                f"{max(self.cpu) * 1000:>7.1f}{over}")


def timed(call: Callable[[], Any], repeat: int) -> Timing:
    timing = Timing([], [])
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        call()
        timing.wall.append(time.perf_counter() - wall)
        timing.cpu.append(time.process_time() - cpu)
    return timing


def rules_of_board(body: dict[str, Any]) -> Callable[[], Any]:
    from tabletop_rules.downtown_farmers_market import FoodTile
    from tabletop_rules.downtown_farmers_market.json_form import board_from_dict
    from tabletop_rules.downtown_farmers_market.readings import (
        DoubtfulCell,
        check_readings,
        score_readings,
    )

    def call() -> Any:
        data = copy.deepcopy(body)
        doubts = []
        for r, row in enumerate(data["grid"]):
            for c, space in enumerate(row):
                if isinstance(space, dict):
                    doubts.append(DoubtfulCell(r, c, tuple(FoodTile.of(*t)
                                                           for t in space["candidates"])))
                    row[c] = space["candidates"][0]
        board = board_from_dict(data)
        assert not check_readings(board, doubts)
        readings = score_readings(board, doubts)
        assert all(cell.decides for cell in readings.cells)
        return readings
    return call


def rules_of_town(body: dict[str, Any]) -> Callable[[], Any]:
    from tabletop_rules.foxglove_farm import Good, Position, parse_town, score_town
    from tabletop_rules.foxglove_farm.readings import (
        DoubtfulCount,
        check_town_readings,
        score_town_readings,
    )

    def call() -> Any:
        data = copy.deepcopy(body)
        doubts = []
        for tile in data["tiles"]:
            for good, count in (tile.get("goods") or {}).items():
                if isinstance(count, dict):
                    doubts.append(DoubtfulCount(Position(tile["row"], tile["col"]), Good(good),
                                                tuple(count["candidates"])))
                    tile["goods"][good] = count["candidates"][0]
        town = parse_town(data)
        assert not check_town_readings(town, doubts)
        return score_town_readings(town, doubts, score_town(town))
    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="calls per input")
    args = parser.parse_args()
    core = _pin_to_one_core()
    logging.disable(logging.CRITICAL)

    from api_gateway import create_app
    from engine_service.server import create_server

    engine = create_server("127.0.0.1:0", max_workers=4)
    engine.server.start()
    gateway = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{engine.port}"}).test_client()

    inputs = [
        ("DFM 2x4 block, per_set", "/v1/downtown-farmers-market/score",
         doubtful_board(BLOCK), rules_of_board),
        ("DFM spread 2 a line, per_set", "/v1/downtown-farmers-market/score",
         doubtful_board(SPREAD), rules_of_board),
        ("DFM 2x4 block, young shopper", "/v1/downtown-farmers-market/score",
         doubtful_board(BLOCK, "young_shopper"), rules_of_board),
        ("FF 120 tiles, 5+3 on 10-effect", "/v1/foxglove-farm/score", hoard_town(),
         rules_of_town),
        ("FF 120 tiles, 8 ranches", "/v1/foxglove-farm/score", ranch_town(), rules_of_town),
    ]
    print(f"pinned to core {core}; {args.repeat} calls each; times in ms: median wall, "
          f"worst wall, worst CPU\n")
    header = f"{'input':<32} {'readings':>8}  {'rules alone':>23}   {'POST /score':>23}"
    print(header)
    print("-" * len(header))
    for name, path, body, rules in inputs:
        answer = gateway.post(path, json=body)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        readings = answer.get_json()["uncertainty"]["readings"]
        raw = json.dumps(body).encode()
        alone = timed(rules(body), args.repeat)
        request = timed(lambda: gateway.post(path, data=raw, content_type="application/json"),
                        args.repeat)
        print(f"{name:<32} {readings:>8}  {alone.row():>23}   {request.row():>23}", flush=True)
    engine.server.stop(0)


if __name__ == "__main__":
    main()
