"""The games the conformance suite checks, each with what only it can supply.

A new game gets the whole suite by adding one :class:`GameUnderTest` to :data:`GAMES`:
its rules object, a random complete game (with the chance moves the table makes), the
illegal variants of a move it declares with the reason each must be refused for, and
its protobuf and JSON forms.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from api_gateway.resources.downtown_farmers_market.schemas import GameStateSchema
from engine_service.downtown_farmers_market import convert as dfm_convert
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.game import Game

from ..downtown_farmers_market.simulator import play_random_game
from ..downtown_farmers_market.test_game_simulation import corrupt


@dataclass(frozen=True)
class PlayedGame:
    """A game played to its end: the setup, the log, the state before each move and last."""

    setup: Any
    moves: Sequence[Any]
    states: Sequence[Any]


@dataclass(frozen=True)
class GameUnderTest:
    name: str
    game: Game[Any, Any, Any, Any, Any]
    random_game: Callable[[random.Random], PlayedGame]
    illegal_variant: Callable[[Any, Any, random.Random], tuple[Any, Any]]
    """A wrong version of a legal move in a state, and the reason it must be refused for."""
    state_to_proto: Callable[[Any], Any]
    state_from_proto: Callable[[Any], Any]
    state_proto_to_json: Callable[[Any], Any]
    state_json_to_proto: Callable[[Any], Any]


def _dfm_game(rng: random.Random) -> PlayedGame:
    mode = rng.choice(list(dfm.Mode))
    played = play_random_game(rng, mode, rng.randint(2, 4))
    return PlayedGame(played.setup, played.moves, played.states)


DOWNTOWN_FARMERS_MARKET = GameUnderTest(
    name="downtown-farmers-market", game=dfm.GAME, random_game=_dfm_game,
    illegal_variant=corrupt,
    state_to_proto=dfm_convert.state_to_proto, state_from_proto=dfm_convert.state_from_proto,
    state_proto_to_json=GameStateSchema().dump, state_json_to_proto=GameStateSchema().load)

GAMES = [DOWNTOWN_FARMERS_MARKET]
