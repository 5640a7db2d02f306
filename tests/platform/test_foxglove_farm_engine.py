"""The Foxglove Farm engine over real gRPC: answers, field violations, health, reflection.

Towns are written in the contract's JSON (the golden data files) and read into protobuf
by the gateway's schemas, so the messages are the ones the gateway sends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import marshmallow as ma
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from api_gateway.resources.foxglove_farm.schemas import TownSchema, TransportMoveSchema
from tabletop_referee_clients import GrpcClient, InvalidRequestError
from engine_service.foxglove_farm import convert
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as service_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as service_grpc
from referee.foxglove_farm.v1 import scoring_pb2, town_pb2, transport_pb2
from tabletop_rules import foxglove_farm as fox
from tabletop_rules.foxglove_farm import json_form, parse_town
from tabletop_rules.foxglove_farm.planner import plan_final_round
from tabletop_rules.problems import InvalidInputError

from ..foxglove_farm.towns import b, t, town_data
from .foxglove_towns import KULY, RANCH, UNBOUNDED_TOWN
from .test_foxglove_farm_gateway import MALFORMED_TOWNS

FF_SERVICE = "referee.foxglove_farm.v1.FoxgloveFarmService"


def town(data: dict[str, Any]) -> town_pb2.Town:
    return TownSchema().load(data)


def move(data: dict[str, Any]) -> transport_pb2.Move:
    return TransportMoveSchema().load(data)


def _on_the_wire(body: Any) -> bool:
    """Whether the gateway's schema carries ``body`` to the engine."""
    try:
        TownSchema().load(body)
    except (ma.ValidationError, TypeError):
        return False
    return True


def problems_of(call: Any, *args: Any) -> dict[str, str]:
    """The field violations ``call(*args)`` is refused with, by pointer."""
    with pytest.raises(InvalidRequestError) as raised:
        call(*args)
    return dict(raised.value.problems)


def test_score_town_answers_each_end_game_effect(grpc_client: GrpcClient) -> None:
    score = grpc_client.foxglove_farm.score_town(town(RANCH["town"]))
    assert (score.total, score.end_game_points, score.goods_remaining, score.tile_count) == (
        RANCH["ranch_points"], RANCH["ranch_points"], 8, 4)
    (ranch,) = score.end_game
    assert (ranch.building, ranch.row, ranch.col, ranch.rule) == ("ranch", 1, 1, "FF-R7")
    assert "8 sheep" in ranch.explanation


def test_unspecified_variant_reads_as_standard(grpc_client: GrpcClient) -> None:
    message = town(KULY["town"])
    message.variant = town_pb2.VARIANT_UNSPECIFIED
    assert grpc_client.foxglove_farm.score_town(message).tile_count == len(KULY["town"]["tiles"])


def test_unset_and_unknown_enum_values_are_field_violations(grpc_client: GrpcClient) -> None:
    message = town(KULY["town"])
    message.variant = 7
    message.tiles[2].trail.sides[1] = town_pb2.SIDE_UNSPECIFIED
    message.tiles[4].trail.sides.append(99)
    found = problems_of(grpc_client.foxglove_farm.score_town, message)
    assert found.keys() == {"/town/variant", "/town/tiles/2/trail/1", "/town/tiles/4/trail/2"}
    assert "expected one of N, E, S, W" in found["/town/tiles/2/trail/1"]
    bad_move = transport_pb2.Move(origin=town_pb2.Position(row=0, col=0))
    assert problems_of(grpc_client.foxglove_farm.validate_transport, town(KULY["town"]),
                       bad_move).keys() == {"/move/good", "/move/to"}


def test_what_a_message_allows_but_a_town_does_not(grpc_client: GrpcClient) -> None:
    message = town(KULY["town"])
    message.tiles[0].ClearField("kind")  # neither a building nor a trail
    message.tiles[2].goods.wood = 1  # goods on a trail
    message.tiles[3].goods.coal = -1
    message.score_track = -5
    assert problems_of(grpc_client.foxglove_farm.score_town, message).keys() == {
        "/town/tiles/0", "/town/tiles/2/goods", "/town/tiles/3/goods/coal", "/town/score_track"}


