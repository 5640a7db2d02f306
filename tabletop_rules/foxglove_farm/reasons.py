"""Why a Foxglove Farm action is illegal: one :class:`Reason` enum for every action of the
game (transports, hauls, construction, phases and turns), so clients switch on one set of
stable names."""

from __future__ import annotations

import enum
from typing import TypeAlias

from .. import verdicts


class Reason(enum.StrEnum):
    """Why a Foxglove Farm action is illegal: stable names that clients may switch on."""

    ORIGIN_NOT_A_BUILDING = "ORIGIN_NOT_A_BUILDING"
    DESTINATION_NOT_A_BUILDING = "DESTINATION_NOT_A_BUILDING"
    SAME_BUILDING = "SAME_BUILDING"
    NOT_ENOUGH_GOODS = "NOT_ENOUGH_GOODS"
    DESTINATION_DOES_NOT_DEPICT_GOOD = "DESTINATION_DOES_NOT_DEPICT_GOOD"
    NOT_ENOUGH_FREE_SLOTS = "NOT_ENOUGH_FREE_SLOTS"
    NO_ROUTE = "NO_ROUTE"
    EXPERT_ROUTE_BLOCKED = "EXPERT_ROUTE_BLOCKED"
    NOT_A_HAULER = "NOT_A_HAULER"
    TOO_MANY_GOODS = "TOO_MANY_GOODS"
    ORIGIN_NOT_ANOTHER_BUILDING = "ORIGIN_NOT_ANOTHER_BUILDING"
    HAUL_AFTER_TRANSPORT = "HAUL_AFTER_TRANSPORT"
    ALREADY_HAULED = "ALREADY_HAULED"
    NOT_A_PROCESSING_CHOICE = "NOT_A_PROCESSING_CHOICE"
    NO_PROCESSING_YET = "NO_PROCESSING_YET"
    ROUND_OVER = "ROUND_OVER"
    # turns and phases (FF-R14 and the round's order)
    GAME_OVER = "GAME_OVER"
    WRONG_PHASE = "WRONG_PHASE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    ALREADY_PASSED = "ALREADY_PASSED"
    ALREADY_DONE = "ALREADY_DONE"
    AWAITING_DRAWN_TILES = "AWAITING_DRAWN_TILES"
    NO_TILES_TO_DRAW = "NO_TILES_TO_DRAW"
    FINAL_ROUND_ONLY = "FINAL_ROUND_ONLY"
    # production and immediate effects (FF-R5)
    NOT_A_PRODUCTION_CHOICE = "NOT_A_PRODUCTION_CHOICE"
    NOT_A_GAIN_CHOICE = "NOT_A_GAIN_CHOICE"
    # construction (FF-R9 to FF-R11, FF-R13)
    NOT_ON_OFFER = "NOT_ON_OFFER"
    COST_UNKNOWN = "COST_UNKNOWN"
    OCCUPIED = "OCCUPIED"
    NOT_ADJACENT = "NOT_ADJACENT"
    TOWN_FULL = "TOWN_FULL"
    CUTS_OFF_TRAIL = "CUTS_OFF_TRAIL"
    NOT_A_TRAIL = "NOT_A_TRAIL"
    ALREADY_T_JUNCTION = "ALREADY_T_JUNCTION"
    NOT_A_T_JUNCTION = "NOT_A_T_JUNCTION"
    BREAKS_CONNECTION = "BREAKS_CONNECTION"
    PAYMENT_NOT_A_BUILDING = "PAYMENT_NOT_A_BUILDING"
    PAYMENT_NOT_HELD = "PAYMENT_NOT_HELD"
    WRONG_PAYMENT = "WRONG_PAYMENT"
    WRONG_TIER = "WRONG_TIER"
    WRONG_DRAW = "WRONG_DRAW"


Violation: TypeAlias = verdicts.Violation[Reason]
"""One reason a move or haul is illegal, with the path of the part that breaks it."""
