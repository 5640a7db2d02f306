"""The games the conformance suite checks, each with what only it can supply.

A new game gets the whole suite by adding one :class:`GameUnderTest` to :data:`GAMES`:
its rules object, a random complete game (with the chance moves the table makes), the
illegal variants of a move it declares with the reason each must be refused for, and
the trip of a state through its wire forms (protobuf and the contract's JSON) and back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from api_gateway.resources.downtown_farmers_market.schemas import GameStateSchema
from api_gateway.resources.foxglove_farm.game_schemas import FoxgloveGameStateSchema
from api_gateway.resources.foxglove_farm.schemas import TownSchema
from engine_service.downtown_farmers_market import convert as dfm_convert
from engine_service.foxglove_farm import convert as ff_convert
from referee.downtown_farmers_market.v1 import game_pb2 as dfm_game_pb2
from referee.foxglove_farm.v1 import game_pb2 as ff_game_pb2
from referee.foxglove_farm.v1 import town_pb2
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.foxglove_farm import (
    GOODS,
    Good,
    Move,
    Pick,
    Position,
    Reason,
    Side,
    builtin_catalog,
    parse_town,
)
from tabletop_rules.foxglove_farm import final_round as ff
from tabletop_rules.foxglove_farm import game_state as farm
from tabletop_rules.foxglove_farm.central_board import SOLO_SETUPS, area_tier
from tabletop_rules.foxglove_farm.construction import TrailWork
from tabletop_rules.foxglove_farm.farm_game import GAME as FARM_GAME
from tabletop_rules.game import Game

from ..downtown_farmers_market.simulator import play_random_game
from ..downtown_farmers_market.test_game_simulation import corrupt
from ..foxglove_farm.game_simulator import play_random_game as play_random_farm_game
from ..foxglove_farm.packed_towns import packed_town


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
    wire_round_trip: Callable[[Any], Any]
    """A state sent through protobuf and the contract's JSON, and read back."""


def _dfm_game(rng: random.Random) -> PlayedGame:
    mode = rng.choice(list(dfm.Mode))
    played = play_random_game(rng, mode, rng.randint(2, 4))
    return PlayedGame(played.setup, played.moves, played.states)


def _dfm_round_trip(state: dfm.GameState) -> dfm.GameState:
    schema = GameStateSchema()
    return dfm_convert.state_from_proto(schema.load(schema.dump(
        dfm_game_pb2.GameState.FromString(dfm_convert.state_to_wire(state)))))


DOWNTOWN_FARMERS_MARKET = GameUnderTest(
    name="downtown-farmers-market", game=dfm.GAME, random_game=_dfm_game,
    illegal_variant=corrupt, wire_round_trip=_dfm_round_trip)


def _ff_game(rng: random.Random) -> PlayedGame:
    """A final round from a packed town with about half its goods taken off (so goods can
    move), played by random listed moves: mostly transports, now and then a run, ended
    after a few runs."""
    data = packed_town(rng.randrange(10**6), rng.choice([12, 16, 20]),
                       rng.choice(["standard", "expert"]), rng.randint(0, 2))
    for tile in data["tiles"]:
        if "goods" in tile:
            tile["goods"] = {g: rng.randint(0, n) for g, n in tile["goods"].items()}
    setup = ff.Setup("Kuly", parse_town(data))
    state = ff.GAME.new_game(setup)
    moves: list[ff.FinalRoundMove] = []
    states = [state]
    while not state.over:
        legal = ff.GAME.legal_moves(state)
        transports = [m for m in legal if isinstance(m, Move)]
        roll = rng.random()
        if state.runs >= 3 or (state.runs and roll < 0.1):
            move: ff.FinalRoundMove = ff.EndRound()
        elif roll < 0.25 or not transports or len(moves) > 60:
            move = ff.Process()
        else:
            move = rng.choice(transports)
        state = ff.GAME.validate(state, move).next_state
        assert state is not None, move
        moves.append(move)
        states.append(state)
    return PlayedGame(setup, moves, states)


def _ff_illegal_variant(state: ff.FinalRound, move: Any, rng: random.Random
                        ) -> tuple[Any, Reason]:
    """A transport to where the goods are, or of more than there are; a haul after a
    transport; with no goods anywhere, ending before any run, or a haul by a building
    that is no hut."""
    holders = [tile for tile in state.town.buildings if any(tile.goods)]
    if not holders:
        if not state.runs:
            return ff.EndRound(), Reason.NO_PROCESSING_YET
        forest, mine = (tile.position for tile in state.town.buildings[:2])
        return ff.Haul(forest, (Pick(Good.STONE, 1, mine),)), Reason.NOT_A_HAULER
    holder = rng.choice(holders)
    good = next(g for g in GOODS if holder.goods.count(g))
    huts = [t.position for t in state.town.buildings if t.building.id == "haulers_hut"]
    if state.moved and huts and rng.random() < 0.5:
        return (ff.Haul(huts[0], (Pick(good, 1, holder.position),)),
                Reason.HAUL_AFTER_TRANSPORT)
    if rng.random() < 0.5:
        return Move(good, 1, holder.position, holder.position), Reason.SAME_BUILDING
    return (Move(good, holder.goods.count(good) + 1, holder.position, Position(999, 999)),
            Reason.NOT_ENOUGH_GOODS)


