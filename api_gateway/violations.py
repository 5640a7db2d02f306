"""One rule a move breaks, written the same way for every game."""

from __future__ import annotations

import marshmallow as ma


class ViolationSchema(ma.Schema):
    """A refusal: a reason for machines, the rule, a message for the players, and where."""

    reason = ma.fields.String(metadata={
        "description": "for machines: a stable UPPER_SNAKE name, e.g. OCCUPIED_SPACE"})
    rule = ma.fields.String(metadata={"description": "the rule broken, e.g. DFM-R12 or FF-R3"})
    message = ma.fields.String(metadata={"description": "for the players"})
    pointer = ma.fields.String(metadata={
        "description": "JSON Pointer into the request to the move, or the part of it, that "
                       "breaks the rule"})