def test_catalog_travels_as_a_struct(grpc_client: GrpcClient) -> None:
    data = town_data(t(1, 0, "NE"), b(1, 1, "ranch", sheep=10),
                     catalog={"ranch": {"slots": 10}})
    assert grpc_client.foxglove_farm.score_town(town(data)).total == 10 * 3 + 6
    data["catalog"] = {"ranch": {"slots": 31}, "Windmill": {}}
    assert problems_of(grpc_client.foxglove_farm.score_town, town(data)).keys() == {
        "/town/catalog/ranch/slots", "/town/catalog/Windmill"}


def test_kuly_transports_chain_through_the_town_after(grpc_client: GrpcClient) -> None:
    current = town(KULY["town"])
    for step in KULY["transportation"]:
        verdict = grpc_client.foxglove_farm.validate_transport(current, move(step["move"]))
        assert verdict.legal and not verdict.violations, step["step"]
        assert [[p.row, p.col] for p in verdict.path] == step["path"]
        current = verdict.town
    goods = {tile.building: tile.goods for tile in current.tiles if tile.building}
    assert goods["charcoal_kiln"] == town_pb2.Goods(wood=3)
    assert goods["ranch"] == town_pb2.Goods(sheep=1)


def test_an_illegal_move_is_an_answer_with_reasons(grpc_client: GrpcClient) -> None:
    step_b = KULY["transportation"][1]["move"]  # before step A the kiln has 1 free slot
    verdict = grpc_client.foxglove_farm.validate_transport(town(KULY["town"]), move(step_b))
    assert not verdict.legal and not verdict.path and not verdict.HasField("town")
    (violation,) = verdict.violations
    assert (violation.rule, violation.reason, violation.pointer) == (
        "FF-R3", "NOT_ENOUGH_FREE_SLOTS", "/move/to")


def test_an_unset_count_moves_one(grpc_client: GrpcClient) -> None:
    step_c = move(KULY["transportation"][2]["move"])
    step_c.ClearField("count")
    assert grpc_client.foxglove_farm.validate_transport(town(KULY["town"]), step_c).legal
    step_c.count = 0
    assert problems_of(grpc_client.foxglove_farm.validate_transport, town(KULY["town"]),
                       step_c).keys() == {"/move/count"}


def test_rank_applies_the_tie_breaks(grpc_client: GrpcClient) -> None:
    kuly = town(KULY["town"])
    fewer_goods = town({**KULY["town"], "tiles": [
        {k: v for k, v in tile.items() if k != "goods"} for tile in KULY["town"]["tiles"]]})
    answer = grpc_client.foxglove_farm.rank_towns([
        scoring_pb2.PlayerTown(name="Kuly", town=kuly),
        scoring_pb2.PlayerTown(name="Ana", town=fewer_goods)])
    assert [(s.name, s.total, s.goods_remaining, s.place) for s in answer.standings] == [
        ("Ana", 0, 0, 1), ("Kuly", 0, 8, 2)]  # FF-R16: fewest goods left
    assert list(answer.winners) == ["Ana"]


def test_rank_problems_point_into_each_player(grpc_client: GrpcClient) -> None:
    broken = town(KULY["town"])
    broken.tiles[0].building = "forrest"
    players = [scoring_pb2.PlayerTown(name="Kuly", town=town(KULY["town"])),
               scoring_pb2.PlayerTown(name="Kuly", town=broken)]
    found = problems_of(grpc_client.foxglove_farm.rank_towns, players)
    assert found.keys() == {"/players/1/name", "/players/1/town/tiles/0/building"}
    assert "did you mean Forest" in found["/players/1/town/tiles/0/building"]


def test_plan_final_round_answers_the_planner_s_plan(grpc_client: GrpcClient) -> None:
    plan = grpc_client.foxglove_farm.plan_final_round(town(KULY["town"]))
    expected = plan_final_round(parse_town(KULY["town"])).to_dict()
    assert (plan.total, plan.processing_points, plan.end_game_points,
            plan.goods_remaining) == (expected["total"], expected["processing_points"],
                                      expected["end_game_points"], expected["goods_remaining"])
    assert [s.WhichOneof("action") for s in plan.steps] == [
        s["action"] for s in expected["steps"]]
    assert plan.total == KULY["processing"]["points"] + KULY["end_game"]["ranch_points"]


