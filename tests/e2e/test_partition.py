"""Engines as separate hosts, one cut off without a reset.

Each engine runs in a network namespace of its own, behind a veth pair (the root side
10.77.X.4i+1, the engine 10.77.X.4i+2, one /30 each); the gunicorn gateway in the root
namespace dials the three as a list. Under steady load one engine's link is set down
inside its namespace: its packets vanish, nothing answers and nothing resets, as when a
host freezes or a cable is cut. Then:

- every request still succeeds: the calls caught on the cut engine wait until grpc ends
  the connection (no ACK for ``KEEPALIVE_TIMEOUT_MS``: grpc's TCP_USER_TIMEOUT; no ping
  answer when idle) and are retried on another engine, within their deadline;
- the gateway stops sending to it within the keepalive time: no established connection
  to it is left, requests sent later are as fast as before the cut, and the cut engine's
  call count stands still;
- once the link is up again the engine has calls again.

Skipped where network namespaces cannot be made (not root, no ``ip``). The namespaces and
links are named after this process's id, so parallel runs do not collide, and removed
even when the test fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from api_gateway.engine import KEEPALIVE_TIME_MS, KEEPALIVE_TIMEOUT_MS

from .conftest import (
    ENGINE_TEST_SETTINGS,
    Load,
    Process,
    engine_calls,
    environment,
    metrics_url,
    start_gateway,
)
from ..fixed_rate import wait_until

pytestmark = pytest.mark.e2e

HOSTS = 3
PORT = 50051
PREFIX = "rf"
"""Namespaces are rf<pid>e<i>, the root side of their links rf<pid>o<i>."""
NOTICED_WITHIN = (KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS) / 1000
NORMAL_SECONDS = 1.0
"""Longer than any answer of a board score under this load when no engine is cut (tens of
ms), shorter than a call caught by the cut waits (KEEPALIVE_TIMEOUT_MS)."""
BUSY_CALLS = 5


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, text=True)


@dataclass
class Host:
    """A network namespace holding one engine, linked to the root namespace."""

    namespace: str
    link: str
    """The link's end inside the namespace."""
    outside: str
    address: str
    """The engine's IP address."""
    engine: Process | None = None
    metrics: str = ""

    @property
    def target(self) -> str:
        return f"{self.address}:{PORT}"

    def start_engine(self) -> None:
        self.engine = Process.start(
            ["ip", "netns", "exec", self.namespace, sys.executable, "-m", "engine_service",
             "--address", self.target, "--grace", "1"], environment(**ENGINE_TEST_SETTINGS))
        self.engine.wait_for(r"engine listening on ")
        self.metrics = metrics_url(self.engine)

    def traffic(self) -> float:
        """Its ScoreBoard calls (its metrics, read inside its namespace)."""
        return engine_calls(self.metrics, namespace=self.namespace)

    def busy(self, since: float) -> bool:
        return self.traffic() - since >= BUSY_CALLS

    def gateway_connections(self) -> int:
        """Established connections to its engine, seen from the root namespace."""
        sockets = subprocess.run(["ss", "-tnH", "state", "established",
                                  f"( dst {self.address}:{PORT} )"],
                                 capture_output=True, text=True, check=True).stdout
        return len(sockets.splitlines())

    def link_up(self, up: bool) -> None:
        run("ip", "netns", "exec", self.namespace, "ip", "link", "set", "dev", self.link,
            "up" if up else "down")


def _unmakeable() -> str | None:
    """Why network namespaces cannot be made here, or None."""
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    missing = [tool for tool in ("ip", "ss") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (Debian: apt-get install iproute2)"
    return None


def _remove(namespace: str, outside: str) -> None:
    """Remove a namespace (killing what still runs in it) and the root side of its link."""
    pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True,
                          text=True).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except ProcessLookupError:
            pass
    subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
    subprocess.run(["ip", "link", "del", outside], capture_output=True)


def _remove_leftovers() -> None:
    """Namespaces of earlier runs whose process is gone (a run killed before cleaning)."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for pid, index in re.findall(rf"^{PREFIX}(\d+)e(\d+)\b", listed, re.M):
        if not os.path.exists(f"/proc/{pid}"):
            _remove(f"{PREFIX}{pid}e{index}", f"{PREFIX}{pid}o{index}")


def _free_subnet() -> int:
    """A third octet X with no 10.77.X.0/24 address in use, starting from this pid's."""
    used = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True,
                          text=True, check=True).stdout
    for step in range(256):
        octet = (os.getpid() + step) % 256
        if f" 10.77.{octet}." not in used:
            return octet
    raise RuntimeError("no free 10.77.X.0/24 subnet")


