"""One rule a move breaks, written the same way for every game."""

from __future__ import annotations

import marshmallow as ma

import tabletop_rules.downtown_farmers_market.legality  # noqa: F401  (declare the games'
import tabletop_rules.foxglove_farm.farm_game  # noqa: F401  violation templates before
import tabletop_rules.foxglove_farm.final_round  # noqa: F401  ViolationCode lists them)
from tabletop_rules.downtown_farmers_market import Reason as DowntownFarmersMarketReason
from tabletop_rules.foxglove_farm.reasons import Reason as FoxgloveFarmReason

from .fields import AnswerSchema
from .wording import ParamsField, code_field, templates_of


class ViolationSchema(AnswerSchema):
    """A refusal: a reason for machines, the rule, a message for the players, and where."""

    reason = ma.fields.String(required=True, metadata={
        "description": "for machines: a stable UPPER_SNAKE name, e.g. OCCUPIED_SPACE"})
    rule = ma.fields.String(required=True, metadata={
        "description": "the rule broken, e.g. DFM-R12 or FF-R3"})
    message = ma.fields.String(required=True, metadata={"description": "for the players"})
    pointer = ma.fields.String(required=True, metadata={
        "description": "JSON Pointer into the request to the move, or the part of it, that "
                       "breaks the rule"})
    code = code_field("ViolationCode", (
        "What a violation's message says, for machines: the violation's `reason`, the "
        "sentence of each game worded with the violation's `params`. Downtown Farmers "
        f"Market: {', '.join(DowntownFarmersMarketReason)}. Foxglove Farm: "
        f"{', '.join(FoxgloveFarmReason)}."), templates_of("violation"), required=True)
    params = ParamsField()
