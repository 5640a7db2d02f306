"""The compiled schemas (api_gateway/compiled.py) read and write exactly as marshmallow.

Three levels: the JSON reader (orjson where it vouches, the standard reader otherwise)
gives the same document or the same problem; each endpoint's compiled body schema builds
the same protobuf request as ``schema.load`` or refuses, and its compiled answer schema
writes what ``schema.dump`` writes, to the byte once encoded; and over HTTP, against the
real engine, the gateway answers every body, valid, broken or hostile, exactly as the
same gateway answers it with marshmallow alone (``COMPILED_SCHEMAS = False``, the path
every body took before).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import marshmallow as ma
import pytest
from flask import Flask
from flask.testing import FlaskClient
from google.protobuf import message_factory, struct_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_gateway import create_app
from api_gateway.app import GAMES
from api_gateway.blueprint import COMPILER, json_response
from api_gateway.compiled import Compiler, Refused, Unsupported, plain
from api_gateway.parsing import (
    MAX_JSON_DEPTH,
    _unsure_number,
    load_json_body,
    load_json_document,
)
from api_gateway.problems import ProblemError
from api_gateway.resources.downtown_farmers_market import schemas as dfm
from api_gateway.resources.foxglove_farm import schemas as ff
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import game_pb2 as dfm_game_pb2
from referee.downtown_farmers_market.v1 import scoring_pb2 as dfm_scoring_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2
from referee.foxglove_farm.v1 import game_pb2 as ff_game_pb2
from referee.foxglove_farm.v1 import planning_pb2, scoring_pb2

from ..foxglove_farm.towns import town_dicts
from ..sample_boards import SIMPLE_BOARD, board, food_tile
from .fuzz import json_values, mutated

DATA = Path(__file__).resolve().parents[1] / "data"
DFM, FF = "/v1/downtown-farmers-market", "/v1/foxglove-farm"
JSON_POSTS = {f"/v1/{game.slug}{endpoint.path}": (endpoint.body, endpoint.answer)
              for game in GAMES for endpoint in game.endpoints}


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def _towns(path: Path) -> list[Any]:
    data = read(path)
    return [data["town"]] if "town" in data else [case["town"] for case in data["cases"]]


DFM_STATES = [read(p)["state"] for p in sorted((DATA / "downtown_farmers_market"
                                                / "positions").glob("*.json"))]
FF_STATES = [read(p)["state"] for p in sorted((DATA / "foxglove_farm"
                                               / "game_positions").glob("*.json"))]
TOWNS = [town for path in sorted((DATA / "foxglove_farm").rglob("*.json"))
         if "game_positions" not in path.parts for town in _towns(path)]
KULY = read(DATA / "foxglove_farm" / "kuly_transport_and_processing.json")
BOARDS = [SIMPLE_BOARD] + [read(DATA / "downtown_farmers_market" / f"{name}.json")["board"]
                           for name in ("rulebook_standard_example",
                                        "rulebook_young_shopper_example")]
NO_GRID = {key: value for key, value in SIMPLE_BOARD.items() if key != "grid"}
DFM_SETUP = {"players": [{"name": "Ana", "board": NO_GRID}, {"name": "Ben", "board": NO_GRID}],
             "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread", "bread"], ["cheese"]]}
DFM_MOVES = [{"action": "take", "player": 0, "tile": ["corn"], "row": 0, "col": 0},
             {"action": "discard", "player": 1, "tile": ["milk"]},
             {"action": "reveal", "tiles": [["bread"], ["egg", "egg"]]}]
FF_SETUP = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
            "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "coal_mine",
                        "lambing_shed", "allotment"],
            "c_tiles": ["bakery", "bakery", "furniture_store", "marketplace", "grocer"],
            "catalog": {"granary": {"slots": 4}}}
FF_ACTIONS = [
    {"action": "produce", "player": 0, "choices": [{"row": 0, "col": 2, "goods": {"wheat": 1}}]},
    {"action": "build_building", "player": 1, "building": "granary",
     "position": {"row": -1, "col": 0}, "payment": [{"row": 0, "col": 0, "goods": {"wood": 1}}],
     "gain": {"wheat": 1}},
    {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 1, "col": 0}, "sides": ["N", "E"], "upgrade": False}],
     "payment": [{"row": 0, "col": 1, "goods": {"stone": 2}}]},
    {"action": "pass", "player": 1},
    {"action": "transport", "player": 0, "good": "sheep", "count": 2,
     "from": {"row": 0, "col": 3}, "to": {"row": 2, "col": 1}},
    {"action": "haul", "player": 0, "to": {"row": 2, "col": 2},
     "picks": [{"good": "coal", "count": 1, "from": {"row": 0, "col": 0}}]},
    {"action": "process", "player": 1, "choices": []},
    {"action": "end_round", "player": 0},
    {"action": "draw_tiles", "tiles": ["granary", "bakery"]}]

VALID: dict[str, list[Any]] = {
    f"{DFM}/score": BOARDS,
    f"{DFM}/rank": [{"players": [{"name": f"P{i}", "board": b} for i, b in enumerate(BOARDS)]}],
    f"{DFM}/games": [DFM_SETUP, {**DFM_SETUP, "mode": "standard", "first_player": 1}],
    f"{DFM}/legal-moves": [{"state": state} for state in DFM_STATES],
    f"{DFM}/moves/validate": [{"state": state, "move": move} for state in DFM_STATES[:3]
                              for move in DFM_MOVES],
    f"{DFM}/games/replay": [{"setup": DFM_SETUP, "moves": DFM_MOVES}],
    f"{FF}/score": TOWNS,
    f"{FF}/rank": [{"players": [{"name": f"P{i}", "town": t} for i, t in enumerate(TOWNS[:4])]}],
    f"{FF}/transport/validate": [{"town": KULY["town"], "move": step["move"]}
                                 for step in KULY["transportation"]],
    f"{FF}/final-round/plan": TOWNS[:3],
    f"{FF}/games": [FF_SETUP],
    f"{FF}/legal-moves": [{"state": state} for state in FF_STATES],
    f"{FF}/actions/validate": [{"state": state, "action": action} for state in FF_STATES[:2]
                               for action in FF_ACTIONS],
    f"{FF}/games/replay": [{"setup": FF_SETUP, "actions": FF_ACTIONS}],
}
"""Bodies the schemas accept, for every endpoint (the engine may still refuse some)."""

HOT = [f"{DFM}/score", f"{DFM}/legal-moves", f"{DFM}/moves/validate", f"{FF}/score",
       f"{FF}/transport/validate"]


def test_every_json_endpoint_has_bodies_and_is_compiled() -> None:
    """Each endpoint's schemas compile, and its reader accepts JSON no deeper than the
    body limit, so orjson reads its bodies without the nesting check."""
    assert set(VALID) == set(JSON_POSTS)
    for path, (body, answer) in JSON_POSTS.items():
        depth = COMPILER.schema_loader(instance(body)).depth
        assert depth is not None and depth <= MAX_JSON_DEPTH, path
        COMPILER.schema_dumper(instance(answer))


# -- the JSON reader ---------------------------------------------------------------------

APP = Flask(__name__)
APP.config["MAX_CONTENT_LENGTH"] = 1 << 20


def outcome(read: Callable[[], Any]) -> Any:
    """What a reader gives: the document, exactly (types and key order), or its problem."""
    try:
        return ("document", json.dumps(read()))
    except ProblemError as problem:
        return ("problem", problem.status, problem.detail, problem.errors)


def depth_of(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


def assert_read_alike(raw: bytes) -> None:
    with APP.test_request_context(data=raw, content_type="application/json"):
        from flask import request
        standard = outcome(lambda: load_json_body(request))
        for depth in (None, 3, MAX_JSON_DEPTH):
            fast = outcome(partial(load_json_document, request, depth))
            if standard[0] == "problem" and fast[0] == "document":
                # only the nesting check is skipped: such a document is one no reader of
                # that depth accepts, and the standard reader then answers the 400
                assert "nests deeper" in standard[2]
                assert depth is not None and depth_of(json.loads(fast[1])) > MAX_JSON_DEPTH
            else:
                assert fast == standard, raw


HOSTILE = [b"", b" ", b"\n\t ", b"{", b"[1,]", b'{"a":1}x', b"\xef\xbb\xbf{}", b"\xff",
           b'"\xed\xa0\x80"', b'"\\ud800"', b'"\\udc00x"', b'"\\ud83d\\ude00"', b"NaN",
           b"[Infinity]", b"-Infinity", b"1e400", b"-0", b"-0.0", b"1.0", b"1E2",
           b"18446744073709551616", b"-9223372036854775809", b"9223372036854775807",
           b"123456789012345678", b"1234567890123456789", b'"\\u0000\x01"', b'{"a":1,"a":2}',
           b'{"b":1,"a":2,"b":3}', b"[" * 64 + b"]" * 64, b"[" * 65 + b"]" * 65,
           b'{"a":' * 70 + b"1" + b"}" * 70, b"[" * 2000 + b"]" * 2000, b"0.1", b"1e-7",
           b"true", b"null", b'"\xc3\xa9\xe2\x80\xa8"', b'"\\/\\b\\f\\n\\r\\t"', b"01",
           b'{"a" : [ 1 , 2 ] }', b"\x00", b'["\\x"]']


@pytest.mark.parametrize("raw", HOSTILE)
def test_hostile_bodies_read_alike(raw: bytes) -> None:
    assert_read_alike(raw)


@settings(max_examples=300, deadline=None)
@given(value=json_values | st.integers() | st.floats(allow_nan=False), ascii=st.booleans(),
       spaced=st.booleans())
def test_random_json_reads_alike(value: Any, ascii: bool, spaced: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii,
                      separators=(", ", ": ") if spaced else (",", ":"))
    assert_read_alike(text.encode("utf-8", "surrogatepass"))


# -- the compiled schemas, against marshmallow -------------------------------------------

_SCHEMAS: dict[type[ma.Schema], ma.Schema] = {}


_DIGITS = st.sampled_from(list(b"0123456789"))


@settings(max_examples=500, deadline=None)
@given(raw=st.lists(_DIGITS | st.sampled_from(list(b".eE\" ,x")) | st.integers(0, 255),
                    max_size=48).map(bytes))
def test_unsure_numbers_are_found_as_the_regular_expression_finds_them(raw: bytes) -> None:
    assert _unsure_number(raw) == bool(re.search(rb"[0-9](?:[0-9]{18}|[.eE])", raw))


def instance(schema: type[ma.Schema]) -> ma.Schema:
    return _SCHEMAS.setdefault(schema, schema())


def compiled_load(schema: type[ma.Schema], body: Any) -> Any:
    try:
        return COMPILER.schema_loader(instance(schema)).load(body)
    except Refused:
        return Refused
    except Exception as error:
        return type(error)


def marshmallow_load(schema: type[ma.Schema], body: Any) -> Any:
    try:
        return instance(schema).load(body)
    except Exception as error:
        return type(error)


def assert_loads_alike(schema: type[ma.Schema], body: Any, *, valid: bool = False) -> None:
    """The compiled schema builds what marshmallow builds, or refuses, or fails as
    marshmallow fails (a schema's hook); it refuses a body marshmallow refuses before
    any hook of marshmallow's would run, and no valid body here."""
    expected = marshmallow_load(schema, copy.deepcopy(body))
    got = compiled_load(schema, body)
    if valid:
        assert not isinstance(expected, type), (expected, body)
        assert got == expected and type(got) is type(expected), body
    elif expected is ma.ValidationError:
        assert got in (Refused, ma.ValidationError), (got, body)
    elif got is not Refused:
        assert got == expected and type(got) is type(expected), body


@pytest.mark.parametrize("path", sorted(VALID))
def test_recorded_bodies_load_alike(path: str) -> None:
    schema = JSON_POSTS[path][0]
    for body in VALID[path]:
        assert_loads_alike(schema, body, valid=True)


moves = st.one_of(
    st.builds(lambda p, tile, r, c: {"action": "take", "player": p, "tile": tile, "row": r,
                                     "col": c},
              st.integers(-2, 5), food_tile, st.integers(-1, 4), st.integers(-1, 4)),
    st.builds(lambda p, tile: {"action": "discard", "player": p, "tile": tile},
              st.integers(0, 3), food_tile),
    st.builds(lambda tiles: {"action": "reveal", "tiles": tiles}, st.lists(food_tile)))


@settings(max_examples=150, deadline=None)
@given(body=board, towns=st.lists(town_dicts(max_tiles=12), min_size=1, max_size=2),
       move=moves, state=st.sampled_from(DFM_STATES))
def test_random_valid_bodies_load_alike(body: Any, towns: list[Any], move: Any,
                                        state: Any) -> None:
    assert_loads_alike(dfm.BoardSchema, body, valid=True)
    assert_loads_alike(dfm.RankRequestSchema,
                       {"players": [{"name": "Ana", "board": body}]}, valid=True)
    assert_loads_alike(dfm.ValidateMoveRequestSchema, {"state": state, "move": move},
                       valid=True)
    for town in towns:
        assert_loads_alike(ff.TownSchema, town, valid=True)
        assert_loads_alike(ff.TransportRequestSchema, {"town": town, "move": {
            "good": "wood", "from": {"row": 0, "col": 0}, "to": {"row": 0, "col": 1}}},
            valid=True)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), path=st.sampled_from(sorted(VALID)))
