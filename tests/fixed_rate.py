"""A bounded load at a fixed rate, and what it saw: for the failover tests (in processes and
in containers), which break engines under it and report the figures the deployment docs
quote.

Open loop: a request is sent every ``1 / rate`` seconds whatever the answers take (a
closed loop would slow down with the service and hide a stall), each from a pool of
client threads large enough that none waits for a free one.

Each thread keeps its connection alive between requests, as clients do, but not idle past
half the server's keep-alive timeout: a request sent just as the server closes an idle
connection is lost (``RemoteDisconnected``; ``requests`` resends no POST), and a thread of a
pool this large can idle that long. That is the client's race, not the failover's.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import requests

from deploy.proxy import ProxySettings

from .e2e.conftest import engine_calls

CLIENT_THREADS = 96
CLIENT_TIMEOUT_SECONDS = 30.0
IDLE_SECONDS = ProxySettings.keepalive_timeout_seconds / 2
"""How long a connection may sit idle before its thread opens another (nginx's keep-alive
timeout is 5 s, as is gunicorn's ``keepalive``)."""


@dataclass(frozen=True)
class Answer:
    sent: float
    """Seconds since the load started."""
    status: int
    """-1 for no answer (reset, refused, timed out)."""
    seconds: float
    error: str = ""
    """The client's exception, when there was no answer."""

    def failure(self) -> tuple[float, int, float, str]:
        """What an assertion shows of a failed request: when, what, how long, why."""
        return round(self.sent, 2), self.status, round(self.seconds, 2), self.error


@dataclass(frozen=True)
class Window:
    """The answers to the requests sent in one stretch of the load (a fault, say)."""

    answers: list[Answer]
    seconds: float
    answered: int
    """Requests answered 200 within the stretch, whenever they were sent."""

    def failed(self) -> list[Answer]:
        return [answer for answer in self.answers if answer.status != 200]

    def p99(self) -> float:
        times = sorted(answer.seconds for answer in self.answers)
        return times[min(len(times) - 1, int(len(times) * 0.99))] if times else 0.0

    def slowest(self) -> float:
        return max((answer.seconds for answer in self.answers), default=0.0)

    def answered_per_second(self) -> float:
        return self.answered / self.seconds

    def statuses(self) -> dict[int, int]:
        return dict(Counter(answer.status for answer in self.answers))

    def figures(self) -> str:
        return (f"{len(self.answers)} requests, {len(self.failed())} failed "
                f"{self.statuses()}, {self.answered_per_second():.0f} answered/s, p99 "
                f"{self.p99() * 1000:.0f} ms, slowest {self.slowest() * 1000:.0f} ms")


@dataclass
class FixedRateLoad:
    """``rate`` POSTs a second of ``body`` to ``url`` for ``seconds``, in the background."""

    url: str
    body: Any
    rate: float = 150.0
    seconds: float = 20.0
    answers: list[Answer] = field(default_factory=list)
    _started: float = 0.0
    _thread: threading.Thread | None = None
    _local: threading.local = field(default_factory=threading.local)

    def start(self) -> FixedRateLoad:
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._send_all, daemon=True)
        self._thread.start()
        return self

    def now(self) -> float:
        """Seconds since the load started (the answers' clock)."""
        return time.monotonic() - self._started

    def _send_all(self) -> None:
        with ThreadPoolExecutor(CLIENT_THREADS) as pool:
            for index in range(int(self.rate * self.seconds)):
                delay = index / self.rate - self.now()
                if delay > 0:
                    time.sleep(delay)
                pool.submit(self._send, self.now())

    def _send(self, sent: float) -> None:
        session, last_used = getattr(self._local, "session", (None, 0.0))
        if session is None or time.monotonic() - last_used > IDLE_SECONDS:
            if session is not None:
                session.close()
            session = requests.Session()
        status, error = -1, ""
        try:
            status = session.post(self.url, json=self.body,
                                  timeout=CLIENT_TIMEOUT_SECONDS).status_code
        except requests.RequestException as failure:
            error = repr(failure)
        self._local.session = session, time.monotonic()
        self.answers.append(Answer(sent, status, self.now() - sent, error))

    def wait(self) -> Window:
        """Until every request is answered; all of them."""
        assert self._thread is not None
        self._thread.join(self.seconds + CLIENT_TIMEOUT_SECONDS + 10)
        return self.window(0, self.seconds)

    def window(self, start: float, end: float) -> Window:
        """The requests sent from ``start`` to ``end`` seconds into the load."""
        answered = sum(a.status == 200 and start <= a.sent + a.seconds < end
                       for a in self.answers)
        return Window([a for a in self.answers if start <= a.sent < end],
                      max(end - start, 1e-9), answered)


def seconds_until_calls(metrics: Callable[[], str], within: float) -> float | None:
    """Seconds until the engine whose ``/metrics`` URL ``metrics()`` gives (asked again each
    time: a restarted container may have a new address) answers another call; None if not
    within ``within``."""
    start = time.monotonic()
    before: float | None = None
    while time.monotonic() < start + within:
        try:
            calls = engine_calls(metrics())
        except (OSError, KeyError, IndexError):  # not listening (yet)
            calls = None
        if calls is not None and before is not None and calls > before:
            return time.monotonic() - start
        if before is None:
            before = calls
        time.sleep(0.05)
    return None


def wait_until(condition: Callable[[], bool], within: float) -> float | None:
    """Seconds until ``condition()`` is true, polled every 0.1 s; None past ``within``."""
    start = time.monotonic()
    while time.monotonic() < start + within:
        if condition():
            return time.monotonic() - start
        time.sleep(0.1)
    return None


def report(where: str, fault: str, window: Window, recovered: float | None) -> None:
    """One line of the failover figures (``pytest -s`` shows them)."""
    again = "never" if recovered is None else f"{recovered:.2f} s"
    print(f"\n{where}, {fault}: {window.figures()}; calls again after {again}")
