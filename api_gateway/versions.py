"""The version fields every score answer carries, so a saved score can be reproduced:
the same request, sent to a referee of the same rules and catalog versions (``GET
/v1/version``), scores the same."""

from __future__ import annotations

import marshmallow as ma


def rules_version_field() -> ma.fields.Integer:
    return ma.fields.Integer(required=True, metadata={"description": (
        "the version of the game's rules the answer was computed by (as GET /v1/version "
        "lists them)")})


def catalog_version_field() -> ma.fields.String:
    return ma.fields.String(required=True, metadata={"description": (
        "the version of the built-in building catalog the towns were read from, the "
        "request's own catalog definitions over it (as GET /v1/version lists them)")})
