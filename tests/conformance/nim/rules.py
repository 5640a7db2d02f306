"""Nim's rules, pure: a pile, two players taking 1 to 3 in turn; the last take wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from tabletop_rules.verdicts import Violation

MAX_TAKE = 3


class Reason(Enum):
    GAME_OVER = "GAME_OVER"
    TAKE_OUT_OF_RANGE = "TAKE_OUT_OF_RANGE"
    MORE_THAN_THE_PILE = "MORE_THAN_THE_PILE"


@dataclass(frozen=True)
class State:
    pile: int
    player: int
    """Who takes next."""

    @property
    def winner(self) -> int | None:
        """Once the pile is empty, who took the last one."""
        return 1 - self.player if self.pile == 0 else None


def legal_moves(state: State) -> list[int]:
    return list(range(1, min(MAX_TAKE, state.pile) + 1))


def validate(state: State, take: int) -> tuple[State | None, list[Violation[Reason]]]:
    """The next state, or every rule ``take`` breaks (pointers into the move)."""
    if state.pile == 0:
        return None, [Violation[Reason](Reason.GAME_OVER, "NIM-R2", "the game is over")]
    if not 1 <= take <= MAX_TAKE:
        return None, [Violation[Reason](Reason.TAKE_OUT_OF_RANGE, "NIM-R1",
                                        f"take 1 to {MAX_TAKE}, not {take}", ("take",))]
    if take > state.pile:
        return None, [Violation[Reason](Reason.MORE_THAN_THE_PILE, "NIM-R1",
                                        f"the pile holds {state.pile}", ("take",))]
    return State(state.pile - take, 1 - state.player), []


def replay(pile: int, takes: Sequence[int]) -> tuple[State, int, list[Violation[Reason]]]:
    """The state after the log's legal prefix, how many moves it applied (the first
    illegal one's index), and that move's violations."""
    state = State(pile, 0)
    for applied, take in enumerate(takes):
        after, violations = validate(state, take)
        if after is None:
            return state, applied, violations
        state = after
    return state, len(takes), []
