"""Start the real engine and the real gunicorn gateway as processes on free loopback ports.

Both bind port 0 and report the port they got in their logs, so there is no race for a
port between picking it and binding it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_SECONDS = 30


@dataclass
class Process:
    """A child process whose output is collected line by line in the background."""

    popen: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, args: list[str], env: dict[str, str]) -> Process:
        popen = subprocess.Popen(args, cwd=REPO, env=env, text=True, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)
        process = cls(popen)
        threading.Thread(target=process._collect, daemon=True).start()
        return process

    def _collect(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.append(line)

    def wait_for(self, pattern: str) -> re.Match[str]:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if match := re.search(pattern, line):
                    return match
            if self.popen.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"never saw {pattern!r}; output:\n{''.join(self.lines)}")

    def stop(self, timeout: float = 15) -> int:
        if self.popen.poll() is None:
            self.popen.terminate()
        return self.popen.wait(timeout)


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def start_engine() -> tuple[Process, str]:
    engine = Process.start([sys.executable, "-m", "engine_service", "--address", "127.0.0.1:0",
                            "--grace", "5"], environment())
    port = engine.wait_for(r"engine listening on 127\.0\.0\.1:(\d+)").group(1)
    return engine, f"127.0.0.1:{port}"


def start_gateway(engine_address: str) -> tuple[Process, str]:
    gateway = Process.start(
        [sys.executable, "-m", "gunicorn", "-c", str(REPO / "deploy" / "gunicorn.conf.py")],
        environment(REFEREE_ENGINE_ADDRESS=engine_address, REFEREE_GATEWAY_BIND="127.0.0.1:0",
                    REFEREE_GATEWAY_WORKERS="2"))
    port = gateway.wait_for(r"Listening at: http://127\.0\.0\.1:(\d+)").group(1)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/readyz", timeout=2).ok:
                return gateway, url
        except requests.ConnectionError:
            pass
        time.sleep(0.1)
    raise AssertionError("gateway never became ready:\n" + "".join(gateway.lines))


@dataclass
class Service:
    engine: Process
    engine_address: str
    gateway: Process
    url: str


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    engine, engine_address = start_engine()
    try:
        gateway, url = start_gateway(engine_address)
    except BaseException:
        engine.stop()
        raise
    yield Service(engine, engine_address, gateway, url)
    gateway.stop()
    engine.stop()
