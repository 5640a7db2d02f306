"""One rule a move breaks, written the same way for every game."""

from __future__ import annotations

import marshmallow as ma

from .fields import AnswerSchema


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
