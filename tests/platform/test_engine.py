"""The engine over real gRPC: scoring, rich INVALID_ARGUMENT, health and reflection."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from api_gateway.resources.downtown_farmers_market.schemas import BoardSchema
from tabletop_referee_clients import GrpcClient, InvalidRequestError
from referee.downtown_farmers_market.v1 import board_pb2, scoring_pb2

from ..sample_boards import SIMPLE_BOARD, SIMPLE_BOARD_TOTAL

DFM_SERVICE = "referee.downtown_farmers_market.v1.DowntownFarmersMarketService"


def simple_board() -> board_pb2.Board:
    return BoardSchema().load(SIMPLE_BOARD)


def test_score_board_answers_line_by_line(grpc_client: GrpcClient) -> None:
    score = grpc_client.downtown_farmers_market.score_board(simple_board())
    assert score.total == SIMPLE_BOARD_TOTAL
    assert not score.complete
    assert [line.met for line in score.rows] == [True, False, False, False]
    assert [line.met for line in score.columns] == [False, True, False, False]
    assert score.rows[0].rule == "DFM-R1" and "corn" in score.rows[0].explanation
    assert score.columns[1].rule == "DFM-R6"


def test_unspecified_mode_reads_as_standard(grpc_client: GrpcClient) -> None:
    board = simple_board()
    board.mode = board_pb2.MODE_UNSPECIFIED
    assert grpc_client.downtown_farmers_market.score_board(board).mode == board_pb2.MODE_STANDARD


def test_invalid_board_lists_every_problem_as_a_field_violation(grpc_client: GrpcClient) -> None:
    board = simple_board()
    del board.grid[3]
    board.grid[0].spaces[1].tile.ClearField("ingredients")  # a tile with no ingredients
    board.row_challenges[2].ClearField("kind")
    board.column_challenges[0].majority.ingredient = board_pb2.INGREDIENT_UNSPECIFIED
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.score_board(board)
    fields = dict(raised.value.problems)
    # what the wire gets wrong and what the rules find wrong with the rest, at once
    assert set(fields) == {"/board/row_challenges/2/type", "/board/column_challenges/0/ingredient",
                           "/board/grid", "/board/grid/0/1"}
    board.row_challenges[2].one_of_each.SetInParent()
    board.column_challenges[0].majority.ingredient = board_pb2.INGREDIENT_EGG
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.score_board(board)
    assert dict(raised.value.problems).keys() == {"/board/grid", "/board/grid/0/1"}


def test_a_challenge_or_mode_that_cannot_be_read_is_not_judged_further(
        grpc_client: GrpcClient) -> None:
    """A placeholder stands in for what the wire gets wrong, and misleads no check: an
    unreadable challenge's points are still judged, an unreadable mode says nothing of
    how many challenges the board has."""
    board = simple_board()
    board.column_challenges[1].forbidden.ingredients[:] = [0, board_pb2.INGREDIENT_BREAD]
    board.column_challenges[1].points = 101
    board.mode = 9
    del board.row_challenges[3]
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.score_board(board)
    assert dict(raised.value.problems).keys() == {
        "/board/column_challenges/1/ingredients/0", "/board/column_challenges/1/points",
        "/board/mode"}
    players = [scoring_pb2.PlayerBoard(name="Ana", board=board),
               scoring_pb2.PlayerBoard(name="Ana", board=simple_board())]
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.rank_players(players)
    assert dict(raised.value.problems).keys() == {
        "/players/0/board/column_challenges/1/ingredients/0",
        "/players/0/board/column_challenges/1/points", "/players/0/board/mode",
        "/players/1/name"}


def test_unknown_enum_number_is_refused(grpc_client: GrpcClient) -> None:
    board = simple_board()
    board.grid[0].spaces[0].tile.ingredients.append(99)
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.score_board(board)
    assert raised.value.problems[0][0] == "/board/grid/0/0/2"


def test_rank_places_ties_together(grpc_client: GrpcClient) -> None:
    better = dict(SIMPLE_BOARD, grid=[SIMPLE_BOARD["grid"][0],
                                      [["bread", "milk"], ["egg", "egg", "carrot"], None, None],
                                      *SIMPLE_BOARD["grid"][2:]])
    # Row 1 now holds exactly 5 ingredients (+11, DFM-R4); column 1 still has no cheese,
    # milk or corn; column 0 still lacks a carrot.
    players = [scoring_pb2.PlayerBoard(name=name, board=BoardSchema().load(board))
               for name, board in (("Ana", SIMPLE_BOARD), ("Ben", SIMPLE_BOARD), ("Cy", better))]
    answer = grpc_client.downtown_farmers_market.rank_players(players)
    assert [(s.name, s.total, s.place) for s in answer.standings] == [
        ("Cy", SIMPLE_BOARD_TOTAL + 11, 1), ("Ana", SIMPLE_BOARD_TOTAL, 2),
        ("Ben", SIMPLE_BOARD_TOTAL, 2)]
    assert list(answer.winners) == ["Cy"]


def test_mixed_modes_cannot_be_ranked(grpc_client: GrpcClient) -> None:
    young = board_pb2.Board(mode=board_pb2.MODE_YOUNG_SHOPPER, grid=simple_board().grid)
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.rank_players([
            scoring_pb2.PlayerBoard(name="Ana", board=simple_board()),
            scoring_pb2.PlayerBoard(name="Ben", board=young)])
    assert dict(raised.value.problems).keys() == {"/players/1/board/mode"}


def test_health_reports_serving_for_the_server_and_each_service(engine_address: str) -> None:
    with grpc.insecure_channel(engine_address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", DFM_SERVICE):
            answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_services(engine_address: str) -> None:
    with grpc.insecure_channel(engine_address) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        answers = stub.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5)
        names = {s.name for a in answers for s in a.list_services_response.service}
    assert {DFM_SERVICE, "grpc.health.v1.Health"} <= names
