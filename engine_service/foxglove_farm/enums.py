"""The Foxglove Farm enums on the wire: each rule value's protobuf number and back, and
what the problem of a number that names none lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from referee.foxglove_farm.v1 import game_pb2, town_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm.game_state import GamePhase
from tabletop_rules.problems import not_one_of


GOOD_TO_PROTO = {g: town_pb2.Good.Value(f"GOOD_{g.name}") for g in fox.Good}
SIDE_TO_PROTO = {s: town_pb2.Side.Value(f"SIDE_{s.name}") for s in fox.Side}
VARIANT_TO_PROTO = {v: town_pb2.Variant.Value(f"VARIANT_{v.name}") for v in fox.Variant}
GOOD_BY_NUMBER: dict[int, fox.Good | None] = {n: g for g, n in GOOD_TO_PROTO.items()}
SIDE_BY_NUMBER: dict[int, fox.Side | None] = {n: s for s, n in SIDE_TO_PROTO.items()}
VARIANT_BY_NUMBER: dict[int, fox.Variant] = {n: v for v, n in VARIANT_TO_PROTO.items()}
VARIANT_BY_NUMBER[town_pb2.VARIANT_UNSPECIFIED] = fox.Variant.STANDARD
PHASE_TO_PROTO = {p: game_pb2.GamePhase.Value(f"GAME_PHASE_{p.name}") for p in GamePhase}
PHASE_BY_NUMBER: dict[int, GamePhase | None] = {n: p for p, n in PHASE_TO_PROTO.items()}
PHASE_ENUM, VARIANT_ENUM, GOOD_ENUM, SIDE_ENUM = (cast(EnumTypeWrapper, enum) for enum in (
    game_pb2.GamePhase, town_pb2.Variant, town_pb2.Good, town_pb2.Side))  # stubs: classes


def _names(values: Sequence[Any]) -> tuple[str, ...]:
    """The contract's names of enum ``values``, as a misread one's problem lists them."""
    return tuple(v.value for v in values)


VARIANT_NAMES = _names(tuple(fox.Variant))
SIDE_NAMES = _names(fox.SIDES)
GOOD_NAMES = _names(fox.GOODS)
PHASE_NAMES = _names(tuple(GamePhase))
"""What a misread enum's message lists, written once rather than on every read."""

NOT_A_VARIANT = not_one_of("a variant")
NOT_A_GOODS_TYPE = not_one_of("a goods type")
NOT_A_SIDE = not_one_of("a side")
NOT_A_PHASE = not_one_of("a phase")
