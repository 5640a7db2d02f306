"""Time the worst input we can build within each endpoint's documented limits.

    .venv/bin/python benchmarks/bench_worst_case.py [--repeat 5] [--deadline 10]

Every endpoint's request is built in its contract JSON, turned into protobuf by the
gateway's own schemas, serialized once, and sent as raw bytes to a real in-process
engine (``engine_service.server.create_server``, its default limits) on a loopback port;
the answer comes back as raw bytes. The process is pinned to one core, engine threads
included. For each endpoint it prints the median and worst wall time over ``--repeat``
calls (each with a distinct input where the rules cache), flags any over 1 s, and after
every answer measures the process's CPU time over the next 0.5 s: work still running
after its call was answered (or abandoned at its deadline) shows there.

The inputs (limits from docs/api-guide.md, "Limits and what each call may cost"):

- DFM score: a full grid of 3-ingredient tiles, every line a per_set challenge of 12 sets
  (the limit), none containing another (pairs on rows, triples on columns);
- DFM rank: 4 such boards, names of 100 characters;
- DFM games: a 4-player setup with those challenges;
- DFM legal-moves / moves/validate: the first state of that game (every cell free, five
  3-ingredient tiles face up);
- DFM games/replay: a 4-player game played legally to its end, padded to 1000 moves (the
  limit) with moves after the end (replay stops at the first illegal one): a standard
  game (per_set boards to score) and a Young Shopper one (the longest legal log);
- FF score / plan: a packed expert town of 120 tiles (the limit): the 16-tile planner
  reproducer (shared/reproducers) repeated to the east;
- FF score / plan again with a request catalog at its limits (200 definitions of 10
  effects, used by a row of the town);
- FF rank: 4 such towns; FF transport/validate: that town, wood from the forest to the
  far end of it (the longest route search).

Runs on any version of the engine (just reports). Exit status is 0 either way.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ONE_SECOND = 1.0
IDLE_WINDOW = 0.5
LEFTOVER_CPU = 0.1
"""CPU seconds in the 0.5 s after an answer above which work is flagged as left running."""
INGREDIENTS = ["bread", "carrot", "corn", "cheese", "milk", "egg"]
REPRODUCER = "planner-packed-expert-16-tiles.json"


def _pin_to_one_core() -> int:
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})  # before grpc starts its threads: they inherit it
    return core


# --- inputs, in the contract's JSON ---------------------------------------------------


def _antichain(size: int, count: int, rng: random.Random) -> list[list[str]]:
    """``count`` distinct sets of ``size`` different ingredients (none holds another)."""
    pool: list[list[str]] = [[]]
    for _ in range(size):
        pool = [s + [i] for s in pool for i in INGREDIENTS if not s or INGREDIENTS.index(i)
                > INGREDIENTS.index(s[-1])]
    return rng.sample(pool, count)


def per_set_board(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    grid = [[[INGREDIENTS[(3 * col + k + row) % 6] for k in range(3)] for col in range(4)]
            for row in range(4)]
    return {"mode": "standard", "grid": grid,
            "row_challenges": [{"type": "per_set", "sets": _antichain(2, 12, rng), "points": 3}
                               for _ in range(4)],
            "column_challenges": [{"type": "per_set", "sets": _antichain(3, 12, rng),
                                   "points": 2} for _ in range(4)]}


def _name(i: int, seed: int) -> str:
    return (f"Player {i} of game {seed} " * 10)[:100]


def setup(seed: int, mode: str = "standard") -> dict[str, Any]:
    """4 players; standard boards carry the per_set challenges above. A Young Shopper game
    is the longest legal log (64 takes and 62 reveals), a standard one the costliest to
    score."""
    rng = random.Random(seed)
    players = []
    for i in range(4):
        board = per_set_board(seed * 10 + i)
        del board["grid"]
        players.append({"name": _name(i, seed),
                        "board": board if mode == "standard" else {"mode": mode}})
    face_up = [[rng.choice(INGREDIENTS) for _ in range(3)]
               for _ in range(5 if mode == "standard" else 3)]
    return {"mode": mode, "players": players, "first_player": 0, "face_up": face_up}


def reproducer() -> dict[str, Any]:
    for folder in (REPO.parent / "shared" / "reproducers", Path("/work/shared/reproducers")):
        if (folder / REPRODUCER).is_file():
            return json.loads((folder / REPRODUCER).read_text(encoding="utf-8"))
    raise SystemExit(f"{REPRODUCER} not found beside the repository (shared/reproducers)")


STAND_INS = {"forest": ("farmyard", {"sheep": 2, "wheat": 1, "wood": 3}),
             "mine": ("distillery", {"stone": 3, "wheat": 3})}


def packed_town(seed: int, columns: int = 30) -> dict[str, Any]:
    """The 16-tile reproducer repeated east to 4 x ``columns`` tiles (120: the limit)."""
    block = reproducer()
    tiles = []
    for col in range(columns):
        for tile in block["tiles"]:
            if tile["col"] == col % 4:
                tile = {**tile, "col": col}
                if col >= 4 and tile.get("building") in STAND_INS:
                    tile["building"], goods = STAND_INS[tile["building"]]
                    tile["goods"] = dict(goods)
                tiles.append(tile)
    return {**block, "score_track": 10 + seed, "tiles": tiles}


def with_catalog(town: dict[str, Any], seed: int) -> dict[str, Any]:
    """``town`` with a request catalog at its limits: 200 definitions of 10 effects each,
    the town's row-2 buildings replaced by them (full of the wheat they gain)."""
    effect = {"kind": "gain", "when": "production", "goods": {"wheat": 1 + seed % 3}}
    catalog = {f"shed_{i}": {"slots": 30, "effects": [effect] * 10} for i in range(200)}
    tiles = [{"row": t["row"], "col": t["col"], "building": f"shed_{t['col']}",
              "goods": {"wheat": 30}} if t["row"] == 2 and "building" in t else t
             for t in town["tiles"]]
    return {**town, "tiles": tiles, "catalog": catalog}


