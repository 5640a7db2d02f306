"""The engine's Prometheus metrics, and the HTTP endpoint that serves them.

Per call (recorded by :class:`.calls.CallPolicy`, refusals included):
``referee_engine_calls_total{service, method, code}`` and
``referee_engine_call_seconds{service, method}``. Per game (counted by the servicers):
``referee_engine_boards_scored_total{game}``, ``referee_engine_moves_judged_total{game,
legal}`` and ``referee_engine_plans_total{optimal}``.

The metrics live in the process's default registry (with prometheus_client's process
and garbage-collector metrics) and are always counted: the cost is a few lock-guarded
additions per call, as every label child is looked up once, not per call.
``--metrics-address`` only decides whether they are served.
"""

from __future__ import annotations

import logging

import grpc
from prometheus_client import Counter, Histogram, start_http_server

log = logging.getLogger(__name__)

CALLS = Counter("referee_engine_calls", "Unary calls answered, by method and status code.",
                ["service", "method", "code"])
CALL_SECONDS = Histogram(
    "referee_engine_call_seconds",
    "Time from the request's bytes to the answer (or the refusal), by method.",
    ["service", "method"],
    # Scores and verdicts take well under a millisecond to a few; plans up to the
    # planner's budget (0.8 s); nothing more than the longest call allowed (3 s).
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
BOARDS_SCORED = Counter("referee_engine_boards_scored",
                        "Boards (towns) scored, alone or for a ranking, by game.", ["game"])
MOVES_JUDGED = Counter("referee_engine_moves_judged",
                       "Moves (actions, transports) judged one at a time, by game and verdict.",
                       ["game", "legal"])
PLANS = Counter("referee_engine_plans",
                "Foxglove Farm final rounds planned, by whether the plan is proven optimal.",
                ["optimal"])


class MethodMeter:
    """One RPC method's call counters and latency histogram, their label children bound
    once (the OK counter up front, the others on their first use)."""

    __slots__ = ("_by_code", "_latency", "_ok", "method", "service")

    def __init__(self, full_method: str) -> None:
        self.service, self.method = full_method.lstrip("/").split("/", 1)
        self._latency = CALL_SECONDS.labels(self.service, self.method)
        self._ok = CALLS.labels(self.service, self.method, grpc.StatusCode.OK.name)
        self._by_code = {grpc.StatusCode.OK: self._ok}

    def record(self, code: grpc.StatusCode, seconds: float) -> None:
        self._latency.observe(seconds)
        if code is grpc.StatusCode.OK:
            self._ok.inc()
            return
        counter = self._by_code.get(code)
        if counter is None:
            counter = self._by_code.setdefault(code, CALLS.labels(self.service, self.method,
                                                                  code.name))
        counter.inc()


class GameMeter:
    """What one game's servicer counts, label children bound once."""

    def __init__(self, game: str) -> None:
        self._boards = BOARDS_SCORED.labels(game)
        self._moves = {True: MOVES_JUDGED.labels(game, "true"),
                       False: MOVES_JUDGED.labels(game, "false")}

    def boards_scored(self, count: int = 1) -> None:
        self._boards.inc(count)

    def move_judged(self, legal: bool) -> None:
        self._moves[legal].inc()


_PLANS = {True: PLANS.labels("true"), False: PLANS.labels("false")}


def plan_made(optimal: bool) -> None:
    _PLANS[optimal].inc()


def serve_metrics(address: str) -> str:
    """Serve ``/metrics`` on ``address`` (``host:port``, port 0 picks a free one) from a
    daemon thread; returns its URL, and logs it so tests and operators can find it."""
    host, _, port = address.rpartition(":")
    server, _thread = start_http_server(int(port), host.strip("[]"))
    url = f"http://{host}:{server.server_port}/metrics"
    log.info("engine metrics on %s", url)
    return url
