"""How fast the referee scores Downtown Farmers Market boards, layer by layer.

``.venv/bin/python benchmarks/bench_downtown_farmers_market.py [--boards N]``

Scores the same random complete boards three ways: the rules library in-process, the
engine over gRPC on loopback, and the gateway's full REST path (Flask in-process, engine
over gRPC). Prints the median and 99th percentile per call. A measurement, not a test:
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api_gateway import create_app  # noqa: E402
from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema  # noqa: E402
from clients import GrpcClient  # noqa: E402
from engine_service.downtown_farmers_market.convert import board_from_proto  # noqa: E402
from engine_service.server import create_server  # noqa: E402
from tabletop_rules.downtown_farmers_market import score_board  # noqa: E402

INGREDIENTS = ["bread", "carrot", "corn", "cheese", "milk", "egg"]


def random_board(rng: random.Random) -> dict[str, Any]:
    def challenge() -> dict[str, Any]:
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

    return {"mode": "standard",
            "row_challenges": [challenge() for _ in range(4)],
            "column_challenges": [challenge() for _ in range(4)],
            "grid": [[rng.choices(INGREDIENTS, k=rng.randint(1, 3)) for _ in range(4)]
                     for _ in range(4)]}


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(2026)
    boards = [random_board(rng) for _ in range(args.boards)]
    protos = [BoardSchema().load(b) for b in boards]
    rules = [board_from_proto(p) for p in protos]

    engine = create_server("127.0.0.1:0")
    engine.server.start()
    address = f"127.0.0.1:{engine.port}"
    try:
        measure("rules library (score_board)", [lambda b=b: score_board(b) for b in rules])
        with GrpcClient(address) as client:
            dfm = client.downtown_farmers_market
            measure("engine over gRPC", [lambda p=p: dfm.score_board(p) for p in protos])
        gateway = create_app({"ENGINE_ADDRESS": address}).test_client()
        measure("gateway REST (in-process)", [
            lambda b=b: gateway.post("/v1/downtown-farmers-market/score", json=b)
            for b in boards])
    finally:
        engine.server.stop(0)


if __name__ == "__main__":
    main()