# --- the engine, in process --------------------------------------------------------


@dataclass
class Endpoint:
    name: str
    method: str  # full gRPC method name
    schema: Any  # the gateway's marshmallow schema for the REST body
    request_type: Any  # the gRPC request message class
    describe: str
    build: Callable[[int], Any]  # seed -> REST body
    notes: dict[str, str] | None = None  # what building the input found out (the game's length)


def to_request(endpoint: Endpoint, body: Any) -> bytes:
    """The REST body, loaded by the gateway's schema, as the gRPC request's bytes."""
    loaded = endpoint.schema().load(body)
    if isinstance(loaded, endpoint.request_type):
        return loaded.SerializeToString()
    request = endpoint.request_type()
    for field in request.DESCRIPTOR.fields:
        if field.message_type is loaded.DESCRIPTOR:
            getattr(request, field.name).CopyFrom(loaded)
            return request.SerializeToString()
    raise TypeError(f"cannot wrap {type(loaded).__name__} in {endpoint.request_type.__name__}")


def play_a_game(client: Any, seed: int, mode: str = "standard"
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A legal 4-player game, to its end, through the gateway (not timed): setup, moves."""
    rng = random.Random(seed)
    game_setup = setup(seed, mode)
    state = client.post("/v1/downtown-farmers-market/games", json=game_setup).get_json()
    moves: list[dict[str, Any]] = []
    while not state.get("game_over") and len(moves) < 400:
        if state.get("expected") == "reveal":
            candidates = [{"action": "reveal", "tiles": [
                [rng.choice(INGREDIENTS) for _ in range(3)]
                for _ in range(n)]} for n in (4, 3, 2, 1)]
        else:
            legal = client.post("/v1/downtown-farmers-market/legal-moves",
                                json={"state": state}).get_json()["moves"]
            candidates = [rng.choice(legal)] if legal else []
        for move in candidates:
            verdict = client.post("/v1/downtown-farmers-market/moves/validate",
                                  json={"state": state, "move": move}).get_json()
            if verdict.get("legal"):
                state = verdict["state"]
                moves.append(move)
                break
        else:
            break
    return game_setup, moves


def endpoints(client: Any) -> list[Endpoint]:
    from api_gateway.resources.downtown_farmers_market import schemas as dfm_schemas
    from api_gateway.resources.foxglove_farm import schemas as ff_schemas
    from referee.downtown_farmers_market.v1 import (
        downtown_farmers_market_service_pb2 as dfm_pb2,
    )
    from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2

    dfm = "/referee.downtown_farmers_market.v1.DowntownFarmersMarketService/"
    ff = "/referee.foxglove_farm.v1.FoxgloveFarmService/"
    games: dict[tuple[int, str], tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    first_states: dict[int, dict[str, Any]] = {}
    standard_notes: dict[str, str] = {}
    young_notes: dict[str, str] = {}

    def game(seed: int, mode: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if (seed, mode) not in games:
            games[seed, mode] = play_a_game(client, seed, mode)
        return games[seed, mode]

    def first_state(seed: int) -> dict[str, Any]:
        if seed not in first_states:
            first_states[seed] = client.post("/v1/downtown-farmers-market/games",
                                             json=setup(seed)).get_json()
        return first_states[seed]

    def replay_body(seed: int, mode: str, notes: dict[str, str]) -> dict[str, Any]:
        game_setup, moves = game(seed, mode)
        padded = moves + [moves[i % len(moves)] for i in range(1000 - len(moves))]
        notes["replay"] = f"{mode}: {len(moves)} legal moves, padded to 1000"
        return {"setup": game_setup, "moves": padded}

    def legal_move_body(seed: int) -> dict[str, Any]:
        state = first_state(seed)
        cells = [(r, c) for r in range(4) for c in range(4)]
        r, c = cells[seed % 16]
        return {"state": state, "move": {"action": "take", "player": state["current_player"],
                                         "tile": state["face_up"][seed % 5], "row": r,
                                         "col": c}}

    # From the forest to the restaurant at the far east end (column 29) of a packed town.
    far = {"good": "wood", "count": 1, "from": {"row": 0, "col": 0},
           "to": {"row": 2, "col": 29}}
    return [
        Endpoint("DFM score", dfm + "ScoreBoard", dfm_schemas.BoardSchema,
                 dfm_pb2.ScoreBoardRequest, "full grid, 8 per_set x 12 sets", per_set_board),
        Endpoint("DFM rank", dfm + "RankPlayers", dfm_schemas.RankRequestSchema,
                 dfm_pb2.RankPlayersRequest, "4 such boards, 100-char names",
                 lambda s: {"players": [{"name": _name(i, s), "board": per_set_board(s * 10 + i)}
                                        for i in range(4)]}),
        Endpoint("DFM games", dfm + "NewGame", dfm_schemas.GameSetupSchema,
                 dfm_pb2.NewGameRequest, "4 players, per_set x 12 sets", setup),
        Endpoint("DFM legal-moves", dfm + "ListLegalMoves", dfm_schemas.LegalMovesRequestSchema,
                 dfm_pb2.ListLegalMovesRequest, "first state, 4 empty grids",
                 lambda s: {"state": first_state(s)}),
        Endpoint("DFM moves/validate", dfm + "ValidateMove",
                 dfm_schemas.ValidateMoveRequestSchema, dfm_pb2.ValidateMoveRequest,
                 "first state, a take", legal_move_body),
        Endpoint("DFM games/replay", dfm + "ReplayGame", dfm_schemas.ReplayGameRequestSchema,
                 dfm_pb2.ReplayGameRequest, "full 4-player game, padded to 1000 moves",
                 lambda seed: replay_body(seed, "standard", standard_notes), standard_notes),
        Endpoint("DFM games/replay", dfm + "ReplayGame", dfm_schemas.ReplayGameRequestSchema,
                 dfm_pb2.ReplayGameRequest, "full 4-player game, padded to 1000 moves",
                 lambda seed: replay_body(seed, "young_shopper", young_notes), young_notes),
        Endpoint("FF score", ff + "ScoreTown", ff_schemas.TownSchema, ff_pb2.ScoreTownRequest,
                 "packed expert town, 120 tiles", packed_town),
        Endpoint("FF score", ff + "ScoreTown", ff_schemas.TownSchema, ff_pb2.ScoreTownRequest,
                 "120 tiles, catalog of 200 x 10 effects",
                 lambda s: with_catalog(packed_town(s), s)),
        Endpoint("FF rank", ff + "RankPlayers", ff_schemas.RankTownsSchema,
                 ff_pb2.RankPlayersRequest, "4 packed towns of 120 tiles",
                 lambda s: {"players": [{"name": _name(i, s), "town": packed_town(s * 10 + i)}
                                        for i in range(4)]}),
        Endpoint("FF transport/validate", ff + "ValidateTransport",
                 ff_schemas.TransportRequestSchema, ff_pb2.ValidateTransportRequest,
                 "120 tiles, forest to the far end",
                 lambda s: {"town": packed_town(s), "move": far}),
        Endpoint("FF final-round/plan", ff + "PlanFinalRound", ff_schemas.TownSchema,
                 ff_pb2.PlanFinalRoundRequest, "packed expert town, 120 tiles", packed_town),
        Endpoint("FF final-round/plan", ff + "PlanFinalRound", ff_schemas.TownSchema,
                 ff_pb2.PlanFinalRoundRequest, "120 tiles, catalog of 200 x 10 effects",
                 lambda s: with_catalog(packed_town(s), s)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="calls per endpoint")
    parser.add_argument("--deadline", type=float, default=10.0,
                        help="the client's deadline on each call, seconds")
    parser.add_argument("--only", nargs="*", default=None,
                        help="endpoint names to run (substring match)")
    args = parser.parse_args()
    core = _pin_to_one_core()
    logging.disable(logging.CRITICAL)  # the engine logs unexpected errors; the table shows them

    import grpc

    from api_gateway import create_app
    from engine_service.server import create_server

    engine = create_server("127.0.0.1:0", max_workers=4)
    engine.server.start()
    address = f"127.0.0.1:{engine.port}"
    client = create_app({"ENGINE_ADDRESS": address}).test_client()  # builds game logs only
    channel = grpc.insecure_channel(address, options=[
        ("grpc.max_receive_message_length", 64 << 20),
        ("grpc.max_metadata_size", 4 << 20), ("grpc.absolute_max_metadata_size", 4 << 20)])
    grpc.channel_ready_future(channel).result(timeout=10)
    print(f"engine in process on {address}, pinned to core {core}; {args.repeat} calls each, "
          f"client deadline {args.deadline:g} s; leftover = process CPU in the "
          f"{IDLE_WINDOW:g} s after an answer\n")
    header = (f"{'endpoint':<22} {'input':<46} {'median':>9} {'worst':>9} {'leftover':>9}  "
              f"answers")
    print(header)
    print("-" * len(header))
    flagged = []
    for endpoint in endpoints(client):
        if args.only and not any(o.lower() in endpoint.name.lower() for o in args.only):
            continue
        call = channel.unary_unary(endpoint.method)  # bytes in, bytes out
        times, leftovers, outcomes = [], [], []
        payload_bytes = 0
        for seed in range(args.repeat):
            try:
                payload = to_request(endpoint, endpoint.build(seed))
            except Exception as error:  # noqa: BLE001 - an input this version refuses to load
                outcomes.append(f"not built: {type(error).__name__}: {str(error)[:80]}")
                break
            payload_bytes = max(payload_bytes, len(payload))
            start = time.perf_counter()
            try:
                answer = call(payload, timeout=args.deadline)
                outcome = f"OK {len(answer)} B"
            except grpc.RpcError as error:
                outcome = error.code().name
            times.append(time.perf_counter() - start)
            cpu = time.process_time()
            time.sleep(IDLE_WINDOW)
            leftovers.append(time.process_time() - cpu)
            outcomes.append(outcome)
            if outcome == "DEADLINE_EXCEEDED":
                outcomes.append(f"(stopped after a {args.deadline:g} s deadline)")
                break
        if endpoint.notes:
            endpoint.describe = "; ".join(endpoint.notes.values())
        if times:
            median, worst = statistics.median(times), max(times)
            row = (f"{endpoint.name:<22} {endpoint.describe[:46]:<46} "
                   f"{median * 1000:>7.1f}ms {worst * 1000:>7.1f}ms {max(leftovers):>8.2f}s  "
                   f"{summary(outcomes)}")
        else:
            worst = 0.0
            row = f"{endpoint.name:<22} {endpoint.describe[:46]:<46} {'-':>9} {'-':>9} " \
                  f"{'-':>9}  {summary(outcomes)}"
        flags = []
        if worst > ONE_SECOND:
            flags.append("OVER 1 s")
        if any(not o.startswith("OK") for o in outcomes):
            flags.append("NOT ANSWERED")
        if leftovers and max(leftovers) > LEFTOVER_CPU:
            flags.append("WORK LEFT RUNNING")
        if flags:
            flagged.append(endpoint.name)
            row += "   <-- " + ", ".join(flags)
        print(row + f"  [{payload_bytes / 1024:.0f} KiB]", flush=True)
    print()
    print("flagged: " + (", ".join(flagged) if flagged else "none"))
    sys.stdout.flush()
    # A computation this version does not stop at its deadline would hold the exit.
    os._exit(0)


def summary(outcomes: list[str]) -> str:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        key = outcome.split(" ")[0] if outcome.startswith("OK") else outcome
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} x {k}" if n > 1 else k for k, n in counts.items())


if __name__ == "__main__":
    main()
