"""What a cluster's plan is made of, before it becomes the public steps.

A cluster plan is a list of *segments*: the transports before each processing run, then
the transports after the last run. Clusters run their segments side by side, so a run in
the whole town is every cluster's run at once (see :func:`.compose`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Goods


@dataclass(frozen=True, slots=True)
class MoveAction:
    """Move one good of type index ``good`` from building ``origin`` to ``destination``
    (board indices) along a route (FF-R2)."""

    good: int
    origin: int
    destination: int


@dataclass(frozen=True, slots=True)
class HaulAction:
    """At a transportation phase's start, bring goods onto the hut ``hut`` (FF-R17):
    ``picks`` is ``(good index, origin)`` per good."""

    hut: int
    picks: tuple[tuple[int, int], ...]


Action = MoveAction | HaulAction


@dataclass(slots=True)
class ClusterPlan:
    """A cluster's plan: ``segments[k]`` comes before run ``k``; the last segment comes
    after the last run. ``choices[k]`` names, for buildings with a "different types"
    effect, the goods run ``k`` must leave (FF-R4 lets the player pick)."""

    segments: list[list[Action]] = field(default_factory=list)
    choices: list[dict[int, Goods]] = field(default_factory=list)
    value: int = 0
    """weight x (processing points + goods-dependent end-game points) - goods left."""

    @property
    def runs(self) -> int:
        return len(self.segments) - 1
