"""The public contract's JSON to the engine's protobuf messages and back, without flask.

The gRPC client takes and answers the same JSON as the REST gateway, so a caller never
builds messages by hand. The gateway reads JSON with marshmallow schemas, which a client
must not need; this module is instead protobuf's own JSON mapping
(``google.protobuf.json_format``, which checks every scalar and builds the catalog's
``Struct``) plus the contract's few departures from it, each a table below:

* enum values by lower-case name without their prefix (``young_shopper`` for
  ``MODE_YOUNG_SHOPPER``; the sides keep their case, ``N``), ``null`` for the zero value;
* messages written as their one field (``UNWRAPPED``): a Food tile, a set, a trail and a
  grid row as lists, a grid space as its tile or ``null`` (or, doubtful, as the object
  of its other fields, ``{"candidates": [...]}``: ``ALSO_OBJECTS``);
* oneofs named by a tag (``TAGGED``): a challenge's ``type``, a move's, plan step's or
  game action's ``action``, the member's fields beside it;
* ``exact_count``'s counts and a sentence's ``params`` as objects, routes and the trails
  an end-game effect followed as ``[[row, col], ...]``, the names
  ``from``/``to``/``state`` and the stacks' tiers ``A``/``B``/``C`` (``CONTRACT_NAMES``);
* a building's goods counts read in doubt, ``{"sheep": {"candidates": [7, 8]}}``, which
  the wire carries beside the goods (``Tile.doubtful_goods``: ``RESHAPED``);
* what the gateway fills in when it is left out (``LOAD_DEFAULTS``: the standard mode or
  variant, a setup board's empty grid, one tile on a board space) or ignores
  (``game_over``), and in answers, the parts it leaves out when empty (``OMIT_EMPTY``)
  and whole catalog numbers.

``tests/platform/test_clients_contract_json.py`` holds this to the gateway: for the
rulebook examples, recorded positions and random boards, towns and moves, both build the
same protobuf request, and both answer the same JSON.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, cast

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from referee_wire.struct_json import whole_numbers

from .errors import InvalidRequestError, json_pointer

Json = Any
"""JSON as ``json.loads`` reads it."""

M = TypeVar("M", bound=Message)

_DFM = "referee.downtown_farmers_market.v1."
_FF = "referee.foxglove_farm.v1."
_STRUCT = "google.protobuf.Struct"

UNWRAPPED = {f"{_DFM}FoodTile": "ingredients", f"{_DFM}IngredientSet": "ingredients",
             f"{_DFM}GridRow": "spaces", f"{_DFM}GridSpace": "tile", f"{_FF}Trail": "sides",
             f"{_FF}BoardSpace": "stack"}
"""Messages the contract writes as their one field (a grid or board space: ``null`` when
unset)."""

ALSO_OBJECTS = {f"{_DFM}GridSpace"}
"""Of those, the messages the contract writes as an object of their other fields when
one is set: a doubtful grid space, ``{"candidates": [["bread"], ["corn"]]}``."""

TAGGED = {f"{_DFM}Challenge": ("type", "kind"), f"{_DFM}Move": ("action", "action"),
          f"{_FF}PlanStep": ("action", "action"), f"{_FF}Action": ("action", "action")}
"""Messages whose oneof the contract names by a tag: message -> (tag, oneof)."""

MAP_LIKE = {f"{_DFM}ExactCountChallenge.counts": ("ingredient", "count")}
"""Repeated pairs the contract writes as an object: field -> (key field, value field)."""

PAIRS = {f"{_FF}ValidateTransportResponse.path", f"{_FF}MoveStep.path", f"{_FF}CountedTile.via"}
"""Repeated positions the contract writes as ``[row, col]`` pairs (answers only)."""

CONTRACT_NAMES = {"origin": "from", "destination": "to", "hut": "to", "next_state": "state",
                  f"{_FF}StacksLeft.a": "A", f"{_FF}StacksLeft.b": "B",
                  f"{_FF}StacksLeft.c": "C"}
"""Fields the contract names otherwise, by protobuf name, or by full name for one
message's field (the tiers of the stacks left)."""

