"""The draft's fixed schedule: who acts next, how, and where the tiles are at each stage.

In Downtown Farmers Market the order of actions never depends on the players' choices,
only on the mode, the number of players and who opens. So a whole game's schedule is
computed once as a list of :class:`Stage` values (the moments between actions). The state
checker compares a hand-built state with its stage, and applying a legal move moves the
state on to the next stage, so the two can never disagree.

Tile arithmetic. There are 65 Food tiles (DFM-R15); the game ends when every grid holds
16 (DFM-R14), so every player takes exactly one tile a round for 16 rounds.

Standard (DFM-R11). A round uses 4 of its 5 face-up tiles (taken or discarded) and leaves
1; the setup turns over 5 and each of rounds 2..16 turns over 4: 5 + 15 x 4 = 65. The
pile runs out exactly as round 16 begins, for every number of players, because the
discards make up what fewer players do not take::

    players  taken/round  discarded/round  taken in all  discarded  left face up
    4        4            0                64            0          1
    3        3            1                48            16         1
    2        2            2                32            32         1

So the rulings agree with each other for 2, 3 and 4 players: 65 tiles are exactly enough,
and a state whose tiles do not add up to 65 is wrong. The first player moves one seat
counterclockwise each round (the last to act, who opens the next round, sits to the
first player's right for every player count).

Young Shopper (DFM-R13). 3 face up, 62 in the pile; each take is followed at once by a
reveal of 1 while the pile lasts, except the game's last take (the game is over then).
"Round" here means one turn each, clockwise from the unchanging first player::

    players  taken  reveals  left in the pile  left face up
    4        64     62       0                 1   (takes 63 and 64 empty the display)
    3        48     47       15                2
    2        32     31       31                2
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .model import GRID_SIZE, IdentityHashedEnum, Mode

TOTAL_TILES = 65
"""Food tiles in the box (DFM-R15)."""

ROUNDS = GRID_SIZE * GRID_SIZE
"""16: one tile a round for each player until every grid is full (DFM-R14)."""

FACE_UP = {Mode.STANDARD: 5, Mode.YOUNG_SHOPPER: 3}
"""Face-up tiles at the start of a round (DFM-R11) or of every Young Shopper turn (DFM-R13)."""

REVEAL_SIZE = {Mode.STANDARD: 4, Mode.YOUNG_SHOPPER: 1}
"""Tiles turned over from the pile at each reveal."""

DRAFT_RULE = {Mode.STANDARD: "DFM-R11", Mode.YOUNG_SHOPPER: "DFM-R13"}
"""The ruling that governs turns and the display in each mode."""

MIN_PLAYERS = 2
"""A game needs 2 players, and seats up to :data:`tabletop_rules.players.MAX_PLAYERS`."""


class Action(IdentityHashedEnum):
    """What the game waits for next."""

    TAKE = "take"
    DISCARD = "discard"
    REVEAL = "reveal"


_ROUND_STEPS: dict[int, tuple[tuple[int, Action], ...]] = {
    # (seat offset from the round's first player, action), in order (DFM-R11).
    4: ((0, Action.TAKE), (1, Action.TAKE), (2, Action.TAKE), (3, Action.TAKE)),
    3: ((0, Action.TAKE), (0, Action.DISCARD), (1, Action.TAKE), (2, Action.TAKE)),
    2: ((0, Action.TAKE), (0, Action.DISCARD), (1, Action.TAKE), (1, Action.DISCARD)),
}


def discards_per_round(mode: Mode, player_count: int) -> int:
    """Tiles sent back to the box each round: 0 with 4 players and in Young Shopper."""
    if mode is Mode.YOUNG_SHOPPER:
        return 0
    return sum(action is Action.DISCARD for _, action in _ROUND_STEPS[player_count])


StageKey = tuple[int, int, int, Action | None]
"""(round, first player, player, action): what a state says about its own progress."""


@dataclass(frozen=True, slots=True)
class Stage:
    """A moment between actions, and how many tiles are where at that moment.

    ``player`` is who acts now; at a reveal, who takes next; once the game is over
    (``action`` is None), who placed the last tile.
    """

    round: int
    first_player: int
    player: int
    action: Action | None
    tiles: tuple[int, ...]
    discards: int
    face_up: int
    pile: int

    @property
    def key(self) -> StageKey:
        """Enough to find this stage in a game's schedule."""
        return (self.round, self.first_player, self.player, self.action)


@lru_cache(maxsize=None)
def schedule(mode: Mode, player_count: int, opening_player: int) -> tuple[Stage, ...]:
    """Every stage of a game, from the first take to the end, in order."""
    stages = _young_shopper if mode is Mode.YOUNG_SHOPPER else _standard
    return tuple(stages(player_count, opening_player))


@lru_cache(maxsize=None)
def _index(mode: Mode, player_count: int, opening_player: int) -> dict[StageKey, int]:
    stages = schedule(mode, player_count, opening_player)
    return {stage.key: i for i, stage in enumerate(stages)}


def locate(mode: Mode, player_count: int,
           key: StageKey) -> tuple[tuple[Stage, ...], int] | None:
    """The schedule holding the stage with ``key``, and that stage's index; None if none does.

    The key's round and first player pin down who opened the game, so at most one
    schedule matches.
    """
    for opening in range(player_count):
        found = _index(mode, player_count, opening).get(key)
        if found is not None:
            return schedule(mode, player_count, opening), found
    return None


def _standard(n: int, first: int) -> Iterator[Stage]:
    tiles = [0] * n
    discards, face_up, pile = 0, FACE_UP[Mode.STANDARD], TOTAL_TILES - FACE_UP[Mode.STANDARD]
    last = first
    for round_ in range(1, ROUNDS + 1):
        if round_ > 1:
            first = last  # the last to act opens the next round (DFM-R11)
            yield Stage(round_, first, first, Action.REVEAL, tuple(tiles), discards, face_up,
                        pile)
            face_up += REVEAL_SIZE[Mode.STANDARD]
            pile -= REVEAL_SIZE[Mode.STANDARD]
        for offset, action in _ROUND_STEPS[n]:
            last = (first + offset) % n
            yield Stage(round_, first, last, action, tuple(tiles), discards, face_up, pile)
            if action is Action.TAKE:
                tiles[last] += 1
            else:
                discards += 1
            face_up -= 1
    yield Stage(ROUNDS, first, last, None, tuple(tiles), discards, face_up, pile)


def _young_shopper(n: int, first: int) -> Iterator[Stage]:
    tiles = [0] * n
    face_up = FACE_UP[Mode.YOUNG_SHOPPER]
    pile = TOTAL_TILES - face_up
    takes = ROUNDS * n
    for taken in range(takes):
        yield Stage(taken // n + 1, first, (first + taken) % n, Action.TAKE, tuple(tiles), 0,
                    face_up, pile)
        tiles[(first + taken) % n] += 1
        face_up -= 1
        if taken + 1 < takes and pile > 0:  # replaced at once while the pile lasts
            yield Stage((taken + 1) // n + 1, first, (first + taken + 1) % n, Action.REVEAL,
                        tuple(tiles), 0, face_up, pile)
            face_up += REVEAL_SIZE[Mode.YOUNG_SHOPPER]
            pile -= REVEAL_SIZE[Mode.YOUNG_SHOPPER]
    yield Stage(ROUNDS, first, (first + takes - 1) % n, None, tuple(tiles), 0, face_up, pile)
