"""Start the real engine, the real gunicorn gateway and the nginx proxy as processes on
free loopback ports, with the same code as ``deploy/run.py`` (``deploy/stack.py``).

The engine and gunicorn bind port 0 and report the port they got in their logs, so there
is no race for a port between picking it and binding it; nginx cannot report one, so its
port is picked free just before it starts.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from deploy import proxy, stack
from deploy.stack import REPO_ROOT as REPO
from deploy.stack import Process, Stack

__all__ = ["REPO", "Process", "Service", "Stack", "environment", "start_engine",
           "start_gateway", "start_stack"]


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


def start_engine() -> tuple[Process, str]:
    return stack.start_engine(sys.executable, environment(REFEREE_ENGINE_GRACE_SECONDS="5"),
                              "127.0.0.1:0")


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


def start_stack(**env: str) -> Stack:
    """The whole service as ``deploy/run.py`` starts it: engine, gunicorn, nginx in front
    on a free loopback port; ``env`` adds ``REFEREE_*`` settings (short timeouts, ...)."""
    return Stack.start(sys.executable, environment(REFEREE_GATEWAY_WORKERS="2", **env),
                       bind=f"127.0.0.1:{stack.free_port()}", engine_address="127.0.0.1:0",
                       nginx=nginx_or_skip())


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