def test_an_unbounded_final_round_is_refused_at_the_catalog(grpc_client: GrpcClient) -> None:
    found = problems_of(grpc_client.foxglove_farm.plan_final_round, town(UNBOUNDED_TOWN))
    assert found.keys() == {"/town/catalog"} and "unbounded" in found["/town/catalog"]


def test_health_and_reflection_know_the_service(engine_address: str) -> None:
    with grpc.insecure_channel(engine_address) as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=FF_SERVICE), timeout=5)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        answers = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
        assert FF_SERVICE in {s.name for a in answers for s in a.list_services_response.service}


# -- the converter reads protobuf straight into rule values -----------------------------
# These call the engine through the generated stub, so they depend on nothing but the wire.

def violations(engine_address: str, method: str, request: Any) -> dict[str, str]:
    """The field violations an INVALID_ARGUMENT answer to ``request`` lists, by pointer."""
    with grpc.insecure_channel(engine_address) as channel:
        stub = service_grpc.FoxgloveFarmServiceStub(channel)
        with pytest.raises(grpc.RpcError) as raised:
            getattr(stub, method)(request, timeout=5)
    status = rpc_status.from_call(raised.value)
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT and status is not None
    bad_request = error_details_pb2.BadRequest()
    assert [detail for detail in status.details if detail.Unpack(bad_request)]
    return {v.field: v.description for v in bad_request.field_violations}


def kuly_with(change: Callable[[town_pb2.Town], object]) -> town_pb2.Town:
    message = town(KULY["town"])
    change(message)
    return message


def _add_tile(message: town_pb2.Town, **fields: Any) -> None:
    message.tiles.add(**fields)


WIRE_SHAPE_PROBLEMS: dict[str, tuple[Callable[[town_pb2.Town], object], str, str]] = {
    "unknown variant": (lambda m: setattr(m, "variant", 9), "/town/variant",
                        "'Variant number 9' is not a variant; expected one of standard, expert"),
    "unset side": (lambda m: m.tiles[2].trail.sides.append(town_pb2.SIDE_UNSPECIFIED),
                   "/town/tiles/2/trail/2",
                   "'SIDE_UNSPECIFIED' is not a side; expected one of N, E, S, W"),
    "side listed twice": (lambda m: m.tiles[2].trail.sides.append(m.tiles[2].trail.sides[0]),
                          "/town/tiles/2/trail/2", "is listed twice"),
    "neither building nor trail": (lambda m: m.tiles[4].ClearField("kind"), "/town/tiles/4",
                                   'a tile has either "building" (a building id) or "trail"'),
    "goods on a trail": (lambda m: setattr(m.tiles[2].goods, "wood", 1), "/town/tiles/2/goods",
                         "a trail tile holds no goods"),
    "two tiles at one position": (lambda m: m.tiles.append(m.tiles[2]), "/town/tiles/9",
                                  "overlaps tile 2"),
    "misspelt building": (lambda m: setattr(m.tiles[3], "building", "charcoal_klin"),
                          "/town/tiles/3/building", "did you mean Charcoal Kiln"),
    "building id too long": (lambda m: setattr(m.tiles[3], "building", "k" * 101),
                             "/town/tiles/3/building", "at most 100 characters; got 101"),
    "too many tiles": (lambda m: [_add_tile(m, row=9, col=c, trail=town_pb2.Trail(sides=[2, 4]))
                                  for c in range(120)], "/town/tiles", "at most 120 tiles"),
    "catalog in the wrong format": (lambda m: m.catalog.update({"ranch": {"slots": "ten"}}),
                                    "/town/catalog/ranch/slots", "expected a whole number"),
}


@pytest.mark.parametrize("change, pointer, message", WIRE_SHAPE_PROBLEMS.values(),
                         ids=WIRE_SHAPE_PROBLEMS)
def test_every_wire_shape_problem_has_its_pointer(engine_address: str, change: Any,
                                                  pointer: str, message: str) -> None:
    request = service_pb2.ScoreTownRequest(town=kuly_with(change))
    found = violations(engine_address, "ScoreTown", request)
    assert found.keys() == {pointer} and message in found[pointer]