KEEP_CASE = {f"{_FF}Side"}
"""Enums whose contract names keep their case (the sides N, E, S, W)."""

READ_ONLY = {f"{_DFM}GameState.game_over"}
"""Answer-only fields a request may carry back and the gateway ignores."""

OMIT_EMPTY = {f"{_DFM}ValidateMoveResponse", f"{_DFM}ReplayGameResponse",
              f"{_FF}ValidateTransportResponse", f"{_FF}ProcessStep",
              f"{_FF}ValidateActionResponse", f"{_FF}ReplayGameResponse"}
"""Answers that leave out their empty lists: the parts a verdict does not have."""

OMIT_ZEROS = {f"{_FF}Goods"}
"""Messages that leave out their zero counts (``{"wood": 2}``)."""


def _standard(key: str) -> Callable[[dict[str, Json]], dict[str, Json]]:
    return lambda value: {key: "standard", **value}


def _setup_defaults(setup: dict[str, Json]) -> dict[str, Json]:
    """A setup's boards may leave out their grids: they start empty."""
    players = setup.get("players")
    if isinstance(players, list):
        setup = {**setup, "players": [
            {**p, "board": {"grid": [[None] * 4 for _ in range(4)], **p["board"]}}
            if isinstance(p, dict) and isinstance(p.get("board"), dict) else p
            for p in players]}
    return _standard("mode")(setup)


LOAD_DEFAULTS: dict[str, Callable[[dict[str, Json]], dict[str, Json]]] = {
    f"{_DFM}Board": _standard("mode"), f"{_DFM}GameState": _standard("mode"),
    f"{_DFM}Setup": _setup_defaults, f"{_FF}Town": _standard("variant"),
    f"{_FF}Seat": _standard("variant"), f"{_FF}TileStack": lambda value: {"count": 1, **value}}
"""What the gateway fills in for a request that leaves it out."""


def _split_doubtful_goods(tile: dict[str, Json]) -> dict[str, Json]:
    """A tile's goods whose counts are objects (doubtful readings) as its
    ``doubtful_goods``, the rest as its goods."""
    goods = tile.get("goods")
    if not isinstance(goods, dict) or not any(isinstance(n, dict) for n in goods.values()):
        return tile
    return {**tile, "goods": {g: n for g, n in goods.items() if not isinstance(n, dict)},
            "doubtful_goods": [{"good": g, **n} for g, n in goods.items()
                               if isinstance(n, dict)]}


def _merge_doubtful_goods(tile: dict[str, Json]) -> dict[str, Json]:
    """The reverse: a tile's ``doubtful_goods`` back among its goods, as objects."""
    doubtful = tile.pop("doubtful_goods", [])
    if doubtful:
        tile["goods"] = {**(tile.get("goods") or {}),
                         **{d["good"]: {"candidates": d["candidates"]} for d in doubtful}}
    return tile


RESHAPED: dict[str, tuple[Callable[[dict[str, Json]], dict[str, Json]],
                          Callable[[dict[str, Json]], dict[str, Json]]]] = {
    f"{_FF}Tile": (_split_doubtful_goods, _merge_doubtful_goods)}
"""Messages the contract shapes otherwise than the wire: reading, then writing."""


def to_message(message_type: type[M], data: Json) -> M:
    """The message of ``message_type`` that the contract's JSON ``data`` stands for.

    A request's JSON is its fields by contract name (``{"state": ..., "move": ...}``).
    Raises :class:`InvalidRequestError` with a JSON Pointer into ``data`` for JSON that
    does not fit; what fits but breaks the rules is the engine's to refuse.
    """
    canonical = _load(data, cast(Descriptor, message_type.DESCRIPTOR), ())
    try:
        return json_format.ParseDict(canonical, message_type())
    except json_format.ParseError as error:
        raise _invalid((), str(error)) from None


