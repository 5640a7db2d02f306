"""Placing players by a game's tie-break keys: shared by every game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Placed(Generic[T]):
    """An entry with its place: 1 is first; tied entries share a place."""

    place: int
    entry: T


def place(entries: Sequence[T], key: Callable[[T], tuple[int, ...]]) -> list[Placed[T]]:
    """Order ``entries`` best first by ``key`` (larger is better) and give each a place.

    Entries with equal keys share a place and the next place skips (1, 1, 3); among
    equals, the input order is kept.
    """
    ranked = sorted(entries, key=key, reverse=True)  # sorted() is stable
    placed: list[Placed[T]] = []
    for position, entry in enumerate(ranked, start=1):
        if placed and key(placed[-1].entry) == key(entry):
            placed.append(Placed(placed[-1].place, entry))
        else:
            placed.append(Placed(position, entry))
    return placed
