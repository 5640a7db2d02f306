"""Foxglove Farm's final-round plan as JSON: its moves, hauls and processing steps."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from referee.foxglove_farm.v1 import planning_pb2
from tabletop_rules.foxglove_farm.transport import MAX_MOVE_COUNT

from ....fields import (
    AnswerSchema,
    Component,
    Tagged,
    limits,
)
from ....versions import catalog_version_field, rules_version_field
from .pieces import COORDINATE, good_type, GoodsField
from .scores import answered_int, count
from .town import PathField, position

def step_action(kind: str) -> ma.fields.Constant[str]:
    """A plan step's ``action``: always ``kind``."""
    return ma.fields.Constant(kind, required=True, metadata={"type": "string", "const": kind})


class _StepSchema(AnswerSchema):
    """A plan step: the :class:`Tagged` field hands over the whole ``PlanStep``, and the
    schema named by its ``action`` writes that member."""

    kind = ""

    @ma.pre_dump
    def member(self, step: planning_pb2.PlanStep, **kwargs: Any) -> Any:
        return getattr(step, self.kind)


class MoveStepSchema(_StepSchema):
    """Move goods along the trails (FF-R2, FF-R3)."""

    kind = "move"
    action = step_action(kind)
    good = good_type(required=True)
    count = answered_int(**limits(1, MAX_MOVE_COUNT))
    origin = position(data_key="from", required=True)
    destination = position(data_key="to", required=True)
    path = PathField(required=True)


class ProcessChoiceSchema(AnswerSchema):
    """A building's goods after a processing run, where FF-R4 leaves a choice."""

    row = answered_int(**limits(*COORDINATE))
    col = answered_int(**limits(*COORDINATE))
    goods = GoodsField(required=True, metadata={"description": "what the building is left with"})


class ProcessStepSchema(_StepSchema):
    """A processing run, every effect executed fully (FF-R4); ``choices`` only where FF-R4
    leaves one."""

    kind = "process"
    action = step_action(kind)
    points = count("the points the run scores")
    choices = ma.fields.List(ma.fields.Nested(ProcessChoiceSchema), metadata={
        "description": "only where FF-R4 leaves a choice", "minItems": 1})

    @ma.pre_dump
    def member(self, step: planning_pb2.PlanStep, **kwargs: Any) -> dict[str, Any]:
        run = step.process
        return {"points": run.points, **({"choices": run.choices} if run.choices else {})}


class HaulPickSchema(AnswerSchema):
    """Goods a Hauler's Hut takes from a building."""

    good = good_type(required=True)
    count = answered_int(minimum=1)
    origin = position(data_key="from", required=True)


class HaulStepSchema(_StepSchema):
    """Goods placed on a Hauler's Hut at a transportation phase's start (FF-R17)."""

    kind = "haul"
    action = step_action(kind)
    hut = position(data_key="to", required=True)
    picks = ma.fields.List(ma.fields.Nested(HaulPickSchema), required=True)


PLAN_STEP = Component("FoxglovePlanStep", (
    "A step of a final-round plan, by its `action`: goods moved, a processing run, or goods "
    "hauled onto a Hauler's Hut."))


class FinalRoundPlanSchema(AnswerSchema):
    """The best final total any legal sequence of transports and processing runs reaches,
    and a plan that reaches it."""

    total = count("score_track + processing_points + end_game_points, never below 0 "
                  "(FF-R18)")
    processing_points = count()
    end_game_points = answered_int()
    goods_remaining = count("the fewest any plan with the best total leaves (FF-R16)")
    steps = ma.fields.List(Tagged({s.kind: s for s in (MoveStepSchema, ProcessStepSchema,
                                                        HaulStepSchema)},
                                  "a plan step", component=PLAN_STEP, tag="action",
                                  oneof="action"), required=True, metadata={
        "description": "the plan's steps, in order"})
    optimal = ma.fields.Boolean(required=True, metadata={"description": (
        "true when the total is proven the best; false when the planner's time ran out "
        "first and this is the best plan it found (never worse than a greedy plan)")})
    upper_bound = ma.fields.Integer(required=True, metadata={"description": (
        "the most any legal final round can total: total when optimal, otherwise the "
        "proven bound, so upper_bound - total is the most the plan could be improved")})
    rules_version = rules_version_field()
    catalog_version = catalog_version_field()
