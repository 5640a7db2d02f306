"""A game of Foxglove Farm between two actions: its state, its setup and its actions.

Plain immutable values; the rules that move from one state to the next are
:mod:`.farm_game`'s, and what makes a hand-built state impossible is
:func:`.game_checks.check_state`'s. A seat is an index in :attr:`GameState.players`,
who sit in clockwise order.

The round's phases (the rulebook's "Round Overview"): production (each player once,
in any order), construction (turns from the start player, FF-R14), transportation (each
player moves goods, hauls, and ends with a processing run, FF-R4; in the fourth round
transports and runs alternate until the player ends the round, FF-R15). The game is
over when every player has ended the fourth round; the standings then add the end-game
effects (FF-R16). Whenever the central board has an empty space its stack can fill, the
game first waits for the players to say which tiles they drew (:class:`DrawTiles`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .catalog import Catalog
from .central_board import CentralBoard
from .construction import Payment, TrailWork
from .model import Good, Goods, Position, Town, Variant
from .transport import Pick

RULES_VERSION = 1
"""The rules a state follows: the rulebook with the rulings FF-R1..R20 as they stand."""
ROUNDS = 4


class GamePhase(enum.Enum):
    """Where a round stands."""

    PRODUCTION = "production"
    CONSTRUCTION = "construction"
    TRANSPORTATION = "transportation"
    """Transportation, ended by each player's processing run (in the fourth round, runs
    and transports alternate until the player ends the round)."""
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Player:
    """A seat: the player's town (with its variant and score track) and where they
    stand in the round.

    ``passed``: passed in this construction phase (FF-R14). ``done``: finished this
    round's production (production phase) or transportation and processing
    (transportation phase). ``runs``, ``moved`` and ``hauled``: processing runs made this
    round, whether a transport was made since the last one, and the Hauler's Huts that
    hauled since then (FF-R17).
    """

    name: str
    town: Town
    passed: bool = False
    done: bool = False
    runs: int = 0
    moved: bool = False
    hauled: frozenset[Position] = field(default_factory=frozenset)

    @property
    def score(self) -> int:
        return self.town.score_track

    @property
    def variant(self) -> Variant:
        return self.town.variant


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the referee needs to judge the next action.

    ``current_player`` is the seat whose construction turn it is (outside construction:
    the start player). ``solo`` is the solo setup's number (FF-R20), None with 2 to 4
    players. ``catalog_version`` names the building catalog the state was made under.
    """

    rules_version: int
    catalog_version: str
    catalog: Catalog
    players: tuple[Player, ...]
    round: int
    phase: GamePhase
    start_player: int
    current_player: int
    board: CentralBoard
    solo: int | None = None


# -- setup -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Seat:
    """A player as the game begins: their name and the transport rule they play by."""

    name: str
    variant: Variant = Variant.STANDARD


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game begins: the players in clockwise order, who holds the start player
    piece, and the tiles drawn for the central board in the order drawn (A tiles, then C
    tiles; identical ones stack). A solo game names its setup (FF-R20): setups 2 to 6
    lay out their own tiles, so their tiles may be left out."""

    players: tuple[Seat, ...]
    start_player: int = 0
    a_tiles: tuple[str, ...] = ()
    c_tiles: tuple[str, ...] = ()
    solo: int | None = None
    catalog: Catalog | None = None
    """The building catalog: the built-in one, or one with a group's definitions."""


# -- actions ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Produce:
    """Seat ``player``'s production phase, resolved by the referee (FF-R5). ``choices``
    names, for a tile whose production leaves a choice, the goods it ends with."""

    player: int
    choices: tuple[tuple[Position, Goods], ...] = ()


@dataclass(frozen=True, slots=True)
class BuildBuilding:
    """Construct ``building`` (an id on offer) at ``position``, paying ``payment``;
    ``gain`` names what its immediate effect leaves on it where that is a choice."""

    player: int
    building: str
    position: Position
    payment: tuple[Payment, ...]
    gain: Goods | None = None


@dataclass(frozen=True, slots=True)
class BuildTrails:
    """Construct and upgrade ``trails`` in the order listed, paying ``payment``."""

    player: int
    trails: tuple[TrailWork, ...]
    payment: tuple[Payment, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Seat ``player`` passes: no more construction this round (FF-R14)."""

    player: int


@dataclass(frozen=True, slots=True)
class Transport:
    """Move ``count`` goods of type ``good`` along trails (FF-R2, FF-R3)."""

    player: int
    good: Good
    count: int
    origin: Position
    destination: Position


@dataclass(frozen=True, slots=True)
class HaulGoods:
    """At a transportation phase's start, ``picks`` placed on the hut at ``hut`` (FF-R17)."""

    player: int
    hut: Position
    picks: tuple[Pick, ...]


@dataclass(frozen=True, slots=True)
class ProcessGoods:
    """A processing run (FF-R4); ``choices`` names, where "goods of different types"
    leaves a choice, the goods a building is left with. In rounds 1 to 3 it ends the
    player's round."""

    player: int
    choices: tuple[tuple[Position, Goods], ...] = ()


@dataclass(frozen=True, slots=True)
class EndRound:
    """In the fourth round, after at least one processing run: the player is done."""

    player: int


@dataclass(frozen=True, slots=True)
class DrawTiles:
    """The tiles the players drew to fill the central board's empty spaces, in the order
    drawn (FF-R13): the board is on the table, so the players say what came up."""

    tiles: tuple[str, ...]


Action = (Produce | BuildBuilding | BuildTrails | Pass | Transport | HaulGoods | ProcessGoods
          | EndRound | DrawTiles)
