"""The JSON of a Foxglove Farm game (four rounds): its setup, states and actions, read into
protobuf requests and written from answers.

Towns are the contract's town JSON (:class:`.schemas.TownSchema`), without a catalog of
their own: a game's catalog is the state's. Positions are ``{"row", "col"}``; a transport
and a haul say ``from`` and ``to`` as the contract's transport move and the final-round
plan's haul step do; goods are ``{"wood": 2}``; trail sides ``["N", "E"]``; a payment and
a production or processing choice are ``[{"row", "col", "goods"}]``. What makes a state
or an action well formed (seats in range, buildings of the catalog, a state that adds up)
is the rules' to say, and the engine's answers carry those problems as pointers into the
same JSON. The schema that reads a state also writes one, so the state a referee answers
is exactly what a client sends back with its next action.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from google.protobuf.message import Message

from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import game_pb2, planning_pb2, town_pb2
from tabletop_rules.foxglove_farm.central_board import (
    A_SPACES,
    C_SPACES,
    SOLO_SETUPS,
    STACK_SIZES,
)
from tabletop_rules.foxglove_farm.farm_game import MAX_LOG_ACTIONS
from tabletop_rules.foxglove_farm.game_checks import MAX_DRAWN, MAX_PARTS
from tabletop_rules.foxglove_farm.game_state import ROUNDS, RULES_VERSION
from tabletop_rules.foxglove_farm.town import MAX_GOODS_COUNT
from tabletop_rules.foxglove_farm.transcription import MAX_BUILDING_ID_LENGTH
from tabletop_rules.foxglove_farm.transport import MAX_MOVE_COUNT
from tabletop_rules.players import MAX_PLAYERS

from ...fields import AnswerSchema, Component, ProtoEnum, SetFieldsSchema, Tagged, limits, tag
from ...violations import ViolationSchema
from .schemas import (
    COORDINATE,
    SEAT,
    CatalogField,
    GoodsField,
    TownPositionSchema,
    TownSchema,
    TownScoreSchema,
    TownStandingSchema,
    answered_int,
    coordinate,
    good_type,
    int32,
    player_name,
    position,
    side,
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


# -- actions -----------------------------------------------------------------------------

class BuildingGoodsSchema(ma.Schema):
    """Goods at a building of the player's town: what a payment takes from it, or what a
    choice leaves on it."""

    row = coordinate(required=True)
    col = coordinate(required=True)
    goods = GoodsField(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.BuildingGoods:
        return game_pb2.BuildingGoods(**data)


def building_goods(description: str) -> ma.fields.List[Any]:
    return ma.fields.List(ma.fields.Nested(BuildingGoodsSchema), load_default=list, metadata={
        "description": description, "maxItems": MAX_PARTS})


def payment(description: str) -> ma.fields.List[Any]:
    return building_goods(f"{description}, and the buildings they come from "
                          "([{\"row\", \"col\", \"goods\"}]): exactly the cost (FF-R11)")


class TrailWorkSchema(ma.Schema):
    """One trail built at ``position``, or (``upgrade``) the trail there flipped to its
    T-junction side (FF-R10)."""

    position = position(required=True)
    sides = ma.fields.List(side(), required=True, metadata={
        "description": "the open sides: two opposite (straight), two neighbouring (curved) or "
                       "three (T-junction; an upgrade always)",
        "minItems": 2, "maxItems": 3, "uniqueItems": True})
    upgrade = flag("true to upgrade the trail already there (default false)")

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.TrailWork:
        return game_pb2.TrailWork(**data)


class PickSchema(ma.Schema):
    """Goods a Hauler's Hut takes from another building."""

    good = good_type(required=True)
    count = int32(required=True, accepted=(1, MAX_GOODS_COUNT))
    origin = position(required=True, data_key="from")

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> planning_pb2.HaulPick:
        return planning_pb2.HaulPick(**data)


def choices(description: str) -> ma.fields.List[Any]:
    return building_goods(f"{description} ([{{\"row\", \"col\", \"goods\"}}]); the rules' "
                          "default for every other building")


