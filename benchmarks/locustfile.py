"""The referee's real workload (``workload.py``) for locust.

Used by ``benchmarks/load_test.py`` (which starts the service and runs locust headless),
or on its own against a running gateway:
``.venv/bin/locust -f benchmarks/locustfile.py --host http://127.0.0.1:8080``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from locust import FastHttpUser, task

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import PAYLOADS, WEIGHTS  # noqa: E402


class TableApp(FastHttpUser):
    """A companion app (or a service) calling the gateway as fast as it answers."""

    @task
    def call(self) -> None:
        name = random.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        path, body = PAYLOADS[name]
        self.client.post(path, json=body, name=name)
