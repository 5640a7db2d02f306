"""What gzip costs and saves on the gateway's own answers: the measurement behind
``api_gateway.browser.COMPRESS_MIN_SIZE``.

``.venv/bin/python benchmarks/bench_compression.py``

Each recorded body of every endpoint (``tests/platform/test_compiled.py``'s) and the
discovery answers are sent through the gateway to a real in-process engine, uncompressed;
then for each distinct answer size: its gzipped size at levels 1 and 6 (flask-compress's
default, the one the gateway uses) and the CPU time gzip takes (best of 5 batches). For
scale, what one whole request costs. A measurement, not a test: nothing here asserts.
"""

from __future__ import annotations

import gzip
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api_gateway import create_app  # noqa: E402
from engine_service.server import create_server  # noqa: E402
from tests.platform.test_compiled import VALID  # noqa: E402

DISCOVERY = ("/v1/version", "/v1/downtown-farmers-market/challenges", "/v1/foxglove-farm/catalog")


def seconds_per_call(call: object, repeat: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            call()  # type: ignore[operator]
        best = min(best, (time.process_time() - start) / repeat)
    return best


def main() -> None:
    engine = create_server("127.0.0.1:0", max_workers=4)
    engine.server.start()
    client = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{engine.port}"}).test_client()
    answers: dict[int, tuple[str, bytes]] = {}
    for path in DISCOVERY:
        answer = client.get(path)
        answers.setdefault(len(answer.data), (path, answer.data))
    for path, bodies in VALID.items():
        for body in bodies[:3]:
            answer = client.post(path, json=body)
            if answer.status_code == 200:
                answers.setdefault(len(answer.data), (path, answer.data))
    board = VALID["/v1/downtown-farmers-market/score"][0]
    request = seconds_per_call(lambda: client.post("/v1/downtown-farmers-market/score",
                                                   json=board), 50)
    print(f"one board scored through the gateway and engine: {request * 1e6:.0f} us CPU")
    print(f"{'bytes':>8} {'gzip 6':>7} {'gzip 1':>7} {'us at 6':>8} {'us at 1':>8}  endpoint")
    for size in sorted(answers):
        path, data = answers[size]
        cost = {level: seconds_per_call(lambda: gzip.compress(data, level), 200)
                for level in (6, 1)}
        print(f"{size:8d} {len(gzip.compress(data, 6)):7d} {len(gzip.compress(data, 1)):7d} "
              f"{cost[6] * 1e6:8.1f} {cost[1] * 1e6:8.1f}  {path}")
    engine.server.stop(0)


if __name__ == "__main__":
    main()