def test_broken_bodies_load_alike(data: st.DataObject, path: str) -> None:
    """One random part of a valid body replaced by random JSON: marshmallow's verdict."""
    body = data.draw(mutated(st.sampled_from(VALID[path]).map(copy.deepcopy)))
    assert_loads_alike(JSON_POSTS[path][0], body)


EDGES = [1.0, True, False, "1", None, -1, 2**31, -(2**31) - 1, 2**64, [], {}, "", "x" * 300,
         "NORTH", "n", "Egg", {"": 1}]


@pytest.mark.parametrize("path", sorted(VALID))
def test_every_leaf_of_every_body_replaced_loads_alike(path: str) -> None:
    """Each leaf (and each object's keys: a missing one, an unknown one) of each recorded
    body, changed to each edge value of JSON's types."""
    schema = JSON_POSTS[path][0]
    for body in VALID[path][:2]:
        for variant in _variants(body):
            assert_loads_alike(schema, variant)


def _variants(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key in list(value):
            yield {k: v for k, v in value.items() if k != key}
            for inner in _variants(value[key]):
                yield {**value, key: inner}
        yield {**value, "extra": 1}
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            for inner in _variants(item):
                yield [*value[:i], inner, *value[i + 1:]]
        yield [*value, None]
    else:
        yield from EDGES


# -- answers ------------------------------------------------------------------------------

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
_SCALARS: dict[int, st.SearchStrategy[Any]] = {
    FieldDescriptor.CPPTYPE_INT32: st.integers(-(2**31), 2**31 - 1),
    FieldDescriptor.CPPTYPE_INT64: st.integers(-(2**63), 2**63 - 1),
    FieldDescriptor.CPPTYPE_UINT32: st.integers(0, 2**32 - 1),
    FieldDescriptor.CPPTYPE_UINT64: st.integers(0, 2**64 - 1),
    FieldDescriptor.CPPTYPE_BOOL: st.booleans(),
    FieldDescriptor.CPPTYPE_STRING: TEXT,
    FieldDescriptor.CPPTYPE_DOUBLE: st.floats(allow_nan=False, allow_infinity=False),
    FieldDescriptor.CPPTYPE_FLOAT: st.floats(allow_nan=False, allow_infinity=False, width=32),
}
STRUCT_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | TEXT
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8)