@pytest.mark.parametrize("move_change, pointer", [
    (lambda m: m.ClearField("good"), "/move/good"),
    (lambda m: setattr(m, "good", 42), "/move/good"),
    (lambda m: m.ClearField("origin"), "/move/from"),
    (lambda m: m.ClearField("destination"), "/move/to"),
])
def test_every_wire_shape_problem_of_a_move_has_its_pointer(
        engine_address: str, move_change: Callable[[transport_pb2.Move], object],
        pointer: str) -> None:
    the_move = move(KULY["transportation"][2]["move"])
    move_change(the_move)
    request = service_pb2.ValidateTransportRequest(town=town(KULY["town"]), move=the_move)
    assert violations(engine_address, "ValidateTransport", request).keys() == {pointer}


def test_a_misspelt_building_and_a_bad_enum_are_reported_together(
        engine_address: str) -> None:
    def change(message: town_pb2.Town) -> None:
        message.tiles[3].building = "charcoal_klin"
        message.tiles[2].trail.sides[0] = 77
        message.score_track = -1  # and the rules' own check of what was read
    request = service_pb2.ValidateTransportRequest(
        town=kuly_with(change), move=transport_pb2.Move(
            good=town_pb2.GOOD_UNSPECIFIED, count=31, origin=town_pb2.Position(row=2000),
            destination=town_pb2.Position()))
    found = violations(engine_address, "ValidateTransport", request)
    assert found.keys() == {"/town/tiles/3/building", "/town/tiles/2/trail/0",
                            "/town/score_track", "/move/good", "/move/count", "/move/from/row"}
    assert "did you mean Charcoal Kiln" in found["/town/tiles/3/building"]
    assert "'Side number 77' is not a side" in found["/town/tiles/2/trail/0"]


@pytest.mark.parametrize("body, expected", [
    (body, expected) for body, expected in MALFORMED_TOWNS.values() if _on_the_wire(body)])
def test_the_json_form_and_the_wire_report_the_same_problems(
        engine_address: str, body: Any, expected: set[str]) -> None:
    """A town the gateway can carry is refused over gRPC exactly as the library's JSON
    form refuses it: same pointers, same messages."""
    with pytest.raises(InvalidInputError) as raised:
        parse_town(body, path=("town",))
    wire = violations(engine_address, "ScoreTown", service_pb2.ScoreTownRequest(town=town(body)))
    assert wire == {p.pointer: p.message for p in raised.value.problems}


def test_the_converter_builds_no_json(engine_address: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every contract-JSON reader of the rules is broken, and the engine still answers:
    the service path never writes a request out as JSON to parse it again."""
    assert not {"_town_json", "_move_json", "json"} & set(vars(convert))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine read a request through its JSON form")

    for name in vars(json_form):
        if name.startswith(("parse_", "_read")):
            monkeypatch.setattr(json_form, name, refuse)
    for name in ("parse_town", "parse_move", "parse_players", "parse_transport_request"):
        monkeypatch.setattr(fox, name, refuse)
    with grpc.insecure_channel(engine_address) as channel:
        stub = service_grpc.FoxgloveFarmServiceStub(channel)
        score = stub.ScoreTown(service_pb2.ScoreTownRequest(town=town(RANCH["town"])), timeout=5)
        assert score.score.total == RANCH["ranch_points"]
        verdict = stub.ValidateTransport(service_pb2.ValidateTransportRequest(
            town=town(KULY["town"]), move=move(KULY["transportation"][2]["move"])), timeout=5)
        assert verdict.legal
        ranking = stub.RankPlayers(service_pb2.RankPlayersRequest(players=[
            scoring_pb2.PlayerTown(name="Ana", town=town(RANCH["town"]))]), timeout=5)
        assert list(ranking.winners) == ["Ana"]
    assert violations(engine_address, "ScoreTown", service_pb2.ScoreTownRequest(
        town=kuly_with(lambda m: setattr(m.tiles[3], "building", "kiln")))).keys() == {
        "/town/tiles/3/building"}
