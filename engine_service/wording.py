"""The code and params of a sentence the rules word, as the wire carries them.

Every explanation, violation and problem is a :class:`~tabletop_rules.messages.Sentence`:
its words, and beside them its ``code`` and ``params`` (``referee.common.v1.Param``), so a
client can word it itself, in its own language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.common.v1 import params_pb2
from tabletop_rules.messages import Param

_KIND = {str: "text", int: "number", bool: "flag"}


def _value(value: str | int | bool) -> dict[str, Any]:
    return {_KIND[type(value)]: value}


def params_to_proto(params: Mapping[str, Param]) -> list[dict[str, Any]]:
    """``params`` as ``Param`` messages (dicts, which protobuf builds in one call)."""
    return [{"name": name, "values": [_value(item) for item in value], "list": True}
            if type(value) is tuple else {"name": name, "values": [_value(value)]}
            for name, value in params.items()]


def code_of(text: str) -> str:
    """The code of a sentence (empty for words the rules gave none)."""
    return getattr(text, "code", "")


def params_of(text: str) -> list[dict[str, Any]]:
    """The params of a sentence, as ``Param`` messages."""
    params = getattr(text, "params", None)
    return params_to_proto(params) if params else []


def sentence_fields(text: str) -> dict[str, Any]:
    """The ``code`` and ``params`` fields of a message that carries ``text``."""
    return {"code": code_of(text), "params": params_of(text)}


def bad_request_params(texts: list[str]) -> params_pb2.BadRequestParams:
    """The ``BadRequestParams`` status detail for field violations worded ``texts``."""
    return params_pb2.BadRequestParams(field_violations=[
        {"params": params_of(text)} for text in texts])
