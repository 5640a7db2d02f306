"""The code and params of a sentence the rules word, as the wire carries them.

Every explanation, violation and problem is a :class:`~tabletop_rules.messages.Sentence`:
its words, and beside them its ``code`` and ``params`` (``referee.common.v1.Param``), so a
client can word it itself, in its own language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from referee.common.v1 import params_pb2
from tabletop_rules.messages import Param

from . import wire

_KIND = {str: "text", int: "number", bool: "flag"}


def _value(value: str | int | bool) -> dict[str, Any]:
    return {_KIND[type(value)]: value}


def params_to_proto(params: Mapping[str, Param]) -> list[dict[str, Any]]:
    """``params`` as ``Param`` messages (dicts, which protobuf builds in one call)."""
    return [{"name": name, "values": [_value(item) for item in value], "list": True}
            if isinstance(value, tuple) else {"name": name, "values": [_value(value)]}
            for name, value in params.items()]


_NAME, _VALUES, _LIST = (wire.key(params_pb2.Param.DESCRIPTOR, name)
                         for name in ("name", "values", "list"))
_TEXT, _NUMBER, _FLAG = (wire.key(params_pb2.ParamValue.DESCRIPTOR, name)
                         for name in ("text", "number", "flag"))
_LISTED = wire.number(_LIST, True)
_FLAGS = {True: _FLAG + b"\x01", False: _FLAG + b"\x00"}


def _value_to_wire(value: str | int | bool) -> bytes:
    """A ``ParamValue``'s encoding: its one field, written even at its default (a oneof
    member set to "", 0 or false is still set)."""
    if type(value) is bool:
        return _FLAGS[value]
    if type(value) is int:
        return _NUMBER + wire.varint(value)
    return wire.part(_TEXT, value.encode())  # type: ignore[union-attr]


@lru_cache(maxsize=4096, typed=True)  # typed: True and 1 are different values here
def _value_field(value: str | int | bool) -> bytes:
    """A value as a ``Param``'s ``values`` field, written once: sentences keep quoting
    the same names and numbers."""
    return wire.part(_VALUES, _value_to_wire(value))


@lru_cache(maxsize=1024)
def _name_field(name: str) -> bytes:
    return wire.text(_NAME, name)


def params_to_wire(field_key: bytes, params: Mapping[str, Param]) -> bytes:
    """``params`` as the ``Param`` fields (``field_key``) of a message's encoding, as
    :func:`params_to_proto` makes them (for answers written as their encoding)."""
    return b"".join([
        wire.part(field_key, _name_field(name) + b"".join(map(_value_field, value)) + _LISTED)
        if type(value) is tuple else _param_field(field_key, name, value)
        for name, value in params.items()])


@lru_cache(maxsize=8192, typed=True)  # typed: True and 1 are different values here
def _param_field(field_key: bytes, name: str, value: str | int | bool) -> bytes:
    """A param of one value as a ``Param`` field (``field_key``), written once: the same
    names and values recur from sentence to sentence."""
    return wire.part(field_key, _name_field(name) + _value_field(value))


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


def bad_request_params(texts: Sequence[str]) -> params_pb2.BadRequestParams:
    """The ``BadRequestParams`` status detail for field violations worded ``texts``."""
    violations: list[Any] = [{"params": params_of(text)} for text in texts]  # as dicts
    return params_pb2.BadRequestParams(field_violations=violations)