class _ActionSchema(ma.Schema):
    """What every action has: its ``action``. Loading builds the protobuf ``Action`` with
    the member the tag names; dumping reads that member (leaving out what it has not set,
    such as an unchosen gain)."""

    kind = ""
    message: Any = None
    action = ma.fields.String(required=True)  # first in the JSON; each action documents its own

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> game_pb2.Action:
        action = game_pb2.Action()
        # getattr: "pass" is a Python keyword, so no member is set by keyword argument
        getattr(action, self.kind).CopyFrom(self.message(**{
            name: value for name, value in data.items() if name != "action"}))
        return action

    def get_attribute(self, obj: game_pb2.Action, attr: str, default: Any) -> Any:
        if attr == "action":
            return self.kind
        member: Message = getattr(obj, self.kind)
        field = member.DESCRIPTOR.fields_by_name[attr]
        if field.has_presence and not member.HasField(attr):
            return default
        return getattr(member, attr)


class ProduceSchema(_ActionSchema):
    """Seat ``player``'s production phase, resolved by the referee (FF-R5)."""

    kind = "produce"
    action = tag(kind, "what the action does")
    message = game_pb2.Produce
    player = seat(required=True)
    choices = choices("for a tile whose production leaves a choice, the goods it ends with")


class BuildBuildingSchema(_ActionSchema):
    """Construct ``building`` (on offer) at ``position``, paying ``payment`` (the
    rulebook's "Construct a Building", FF-R9, FF-R11)."""

    kind = "build_building"
    action = tag(kind, "what the action does")
    message = game_pb2.BuildBuilding
    player = seat(required=True)
    building = building_id(required=True)
    position = position(required=True, metadata={
        "description": "an empty position orthogonally next to the town (FF-R9)"})
    payment = payment("the goods paid")
    gain = GoodsField(metadata={
        "description": "where the building's immediate effect leaves a choice, the goods it "
                       "ends with; absent for the rules' default"})


class BuildTrailsSchema(_ActionSchema):
    """Construct and upgrade ``trails`` in the order listed, paying ``payment`` (FF-R9 to
    FF-R11)."""

    kind = "build_trails"
    action = tag(kind, "what the action does")
    message = game_pb2.BuildTrails
    player = seat(required=True)
    trails = ma.fields.List(ma.fields.Nested(TrailWorkSchema), required=True, metadata={
        "description": f"1 to {MAX_PARTS} trails, in order; a later one may touch or upgrade "
                       "an earlier one",
        "minItems": 1, "maxItems": MAX_PARTS})
    payment = payment("the stone or wood paid: 1 a trail, 2 a new T-junction, 1 an upgrade")


class PassSchema(_ActionSchema):
    """Seat ``player`` passes: no more construction this round (FF-R14)."""

    kind = "pass"
    action = tag(kind, "what the action does")
    message = game_pb2.Pass
    player = seat(required=True)


class TransportSchema(_ActionSchema):
    """Move ``count`` goods of ``good`` along the trails (FF-R2, FF-R3), as the contract's
    transport move does."""

    kind = "transport"
    action = tag(kind, "what the action does")
    message = game_pb2.Transport
    player = seat(required=True)
    good = good_type(required=True)
    count = int32(accepted=(1, MAX_MOVE_COUNT), metadata={"description": "how many (default 1)"})
    origin = position(required=True, data_key="from")
    destination = position(required=True, data_key="to")


class HaulSchema(_ActionSchema):
    """At a transportation phase's start, ``picks`` placed on the Hauler's Hut at ``to``,
    ignoring routes (FF-R17)."""

    kind = "haul"
    action = tag(kind, "what the action does")
    message = game_pb2.HaulGoods
    player = seat(required=True)
    hut = position(required=True, data_key="to")
    picks = ma.fields.List(ma.fields.Nested(PickSchema), required=True, metadata={
        "description": "the goods the hut takes, and from where", "maxItems": MAX_PARTS})


