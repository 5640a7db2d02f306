"""Install what the service needs, then run the engine and the gateway in the foreground.

``python3 deploy/run.py`` — the README's quick start. Ctrl-C (or SIGTERM) stops both:
the gateway first, then the engine once its in-flight calls have finished.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bootstrap import REPO_ROOT, ensure_environment  # noqa: E402


def main() -> int:
    python = ensure_environment(extras=())
    engine_address = os.environ.setdefault("REFEREE_ENGINE_ADDRESS", "127.0.0.1:50051")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    engine = subprocess.Popen([str(python), "-m", "engine_service"], cwd=REPO_ROOT)
    gateway = subprocess.Popen(
        [str(python), "-m", "gunicorn", "-c", str(REPO_ROOT / "deploy" / "gunicorn.conf.py")],
        cwd=REPO_ROOT)
    bind = os.environ.get("REFEREE_GATEWAY_BIND", "127.0.0.1:8080")
    print(f"referee: engine on {engine_address}, gateway on http://{bind} "
          f"(docs at http://{bind}/v1/docs); Ctrl-C stops both", flush=True)

    stop = False

    def on_signal(_signum: int, _frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    while not stop and engine.poll() is None and gateway.poll() is None:
        time.sleep(0.2)
    for process in (gateway, engine):  # the gateway first: it depends on the engine
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0 if stop else 1


if __name__ == "__main__":
    sys.exit(main())
