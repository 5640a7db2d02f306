"""A Foxglove Farm game's state and setup as JSON: towns, players, tile stacks, the
central board."""


from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.foxglove_farm.v1 import game_pb2, town_pb2
from tabletop_rules.foxglove_farm.central_board import (
    A_SPACES,
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
)
from tabletop_rules.foxglove_farm.game_checks import MAX_DRAWN, MAX_PARTS
from tabletop_rules.foxglove_farm.game_state import ROUNDS, RULES_VERSION
from tabletop_rules.foxglove_farm.transcription import MAX_BUILDING_ID_LENGTH
from tabletop_rules.players import MAX_PLAYERS

from ....fields import ProtoEnum
from ..schemas import (
    SEAT,
    CatalogField,
    TownPositionSchema,
    TownSchema,
    int32,
    player_name,
    variant,
)

def described(kwargs: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    """``kwargs`` for a field, its ``metadata`` over the defaults given."""
    return {**kwargs, "metadata": {**metadata, **kwargs.get("metadata", {})}}


def building_id(**kwargs: Any) -> ma.fields.String:
    return ma.fields.String(**described(
        kwargs, maxLength=MAX_BUILDING_ID_LENGTH,
        description="a building id: the rulebook's name in snake_case, apostrophes dropped, "
                    "or one the game's catalog defines"))


def seat(**kwargs: Any) -> ma.fields.Integer:
    return int32(accepted=SEAT, **described(
        kwargs, description="a seat: an index in the state's players"))


def flag(description: str) -> ma.fields.Boolean:
    return ma.fields.Boolean(load_default=False, metadata={"description": description})


# -- the state ---------------------------------------------------------------------------

class FoxgloveGameTownSchema(TownSchema):
    """A player's town in a game: its buildings are the game's catalog's, so it has no
    ``catalog`` of its own."""

    class Meta:
        exclude = ("catalog",)
        answered = ("variant", "score_track")


class FoxglovePlayerSchema(ma.Schema):
    """A seat: the player's town, and where they stand in the round."""

    class Meta:
        answered = ("passed", "done", "runs", "moved", "hauled")

    name = player_name(required=True)
    town = ma.fields.Nested(FoxgloveGameTownSchema, required=True)
    passed = flag("passed in this construction phase (FF-R14); only in construction")
    done = flag("finished this round's production (production phase) or transportation "
                "and processing (transportation phase)")
    runs = int32(load_default=0, metadata={
        "description": "processing runs made this round; only in transportation",
        "minimum": 0})
    moved = flag("a transport was made since the last processing run; only in "
                 "transportation")
    hauled = ma.fields.List(ma.fields.Nested(TownPositionSchema), load_default=list, metadata={
        "description": "the Hauler's Huts that hauled since the last processing run "
                       "(FF-R17); only in transportation",
        "maxItems": MAX_PARTS})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Player:
        return game_pb2.Player(**data)


class TileStackSchema(ma.Schema):
    """A space of the central board holding ``count`` identical tiles of ``building``."""

    class Meta:
        answered = ("count",)

    building = building_id(required=True)
    count = int32(load_default=1, accepted=(1, max(STACK_SIZES.values())), metadata={
        "description": "identical tiles stacked on the space, at least 1 (default 1)"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.TileStack:
        return game_pb2.TileStack(**data)


def spaces(description: str, least: int, most: int) -> ma.fields.List[Any]:
    return ma.fields.List(ma.fields.Nested(TileStackSchema, allow_none=True), required=True,
                          metadata={"description": f"{description}; null for an empty space",
                                    "minItems": least, "maxItems": most})


def stack_left(tier: str) -> ma.fields.Integer:
    return int32(required=True, data_key=tier, accepted=(0, STACK_SIZES[tier]), metadata={
        "description": f"{tier} tiles, 0 to {STACK_SIZES[tier]}"})


class StacksLeftSchema(ma.Schema):
    """How many tiles each tier's face-down stack still holds."""

    a = stack_left("A")
    b = stack_left("B")
    c = stack_left("C")

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.StacksLeft:
        return game_pb2.StacksLeft(**data)


class FoxgloveBoardSchema(ma.Schema):
    """The central board: the building tiles on offer and the stacks they come from
    (FF-R13); identical tiles share a space."""

    offer = spaces(f"the A spaces (rounds 1 and 2) or B spaces (rounds 3 and 4) in board "
                   f"order: {A_SPACES[2]} with 1 or 2 players and solo, {A_SPACES[3]} with 3, "
                   f"{A_SPACES[4]} with 4 (a solo board's two rows one after the other)",
                   min(A_SPACES.values()), max(A_SPACES.values()))
    c_spaces = spaces(f"the {C_SPACES} C spaces in board order", C_SPACES, C_SPACES)
    stacks = ma.fields.Nested(StacksLeftSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.CentralBoard:
        def board_spaces(stacks: list[game_pb2.TileStack | None]) -> list[game_pb2.BoardSpace]:
            return [game_pb2.BoardSpace() if stack is None else game_pb2.BoardSpace(stack=stack)
                    for stack in stacks]

        return game_pb2.CentralBoard(offer=board_spaces(data["offer"]),
                                     c_spaces=board_spaces(data["c_spaces"]),
                                     stacks=data["stacks"])

    @ma.pre_dump
    def from_proto(self, board: game_pb2.CentralBoard, **kwargs: Any) -> dict[str, Any]:
        def stacks(spaces: Any) -> list[game_pb2.TileStack | None]:
            return [space.stack if space.HasField("stack") else None for space in spaces]

        return {"offer": stacks(board.offer), "c_spaces": stacks(board.c_spaces),
                "stacks": board.stacks}


def solo_setup() -> ma.fields.Integer:
    return int32(allow_none=True, accepted=(1, len(SOLO_SETUPS)), metadata={
        "description": f"a solo game's setup, 1 to {len(SOLO_SETUPS)} (FF-R20); absent (or "
                       "null) with 2 to 4 players"})


def game_catalog() -> CatalogField:
    return CatalogField(allow_none=True)


class FoxgloveGameStateSchema(ma.Schema):
    """A game between two actions. The referee keeps nothing: send back the state it last
    answered, unchanged, with the next action."""

    rules_version = int32(required=True, accepted=(RULES_VERSION, RULES_VERSION), metadata={
        "description": f"the rules the state follows; this referee plays version "
                       f"{RULES_VERSION}"})
    catalog_version = ma.fields.String(required=True, metadata={
        "description": "the building catalog the state was made under (a digest of the "
                       "built-in catalog); a state made under another is a 422",
        "maxLength": 100})
    players = ma.fields.List(ma.fields.Nested(FoxglovePlayerSchema), required=True, metadata={
        "description": f"1 to {MAX_PLAYERS} players in clockwise order; a seat is an index "
                       "in this list",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    round = int32(required=True, accepted=(1, ROUNDS), metadata={"description": f"1 to {ROUNDS}"})
    phase = ProtoEnum(game_pb2.GamePhase, "a phase", about=(
        "Where a round stands: production, construction, transportation (with "
        "processing), or game_over after the fourth round."), required=True, metadata={
        "description": "where the round stands"})
    start_player = seat(required=True, metadata={
        "description": "the seat holding the start player piece (FF-R14)"})
    current_player = seat(required=True, metadata={
        "description": "the seat whose construction turn it is; outside construction, the "
                       "start player"})
    board = ma.fields.Nested(FoxgloveBoardSchema, required=True)
    solo = solo_setup()
    catalog = game_catalog()

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.GameState:
        return game_pb2.GameState(**{k: v for k, v in data.items() if v is not None})

    @ma.pre_dump
    def from_proto(self, state: game_pb2.GameState, **kwargs: Any) -> dict[str, Any]:
        """Every field, with ``solo`` and ``catalog`` only when the game has them."""
        data = {name: getattr(state, name) for name in (
            "rules_version", "catalog_version", "players", "round", "phase", "start_player",
            "current_player", "board")}
        data.update({name: getattr(state, name) for name in ("solo", "catalog")
                     if state.HasField(name)})
        return data


# -- the setup ---------------------------------------------------------------------------

class FoxgloveSeatSchema(ma.Schema):
    """A player as the game begins."""

    name = player_name(required=True)
    variant = variant(load_default=town_pb2.VARIANT_STANDARD,
                      metadata={"description": "the transport rule the player plays by "
                                               "(FF-R2); default standard"})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Seat:
        return game_pb2.Seat(**data)


def drawn_tiles(description: str, **kwargs: Any) -> ma.fields.List[str]:
    return ma.fields.List(building_id(), **described(kwargs, description=description,
                                                     maxItems=MAX_DRAWN))


class FoxgloveGameSetupSchema(ma.Schema):
    """How a game begins: the players, who holds the start player piece, and the tiles
    drawn for the central board."""

    players = ma.fields.List(ma.fields.Nested(FoxgloveSeatSchema), required=True, metadata={
        "description": f"1 to {MAX_PLAYERS} players in clockwise order (one: a solo game)",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    start_player = seat(load_default=0, metadata={
        "description": "the seat holding the start player piece (default 0)"})
    a_tiles = drawn_tiles("the A tiles drawn for the central board, in the order drawn "
                          "(identical tiles stack on one space, FF-R13); left out in solo "
                          "setups 2 to 6, which lay out their own", load_default=list)
    c_tiles = drawn_tiles("the C tiles drawn, likewise", load_default=list)
    solo = solo_setup()
    catalog = game_catalog()

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Setup:
        return game_pb2.Setup(**{k: v for k, v in data.items() if v is not None})
