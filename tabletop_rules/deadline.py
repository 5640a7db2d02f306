"""How long a computation may run: a point in time, and a way to hear that nobody waits.

The rules know nothing of gRPC; the engine turns a call's deadline and its cancellation
into a :class:`Deadline`, and every search that could run long asks it, every few
hundred steps, whether to stop. An anytime search (the final-round planner) answers its
best result so far once the deadline has passed.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def _never_cancelled() -> bool:
    return False


class Deadline:
    """A monotonic point in time (or none) plus a cheap "has the caller gone?" check."""

    __slots__ = ("_at", "_cancelled")

    def __init__(self, seconds: float | None = None,
                 cancelled: Callable[[], bool] = _never_cancelled) -> None:
        self._at = None if seconds is None else time.monotonic() + seconds
        self._cancelled = cancelled

    def remaining(self) -> float:
        """Seconds left (``inf`` without a time limit; 0 once expired or cancelled)."""
        if self._cancelled():
            return 0.0
        if self._at is None:
            return float("inf")
        return max(0.0, self._at - time.monotonic())

    def expired(self) -> bool:
        """True once the time is up or the caller has gone."""
        return self._cancelled() or (self._at is not None and time.monotonic() >= self._at)

    def within(self, seconds: float) -> Deadline:
        """A deadline no later than this one nor than ``seconds`` from now, sharing its
        cancellation."""
        return Deadline(min(seconds, self.remaining()), self._cancelled)


NO_DEADLINE = Deadline()
"""For library callers that want no limit (tests, benchmarks, the exhaustive checks)."""