class ProcessSchema(_ActionSchema):
    """A processing run, resolved by the referee (FF-R4); in rounds 1 to 3 it ends the
    player's round."""

    kind = "process"
    action = tag(kind, "what the action does")
    message = game_pb2.ProcessGoods
    player = seat(required=True)
    choices = choices('where "goods of different types" leaves a choice, the goods a '
                      'building is left with')


class EndRoundSchema(_ActionSchema):
    """In the fourth round, after at least one processing run: the player is done
    (FF-R15)."""

    kind = "end_round"
    action = tag(kind, "what the action does")
    message = game_pb2.EndRound
    player = seat(required=True)


class DrawTilesSchema(_ActionSchema):
    """The tiles the players drew to fill the central board's empty spaces, in the order
    drawn (FF-R13): the stacks are on the table, so the client says what came up."""

    kind = "draw_tiles"
    action = tag(kind, "what the action does")
    message = game_pb2.DrawTiles
    tiles = drawn_tiles("building ids, in the order drawn", required=True)


ACTION_SCHEMAS: dict[str, type[_ActionSchema]] = {schema.kind: schema for schema in (
    ProduceSchema, BuildBuildingSchema, BuildTrailsSchema, PassSchema, TransportSchema,
    HaulSchema, ProcessSchema, EndRoundSchema, DrawTilesSchema)}


ACTION = Component("FoxgloveAction", (
    "An action of a Foxglove Farm game, by its `action`: production, construction "
    "(building, trails, passing), transportation (transports, hauls, processing runs, "
    "ending the fourth round), or the tiles drawn for the central board."))


def action_field(**kwargs: Any) -> Tagged:
    return Tagged(ACTION_SCHEMAS, "an action", component=ACTION, tag="action",
                  oneof="action", **kwargs)


# -- requests and answers ----------------------------------------------------------------

class FoxgloveLegalMovesRequestSchema(ma.Schema):
    """A state to list the legal actions of."""

    state = ma.fields.Nested(FoxgloveGameStateSchema, required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ListLegalMovesRequest:
        return service_pb2.ListLegalMovesRequest(**data)


class FoxgloveTurnSchema(SetFieldsSchema):
    """Who acts next and what the game waits for."""

    player = ma.fields.Integer(metadata={
        **limits(*SEAT),
        "description": "the seat that acts next: in construction the current player; in "
                       "production and transportation, where players act in any order, the "
                       "first still to act from the start player clockwise; absent when no "
                       "player does (tiles to draw, the game over)"})
    expected = ProtoEnum(game_pb2.Expectation, "an expectation", about=(
        "What a game waits for: produce, construct (build or pass), transport (transports, "
        "hauls, processing, ending the fourth round) or draw_tiles."),
                         dump_default=None, required=True, allow_none=True, metadata={
        "description": "what the game waits for: produce, construct (build or pass), "
                       "transport (transports, hauls, processing, ending the fourth round) "
                       "or draw_tiles; null once the game is over"})


class GoodsOnHandSchema(AnswerSchema):
    """Goods on a building: what a payment can take."""

    player = answered_int("the seat whose town it is", **limits(*SEAT))
    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    building = ma.fields.String(required=True, metadata={"description": "the building's id"})
    goods = GoodsField(required=True)


class FoxgloveLegalMovesSchema(AnswerSchema):
    """Whose turn it is, every legal action, and the goods that can pay."""

    turn = ma.fields.Nested(FoxgloveTurnSchema, required=True)
    moves = ma.fields.List(action_field(), required=True, metadata={
        "description": "every legal action, each once: passing; each building on offer the "
                       "player can pay for at each free position and each single trail built "
                       "or upgraded, both with a default payment (from the town's buildings "
                       "in order, wood before stone); each transport; the processing run with "
                       "the default choices; ending the fourth round. Several trails at once, "
                       "other payments, hauls and choices are the player's to compose. Empty "
                       "while tiles are to be drawn and once the game is over"})
    goods_on_hand = ma.fields.List(ma.fields.Nested(GoodsOnHandSchema), required=True, metadata={
        "description": "every building holding goods, in seat order then town order: what a "
                       "payment can take"})


class FoxgloveValidateActionRequestSchema(ma.Schema):
    """A state and an action to judge in it."""

    state = ma.fields.Nested(FoxgloveGameStateSchema, required=True)
    action = action_field(required=True)

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any
                 ) -> service_pb2.ValidateActionRequest:
        return service_pb2.ValidateActionRequest(**data)