@pytest.fixture
def hosts() -> Iterator[list[Host]]:
    reason = _unmakeable()
    if reason:
        pytest.skip(f"engines as separate hosts: {reason}")
    _remove_leftovers()
    tag = f"{PREFIX}{os.getpid()}"
    octet = _free_subnet()
    made: list[Host] = []
    try:
        for i in range(HOSTS):
            host = Host(f"{tag}e{i}", f"{tag}i{i}", f"{tag}o{i}", f"10.77.{octet}.{4 * i + 2}")
            try:
                run("ip", "netns", "add", host.namespace)
            except subprocess.CalledProcessError as error:
                pytest.skip(f"cannot make a network namespace here: {error.stderr.strip()}")
            made.append(host)
            run("ip", "link", "add", host.outside, "type", "veth", "peer", "name", host.link)
            run("ip", "link", "set", host.link, "netns", host.namespace)
            run("ip", "addr", "add", f"10.77.{octet}.{4 * i + 1}/30", "dev", host.outside)
            run("ip", "link", "set", host.outside, "up")
            for command in (["ip", "addr", "add", f"{host.address}/30", "dev", host.link],
                            ["ip", "link", "set", host.link, "up"],
                            ["ip", "link", "set", "lo", "up"]):
                run("ip", "netns", "exec", host.namespace, *command)
        yield made
    finally:
        for host in made:
            if host.engine:
                host.engine.stop(5)
            _remove(host.namespace, host.outside)


def test_an_engine_cut_off_without_a_reset_costs_no_request(hosts: list[Host]) -> None:
    for host in hosts:
        host.start_engine()
    victim = hosts[1]
    gateway, url = start_gateway(",".join(host.target for host in hosts))
    load = None
    try:
        load = Load(url, threads=4, pause=0.01).start()
        baseline = victim.traffic()
        busy_before = wait_until(lambda: victim.busy(baseline), 10)
        connected_before = victim.gateway_connections()
        victim.link_up(False)
        cut = time.monotonic()
        noticed = wait_until(lambda: victim.gateway_connections() == 0, 3 * NOTICED_WITHIN)
        time.sleep(max(0.0, cut + NOTICED_WITHIN - time.monotonic()))
        during = victim.traffic()  # the calls it got before the cut (nothing since arrives)
        time.sleep(2)
        after = victim.traffic()
        victim.link_up(True)
        healed = time.monotonic()
        busy_again = wait_until(lambda: victim.busy(after), 10)
        load.stop()
        assert gateway.stop() == 0
    finally:
        if load:
            load.stop()
        gateway.stop(5)
    failed = [(round(sent - cut, 2), status, round(took, 2))
              for sent, status, took in load.failed()]
    slow = [(round(sent - cut, 2), round(took, 2)) for sent, _, took in load.answers
            if took > NORMAL_SECONDS]
    late = [(at, took) for at, took in slow if at >= NOTICED_WITHIN]
    print(f"\n{len(load.answers)} answers, {len(failed)} failed; cut engine noticed "
          f"{noticed} s after the cut (keepalive {NOTICED_WITHIN} s); slow answers "
          f"(seconds after the cut, seconds taken): {slow}; calls again {busy_again} s "
          f"after the link came back")
    assert busy_before is not None and connected_before > 0, (
        "the engine to be cut had no calls before the cut")
    assert not failed, f"failed requests (seconds after the cut, status, seconds): {failed}"
    assert noticed is not None and noticed <= NOTICED_WITHIN, (
        f"the gateway still held connections to the cut engine {noticed} s after the cut")
    assert not late, (f"requests sent {NOTICED_WITHIN} s or more after the cut were slow "
                      f"(seconds after the cut, seconds taken): {late}")
    assert during == after, f"the cut engine's traffic moved while cut: {during} -> {after}"
    assert sum(1 for sent, _, _ in load.answers if cut + NOTICED_WITHIN <= sent < healed) > 20
    assert busy_again is not None, "the engine had no calls within 10 s of its link's return"
