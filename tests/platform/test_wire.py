"""The engine's protobuf encoding writer (engine_service/wire.py) writes what protobuf
itself writes: the same bytes as ``SerializeToString`` for the same fields."""

from __future__ import annotations

import pytest

from engine_service import wire
from referee.downtown_farmers_market.v1 import board_pb2, game_pb2

INT32S = [0, 1, 2, 127, 128, 129, 300, 16_383, 16_384, 2**21, 2**28 - 1, 2**28, 2**31 - 1,
          -1, -2, -127, -128, -129, -300, -(2**31)]

STATE = game_pb2.GameState.DESCRIPTOR


@pytest.mark.parametrize("value", INT32S)
def test_an_int32_field_is_written_as_protobuf_writes_it(value: int) -> None:
    expected = game_pb2.GameState(pile_count=value).SerializeToString()
    assert wire.number(wire.key(STATE, "pile_count"), value) == expected
    assert wire.numbers(wire.key(STATE, "pile_count")).get(value, expected) == expected


def test_enum_bool_string_and_message_fields_are_written_as_protobuf_writes_them() -> None:
    for expected, written in [
        (game_pb2.GameState(mode=board_pb2.MODE_YOUNG_SHOPPER),
         wire.number(wire.key(STATE, "mode"), board_pb2.MODE_YOUNG_SHOPPER)),
        (game_pb2.GameState(game_over=True), wire.number(wire.key(STATE, "game_over"), True)),
        (game_pb2.GameState(game_over=False), wire.number(wire.key(STATE, "game_over"), False)),
        (game_pb2.Player(name="Ada ∑ 🍞"),
         wire.text(wire.key(game_pb2.Player.DESCRIPTOR, "name"), "Ada ∑ 🍞")),
        (game_pb2.Player(name=""), wire.text(wire.key(game_pb2.Player.DESCRIPTOR, "name"), "")),
        (game_pb2.Player(name="x" * 300),
         wire.text(wire.key(game_pb2.Player.DESCRIPTOR, "name"), "x" * 300)),
        (game_pb2.GameState(face_up=[board_pb2.FoodTile()]),
         wire.part(wire.key(STATE, "face_up"), b"")),
        (game_pb2.GameState(face_up=[board_pb2.FoodTile(ingredients=[1, 6, 6])]),
         wire.part(wire.key(STATE, "face_up"),
                   board_pb2.FoodTile(ingredients=[1, 6, 6]).SerializeToString())),
    ]:
        assert written == expected.SerializeToString()


def test_a_long_part_has_a_multi_byte_length() -> None:
    tiles = board_pb2.FoodTile(ingredients=[1, 2, 3] * 100)
    data = tiles.SerializeToString()
    message = game_pb2.GameState.FromString(wire.part(wire.key(STATE, "face_up"), data))
    assert message.face_up[0] == tiles


def test_only_the_kinds_of_field_it_writes_have_a_key() -> None:
    from google.protobuf import struct_pb2

    with pytest.raises(ValueError, match="not written here"):
        wire.key(struct_pb2.Value.DESCRIPTOR, "number_value")
