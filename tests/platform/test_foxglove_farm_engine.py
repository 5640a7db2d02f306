"""The Foxglove Farm engine over real gRPC: answers, field violations, health, reflection.

Towns are written in the contract's JSON (the golden data files) and read into protobuf
by the gateway's schemas, so the messages are the ones the gateway sends.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from api_gateway.resources.foxglove_farm.schemas import TownSchema, TransportMoveSchema
from clients import GrpcClient, InvalidRequestError
from referee.foxglove_farm.v1 import scoring_pb2, town_pb2, transport_pb2
from tabletop_rules.foxglove_farm import parse_town
from tabletop_rules.foxglove_farm.planner import plan_final_round

from ..foxglove_farm.towns import b, t, town_data
from .foxglove_towns import KULY, RANCH, UNBOUNDED_TOWN

FF_SERVICE = "referee.foxglove_farm.v1.FoxgloveFarmService"


def town(data: dict[str, Any]) -> town_pb2.Town:
    return TownSchema().load(data)


def move(data: dict[str, Any]) -> transport_pb2.Move:
    return TransportMoveSchema().load(data)


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
    assert "did you mean 'forest'" in found["/players/1/town/tiles/0/building"]


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
