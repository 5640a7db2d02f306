"""The shape every game's rules take, so a referee, a client or a test can drive any game
the same way (in the spirit of OpenSpiel's game and state API and python-chess's Board).

A game is a small object with a handful of methods over its own plain values: a setup
becomes the first state; a state says whose turn it is and lists its legal moves; a move
is judged into a :class:`~.verdicts.Verdict` (the next state, or every rule it breaks);
a finished state has standings. What every game does the same way is written once here:
applying a move that must be legal (:func:`apply`) and replaying a log (:func:`replay`).

Two channels, as in python-chess: input that cannot be read raises
:class:`~.problems.InvalidInputError` (the contract's 422, every problem with its path);
a well-formed move that breaks the rules is an answer, a verdict with violations.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .messages import template
from .problems import InvalidInputError, Problem
from .standings import Ranking
from .verdicts import Verdict, Violation

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
ReasonT = TypeVar("ReasonT", bound=enum.StrEnum)
ScoreT = TypeVar("ScoreT")
_Setup = TypeVar("_Setup", contravariant=True)  # the protocol only takes setups in


@dataclass(frozen=True)
class Turn:
    """Who acts next and what the game waits for: ``expected`` names the kind of move
    (``"take"``, ``"discard"``, ...), None once the game is over; ``player`` is the seat
    that acts, None when no player does (tiles revealed from a pile, or the game over)."""

    player: int | None
    expected: str | None


@dataclass(frozen=True)
class ReplayResult(Generic[StateT, ReasonT, ScoreT]):
    """A replayed log: the state after the last legal move, what stopped the replay (the
    index in the log of the first illegal move and what it breaks; None when every move
    is legal), and the standings once the game is over."""

    state: StateT
    illegal_index: int | None
    violations: tuple[Violation[ReasonT], ...]
    ranking: Ranking[ScoreT] | None

    @property
    def legal(self) -> bool:
        return self.illegal_index is None


class Game(Protocol[_Setup, StateT, MoveT, ReasonT, ScoreT]):
    """A game the referee rules on. Paths in problems and violations are relative to the
    setup, the state or the move they are about."""

    slug: str
    """The game's name in URLs and registries, e.g. ``downtown-farmers-market``."""
    max_log_moves: int
    """The longest log :func:`replay` reads: a wide margin over the longest legal game."""

    def new_game(self, setup: _Setup) -> StateT:
        """The first state; :class:`InvalidInputError` for a setup that cannot start one."""

    def turn(self, state: StateT) -> Turn:
        """Who acts next, and what the game waits for."""

    def legal_moves(self, state: StateT) -> Sequence[MoveT]:
        """Every legal move the players choose between, each once."""

    def check_move(self, state: StateT, move: MoveT) -> list[Problem]:
        """Every way ``move`` is malformed whatever the rules say (a seat or position that
        does not exist, a tile that cannot be), with paths relative to the move."""

    def validate(self, state: StateT, move: MoveT) -> Verdict[StateT, ReasonT]:
        """Judge ``move``; :class:`InvalidInputError` if the move is malformed, or the
        state where checking it is cheap (paths under ``state`` and the move's name). A
        game whose states are costly to check trusts them here and says so: its
        readers check every state that comes from outside."""

    def standings(self, state: StateT) -> Ranking[ScoreT] | None:
        """The players placed with the tie-breaks once the game is over; None before."""


class IllegalMoveError(ValueError):
    """A move that breaks the rules, raised where a legal one was required."""

    def __init__(self, violations: Sequence[Violation[Any]]) -> None:
        self.violations = tuple(violations)
        super().__init__("; ".join(v.message for v in self.violations))


def apply(game: Game[SetupT, StateT, MoveT, ReasonT, ScoreT], state: StateT,
          move: MoveT) -> StateT:
    """The state after ``move``, which must be legal (:class:`IllegalMoveError` if not):
    never an unchecked push that could corrupt a state."""
    verdict = game.validate(state, move)
    if verdict.next_state is None:
        raise IllegalMoveError(verdict.violations)
    return verdict.next_state


TOO_MANY_MOVES = template("TOO_MANY_MOVES", "at most {limit} moves (the limit); got {count}")


def replay(game: Game[SetupT, StateT, MoveT, ReasonT, ScoreT], setup: SetupT,
           moves: Sequence[MoveT]) -> ReplayResult[StateT, ReasonT, ScoreT]:
    """Play ``moves`` from ``setup`` until the end of the log or the first illegal move.

    :class:`InvalidInputError` for a malformed setup or move (paths under ``setup`` or
    ``moves/<index>``), or at ``moves`` for a log longer than the game's
    :attr:`Game.max_log_moves`.
    """
    if len(moves) > game.max_log_moves:
        raise InvalidInputError([Problem(("moves",), TOO_MANY_MOVES(
            limit=game.max_log_moves, count=len(moves)))])
    try:
        state = game.new_game(setup)
    except InvalidInputError as error:
        raise error.under("setup") from None
    for index, move in enumerate(moves):
        problems = game.check_move(state, move)
        if problems:
            raise InvalidInputError([p.under("moves", index) for p in problems])
        verdict = game.validate(state, move)
        if verdict.next_state is None:
            return ReplayResult(state, index, verdict.violations, game.standings(state))
        state = verdict.next_state
    return ReplayResult(state, None, (), game.standings(state))
