"""The referee's answer to a move, the same shape for every game.

An illegal move is an answer, not an error: its :class:`Verdict` lists every rule the
move breaks, each a :class:`Violation` with a machine ``reason`` (a member of the game's
own ``Reason`` enum, whose values are stable UPPER_SNAKE names clients may switch on),
the rule's id, a message for the players, and the path of the part of the move that
breaks it (``()`` is the whole move), so an app can point at it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Generic, TypeVar

from .problems import Path, json_pointer

ReasonT = TypeVar("ReasonT", bound=enum.StrEnum)
StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Violation(Generic[ReasonT]):
    """One rule a move breaks, and where in the move.

    Not slotted: games build it through an alias such as ``Violation[Reason]``, which
    sets ``__orig_class__``, and a frozen slotted generic dataclass fails at that.
    """

    reason: ReasonT
    rule: str
    message: str
    path: Path = ()

    def pointer(self, *prefix: str | int) -> str:
        """The JSON Pointer of what breaks the rule, in a request that nests the move
        under ``prefix`` (``("move",)`` -> ``/move/to``)."""
        return json_pointer((*prefix, *self.path))


@dataclass(frozen=True)
class Verdict(Generic[StateT, ReasonT]):
    """The next state, or every rule the move breaks."""

    next_state: StateT | None
    violations: tuple[Violation[ReasonT], ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations
