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

In three parts, each on those before it: ``state`` (a game's state and setup),
``actions`` (the actions a player takes), ``answers`` (the requests and answers of legal
moves, validation and replay). Here are the names the routes use.
"""

from __future__ import annotations

from .state import (
    FoxgloveGameSetupSchema,
    FoxgloveGameStateSchema,
    TileStackSchema,
)
from .actions import (
    action_field,
)
from .answers import (
    FoxgloveActionVerdictSchema,
    FoxgloveGameReplaySchema,
    FoxgloveLegalMovesRequestSchema,
    FoxgloveLegalMovesSchema,
    FoxgloveReplayGameRequestSchema,
    FoxgloveSoloOutcomeSchema,
    FoxgloveTurnSchema,
    FoxgloveValidateActionRequestSchema,
)

__all__ = [
    "action_field",
    "FoxgloveActionVerdictSchema",
    "FoxgloveGameReplaySchema",
    "FoxgloveGameSetupSchema",
    "FoxgloveGameStateSchema",
    "FoxgloveLegalMovesRequestSchema",
    "FoxgloveLegalMovesSchema",
    "FoxgloveReplayGameRequestSchema",
    "FoxgloveSoloOutcomeSchema",
    "FoxgloveTurnSchema",
    "FoxgloveValidateActionRequestSchema",
    "TileStackSchema",
]
