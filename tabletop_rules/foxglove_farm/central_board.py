"""The central board: the building tiles on offer, the stacks they come from (FF-R13) and
the solo game's sliding rows (FF-R20).

The board has two areas: the A or B spaces (:attr:`Area.OFFER`: A tiles in rounds 1 and
2, B tiles in rounds 3 and 4) and the C spaces (:attr:`Area.C`). A space holds a stack of
identical tiles (:class:`Space`); only how many tiles each tier's face-down stack still
holds is known (:class:`StacksLeft`), since the players draw them.

Interpretations the rulebook leaves open, written here so they can be set beside the
rulings:

- A space is named by the building it holds: identical tiles always share one space.
- Drawn tiles are reported in the order drawn. Each one identical to a tile on the same
  area's spaces is stacked there; any other fills the first empty space in board order.
  Drawing stops once no space is empty, or when the stack runs out (the space then stays
  empty until the board is next refilled).
- Solo (FF-R20): an area's spaces are listed row by row, the rows of equal length (A/B:
  two rows of 3, C: two rows of 2). After a building is taken, one tile is removed from
  the leftmost occupied space of each row of that area (the constructed tile's own space
  counts only if tiles are left on it); the tiles of each row slide left, and the empty
  spaces, now at the ends of the rows, are refilled.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..messages import Sentence, choice

A_SPACES = {1: 6, 2: 6, 3: 7, 4: 8}
"""A (later B) spaces by number of players (FF-R13); a solo game uses 6 (FF-R20)."""
C_SPACES = 4
STACK_SIZES = {"A": 31, "B": 35, "C": 24}
"""How many tiles of each tier the box holds (the rulebook's components)."""
SOLO_ROWS = 2
BOARD_RULE = "FF-R13"


class Area(enum.Enum):
    """The two areas of the central board."""

    OFFER = "offer"
    """The A spaces in rounds 1 and 2, the B spaces in rounds 3 and 4."""
    C = "c"


def offer_tier(round_number: int) -> str:
    """The tier on the A/B spaces in a round: A in rounds 1 and 2, B after (FF-R13)."""
    return "A" if round_number <= 2 else "B"


def area_tier(area: Area, round_number: int) -> str:
    return "C" if area is Area.C else offer_tier(round_number)


@dataclass(frozen=True, slots=True)
class Space:
    """A space of the central board: ``count`` identical tiles of ``building`` (an id)."""

    building: str
    count: int = 1


class StacksLeft(NamedTuple):
    """How many tiles each tier's face-down stack holds."""

    A: int
    B: int
    C: int

    def of(self, tier: str) -> int:
        return int(getattr(self, tier))

    def with_tier(self, tier: str, count: int) -> StacksLeft:
        return self._replace(**{tier: count})


Spaces = tuple[Space | None, ...]
"""An area's spaces in board order; ``None`` is an empty space."""


@dataclass(frozen=True, slots=True)
class CentralBoard:
    """The spaces of both areas and what is left in each tier's stack."""

    offer: Spaces
    c_spaces: Spaces
    stacks: StacksLeft

    def spaces(self, area: Area) -> Spaces:
        return self.c_spaces if area is Area.C else self.offer

    def with_spaces(self, area: Area, spaces: Spaces) -> CentralBoard:
        return replace(self, c_spaces=spaces) if area is Area.C else replace(self, offer=spaces)

    def find(self, building: str) -> tuple[Area, int] | None:
        """The area and space holding ``building``, if it is on offer."""
        for area in Area:
            for index, space in enumerate(self.spaces(area)):
                if space is not None and space.building == building:
                    return area, index
        return None

    def awaiting(self, round_number: int) -> Area | None:
        """The first area with an empty space its stack could fill: the board waits for
        the players to say which tiles they drew. ``None`` when nothing is to be drawn."""
        for area in Area:
            if (None in self.spaces(area)
                    and self.stacks.of(area_tier(area, round_number))):
                return area
        return None


_DRAW_TOO_MANY = choice(
    "WRONG_DRAW", lambda p: str(p["why"]), namespace="FF",
    too_many="{drawn} tiles were drawn but the stack holds {left}",
    filled="every space is filled by then: drawing stops once no space is empty",
    empty="{empty:# space|# spaces} still empty: keep drawing until every space is filled "
          "(identical tiles stack on one space)")
"""Why the tiles said drawn cannot be: a :data:`.reasons.Reason.WRONG_DRAW`."""


class Refill(NamedTuple):
    """The spaces after drawing, or where the drawn tiles break the board's rules:
    ``problem`` is ``(index in the drawn tiles or None for all of them, message)``."""

    spaces: Spaces
    problem: tuple[int | None, Sentence] | None


def refill(spaces: Spaces, drawn: Sequence[str], stack_left: int) -> Refill:
    """Place ``drawn`` (in the order drawn) on ``spaces``: identical tiles stack, others
    fill the first empty space (FF-R13). Refused: more tiles than the stack holds, a tile
    drawn after every space is filled, or too few tiles while a space is empty and the
    stack has more. Tiers are the caller's to check."""
    if len(drawn) > stack_left:
        return Refill(spaces, (None, _DRAW_TOO_MANY(why="too_many", drawn=len(drawn),
                                                    left=stack_left)))
    board = list(spaces)
    for index, building in enumerate(drawn):
        if None not in board:
            return Refill(spaces, (index, _DRAW_TOO_MANY(why="filled")))
        same = next((i for i, s in enumerate(board) if s is not None and s.building == building),
                    None)
        if same is not None:
            space = board[same]
            assert space is not None
            board[same] = Space(building, space.count + 1)
        else:
            board[board.index(None)] = Space(building)
    if None in board and len(drawn) < stack_left:
        empty = board.count(None)
        return Refill(spaces, (None, _DRAW_TOO_MANY(why="empty", empty=empty)))
    return Refill(tuple(board), None)


def take(spaces: Spaces, index: int) -> Spaces:
    """The spaces after the top tile of space ``index`` is taken (or removed)."""
    space = spaces[index]
    assert space is not None
    left = Space(space.building, space.count - 1) if space.count > 1 else None
    return (*spaces[:index], left, *spaces[index + 1:])


def solo_clear(spaces: Spaces) -> tuple[Spaces, int]:
    """FF-R20 after a construction: one tile removed from the leftmost occupied space of
    each row, then each row's tiles slid left. Returns the spaces and the tiles removed."""
    width = len(spaces) // SOLO_ROWS
    rows = [list(spaces[r * width:(r + 1) * width]) for r in range(SOLO_ROWS)]
    removed = 0
    for row in rows:
        first = next((i for i, s in enumerate(row) if s is not None), None)
        if first is not None:
            row[:] = take(tuple(row), first)
            removed += 1
    slid = [s for row in rows for s in ([x for x in row if x is not None]
                                        + [None] * sum(x is None for x in row))]
    return tuple(slid), removed


def board_spaces(players: int, solo: bool) -> int:
    """How many A/B spaces the board has (FF-R13, FF-R20)."""
    return A_SPACES[1] if solo else A_SPACES[players]


@dataclass(frozen=True, slots=True)
class SoloSetup:
    """One of the rulebook's solo setups (FF-R20): the A and C tiles laid out (none for
    Random, whose tiles are drawn) and the score thresholds to beat."""

    number: int
    name: str
    a_tiles: tuple[str, ...]
    c_tiles: tuple[str, ...]
    thresholds: tuple[int, ...] = (60, 80, 100, 120)


SOLO_SETUPS: dict[int, SoloSetup] = {setup.number: setup for setup in (
    SoloSetup(1, "Random", (), ()),
    SoloSetup(2, "Bountiful Harvest",
              ("industrial_farm", "smallholding", "granary", "windmill", "lean_to", "scrapyard"),
              ("tavern", "wheat_market", "restaurant", "grocer")),
    SoloSetup(3, "Food Festival",
              ("meadow", "charcoal_kiln", "timberland", "allotment", "hot_spring", "ore_mine"),
              ("marketplace", "farmyard", "smokehouse", "butcher")),
    SoloSetup(4, "Taste of Home",
              ("swidden", "alpine_meadow", "peat_bog", "quarry", "granary", "coal_shed"),
              ("distillery", "cafe", "factory", "bakery")),
    SoloSetup(5, "Resourceful Artisans",
              ("woolmill", "barn", "volcano", "coal_mine", "sheepfold", "paddock"),
              ("ranch", "foundry", "butcher", "furniture_store")),
    SoloSetup(6, "Vibrant History",
              ("lambing_shed", "fertile_plot", "museum", "swidden", "sheepfold", "haulers_hut"),
              ("trading_company", "ranch", "stonemason", "market")),
)}


@dataclass(frozen=True, slots=True)
class SoloOutcome:
    """How a finished solo game's total measures up to its setup's score thresholds
    (FF-R20): the setup's number and name, its thresholds, and those the total reached."""

    setup: int
    name: str
    thresholds: tuple[int, ...]
    reached: tuple[int, ...]


def solo_outcome(setup: int, total: int) -> SoloOutcome:
    """The thresholds of solo setup ``setup`` (one of :data:`SOLO_SETUPS`) that a final
    ``total`` reaches: each one it is at least (FF-R20)."""
    solo = SOLO_SETUPS[setup]
    return SoloOutcome(solo.number, solo.name, solo.thresholds,
                       tuple(t for t in solo.thresholds if total >= t))
