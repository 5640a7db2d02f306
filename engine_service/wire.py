"""Writing protobuf encodings directly, for answers built from many small parts.

Setting a message's fields one by one from Python costs a call into the protobuf runtime
per field; an answer of a few hundred fields (a game state, a list of moves) is written
many times faster as its encoding, joined from parts that are often looked up rather
than built, and parsed into the answer's message in one call (``MergeFromString``, in
C). These helpers write the encoding protobuf defines: each field a key (its number and
wire type, as a varint) then a varint or a length-prefixed part. A proto3 scalar at its
default is left out, as ``SerializeToString`` leaves it out, so the message parsed is
the one the fields would have made.
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor

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