def _struct(value: dict[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(value)
    return struct


def messages(kind: type[Message], depth: int = 6) -> st.SearchStrategy[Message]:
    """Random messages of ``kind``: every field set or not, lists of 0 to 2, each oneof
    one member or none, enums defined or not, strings of any character."""
    descriptor: Descriptor = kind.DESCRIPTOR
    if descriptor.full_name == "google.protobuf.Struct":
        return st.dictionaries(TEXT, STRUCT_VALUES, max_size=3).map(_struct)  # type: ignore[return-value]

    def value(field: FieldDescriptor) -> st.SearchStrategy[Any]:
        if field.message_type is not None:
            nested = message_factory.GetMessageClass(field.message_type)
            return st.builds(nested) if depth == 0 else messages(nested, depth - 1)
        if field.enum_type is not None:
            return st.sampled_from([v.number for v in field.enum_type.values] + [99])
        return _SCALARS[field.cpp_type]

    parts: dict[str, st.SearchStrategy[Any]] = {}
    for field in descriptor.fields:
        if field.containing_oneof is not None and field.containing_oneof.name != "_" + field.name:
            continue
        one = value(field)
        parts[field.name] = (st.lists(one, max_size=2) if field.is_repeated
                             else st.none() | one)
    oneofs = [st.none() | st.one_of([st.tuples(st.just(f.name), value(f)) for f in o.fields])
              for o in descriptor.oneofs if not o.name.startswith("_")]

    def build(fields: dict[str, Any], members: list[Any]) -> Message:
        message = kind()
        for name, item in [*fields.items(), *(m for m in members if m is not None)]:
            if item is None:
                continue
            target = getattr(message, name)
            if isinstance(item, list):
                target.extend(item)
            elif isinstance(item, Message):
                target.CopyFrom(item)
            else:
                setattr(message, name, item)
        return message
    return st.builds(build, st.fixed_dictionaries(parts), st.tuples(*oneofs).map(list))


ANSWERS: dict[str, type[Message]] = {
    f"{DFM}/score": dfm_scoring_pb2.BoardScore,
    f"{DFM}/rank": dfm_pb2.RankPlayersResponse,
    f"{DFM}/games": dfm_game_pb2.GameState,
    f"{DFM}/legal-moves": dfm_pb2.ListLegalMovesResponse,
    f"{DFM}/moves/validate": dfm_pb2.ValidateMoveResponse,
    f"{DFM}/games/replay": dfm_pb2.ReplayGameResponse,
    f"{FF}/score": scoring_pb2.TownScore,
    f"{FF}/rank": ff_pb2.RankPlayersResponse,
    f"{FF}/transport/validate": ff_pb2.ValidateTransportResponse,
    f"{FF}/final-round/plan": planning_pb2.FinalRoundPlan,
    f"{FF}/games": ff_game_pb2.GameState,
    f"{FF}/legal-moves": ff_pb2.ListLegalMovesResponse,
    f"{FF}/actions/validate": ff_pb2.ValidateActionResponse,
    f"{FF}/games/replay": ff_pb2.ReplayGameResponse,
}
"""What each endpoint's view hands its answer schema."""


def assert_dumps_alike(schema: type[ma.Schema], message: Message) -> None:
    """The compiled schema writes what marshmallow writes, and so does orjson after it;
    or it refuses (or fails where marshmallow fails) and marshmallow writes the answer."""
    try:
        expected: Any = instance(schema).dump(message)
    except Exception as error:
        expected = type(error)
    try:
        got: Any = COMPILER.schema_dumper(instance(schema))(message)
    except Refused:
        return
    except Exception as error:
        got = type(error)
    assert got == expected, message
    if isinstance(expected, type):
        return
    app = _answer_app()
    with app.app_context():
        assert json_response(got).get_data() == app.json.response(expected).get_data()


_APPS: list[Flask] = []


def _answer_app() -> Flask:
    if not _APPS:
        _APPS.append(create_app())
    return _APPS[0]


@pytest.mark.parametrize("path", sorted(ANSWERS))
def test_random_answers_dump_alike(path: str) -> None:
    schema = JSON_POSTS[path][1]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(message=messages(ANSWERS[path]))
    def check(message: Message) -> None:
        assert_dumps_alike(schema, message)
    check()


def test_floats_and_large_numbers_are_written_by_marshmallow() -> None:
    """orjson spells some floats otherwise (1e-07 as 1e-7): the compiled writer leaves
    anything but plain JSON to marshmallow and the standard encoder."""
    assert plain({"a": [1, "x", None, True, {"b": -(2**62)}]})
    for value in (0.5, 2**63, {"a": [1e-7]}, {1: 2}, (1, 2)):
        with pytest.raises(Refused):
            plain(value)
    town = ff_pb2.ValidateTransportResponse(legal=True)
    town.town.catalog.update({"shed": {"slots": 1e-7}})
    with pytest.raises(Refused):
        COMPILER.schema_dumper(instance(ff.TransportVerdictSchema))(town)


def test_what_the_compiler_does_not_know_is_left_to_marshmallow() -> None:
    """A field class it does not know is read and written by marshmallow at its schema;
    a schema it cannot follow (field validators) is not compiled at all."""

    class Odd(ma.fields.String):
        def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
            return super()._deserialize(value, attr, data, **kwargs).upper()

    class Sample(ma.Schema):
        name = Odd(required=True)
        count = ma.fields.Integer(load_default=1, validate=ma.validate.Range(1, 3))
        flag = ma.fields.Boolean(truthy={"yes"}, falsy={"no"})

    compiler = Compiler()
    load = compiler.schema_loader(Sample()).load
    assert load({"name": "ana"}) == {"name": "ANA", "count": 1}
    for refused in ({"name": "ana", "count": 4}, {"name": "ana", "flag": True},
                    {"count": 1}, {"name": "ana", "other": 1}):
        with pytest.raises((Refused, ma.ValidationError)):  # its own, or marshmallow's
            load(refused)

    class Validated(ma.Schema):
        name = ma.fields.String()

        @ma.validates("name")
        def check(self, value: str, **kwargs: Any) -> None:
            pass

    with pytest.raises(Unsupported):
        compiler.schema_loader(Validated())


# -- over HTTP, against the real engine ---------------------------------------------------

@pytest.fixture(scope="module")
def reference(engine_address: str) -> FlaskClient:
    """The gateway with marshmallow alone: how every body was read before."""
    return create_app({"ENGINE_ADDRESS": engine_address, "MAX_CONTENT_LENGTH": 64 * 1024,
                       "COMPILED_SCHEMAS": False}).test_client()


def answer_of(client: FlaskClient, path: str, raw: bytes,
              content_type: str = "application/json") -> tuple[Any, ...]:
    # One request id for both gateways: it is in every answer's headers and problem body.
    response = client.post(path, data=raw, content_type=content_type,
                           headers={"X-Request-ID": "compared"})
    return response.status_code, sorted(response.headers.items()), response.get_data()


def assert_answered_alike(gateway: FlaskClient, reference: FlaskClient, path: str,
                          raw: bytes, content_type: str = "application/json") -> int:
    fast = answer_of(gateway, path, raw, content_type)
    assert fast == answer_of(reference, path, raw, content_type), raw[:300]
    return fast[0]  # type: ignore[no-any-return]


def _engine_bodies(reference: FlaskClient) -> dict[str, list[Any]]:
    """More bodies: each recorded state with the legal moves the engine lists for it."""
    extra: dict[str, list[Any]] = {f"{DFM}/moves/validate": [], f"{FF}/actions/validate": []}
    for state in DFM_STATES:
        listed = reference.post(f"{DFM}/legal-moves", json={"state": state}).get_json()
        extra[f"{DFM}/moves/validate"] += [{"state": state, "move": move}
                                           for move in listed["moves"][:4]]
    for state in FF_STATES:
        listed = reference.post(f"{FF}/legal-moves", json={"state": state}).get_json()
        extra[f"{FF}/actions/validate"] += [{"state": state, "action": action}
                                            for action in listed["moves"][:4]]
    return extra


def test_recorded_bodies_are_answered_alike(gateway: FlaskClient,
                                            reference: FlaskClient) -> None:
    statuses = []
    extra = _engine_bodies(reference)
    for path, bodies in VALID.items():
        for body in [*bodies, *extra.get(path, [])]:
            statuses.append(assert_answered_alike(gateway, reference, path,
                                                  json.dumps(body).encode()))
    assert statuses.count(200) > len(statuses) // 2


@pytest.mark.parametrize("path", HOT)
def test_hostile_bodies_are_answered_alike(gateway: FlaskClient, reference: FlaskClient,
                                           path: str) -> None:
    body = VALID[path][0]
    text = json.dumps(body)
    for raw in [*HOSTILE, text.encode(), text.encode() + b"\n", b"\xef\xbb\xbf" + text.encode(),
                text.replace("}", ', "points": 1.0}', 1).encode(),
                text.replace("}", ', "x": 123456789012345678901}', 1).encode(),
                text[:-1].encode(), json.dumps([body]).encode(),
                json.dumps(body, ensure_ascii=False).encode("utf-16")]:
        assert_answered_alike(gateway, reference, path, raw)
    for content_type in ("text/plain", "application/json; charset=latin-1", ""):
        assert_answered_alike(gateway, reference, path, text.encode(), content_type)


@pytest.mark.parametrize("path", sorted(VALID))
def test_broken_bodies_are_answered_alike(gateway: FlaskClient, reference: FlaskClient,
                                          path: str) -> None:
    @settings(max_examples=25 if path in HOT else 8, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(body=mutated(st.sampled_from(VALID[path]).map(copy.deepcopy)))
    def check(body: Any) -> None:
        assert_answered_alike(gateway, reference, path, json.dumps(body).encode())
    check()


DOUBTFUL = [{**SIMPLE_BOARD, "grid": [[{"candidates": [["corn"], ["egg", "corn"]]}, *row[1:]]
                                      if r == 0 else row
                                      for r, row in enumerate(SIMPLE_BOARD["grid"])]}]
"""A board with a doubtful space: the compiled reader refuses it, marshmallow reads it."""


def test_doubtful_boards_are_read_by_marshmallow_and_answered_alike(
        gateway: FlaskClient, reference: FlaskClient) -> None:
    path = f"{DFM}/score"
    bodies = [*DOUBTFUL, *(copy.deepcopy(b) for b in BOARDS)]
    for body in bodies[1:]:
        body["grid"][3][3] = {"candidates": [["milk"], ["milk", "milk"], ["bread"]]}
    for body in bodies:
        assert compiled_load(dfm.ScoreBoardSchema, body) is Refused
        assert marshmallow_load(dfm.ScoreBoardSchema, body).grid
        assert assert_answered_alike(gateway, reference, path, json.dumps(body).encode()) == 200
    for variant in _variants(DOUBTFUL[0]["grid"][0][0]):
        body = copy.deepcopy(DOUBTFUL[0])
        body["grid"][0][0] = variant
        assert_answered_alike(gateway, reference, path, json.dumps(body).encode())


def test_doubtful_towns_are_read_by_marshmallow_and_answered_alike(
        gateway: FlaskClient, reference: FlaskClient) -> None:
    path = f"{FF}/score"
    town = copy.deepcopy(KULY["town"])
    ranch = next(tile for tile in town["tiles"] if tile.get("building") == "ranch")
    ranch["goods"] = {"sheep": {"candidates": [0, 2, 1]}}
    assert compiled_load(ff.ScoreTownSchema, town) is Refused
    assert assert_answered_alike(gateway, reference, path, json.dumps(town).encode()) == 200
    for variant in _variants(ranch["goods"]):
        ranch["goods"] = variant
        assert_answered_alike(gateway, reference, path, json.dumps(town).encode())


# -- what the compiler reproduces, on schemas that use it all ------------------------------

class _Inner(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    n = ma.fields.Integer(required=True, strict=True)
    label = ma.fields.String(data_key="name", attribute="title", allow_none=True)


class _Loose(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    flag = ma.fields.Boolean(load_default=False)


class _Everything(ma.Schema):
    """Hooks of every kind, data keys and attributes, defaults, null, unknown keys kept,
    dropped or refused, dicts, lists, nesting, a non-strict integer and a boolean."""

    name = ma.fields.String(required=True, validate=ma.validate.Length(max=5))
    count = ma.fields.Integer(load_default=lambda: 7, validate=ma.validate.Range(0, 9))
    loose = ma.fields.Integer()  # not strict: "3" and 3.0 are 3 to marshmallow
    ratio = ma.fields.Float()
    tags = ma.fields.List(ma.fields.String(), data_key="labels", load_default=list)
    inner = ma.fields.Nested(_Inner, allow_none=True)
    inners = ma.fields.List(ma.fields.Nested(_Inner))
    loose_inner = ma.fields.Nested(_Loose)
    scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer(strict=True))
    anything = ma.fields.Dict()
    on = ma.fields.Boolean(allow_none=True)
    when = ma.fields.Constant(3)

    @ma.pre_load
    def renamed(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict) and "old" in data:
            data = {**data, "name": data["old"]}
            del data["old"]
        return data

    @ma.validates_schema(pass_original=True)
    def agrees(self, data: dict[str, Any], original: Any, **kwargs: Any) -> None:
        if data.get("count") == 3 and "labels" not in original:
            raise ma.ValidationError("3 needs labels")

    @ma.post_load(pass_original=True)
    def counted(self, data: dict[str, Any], original: Any, **kwargs: Any) -> Any:
        return {**data, "keys": sorted(original)}


EVERYTHING = {"name": "ana", "count": 3, "loose": 2, "labels": ["a", "b"],
              "inner": {"n": 1, "name": None, "extra": [1]},
              "inners": [{"n": 2}, {"n": 3, "name": "x"}], "loose_inner": {"flag": True, "x": 1},
              "scores": {"a": 1}, "anything": {"b": [2.5]}, "on": None, "when": 9}


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=mutated(st.just(EVERYTHING).map(copy.deepcopy))
       | st.just(EVERYTHING).map(lambda b: {**b, "old": "bo"}))
def test_a_schema_using_everything_loads_alike(body: Any) -> None:
    assert_loads_alike(_Everything, body)


def test_the_sample_schema_is_compiled_and_takes_the_fast_path() -> None:
    got = COMPILER.schema_loader(instance(_Everything)).load(copy.deepcopy(EVERYTHING))
    assert got == instance(_Everything).load(copy.deepcopy(EVERYTHING))
    for refused in ({**EVERYTHING, "loose": "3"}, {**EVERYTHING, "on": 1},
                    {**EVERYTHING, "count": 3, "labels": None}):
        with pytest.raises((Refused, ma.ValidationError)):
            COMPILER.schema_loader(instance(_Everything)).load(refused)


class _Accessed(ma.Schema):
    """An answer schema with its own accessor and hooks around it."""

    total = ma.fields.Integer(attribute="sum")
    done = ma.fields.Boolean(dump_default=False)
    tags = ma.fields.List(ma.fields.String())
    when = ma.fields.Constant("now")
    method = ma.fields.Method("twice")
    inner = ma.fields.Nested(_Inner)
    many = ma.fields.Nested(_Inner, many=True)
    weights = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Float())

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return obj.get(attr, default) if attr != "done" else obj.get("finished", default)

    def twice(self, obj: Any) -> Any:
        return 2 * (obj.get("sum") or 0)

    @ma.pre_dump
    def prepared(self, obj: Any, **kwargs: Any) -> Any:
        return {**obj, "seen": len(obj)}

    @ma.post_dump(pass_original=True)
    def stamped(self, data: dict[str, Any], original: Any, **kwargs: Any) -> dict[str, Any]:
        return {**data, "v": len(original)}


_OBJECTS = st.fixed_dictionaries({}, optional={
    "sum": st.none() | st.integers() | st.booleans(), "finished": st.none() | st.booleans() | st.integers(),
    "tags": st.none() | st.lists(st.text(max_size=3) | st.integers(), max_size=3),
    "inner": st.none() | st.fixed_dictionaries({"n": st.integers(), "title": st.none() | st.text(max_size=3)}),
    "many": st.none() | st.lists(st.fixed_dictionaries({"n": st.integers()}), max_size=2),
    "weights": st.none() | st.dictionaries(st.text(max_size=2), st.floats(allow_nan=False) | st.integers(), max_size=2)})


@settings(max_examples=300, deadline=None)
@given(obj=_OBJECTS)
def test_a_schema_with_its_own_accessor_and_hooks_dumps_alike(obj: dict[str, Any]) -> None:
    assert_dumps_alike(_Accessed, obj)
    assert_dumps_alike(_Inner, {**obj, "n": 1, "title": "t"})


class _Said(ma.Schema):
    """A schema whose accessor reads most fields from a part of the object, and says how
    (``compiled_attribute``, ``compiled_part``), as a move's and a challenge's do."""

    kind = ma.fields.String()
    total = ma.fields.Integer(attribute="sum")
    tags = ma.fields.List(ma.fields.String())

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return "said" if attr == "kind" else obj["part"].get(attr, default)

    def compiled_attribute(self, attr: str) -> str:
        return "'said'" if attr == "kind" else f"part.get({attr!r}, MISSING)"

    def compiled_part(self) -> str:
        return "obj['part']"


class _Unsaid(_Said):
    """Its own accessor, without saying how: called for every field, not the parent's
    expressions."""

    def get_attribute(self, obj: Any, attr: str, default: Any) -> Any:
        return obj.get(attr, default)


@settings(max_examples=200, deadline=None)
@given(obj=_OBJECTS)
def test_a_schema_that_says_how_its_accessor_reads_dumps_alike(obj: dict[str, Any]) -> None:
    assert_dumps_alike(_Said, {"part": obj})
    assert_dumps_alike(_Unsaid, obj)
    assert any("part = obj['part']" in text for text in COMPILER.sources.values())