class FoxgloveActionVerdictSchema(SetFieldsSchema):
    """Legal, with the state after the action; or illegal, with every rule it breaks."""

    legal = ma.fields.Boolean(dump_default=False, required=True)
    state = ma.fields.Nested(FoxgloveGameStateSchema, attribute="next_state", metadata={
        "description": "when legal: the state after the action, to send with the next one"})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "when illegal: every rule the action breaks, each pointing into "
                       "/action"})


class FoxgloveReplayGameRequestSchema(ma.Schema):
    """A game's setup and its log."""

    setup = ma.fields.Nested(FoxgloveGameSetupSchema, required=True)
    actions = ma.fields.List(action_field(), required=True, metadata={
        "description": f"the actions since the setup, in order; at most {MAX_LOG_ACTIONS} "
                       "(a longer log is a 422 naming the limit)",
        "maxItems": MAX_LOG_ACTIONS})

    @ma.post_load
    def to_proto(self, data: dict[str, Any], **kwargs: Any) -> service_pb2.ReplayGameRequest:
        return service_pb2.ReplayGameRequest(**data)


class FoxgloveSoloOutcomeSchema(AnswerSchema):
    """How a finished solo game's total measures up to its setup's score thresholds."""

    setup = answered_int(f"the solo setup's number, 1 to {len(SOLO_SETUPS)}",
                         **limits(1, len(SOLO_SETUPS)))
    name = ma.fields.String(required=True, metadata={
        "description": "the setup's name in the rulebook (\"Food Festival\")"})
    thresholds = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "the setup's score thresholds, lowest first"})
    reached = ma.fields.List(ma.fields.Integer(), required=True, metadata={
        "description": "the thresholds the player's total (score track plus end-game "
                       "points, as in `standings`) reached: each one it is at least, "
                       "lowest first; empty when none"})


class FoxgloveGameReplaySchema(SetFieldsSchema):
    """A log replayed: how far it is legal, the state it reaches, and once the game is
    over, the scores and winners."""

    legal = ma.fields.Boolean(dump_default=False, required=True, metadata={
        "description": "true when every action of the log is legal"})
    illegal_index = ma.fields.Integer(metadata={
        "description": "the index of the first illegal action in `actions`, if any",
        **limits(0, MAX_LOG_ACTIONS - 1)})
    violations = ma.fields.List(ma.fields.Nested(ViolationSchema), metadata={
        "description": "the rules the first illegal action breaks, each pointing into "
                       "/actions/<index>"})
    state = ma.fields.Nested(FoxgloveGameStateSchema, metadata={
        "description": "the state after the last legal action"})
    standings = ma.fields.List(ma.fields.Nested(TownStandingSchema), metadata={
        "description": "once the game is over: the players ordered by place (FF-R16)",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    winners = ma.fields.List(ma.fields.String(), metadata={
        "description": "once the game is over: every player in first place",
        "minItems": 1, "maxItems": MAX_PLAYERS})
    scores = ma.fields.List(ma.fields.Nested(TownScoreSchema), metadata={
        "description": "once the game is over: each town's score, end-game effects "
                       "included, in seat order", "minItems": 1, "maxItems": MAX_PLAYERS})
    solo = ma.fields.Nested(FoxgloveSoloOutcomeSchema, metadata={
        "description": "once a solo game is over: the score thresholds of its setup the "
                       "player's total reached (FF-R20); absent with 2 to 4 players and "
                       "while the game goes on"})

