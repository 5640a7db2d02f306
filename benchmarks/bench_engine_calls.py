"""The engine's own work per call, in-process, for the calls ``bench_ceilings.py`` loads.

``.venv/bin/python benchmarks/bench_engine_calls.py [--batches 40] [--calls 100]
[--profile [METHOD]] [--seed 2026]``

Each of the five calls ``bench_ceilings.py`` sends over gRPC (Downtown Farmers Market
``ScoreBoard``, ``ListLegalMoves`` and ``ValidateMove``; Foxglove Farm ``ScoreTown`` and
``ValidateTransport``), with the same payload in every call as there, is made as the
engine's server makes it, without grpcio: the request's bytes parsed into its message,
the servicer's method called, the answer serialized to bytes. What the server spends
beyond this is grpcio's.

Prints, per method, the median (and the fastest and slowest) over ``--batches`` batches
of ``--calls`` calls of the CPU time per call (``time.process_time``, so other processes
on the machine do not count), after a batch to warm up. ``--profile`` adds a cProfile
of every method (or of the one named), top functions by own and by cumulative time. A
measurement, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))
sys.path.insert(0, str(BENCH_DIR))

from bench_ceilings import build_calls  # noqa: E402

from engine_service.calls import CallLimits  # noqa: E402
from engine_service.downtown_farmers_market import servicer as dfm_servicer  # noqa: E402
from engine_service.foxglove_farm import servicer as ff_servicer  # noqa: E402


class _Context:
    """What a servicer's error path would use; every payload here is answered."""

    def abort_with_status(self, status: object) -> None:
        raise AssertionError(f"the engine refused a benchmark request: {status}")

    def abort(self, code: object, details: str) -> None:
        raise AssertionError(f"the engine failed: {code} {details}")

    def is_active(self) -> bool:
        return True

    def time_remaining(self) -> float | None:
        return None


def engine_calls(seed: int) -> dict[str, Callable[[], bytes]]:
    """Each method's call, bytes in -> bytes out, on ``bench_ceilings.py``'s payload."""
    games = {registration.service.name: registration
             for registration in (dfm_servicer.REGISTRATION, ff_servicer.REGISTRATION)}
    servicers = {name: game.servicer(CallLimits()) for name, game in games.items()}
    context: Any = _Context()
    calls: dict[str, Callable[[], bytes]] = {}
    for call in build_calls(seed):
        service, method = call.grpc_method.rsplit("/", 2)[1:]
        name = service.rsplit(".", 1)[1]
        behavior = getattr(servicers[name], method)
        parse = games[name].request_deserializer(method) or _as_sent
        data = call.grpc_bytes

        def one(behavior: Any = behavior, parse: Any = parse, data: bytes = data) -> bytes:
            return behavior(parse(data), context)

        calls[f"{call.name} ({method})"] = one
    return calls


def _as_sent(data: bytes) -> bytes:
    """A method reading its request's bytes gets them as grpcio does."""
    return data


def per_call(call: Callable[[], bytes], batches: int, size: int) -> list[float]:
    """CPU seconds per call in each of ``batches`` batches of ``size`` calls."""
    for _ in range(size):  # warm up
        call()
    times = []
    for _ in range(batches):
        start = time.process_time()
        for _ in range(size):
            call()
        times.append((time.process_time() - start) / size)
    return times


def profile(label: str, call: Callable[[], bytes], size: int, top: int = 25) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(size):
        call()
    profiler.disable()
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).strip_dirs().sort_stats(order).print_stats(top)
        print(f"\ncProfile of {label}, {size} calls, by {order}:")
        print(out.getvalue().split("\n\n", 1)[-1].rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--calls", type=int, default=100, help="calls a batch")
    parser.add_argument("--seed", type=int, default=2026, help="the payloads' random seed")
    parser.add_argument("--profile", nargs="?", const="", metavar="METHOD",
                        help="cProfile every method, or the one whose name contains METHOD")
    args = parser.parse_args()
    calls = engine_calls(args.seed)
    print(f"CPU µs per call, in-process (bytes in -> bytes out); Python "
          f"{sys.version.split()[0]}; {args.batches} batches of {args.calls} calls")
    print(f"{'call':<44} {'median':>8} {'fastest':>8} {'slowest':>8}")
    for label, call in calls.items():
        times = per_call(call, args.batches, args.calls)
        print(f"{label:<44} {statistics.median(times) * 1e6:8.1f} {min(times) * 1e6:8.1f} "
              f"{max(times) * 1e6:8.1f}")
    if args.profile is not None:
        for label, call in calls.items():
            if args.profile in label:
                profile(label, call, args.calls * 10)


if __name__ == "__main__":
    main()
