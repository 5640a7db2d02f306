"""Install what the service needs, then run the engine, the gateway and its proxy in the
foreground.

``python3 deploy/run.py`` — the README's quick start; ``--engines 3`` starts three engines
on free loopback ports, which the gateway balances calls over; an engine that exits is
started again on its address, and the log says so. nginx (Debian's nginx-light,
installed with apt-get when missing and this is root) listens on the public address and
buffers every request before gunicorn sees it (see ``deploy/proxy.py``); without it the
gateway runs on gunicorn alone, with a warning. Ctrl-C (or SIGTERM) stops them from the
outside in (``deploy/stack.py``), so requests already accepted are answered. Their logs
are plain text lines on a terminal and JSON lines otherwise, unless ``REFEREE_LOG_FORMAT``
says which.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

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
        print("referee: WARNING: running gunicorn without the nginx proxy in front: slow "
              "clients can exhaust its threads; install nginx-light", file=sys.stderr,
              flush=True)
    env = {"REFEREE_LOG_FORMAT": "text" if sys.stderr.isatty() else "json", **os.environ,
           "PYTHONUNBUFFERED": "1"}
    stop = False

    def on_signal(_signum: int, _frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        stack = Stack.start(str(python), env, echo=True, nginx=nginx, engines=args.engines,
                            bind=env.get("REFEREE_GATEWAY_BIND", "127.0.0.1:8080"),
                            engine_address=env.get("REFEREE_ENGINE_ADDRESS", "127.0.0.1:50051"))
    except RuntimeError as error:  # a process that did not start (a port taken, ...)
        print(f"referee: could not start: {error}", file=sys.stderr, flush=True)
        return 1
    engines = "engines" if len(stack.engines) > 1 else "engine"
    print(f"referee: {engines} on {', '.join(stack.engine_addresses)}, gateway on {stack.url} "
          f"(score pad at {stack.url}/, docs at {stack.url}/v1/docs); Ctrl-C stops them",
          flush=True)
    while not stop and stack.running():
        try:
            for address, code in stack.restart_exited_engines():
                print(f"referee: the engine on {address} exited ({code}); restarted it on the "
                      "same address", file=sys.stderr, flush=True)
        except RuntimeError as error:  # tried again on the next turn
            print(f"referee: could not restart an engine: {error}", file=sys.stderr,
                  flush=True)
        time.sleep(0.2)
    codes = stack.stop()
    print(f"referee: stopped ({', '.join(f'{k} {v}' for k, v in codes.items())})", flush=True)
    return 0 if stop else 1


if __name__ == "__main__":
    sys.exit(main())
