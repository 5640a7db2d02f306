"""A ``google.protobuf.Struct``'s JSON as the contract writes it: the gateway's catalog
answers and the gRPC client's JSON alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Json = Any


def whole_numbers(value: Json) -> Json:
    """A Struct's JSON with its integral doubles written as the whole numbers they were
    (what the gateway does to the catalog it answers)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value
