"""Install what the service needs, then run the engine, the gateway and its proxy in the
foreground.

``python3 deploy/run.py`` — the README's quick start; ``--engines 3`` starts three engines
on free loopback ports, which the gateway balances calls over; an engine that exits is
started again on its address, and the log says so. nginx (Debian's nginx-light,
installed with apt-get when missing and this is root) listens on the public address and
buffers every request before gunicorn sees it (see ``deploy/proxy.py``); without it the
gateway runs on gunicorn alone, with a warning. Ctrl-C (or SIGTERM, or SIGHUP: the
terminal closing) stops them from the outside in (``deploy/stack.py``), so requests
already accepted are answered. Their logs are plain text lines on a terminal and JSON
lines otherwise, unless ``REFEREE_LOG_FORMAT`` says which.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.bootstrap import ensure_environment  # noqa: E402
from deploy.proxy import ensure_nginx  # noqa: E402
from deploy.stack import Stack  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the referee: engines, gateway, proxy.")
    parser.add_argument("--engines", type=int, default=1,
                        help="engine processes to start (default 1, on REFEREE_ENGINE_ADDRESS "
                             "or 127.0.0.1:50051; more listen on free ports of its host)")
    args = parser.parse_args(argv)
    if args.engines < 1:
        parser.error("--engines must be at least 1")
    python = ensure_environment(extras=())
    nginx = ensure_nginx()
    if not nginx:
        _say("WARNING: running gunicorn without the nginx proxy in front: slow clients can "
             "exhaust its threads; install nginx-light")
    env = {"REFEREE_LOG_FORMAT": "text" if sys.stderr.isatty() else "json", **os.environ,
           "PYTHONUNBUFFERED": "1"}
    stop = False

    def on_signal(_signum: int, _frame: object) -> None:
        nonlocal stop
        stop = True

    # A closed terminal sends SIGHUP: stop the children then too, or they outlive it.
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    try:
        stack = Stack.start(str(python), env, echo=True, nginx=nginx, engines=args.engines,
                            bind=env.get("REFEREE_GATEWAY_BIND", "127.0.0.1:8080"),
                            engine_address=env.get("REFEREE_ENGINE_ADDRESS", "127.0.0.1:50051"))
    except RuntimeError as error:  # a process that did not start (a port taken, ...)
        _say(f"could not start: {error}")
        return 1
    try:
        engines = "engines" if len(stack.engines) > 1 else "engine"
        _say(f"{engines} on {', '.join(stack.engine_addresses)}, gateway on {stack.url} "
             f"(score pad at {stack.url}/, docs at {stack.url}/v1/docs); Ctrl-C stops them",
             sys.stdout)
        while not stop and stack.running():
            try:
                for address, code in stack.restart_exited_engines():
                    _say(f"the engine on {address} exited ({code}); restarted it on the "
                         "same address")
            except RuntimeError as error:  # tried again on the next turn
                _say(f"could not restart an engine: {error}")
            time.sleep(0.2)
    finally:  # whatever ended the loop, even an error: no child outlives run.py
        codes = stack.stop()
    _say(f"stopped ({', '.join(f'{k} {v}' for k, v in codes.items())})", sys.stdout)
    return 0 if stop else 1


def _say(line: str, stream: TextIO | None = None) -> None:
    """Print a ``referee:`` line (on stderr unless ``stream``); a terminal gone (closed,
    its pipe broken) is no reason to stop otherwise than asked."""
    with contextlib.suppress(OSError):
        print(f"referee: {line}", file=stream or sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
