"""Writing protobuf encodings directly: every answer the engine sends is written here.

Setting a message's fields one by one from Python costs a call into the protobuf runtime
per field; an answer of a few hundred fields (a game state, a list of moves) is written
many times faster as its encoding, joined from parts that are often looked up rather
than built. The servicers return that encoding and grpcio sends it as it is (no response
serializer, :mod:`engine_service.registration`), so an answer is written once and never
parsed back. A part of a few fields (a violation, a standing) may be built as a message
and serialized into its place (:func:`message`): written once still.

These helpers write the encoding protobuf defines: each field a key (its number and
wire type, as a varint) then a varint or a length-prefixed part. A proto3 scalar at its
default is left out, as ``SerializeToString`` leaves it out, so the bytes parse into the
message the fields would have made; parts may come in any order, and a message's fields
written in two runs parse as one message (protobuf merges them).
"""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

_SMALL = [bytes([n]) for n in range(128)]
"""Each one-byte varint (0 to 127): nearly every number an answer holds."""

_LENGTH_DELIMITED = 2
_VARINT = 0


def varint(number: int) -> bytes:
    """``number``'s varint; a negative one is written as its 64-bit two's complement, as
    protobuf writes a negative ``int32``, ``int64`` or enum value."""
    if 0 <= number < 128:
        return _SMALL[number]
    if number < 0:
        number &= (1 << 64) - 1
    out = bytearray()
    while number >= 128:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def key(message: Descriptor, name: str) -> bytes:
    """The key of ``message``'s field ``name``: its number and wire type, encoded.
    A message, string or bytes field, and a packed repeated scalar, is length-delimited;
    a singular number, bool or enum a varint (the only other kinds the answers hold)."""
    field = message.fields_by_name[name]
    delimited = (field.type in (FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING,
                                FieldDescriptor.TYPE_BYTES)
                 or field.is_repeated)
    if not delimited and field.type not in (
            FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
            FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_ENUM):
        raise ValueError(f"{message.name}.{name}: a {field.type} field is not written here")
    return varint(field.number << 3 | (_LENGTH_DELIMITED if delimited else _VARINT))


def number(field_key: bytes, value: int) -> bytes:
    """A varint field (an integer, an enum value, a bool), or nothing at 0."""
    if 0 < value < 128:
        return field_key + _SMALL[value]
    return field_key + varint(value) if value else b""


def present(field_key: bytes, value: int) -> bytes:
    """A varint field written even at 0: an ``optional`` field that is set."""
    return field_key + (_SMALL[value] if 0 <= value < 128 else varint(value))


def numbers(field_key: bytes) -> dict[int, bytes]:
    """``field_key``'s field for each number from 0 to 127 (nothing at 0), for looking up
    the numbers a part holds (a seat, a row) where it is written many times."""
    return {value: number(field_key, value) for value in range(128)}


def part(field_key: bytes, data: bytes) -> bytes:
    """A length-delimited field: a message's encoding, a string's UTF-8, a packed list.
    Written even when empty (a message field set to an empty message is still set)."""
    size = len(data)
    return field_key + (_SMALL[size] if size < 128 else varint(size)) + data


def text(field_key: bytes, value: str) -> bytes:
    """A string field, or nothing for the empty string."""
    return part(field_key, value.encode()) if value else b""


def message(field_key: bytes, value: Message) -> bytes:
    """A message field built field by field (a part of few fields, where joining its
    encoding by hand would gain nothing), serialized into its place once."""
    return part(field_key, value.SerializeToString())


def messages(field_key: bytes, values: Iterable[Message]) -> bytes:
    """A repeated message field, each built field by field (:func:`message`)."""
    return b"".join([part(field_key, value.SerializeToString()) for value in values])


Field = tuple[int, int | bytes]
"""A field read from an encoding: its number, and its value (a varint's number, or a
length-delimited field's bytes)."""

_INT32_LIMIT = 1 << 31


def fields(data: bytes) -> list[Field] | None:
    """The fields ``data`` encodes, in turn; None for bytes that are no message, or that
    hold what a byte reader leaves to protobuf: another wire type (a fixed-width number,
    a group) or a varint past an ``int32``'s positive range (a negative number, written
    in ten bytes)."""
    read: list[Field] = []
    at, end = 0, len(data)
    while at < end:
        key, at = _varint_at(data, at)
        if at < 0 or key >> 3 == 0:
            return None
        kind = key & 7
        value, at = _varint_at(data, at)
        if at < 0 or value >= _INT32_LIMIT:
            return None
        if kind == _VARINT:
            read.append((key >> 3, value))
        elif kind == _LENGTH_DELIMITED and at + value <= end:
            read.append((key >> 3, data[at:at + value]))
            at += value
        else:
            return None
    return read


def _varint_at(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``at`` and where it ends; an ending of -1 if none ends in ``data``."""
    value = shift = 0
    end = len(data)
    while at < end and shift < 64:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
    return 0, -1
