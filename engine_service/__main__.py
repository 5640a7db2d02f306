"""``python -m engine_service``: run the referee engine in the foreground.

Flags win over environment variables, which win over the defaults.
"""

from __future__ import annotations

import argparse
import logging
import os

from .server import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="referee-engine",
                                     description="Run the stateless referee gRPC engine.")
    parser.add_argument("--address", default=os.environ.get("REFEREE_ENGINE_ADDRESS",
                                                            "127.0.0.1:50051"),
                        help="host:port to listen on; port 0 picks a free one "
                             "(env REFEREE_ENGINE_ADDRESS; default %(default)s)")
    parser.add_argument("--workers", type=int,
                        default=int(os.environ.get("REFEREE_ENGINE_WORKERS", "8")),
                        help="threads answering calls (env REFEREE_ENGINE_WORKERS; "
                             "default %(default)s)")
    parser.add_argument("--grace", type=float,
                        default=float(os.environ.get("REFEREE_ENGINE_GRACE_SECONDS", "10")),
                        help="seconds in-flight calls get to finish on SIGTERM "
                             "(env REFEREE_ENGINE_GRACE_SECONDS; default %(default)s)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("REFEREE_LOG_LEVEL", "INFO"),
                        format="%(asctime)s engine %(levelname)s %(name)s: %(message)s")
    serve(args.address, args.workers, args.grace)


if __name__ == "__main__":
    main()
