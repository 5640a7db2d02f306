"""Load test: the real workload (``benchmarks/locustfile.py``) against the service with one
engine, then with several, in one run.

``python3 benchmarks/load_test.py [--engines 1 3] [--users 32] [--seconds 30] [--json out.json]``

For each engine count it starts, on free loopback ports, that many real engines and the
real gateway (gunicorn with ``deploy/gunicorn.conf.py``, dialling every engine through
one round-robin channel per worker; no nginx, as in ``bench_ceilings.py``), checks every
payload is answered 200, runs locust headless for ``--seconds`` with ``--users``
simulated apps sending requests back to back, and prints per endpoint the throughput, p50
and p99 and the failures (a busy planner's 429 among them). Installs locust (the
project's ``bench`` extra) into ``.venv`` first. A measurement, not a test: nothing here
asserts a time; the load tool shares the machine's cores with the service.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
from deploy import stack  # noqa: E402
from deploy.bootstrap import VENV, ensure_environment  # noqa: E402

LOCUSTFILE = Path(__file__).resolve().parent / "locustfile.py"


def start_service(python: str, engines: int, env: dict[str, str]
                  ) -> tuple[list[stack.Process], str]:
    """``engines`` engines and a gateway dialling them all; the processes and its URL."""
    started: list[stack.Process] = []
    try:
        addresses = []
        for _ in range(engines):
            engine, address = stack.start_engine(python, env, "127.0.0.1:0")
            started.append(engine)
            addresses.append(address)
        gateway, url = stack.start_gunicorn(python, env, ",".join(addresses), "127.0.0.1:0")
        started.append(gateway)
        stack.wait_ready(url)
    except BaseException:
        for process in reversed(started):
            process.stop()
        raise
    for process in started:
        process.keep_lines = False
    return started, url


def check_payloads(url: str) -> None:
    """Every request of the mix is answered 200 before the load starts."""
    sys.path.insert(0, str(LOCUSTFILE.parent))
    from workload import PAYLOADS

    for name, (path, body) in PAYLOADS.items():
        request = urllib.request.Request(f"{url}{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=10).close()
        except urllib.error.HTTPError as error:
            raise SystemExit(f"{name}: {error.code} {error.read()[:500]!r}") from None


def run_locust(python: str, url: str, users: int, seconds: int, workdir: Path
               ) -> list[dict[str, Any]]:
    """Run locust headless; its statistics per request name (and the aggregate)."""
    prefix = workdir / "locust"
    subprocess.run([python, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
                    "--users", str(users), "--spawn-rate", str(users), "--run-time",
                    f"{seconds}s", "--host", url, "--csv", str(prefix), "--only-summary",
                    "--loglevel", "WARNING", "--exit-code-on-error", "0"],
                   check=True, cwd=REPO_ROOT, stdout=subprocess.DEVNULL)
    with open(f"{prefix}_stats.csv", newline="") as stats:
        return [{"name": row["Name"], "requests": int(row["Request Count"]),
                 "failures": int(row["Failure Count"]),
                 "rps": float(row["Requests/s"]), "p50_ms": float(row["50%"]),
                 "p99_ms": float(row["99%"])} for row in csv.DictReader(stats)]


def print_table(results: dict[int, list[dict[str, Any]]]) -> None:
    counts = sorted(results)
    header = " | ".join(f"{n} engine{'s' if n > 1 else ''}: req/s, p50 ms, p99 ms, failed"
                        for n in counts)
    print(f"| endpoint | {header} |")
    print("|---|" + "---|" * len(counts))
    names = [row["name"] for row in results[counts[0]]]
    for name in names:
        cells = []
        for n in counts:
            row = next((r for r in results[n] if r["name"] == name), None)
            cells.append("" if row is None else
                         f"{row['rps']:,.0f}, {row['p50_ms']:.0f}, {row['p99_ms']:.0f}, "
                         f"{row['failures']}")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", type=int, nargs="+", default=[1, 3],
                        help="engine counts to measure, in turn (default 1 3)")
    parser.add_argument("--users", type=int, default=32,
                        help="simulated apps sending back to back (default %(default)s)")
    parser.add_argument("--seconds", type=int, default=30,
                        help="load time per engine count (default %(default)s)")
    parser.add_argument("--json", type=Path, help="also save the results here")
    args = parser.parse_args()
    python = str(ensure_environment(extras=("bench",)))
    if Path(sys.executable) != Path(python):  # go on in the venv, where locust is
        os.execv(python, [python, __file__, *sys.argv[1:]])
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update(PYTHONUNBUFFERED="1", PYTHONPATH=str(REPO_ROOT))
    results: dict[int, list[dict[str, Any]]] = {}
    for engines in args.engines:
        processes, url = start_service(python, engines, env)
        try:
            check_payloads(url)
            with tempfile.TemporaryDirectory() as workdir:
                results[engines] = run_locust(python, url, args.users, args.seconds,
                                              Path(workdir))
        finally:
            for process in reversed(processes):
                process.stop()
    print(f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{args.users} users, {args.seconds} s per run, venv {VENV}")
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