def _ff_round_trip(state: ff.FinalRound) -> ff.FinalRound:
    """The town is the part of the final round with a wire form today."""
    schema = TownSchema()
    town = ff_convert.town_from_proto(schema.load(schema.dump(
        town_pb2.Town.FromString(ff_convert.town_to_wire(state.town)))))
    return replace(state, town=town)


FOXGLOVE_FARM_FINAL_ROUND = GameUnderTest(
    name="foxglove-farm-final-round", game=ff.GAME, random_game=_ff_game,
    illegal_variant=_ff_illegal_variant, wire_round_trip=_ff_round_trip)

def _farm_game(rng: random.Random) -> PlayedGame:
    """A game of four rounds by 1 to 4 simulated players; one player plays a solo setup."""
    players = rng.randint(1, 4)
    solo = rng.choice(sorted(SOLO_SETUPS)) if players == 1 else None
    played = play_random_farm_game(rng, players, solo)
    return PlayedGame(played.setup, played.moves, played.states)


def _other_tier(tier: str) -> str:
    """A building of the catalog that is no ``tier`` tile."""
    return next(b.id for b in builtin_catalog() if b.documented and tier not in b.tiers
                and "start" not in b.tiers)


def _farm_illegal_variant(state: farm.GameState, move: Any, rng: random.Random
                          ) -> tuple[Any, Reason]:
    """Per phase, a wrong action and the reason it must be refused for: a drawn tile of
    the wrong tier; producing twice (or passing) in production; another seat's turn, a
    building that is not on offer, or a trail on the Forest in construction; a transport
    to where the goods are, ending a round too early, or a haul by a building that
    hauls nothing in transportation."""
    if isinstance(move, farm.DrawTiles):
        area = state.board.awaiting(state.round)
        assert area is not None
        return farm.DrawTiles((_other_tier(area_tier(area, state.round)),)), Reason.WRONG_TIER
    seat = getattr(move, "player", 0)
    town = state.players[seat].town
    forest, mine = (tile.position for tile in town.buildings[:2])
    if state.phase is farm.GamePhase.PRODUCTION:
        done = [i for i, p in enumerate(state.players) if p.done]
        if done and rng.random() < 0.5:
            return farm.Produce(rng.choice(done)), Reason.ALREADY_DONE
        return farm.Pass(seat), Reason.WRONG_PHASE
    if state.phase is farm.GamePhase.CONSTRUCTION:
        others = [i for i, p in enumerate(state.players) if i != seat and not p.passed]
        roll = rng.random()
        if others and roll < 0.3:
            return farm.Pass(rng.choice(others)), Reason.NOT_YOUR_TURN
        if roll < 0.6:
            missing = next(b.id for b in builtin_catalog() if b.documented
                           and "start" not in b.tiers and state.board.find(b.id) is None)
            return farm.BuildBuilding(seat, missing, Position(-1, 0), ()), Reason.NOT_ON_OFFER
        trail = TrailWork(forest, frozenset({Side.N, Side.S}))
        return farm.BuildTrails(seat, (trail,), ()), Reason.OCCUPIED
    holders = [tile for tile in town.buildings if any(tile.goods)]
    if holders and rng.random() < 0.5:
        holder = rng.choice(holders)
        good = next(g for g in GOODS if holder.goods.count(g))
        return (farm.Transport(seat, good, 1, holder.position, holder.position),
                Reason.SAME_BUILDING)
    if state.round < 4 and rng.random() < 0.5:
        return farm.EndRound(seat), Reason.FINAL_ROUND_ONLY
    return farm.HaulGoods(seat, forest, (Pick(Good.STONE, 1, mine),)), Reason.NOT_A_HAULER


def _farm_round_trip(state: farm.GameState) -> farm.GameState:
    """Through protobuf and the gateway's JSON, and back."""
    schema = FoxgloveGameStateSchema()
    return ff_convert.state_from_proto(schema.load(schema.dump(
        ff_game_pb2.GameState.FromString(ff_convert.state_to_wire(state)))))


FOXGLOVE_FARM = GameUnderTest(
    name="foxglove-farm", game=FARM_GAME, random_game=_farm_game,
    illegal_variant=_farm_illegal_variant, wire_round_trip=_farm_round_trip)

GAMES = [DOWNTOWN_FARMERS_MARKET, FOXGLOVE_FARM_FINAL_ROUND, FOXGLOVE_FARM]
