"""Start the real engine, the real gunicorn gateway and the nginx proxy as processes on
free loopback ports, with the same code as ``deploy/run.py`` (``deploy/stack.py``).

The engine and gunicorn bind port 0 and report the port they got in their logs, so there
is no race for a port between picking it and binding it; nginx cannot report one, so its
port is picked free just before it starts.

The ``browser`` fixture is a headless Chromium that reaches that gateway and nothing else
(``browser.py``), one per test module, as the documentation page's and the score pad's
tests use it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from selenium.webdriver.remote.webdriver import WebDriver

from deploy import proxy, stack
from deploy.stack import REPO_ROOT as REPO
from deploy.stack import Process, Stack
from deploy.compiled import PURE_PYTHON_VARIABLE

from ..sample_boards import SIMPLE_BOARD
from .browser import chromium

__all__ = ["ENGINE_TEST_SETTINGS", "REPO", "Load", "Process", "Service", "Stack",
           "engine_calls", "environment", "metrics_url", "running_service", "start_engine",
           "start_engines", "start_gateway", "start_stack"]


def environment(**extra: str) -> dict[str, str]:
    """This environment for a process a test starts, without the service's settings (a
    test sets its own) but for which build of the rules runs: the whole suite's run on
    the sources starts every engine and gateway on the sources too."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("REFEREE_") or k == PURE_PYTHON_VARIABLE}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def start_engine() -> tuple[Process, str]:
    return stack.start_engine(sys.executable, environment(REFEREE_ENGINE_GRACE_SECONDS="5"),
                              "127.0.0.1:0")


ENGINE_TEST_SETTINGS = {"REFEREE_ENGINE_GRACE_SECONDS": "5",
                        "REFEREE_ENGINE_METRICS_ADDRESS": "127.0.0.1:0"}


def start_engines(count: int, address: str = "127.0.0.1:0",
                  **env: str) -> list[tuple[Process, str]]:
    """``count`` engines on ``address`` (port 0: free loopback ports), started together
    (``REFEREE_ENGINE_*`` settings from ``env``; metrics on a free port where the engine
    has them): each one's process and address."""
    engines, addresses = stack.start_engines(
        sys.executable, environment(**(ENGINE_TEST_SETTINGS | env)), [address] * count)
    return list(zip(engines, addresses))


def metrics_url(engine: Process) -> str:
    """The engine's ``/metrics`` URL, from its log (it was started with
    ``REFEREE_ENGINE_METRICS_ADDRESS``)."""
    return engine.wait_for(r"engine metrics on (http://\S+/metrics)").group(1)


CALLS = re.compile(r"^referee_engine_calls_total\{([^}]*)\} (\S+)$", re.M)


def engine_calls(url: str, method: str = "ScoreBoard", code: str = "OK",
                 namespace: str | None = None) -> float:
    """The calls of ``method`` the engine answered with ``code``, from its metrics at
    ``url`` (``referee_engine_calls_total``, summed over its other labels), fetched from
    inside network namespace ``namespace`` if given."""
    if namespace:
        metrics = subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-c",
                                  "import sys, urllib.request; sys.stdout.write(urllib."
                                  "request.urlopen(sys.argv[1], timeout=5).read().decode())",
                                  url], capture_output=True, text=True, check=True).stdout
    else:
        with urllib.request.urlopen(url, timeout=5) as answer:
            metrics = answer.read().decode()
    return sum(float(value) for labels, value in CALLS.findall(metrics)
               if f'method="{method}"' in labels and f'code="{code}"' in labels)


@dataclass
class Load:
    """Steady load on the gateway: ``threads`` clients, each posting a board to score every
    ``pause`` seconds until stopped; every answer as (sent at, status, seconds), status
    -1 for no answer at all."""

    url: str
    threads: int = 3
    pause: float = 0.02
    answers: list[tuple[float, int, float]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _workers: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Load:
        self._workers = [threading.Thread(target=self._run, daemon=True)
                         for _ in range(self.threads)]
        for worker in self._workers:
            worker.start()
        return self

    def _run(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                sent = time.monotonic()
                try:
                    status = session.post(self.url + "/v1/downtown-farmers-market/score",
                                          json=SIMPLE_BOARD, timeout=30).status_code
                except requests.RequestException:
                    status = -1
                self.answers.append((sent, status, time.monotonic() - sent))
                time.sleep(self.pause)

    def stop(self) -> None:
        self._stop.set()
        for worker in self._workers:
            worker.join(40)

    def failed(self) -> list[tuple[float, int, float]]:
        """The answers other than 200."""
        return [answer for answer in self.answers if answer[1] != 200]


def start_gateway(engine_address: str) -> tuple[Process, str]:
    """gunicorn alone (no proxy), on a free port, once it reaches the engine."""
    gateway, url = stack.start_gunicorn(sys.executable, environment(REFEREE_GATEWAY_WORKERS="2"),
                                        engine_address, "127.0.0.1:0")
    try:
        stack.wait_ready(url)
    except RuntimeError:
        gateway.stop()
        raise AssertionError("gateway never became ready:\n" + "".join(gateway.lines)) from None
    return gateway, url


def nginx_or_skip() -> str:
    """nginx's path (installed if missing and possible); the test skips if it cannot be."""
    nginx = proxy.ensure_nginx()
    if nginx is None:
        pytest.skip("nginx is not installed and cannot be installed here (needs root and "
                    "apt-get: apt-get install nginx-light)")
    return nginx


def start_stack(engines: int = 1, **env: str) -> Stack:
    """The whole service as ``deploy/run.py`` starts it: ``engines`` engines, gunicorn,
    nginx in front on a free loopback port; ``env`` adds ``REFEREE_*`` settings (short
    timeouts, ...)."""
    return Stack.start(sys.executable, environment(REFEREE_GATEWAY_WORKERS="2", **env),
                       bind=f"127.0.0.1:{stack.free_port()}", engine_address="127.0.0.1:0",
                       nginx=nginx_or_skip(), engines=engines)


@dataclass
class Service:
    engine: Process
    engine_address: str
    gateway: Process
    url: str


@contextmanager
def running_service() -> Iterator[Service]:
    """An engine and gunicorn in front of it (no proxy), stopped afterwards: the gateway,
    then the engine (already stopped by the test, perhaps)."""
    engine, engine_address = start_engine()
    try:
        gateway, url = start_gateway(engine_address)
        try:
            yield Service(engine, engine_address, gateway, url)
        finally:
            gateway.stop()
    finally:
        engine.stop()


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    with running_service() as started:
        yield started


@pytest.fixture(scope="module")
def browser(service: Service, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """A headless Chromium that reaches only ``service``'s gateway (``browser.py``)."""
    session = chromium(service.url, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield session
    finally:
        session.quit()


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = requests.get(f"{url}/metrics", timeout=10, headers={"Connection": "close"})
    assert answer.status_code == 200
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples}


def in_flight(samples: dict[Any, float]) -> float:
    return samples[("referee_gateway_requests_in_flight", ())]