def to_json(message: Message) -> Json:
    """The contract's JSON for ``message``, as the gateway answers it."""
    canonical = json_format.MessageToDict(message, preserving_proto_field_name=True,
                                          always_print_fields_with_no_presence=True)
    return _dump(canonical, cast(Descriptor, message.DESCRIPTOR))


# Reading: contract JSON -> protobuf's JSON mapping, with pointers into the contract JSON.

def _load(value: Json, descriptor: Descriptor, path: tuple[str | int, ...]) -> Json:
    name = descriptor.full_name
    if name == _STRUCT:
        return value
    inline: set[str] = set()  # fields the contract writes inline, at this path
    if name in UNWRAPPED and not (name in ALSO_OBJECTS and isinstance(value, dict)):
        inline.add(UNWRAPPED[name])
        value = {} if value is None else {UNWRAPPED[name]: value}
    if not isinstance(value, dict):
        raise _invalid(path, "expected a JSON object")
    if name in TAGGED:
        value, member = _untag(value, descriptor, path)
        inline.add(member)
    value = LOAD_DEFAULTS.get(name, dict)(value)
    if name in RESHAPED:
        value = RESHAPED[name][0](value)
    loaded = {}
    for key, item in value.items():
        field = _contract_fields(descriptor).get(key)
        if field is None:
            raise _invalid((*path, key), "not a field here; check the spelling against "
                                         "the contract")
        if field.full_name not in READ_ONLY:
            loaded[field.name] = _load_field(item, field, path if key in inline
                                             else (*path, key))
    return loaded


@cache
def _contract_fields(descriptor: Descriptor) -> dict[str, FieldDescriptor]:
    return {_contract_name(f): f for f in descriptor.fields}


def _contract_name(field: FieldDescriptor) -> str:
    return CONTRACT_NAMES.get(field.full_name, CONTRACT_NAMES.get(field.name, field.name))


def _untag(value: dict[str, Json], descriptor: Descriptor, path: tuple[str | int, ...]
           ) -> tuple[dict[str, Json], str]:
    """``{"type": "majority", "points": 3, "ingredient": "egg"}`` as
    ``{"points": 3, "majority": {"ingredient": "egg"}}``, and the member's name."""
    tag, oneof = TAGGED[descriptor.full_name]
    members = [f.name for f in descriptor.oneofs_by_name[oneof].fields]
    kind = value.get(tag)
    if kind not in members:
        raise _invalid((*path, tag), f"{reprlib.repr(kind)} is not a {tag} here; expected one of "
                                     f"{', '.join(members)}")
    common = {f.name for f in descriptor.fields if f.containing_oneof is None}
    return ({**{k: v for k, v in value.items() if k in common},
             kind: {k: v for k, v in value.items() if k not in common and k != tag}}, kind)


def _load_field(value: Json, field: FieldDescriptor, path: tuple[str | int, ...]) -> Json:
    if value is None:
        return None  # unset, as json_format reads null
    if field.full_name in MAP_LIKE:
        if not isinstance(value, dict):
            raise _invalid(path, "expected a JSON object")
        key, count = (_pair_type(field).fields_by_name[n] for n in MAP_LIKE[field.full_name])
        return [{key.name: _load_one(k, key, (*path, k)), count.name: v}
                for k, v in value.items()]
    if field.is_repeated:
        if not isinstance(value, list):
            raise _invalid(path, "expected a JSON array")
        return [_load_one(item, field, (*path, i)) for i, item in enumerate(value)]
    return _load_one(value, field, path)


def _load_one(value: Json, field: FieldDescriptor, path: tuple[str | int, ...]) -> Json:
    if field.enum_type is not None:
        names = _enum_names(field.enum_type)
        if value not in names.values():
            raise _invalid(path, f"{reprlib.repr(value)} is not a {field.enum_type.name}; expected one "
                                 f"of {', '.join(n for n in names.values() if n)}")
        return next(full for full, short in names.items() if short == value)
    if field.message_type is not None:
        return _load(value, field.message_type, path)
    expected = _SCALARS.get(field.cpp_type)
    if expected and (not isinstance(value, expected[0]) or isinstance(value, expected[1])):
        raise _invalid(path, expected[2])
    return value  # json_format checks the rest: ranges, Struct values


