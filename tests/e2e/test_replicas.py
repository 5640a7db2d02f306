"""Three engines behind one gunicorn gateway on loopback, one SIGKILLed under steady load
and started again on its port: no request fails (the channel retries a call that met the
dead engine on another one, and balances over the live ones only), and the restarted
engine has calls again within 10 s (the channel reconnects to its address every half
second at most; no name needs resolving again).

An engine's traffic is read from its own metrics (``referee_engine_calls_total``).
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from dataclasses import dataclass

import pytest
import requests

from ..sample_boards import SIMPLE_BOARD

from .conftest import (
    Load,
    Process,
    engine_calls,
    metrics_url,
    start_engines,
    start_gateway,
    start_stack,
)

pytestmark = pytest.mark.e2e

ENGINES = 3
TRAFFIC_WITHIN_SECONDS = 10.0
ENGINE_SETTINGS = {
    # So the gateway also re-resolves and reconnects often (where engines read it).
    "REFEREE_ENGINE_MAX_CONNECTION_AGE_SECONDS": "2",
    "REFEREE_ENGINE_GRACE_SECONDS": "1",
}
BUSY_CALLS = 5
"""ScoreBoard calls that show an engine is in the balancing."""


@dataclass
class Replica:
    process: Process
    address: str
    metrics: str

    @classmethod
    def started(cls, process: Process, address: str) -> Replica:
        return cls(process, address, metrics_url(process))

    def traffic(self) -> float:
        """Its ScoreBoard calls so far (its metrics)."""
        return engine_calls(self.metrics)

    def busy(self, since: float) -> bool:
        """Whether it had calls since its traffic was ``since``."""
        return self.traffic() - since >= BUSY_CALLS


def wait_busy(replica: Replica, within: float) -> float | None:
    """Seconds until ``replica`` has calls (None if not within ``within`` seconds)."""
    start = time.monotonic()
    baseline = replica.traffic()
    while time.monotonic() < start + within:
        if replica.busy(baseline):
            return time.monotonic() - start
        time.sleep(0.1)
    return None


def test_a_killed_engine_costs_no_request_and_has_calls_again_after_its_restart() -> None:
    replicas = [Replica.started(*started)
                for started in start_engines(ENGINES, **ENGINE_SETTINGS)]
    started = [replica.process for replica in replicas]
    load = None
    try:
        gateway, url = start_gateway(",".join(r.address for r in replicas))
        started.append(gateway)
        # Back to back from 6 clients, so calls are in flight on the engine when it dies
        # (without the channel's retries some of them fail).
        load = Load(url, threads=6, pause=0).start()
        busy_before = [wait_busy(replica, 5) for replica in replicas]
        victim = replicas[1]
        victim.process.popen.send_signal(signal.SIGKILL)
        victim.process.popen.wait(5)
        killed = time.monotonic()
        time.sleep(2)
        answered_while_down = sum(1 for sent, _, _ in load.answers if sent > killed)
        (process, address), = start_engines(1, victim.address, **ENGINE_SETTINGS)
        started.append(process)
        restarted = Replica.started(process, address)
        back_after = wait_busy(restarted, TRAFFIC_WITHIN_SECONDS)
        time.sleep(1)
        load.stop()
        assert gateway.stop() == 0
    finally:
        if load:
            load.stop()
        for process in reversed(started):
            process.stop(10)
    statuses = Counter(status for _, status, _ in load.answers)
    assert None not in busy_before, f"an engine had no calls before the kill: {busy_before}"
    assert answered_while_down > 20, f"only {answered_while_down} answers while it was down"
    assert not load.failed(), (
        f"failed requests (seconds after the kill, status, seconds taken): "
        f"{[(round(s - killed, 2), st, round(d, 2)) for s, st, d in load.failed()][:20]}; "
        f"all: {statuses}")
    assert back_after is not None, (
        f"the restarted engine had no calls within {TRAFFIC_WITHIN_SECONDS} s")
    print(f"\n{len(load.answers)} answers {dict(statuses)}; the restarted engine had calls "
          f"{back_after:.2f} s after it listened")


def test_the_quick_start_with_three_engines_balances_over_them() -> None:
    """``deploy/run.py --engines 3``'s stack: the gateway dials the three as a list, each
    has calls, and all stop cleanly after the gateway."""
    stack = start_stack(engines=3, REFEREE_ENGINE_METRICS_ADDRESS="127.0.0.1:0")
    try:
        replicas = [Replica.started(engine, address)
                    for engine, address in zip(stack.engines, stack.engine_addresses)]
        before = [replica.traffic() for replica in replicas]
        with requests.Session() as session:
            answers = [session.post(stack.url + "/v1/downtown-farmers-market/score",
                                    json=SIMPLE_BOARD, timeout=10).status_code
                       for _ in range(60)]
        busy = [replica.busy(since) for replica, since in zip(replicas, before)]
    finally:
        codes = stack.stop()
    assert answers == [200] * 60
    assert busy == [True] * 3, f"engines with calls: {busy}"
    assert len(set(stack.engine_addresses)) == 3
    assert list(codes.values()) == [0] * 5, codes
