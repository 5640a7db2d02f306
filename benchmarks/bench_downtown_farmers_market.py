"""How fast the referee scores Downtown Farmers Market boards, layer by layer.

``.venv/bin/python benchmarks/bench_downtown_farmers_market.py [--boards N] [--games N]
[--deck N] [--gc default|off|T0,T1,T2] [--in-process] [--profile]``

1. Throughput on one core (the process pinned to it while this part runs), the best of
   ``--passes`` passes, each over its own ``--boards`` random complete standard boards
   (so that no cache sees a board twice), after a pass over others to warm up:

   * ``score_board`` alone, explanations included (boards a second);
   * the engine's whole work for one ``ScoreBoard`` call, in-process: the request's
     protobuf bytes parsed into a ``ScoreBoardRequest`` (as gRPC does), the servicer's
     ``ScoreBoard`` (the board read and checked by ``board_from_proto``, scored, the
     answer built), and the answer serialized to bytes;
   * ``legal_moves`` and ``validate`` in every state of ``--games`` simulated games, a
     state sent in (checked once) and the rules' own states (trusted, as in a replay),
     and the engine's ``ValidateMove`` in-process (bytes in, bytes out) on those states.

   Each figure is calls a second of the process's CPU time, so other processes sharing
   the core do not count. The boards' challenges are random, each drawn with its own
   parameters and points, so the caches keyed by a challenge never meet one twice: the
   worst case. ``--deck N`` deals each board's 8 from a fixed deck of N random ones
   instead, as a game deals them from its 88 (44 double-sided tiles). What is built by
   then is frozen out of the garbage collector's passes (``gc.freeze()``, as the engine
   does once serving); ``--gc off`` or ``--gc 10000,10,10`` times the paths with the
   collector off or other thresholds.

2. Latency, unless ``--in-process``: the same boards scored three ways, the rules library
   in-process, the engine over gRPC on loopback, and the gateway's full REST path (Flask
   in-process, engine over gRPC). Prints the median and 99th percentile per call.

``--profile`` adds the top functions (own time) of a cProfile run of each throughput
path (over boards not timed before). A measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
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

from api_gateway import create_app  # noqa: E402
from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema  # noqa: E402
from tabletop_referee_clients import GrpcClient  # noqa: E402
from engine_service.downtown_farmers_market import convert  # noqa: E402
from engine_service.downtown_farmers_market.servicer import (  # noqa: E402
    DowntownFarmersMarketServicer,
)
from engine_service.server import create_server  # noqa: E402
from referee.downtown_farmers_market.v1 import (  # noqa: E402
    downtown_farmers_market_service_pb2 as service_pb2,
    game_pb2,
)
from tabletop_rules import downtown_farmers_market as dfm  # noqa: E402
from tests.downtown_farmers_market.simulator import play_random_game  # noqa: E402

INGREDIENTS = ["bread", "carrot", "corn", "cheese", "milk", "egg"]


def random_challenge(rng: random.Random) -> dict[str, Any]:
    """A Challenge tile of a random type, its parameters and points drawn at random."""
    kind = rng.choice(["exact_count", "forbidden", "exact_count_any", "exact_total",
                       "one_of_each", "majority", "per_set"])
    extra: dict[str, Any] = {
        "exact_count": {"counts": {rng.choice(INGREDIENTS): rng.randint(1, 4)}},
        "forbidden": {"ingredients": rng.sample(INGREDIENTS, 2)},
        "exact_count_any": {"count": rng.randint(1, 6)},
        "exact_total": {"count": rng.randint(4, 12)},
        "one_of_each": {},
        "majority": {"ingredient": rng.choice(INGREDIENTS)},
        "per_set": {"sets": [rng.sample(INGREDIENTS, rng.randint(1, 3)) for _ in range(3)]},
    }[kind]
    return {"type": kind, "points": rng.randint(0, 12), **extra}


def random_board(rng: random.Random,
                 deck: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """A complete standard board of random Food tiles; its 8 challenges dealt from
    ``deck``, or each drawn at random without one."""
    challenges = (rng.sample(deck, 8) if deck
                  else [random_challenge(rng) for _ in range(8)])
    return {"mode": "standard",
            "row_challenges": challenges[:4],
            "column_challenges": challenges[4:],
            "grid": [[rng.choices(INGREDIENTS, k=rng.randint(1, 3)) for _ in range(4)]
                     for _ in range(4)]}


class _Context:
    """What the servicer's error path would use; the benchmark's input is all valid."""

    def abort_with_status(self, status: object) -> None:
        raise AssertionError(f"the engine refused a benchmark request: {status}")

    def abort(self, code: object, details: str) -> None:
        raise AssertionError(f"the engine failed: {code} {details}")


_SERVICER = DowntownFarmersMarketServicer()
_CONTEXT: Any = _Context()  # stands in for a grpc.ServicerContext


def engine_score(data: bytes) -> bytes:
    """One ScoreBoard call as the gRPC server makes it: bytes in, bytes out."""
    return _SERVICER.ScoreBoard(data, _CONTEXT)  # it reads the request's bytes


def engine_validate(data: bytes) -> bytes:
    """One ValidateMove call as the gRPC server makes it: bytes in, bytes out."""
    return _SERVICER.ValidateMove(data, _CONTEXT)  # it reads the request's bytes


def throughput(label: str, passes: Sequence[Sequence[Callable[[], object]]], unit: str
               ) -> None:
    """The fastest of ``passes`` (the first only warms up), in calls a second of this
    process's CPU time (what other processes take of the core does not count)."""
    each = float("inf")
    for number, calls in enumerate(passes):
        start = time.process_time()
        for call in calls:
            call()
        if number:
            each = min(each, (time.process_time() - start) / len(calls))
    print(f"{label:<46} {1 / each:9,.0f} {unit}/s   {each * 1e6:7.1f} µs each   "
          f"({len(passes[-1])} calls a pass)")