_SCALARS: dict[int, tuple[type, type | tuple[()], str]] = {
    FieldDescriptor.CPPTYPE_INT32: (int, bool, "expected a whole number"),
    FieldDescriptor.CPPTYPE_STRING: (str, (), "expected a string"),
    FieldDescriptor.CPPTYPE_BOOL: (bool, (), "expected true or false")}
"""Each scalar type's JSON type, what is excluded from it, and the problem's message."""


def _pair_type(field: FieldDescriptor) -> Descriptor:
    return cast(Descriptor, field.message_type)


# Writing: protobuf's JSON mapping (every field without presence) -> contract JSON.

def _dump(value: dict[str, Json], descriptor: Descriptor) -> Json:
    name = descriptor.full_name
    if name == _STRUCT:
        return whole_numbers(value)
    dumped = {}
    for key, item in value.items():
        if (name in OMIT_EMPTY and item == []) or (name in OMIT_ZEROS and item == 0):
            continue
        field = descriptor.fields_by_name[key]
        dumped[_contract_name(field)] = _dump_field(item, field)
    if name in RESHAPED:
        dumped = RESHAPED[name][1](dumped)
    if name in UNWRAPPED:
        unwrapped = UNWRAPPED[name]
        others = {key: item for key, item in dumped.items() if key != unwrapped and item}
        return others if name in ALSO_OBJECTS and others else dumped.get(unwrapped)
    if name in TAGGED:
        tag, oneof = TAGGED[name]
        kind = next((f.name for f in descriptor.oneofs_by_name[oneof].fields
                     if f.name in dumped), None)
        member = dumped.pop(kind) if kind else {}
        return {tag: kind, **dumped, **member}
    return dumped


PARAM = "referee.common.v1.Param"
"""A sentence's params: the contract writes the list as one object, each param by its
name, a value or a list of values (``_param``)."""


def _param(value: dict[str, Json]) -> Json:
    values = [int(v["number"]) if "number" in v else v.get("text", v.get("flag"))
              for v in value["values"]]
    return values if value["list"] else values[0]


def _dump_field(value: Json, field: FieldDescriptor) -> Json:
    if field.message_type is not None and field.message_type.full_name == PARAM:
        return {param["name"]: _param(param) for param in value}
    if field.full_name in MAP_LIKE:
        key, count = MAP_LIKE[field.full_name]
        key_field = _pair_type(field).fields_by_name[key]
        return {_dump_one(pair[key], key_field): pair[count] for pair in value}
    if field.full_name in PAIRS:
        return [[position["row"], position["col"]] for position in value]
    if _is_map(field):  # answers only (versions, a catalog's provenance): an object
        entry = _pair_type(field).fields_by_name["value"]
        return {key: _dump_one(item, entry) for key, item in value.items()}
    if field.is_repeated:
        return [_dump_one(item, field) for item in value]
    return _dump_one(value, field)


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _dump_one(value: Json, field: FieldDescriptor) -> Json:
    if field.enum_type is not None:
        return _enum_names(field.enum_type).get(value, value)  # unknown numbers as numbers
    if field.message_type is not None:
        return _dump(value, field.message_type)
    return value


@cache
def _enum_names(enum: EnumDescriptor) -> dict[str, str | None]:
    """Each value's protobuf name -> its contract name (``None`` for the zero value)."""
    prefix = "".join(f"_{c}" if c.isupper() and i else c
                     for i, c in enumerate(enum.name)).upper() + "_"
    keep = enum.full_name in KEEP_CASE
    return {v.name: None if v.number == 0 else
            v.name.removeprefix(prefix) if keep else v.name.removeprefix(prefix).lower()
            for v in enum.values}


def _invalid(path: tuple[str | int, ...], detail: str) -> InvalidRequestError:
    return InvalidRequestError("INVALID_ARGUMENT", "Invalid argument", detail,
                               [(json_pointer(path), detail)])
