"""Placing players by a game's tie-break keys: shared by every game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Score = TypeVar("Score")


@dataclass(frozen=True, slots=True)
class Standing(Generic[Score]):
    """A named player's score and place: 1 is first; tied players share a place."""

    name: str
    score: Score
    place: int


@dataclass(frozen=True, slots=True)
class Ranking(Generic[Score]):
    """Standings, best first."""

    standings: tuple[Standing[Score], ...]

    @property
    def winners(self) -> tuple[str, ...]:
        """Everyone in first place: tied players share the victory."""
        return tuple(s.name for s in self.standings if s.place == 1)


def rank(scored: Sequence[tuple[str, Score]], key: Callable[[Score], tuple[int, ...]]
         ) -> Ranking[Score]:
    """Order ``(name, score)`` pairs best first by ``key`` (larger is better) and place them.

    Equal keys share a place and the next place skips (1, 1, 3); among equals, the input
    order is kept.
    """
    ordered = sorted(scored, key=lambda entry: key(entry[1]), reverse=True)  # stable
    standings: list[Standing[Score]] = []
    for position, (name, score) in enumerate(ordered, start=1):
        tied = bool(standings) and key(standings[-1].score) == key(score)
        standings.append(Standing(name, score, standings[-1].place if tied else position))
    return Ranking(tuple(standings))