def profile(label: str, calls: Sequence[Callable[[], object]], top: int = 15) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for call in calls:
        call()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    print(f"\ncProfile of {label}, {len(calls)} calls (own time):")
    print(out.getvalue().split("\n\n", 1)[-1].rstrip())


def measure(label: str, calls: list[Callable[[], object]]) -> None:
    for call in calls[:20]:  # warm up
        call()
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label:<28} median {statistics.median(times) * 1e3:7.3f} ms   "
          f"p99 {p99 * 1e3:7.3f} ms   ({len(times)} calls)")


def game_calls(games: int, passes: int) -> dict[str, list[list[Callable[[], object]]]]:
    """Legal moves, validate and the engine's ValidateMove in every state of simulated
    games, each state with the move that was played in it. A state sent in is a copy
    nobody vouched for (as the engine reads one), a new one each pass; the rules' own
    states are those their moves made."""
    rng = random.Random(2026)
    modes = [(mode, n) for mode in dfm.Mode for n in (2, 3, 4)]
    played = [play_random_game(rng, *modes[i % len(modes)]) for i in range(games)]
    pairs = [(state, move) for game in played for state, move in zip(game.states, game.moves)]
    requests = [service_pb2.ValidateMoveRequest(
        state=game_pb2.GameState.FromString(convert.state_to_wire(state)),
        move=game_pb2.Move.FromString(convert.move_to_wire(move))).SerializeToString()
        for state, move in pairs]
    return {
        "legal_moves, a state sent in": [
            [partial(dfm.legal_moves, replace(state)) for state, _ in pairs]
            for _ in range(passes)],
        "validate, a state sent in": [
            [partial(dfm.validate, replace(state), move) for state, move in pairs]
            for _ in range(passes)],
        "validate, the rules' own states (a replay)": [
            [partial(dfm.validate, state, move) for state, move in pairs]] * passes,
        "engine ValidateMove, bytes in -> bytes out": [
            [partial(engine_validate, data) for data in requests]] * passes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--in-process", action="store_true",
                        help="skip the latency over gRPC and the gateway")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--deck", type=int, default=0,
                        help="deal each board's 8 challenges from a deck of this many random "
                             "ones (a game's: 88, 44 double-sided tiles); default: every "
                             "challenge random, which the challenge-keyed caches never meet "
                             "twice")
    parser.add_argument("--gc", default="default",
                        help="the garbage collector while timing: default, off, or young, "
                             "middle and full thresholds (700,10,10 is Python's)")
    args = parser.parse_args()
    rng = random.Random(2026)
    deck = [random_challenge(rng) for _ in range(args.deck)]
    batches = [[BoardSchema().load(random_board(rng, deck)) for _ in range(args.boards)]
               for _ in range(2 + args.passes)]  # the last for the profile
    paths: dict[str, list[list[Callable[[], object]]]] = {
        "score_board (with explanations)": [
            [partial(dfm.score_board, convert.board_from_proto(p)) for p in protos]
            for protos in batches],
        "engine ScoreBoard, bytes in -> bytes out": [
            [partial(engine_score, service_pb2.ScoreBoardRequest(board=p).SerializeToString())
             for p in protos] for protos in batches],
    }
    games = game_calls(args.games, 2 + args.passes)

    cpus = os.sched_getaffinity(0)
    core = min(cpus)
    os.sched_setaffinity(0, {core})
    gc.collect()
    gc.freeze()  # as the engine does once serving
    if args.gc == "off":
        gc.disable()
    elif args.gc != "default":
        gc.set_threshold(*map(int, args.gc.split(",")))
    print(f"throughput, pinned to core {core}; Python {sys.version.split()[0]}; "
          f"challenges {f'dealt from a deck of {args.deck}' if deck else 'random'}; "
          f"garbage collector {args.gc}")
    for label, passes in paths.items():
        throughput(label, passes[:-1], "boards")
    for label, passes in games.items():
        throughput(label, passes[:-1], "calls")
    if args.profile:
        for label, passes in {**paths, **games}.items():
            profile(label, passes[-1])
    os.sched_setaffinity(0, cpus)
    if args.in_process:
        return

    print("\nlatency")
    engine = create_server("127.0.0.1:0")
    engine.server.start()
    address = f"127.0.0.1:{engine.port}"
    boards = [random_board(rng) for _ in range(args.boards)]
    protos = [BoardSchema().load(b) for b in boards]
    rules = [convert.board_from_proto(p) for p in protos]
    try:
        measure("rules library (score_board)", [partial(dfm.score_board, b) for b in rules])
        with GrpcClient(address) as client:
            dfm_client = client.downtown_farmers_market
            measure("engine over gRPC", [partial(dfm_client.score_board, p) for p in protos])
        gateway = create_app({"ENGINE_ADDRESS": address}).test_client()
        measure("gateway REST (in-process)", [
            partial(gateway.post, "/v1/downtown-farmers-market/score", json=b)
            for b in boards])
    finally:
        engine.server.stop(0)


if __name__ == "__main__":
    main()
