"""A Foxglove Farm player's actions as JSON: production, construction, transport, hauls,
processing, the end of a round, and the tiles the table draws."""


from __future__ import annotations

from typing import Any

import marshmallow as ma
from google.protobuf.message import Message

from referee.foxglove_farm.v1 import game_pb2, planning_pb2
from tabletop_rules.foxglove_farm.game_checks import MAX_PARTS
from tabletop_rules.foxglove_farm.town import MAX_GOODS_COUNT
from tabletop_rules.foxglove_farm.transport import MAX_MOVE_COUNT

from ....fields import Component, Tagged, tag
from ..schemas import (
    GoodsField,
    coordinate,
    good_type,
    int32,
    position,
    side,
)
from .state import building_id, drawn_tiles, flag, seat

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
