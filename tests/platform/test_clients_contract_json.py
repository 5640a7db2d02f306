"""The clients' contract JSON mapping agrees with the gateway's marshmallow schemas: the
same protobuf request from the same JSON, and the same JSON from the same message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import marshmallow as ma
import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from api_gateway.resources.downtown_farmers_market import schemas as dfm_schemas
from api_gateway.resources.foxglove_farm import game_schemas as ff_game_schemas
from api_gateway.resources.foxglove_farm import schemas as ff_schemas
from tabletop_referee_clients import InvalidRequestError
from tabletop_referee_clients.contract_json import to_json, to_message
from referee.downtown_farmers_market.v1 import board_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import game_pb2 as dfm_game_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2
from referee.foxglove_farm.v1 import game_pb2 as ff_game_pb2
from referee.foxglove_farm.v1 import planning_pb2, town_pb2, transport_pb2

from ..foxglove_farm.towns import town_dicts
from .foxglove_towns import UNBOUNDED_TOWN
from ..sample_boards import SIMPLE_BOARD, board, food_tile

DATA = Path(__file__).resolve().parents[1] / "data"
POSITIONS = sorted((DATA / "downtown_farmers_market" / "positions").glob("*.json"))


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def towns(path: Path) -> list[Any]:
    """The towns a golden file holds: its ``town``, or each of its ``cases``' towns."""
    data = read(path)
    return [data["town"]] if "town" in data else [case["town"] for case in data["cases"]]


GAME_POSITIONS = sorted((DATA / "foxglove_farm" / "game_positions").glob("*.json"))
TOWNS = sorted(set((DATA / "foxglove_farm").rglob("*.json")) - set(GAME_POSITIONS))


def assert_agree(schema: ma.Schema, message_type: type[Message], data: Any) -> None:
    """The gateway's schema and the clients' mapping read ``data`` into the same message,
    write it back the same way, and the mapping reads its own JSON back unchanged."""
    message = to_message(message_type, data)
    assert message == schema.load(data)
    assert to_json(message) == schema.dump(message)
    assert to_message(message_type, to_json(message)) == message


@pytest.mark.parametrize("name", ["rulebook_standard_example", "rulebook_young_shopper_example"])
def test_rulebook_boards_read_as_the_gateway_reads_them(name: str) -> None:
    example = read(DATA / "downtown_farmers_market" / f"{name}.json")
    assert_agree(dfm_schemas.BoardSchema(), board_pb2.Board,
                 example["board"])


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_recorded_positions_read_as_the_gateway_reads_them(path: Path) -> None:
    """States, game_over included (output only: both drop it), and their requests."""
    state = read(path)["state"]
    assert_agree(dfm_schemas.GameStateSchema(), dfm_game_pb2.GameState, state)
    request = {"state": state}
    assert (to_message(dfm_pb2.ListLegalMovesRequest, request)
            == dfm_schemas.LegalMovesRequestSchema().load(request))


@pytest.mark.parametrize("path", TOWNS, ids=lambda p: p.stem)
def test_rulebook_and_planner_towns_read_as_the_gateway_reads_them(path: Path) -> None:
    for town in towns(path):
        assert_agree(ff_schemas.TownSchema(), town_pb2.Town, town)


def test_a_town_s_own_catalog_reads_as_the_gateway_reads_it() -> None:
    assert_agree(ff_schemas.TownSchema(), town_pb2.Town, UNBOUNDED_TOWN)


def test_kuly_transports_read_as_the_gateway_reads_them() -> None:
    kuly = read(DATA / "foxglove_farm" / "kuly_transport_and_processing.json")
    for step in kuly["transportation"]:
        request = {"town": kuly["town"], "move": step["move"]}
        assert (to_message(ff_pb2.ValidateTransportRequest, request)
                == ff_schemas.TransportRequestSchema().load(request))
    one = {key: value for key, value in kuly["transportation"][0]["move"].items()
           if key != "count"}
    assert not to_message(transport_pb2.Move, one).HasField("count")  # as the gateway leaves it


@pytest.mark.parametrize("path", GAME_POSITIONS, ids=lambda p: p.stem)
def test_recorded_game_states_read_as_the_gateway_reads_them(path: Path) -> None:
    """Foxglove Farm game states: board spaces empty or stacked, the stacks' tiers A, B,
    C, a solo game's setup only when there is one."""
    state = read(path)["state"]
    assert_agree(ff_game_schemas.FoxgloveGameStateSchema(), ff_game_pb2.GameState, state)
    request = {"state": state}
    assert (to_message(ff_pb2.ListLegalMovesRequest, request)
            == ff_game_schemas.FoxgloveLegalMovesRequestSchema().load(request))


GAME_ACTIONS = [
    {"action": "produce", "player": 0, "choices": [{"row": 0, "col": 2, "goods": {"wheat": 1}}]},
    {"action": "build_building", "player": 1, "building": "granary",
     "position": {"row": -1, "col": 0}, "payment": [{"row": 0, "col": 0, "goods": {"wood": 1}}],
     "gain": {"wheat": 1}},
    {"action": "build_building", "player": 1, "building": "granary",
     "position": {"row": -1, "col": 0}, "payment": []},
    {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 1, "col": 0}, "sides": ["N", "E"], "upgrade": False},
        {"position": {"row": 1, "col": 0}, "sides": ["N", "E", "S"], "upgrade": True}],
     "payment": [{"row": 0, "col": 1, "goods": {"stone": 2}}]},
    {"action": "pass", "player": 2},
    {"action": "transport", "player": 0, "good": "sheep", "count": 2,
     "from": {"row": 0, "col": 3}, "to": {"row": 2, "col": 1}},
    {"action": "haul", "player": 0, "to": {"row": 2, "col": 2},
     "picks": [{"good": "coal", "count": 1, "from": {"row": 0, "col": 0}}]},
    {"action": "process", "player": 3, "choices": []},
    {"action": "end_round", "player": 0},
    {"action": "draw_tiles", "tiles": ["granary", "bakery"]}]


def test_game_setups_and_actions_agree() -> None:
    """Every action, a setup with its defaults left out, and the replay request."""
    field = ff_game_schemas.action_field()
    for action in GAME_ACTIONS:
        message = to_message(ff_game_pb2.Action, action)
        assert message == field.deserialize(action)
        assert to_json(message) == field.serialize("action", {"action": message}) == action
    setup = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
             "a_tiles": ["granary"], "catalog": {"granary": {"slots": 4}}}
    request = {"setup": setup, "actions": GAME_ACTIONS}
    assert (to_message(ff_pb2.ReplayGameRequest, request)
            == ff_game_schemas.FoxgloveReplayGameRequestSchema().load(request))
    space = {"building": "granary"}  # one tile unless it says how many
    assert (to_message(ff_game_pb2.TileStack, space)
            == ff_game_schemas.TileStackSchema().load(space))


def test_a_field_s_name_is_escaped_in_its_pointer() -> None:
    """RFC 6901: a name's ``~`` is written ``~0``, and then its ``/`` ``~1``; a list's
    items are numbered."""
    with pytest.raises(InvalidRequestError) as error:
        to_message(town_pb2.Town, {"tiles": [{"row": 0, "a/b~1": 0}]})
    assert [pointer for pointer, _ in error.value.problems] == ["/tiles/0/a~1b~01"]


def test_game_answers_are_written_as_the_gateway_writes_them() -> None:
    """A turn names no player when none acts; verdicts and replays leave out what they
    do not have, but a solo outcome says it reached no threshold."""
    turn = ff_pb2.ListLegalMovesResponse(turn=ff_game_pb2.Turn(
        expected=ff_game_pb2.EXPECTATION_DRAW_TILES))
    assert to_json(turn) == ff_game_schemas.FoxgloveLegalMovesSchema().dump(turn) == {
        "turn": {"expected": "draw_tiles"}, "moves": [], "goods_on_hand": []}
    over = ff_game_pb2.Turn()
    assert to_json(over) == ff_game_schemas.FoxgloveTurnSchema().dump(over) == {
        "expected": None}
    illegal = ff_pb2.ValidateActionResponse(violations=[transport_pb2.Violation(
        rule="FF-R14", reason="NOT_YOUR_TURN", message="not yours", pointer="/action/player")])
    assert to_json(illegal) == ff_game_schemas.FoxgloveActionVerdictSchema().dump(illegal)
    replay = ff_pb2.ReplayGameResponse(illegal_index=0)
    assert to_json(replay) == ff_game_schemas.FoxgloveGameReplaySchema().dump(replay) == {
        "legal": False, "illegal_index": 0}
    solo = ff_pb2.ReplayGameResponse(legal=True, solo=ff_pb2.SoloOutcome(
        setup=3, name="Food Festival", thresholds=[60, 80, 100, 120], reached=[60, 80]))
    missed = ff_pb2.SoloOutcome(setup=1, name="Random", thresholds=[60, 80, 100, 120])
    assert to_json(solo) == ff_game_schemas.FoxgloveGameReplaySchema().dump(solo) == {
        "legal": True, "solo": {"setup": 3, "name": "Food Festival",
                                "thresholds": [60, 80, 100, 120], "reached": [60, 80]}}
    assert to_json(missed) == ff_game_schemas.FoxgloveSoloOutcomeSchema().dump(missed) == {
        "setup": 1, "name": "Random", "thresholds": [60, 80, 100, 120], "reached": []}


@settings(deadline=None)
@given(boards=st.lists(board, min_size=1, max_size=4))
def test_random_boards_and_rankings_agree(boards: list[dict[str, Any]]) -> None:
    assert_agree(dfm_schemas.BoardSchema(), board_pb2.Board,
                 boards[0])
    request = {"players": [{"name": f"P{i}", "board": b} for i, b in enumerate(boards)]}
    assert (to_message(dfm_pb2.RankPlayersRequest, request)
            == dfm_schemas.RankRequestSchema().load(request))


@settings(deadline=None)
@given(town=town_dicts(max_tiles=16))
def test_random_towns_and_rankings_agree(town: dict[str, Any]) -> None:
    assert_agree(ff_schemas.TownSchema(), town_pb2.Town, town)
    request = {"players": [{"name": "Kuly", "town": town}]}
    assert (to_message(ff_pb2.RankPlayersRequest, request)
            == ff_schemas.RankTownsSchema().load(request))


moves = st.one_of(
    st.builds(lambda p, tile, r, c: {"action": "take", "player": p, "tile": tile, "row": r,
                                     "col": c},
              st.integers(0, 3), food_tile, st.integers(0, 3), st.integers(0, 3)),
    st.builds(lambda p, tile: {"action": "discard", "player": p, "tile": tile},
              st.integers(0, 3), food_tile),
    st.builds(lambda tiles: {"action": "reveal", "tiles": tiles}, st.lists(food_tile)))


@settings(deadline=None)
@given(log=st.lists(moves, max_size=6), first_player=st.integers(0, 1))
def test_setups_and_moves_agree(log: list[dict[str, Any]], first_player: int) -> None:
    """A setup's boards may leave out their grids; moves of every action."""
    no_grid = {key: value for key, value in SIMPLE_BOARD.items() if key != "grid"}
    setup = {"players": [{"name": "Ana", "board": no_grid}, {"name": "Ben", "board": no_grid}],
             "first_player": first_player, "face_up": [["corn"], ["egg", "milk"]]}
    request = {"setup": setup, "moves": log}
    assert (to_message(dfm_pb2.ReplayGameRequest, request)
            == dfm_schemas.ReplayGameRequestSchema().load(request))
    field = dfm_schemas.move_field()
    for move in log:
        message = to_message(dfm_game_pb2.Move, move)
        assert message == field.deserialize(move)
        assert to_json(message) == field.serialize("move", {"move": message}) == move


def test_answers_are_written_as_the_gateway_writes_them() -> None:
    """Verdicts leave out what they do not have; routes are pairs; plan steps are tagged,
    with from/to; whole catalog numbers stay whole."""
    town = to_message(town_pb2.Town, read(DATA / "foxglove_farm" / "ranch_example.json")["town"])
    town.catalog.update({"shed": {"slots": 2, "effects": []}})
    illegal = ff_pb2.ValidateTransportResponse(violations=[transport_pb2.Violation(
        rule="FF-R3", reason="NO_ROUTE", message="no route", pointer="/move")])
    legal = ff_pb2.ValidateTransportResponse(
        legal=True, town=town, path=[town_pb2.Position(row=0, col=0),
                                     town_pb2.Position(row=0, col=1)])
    for answer in (illegal, legal):
        assert to_json(answer) == ff_schemas.TransportVerdictSchema().dump(answer)
    assert to_json(legal)["town"]["catalog"] == {"shed": {"slots": 2, "effects": []}}
    plan = planning_pb2.FinalRoundPlan(total=9, optimal=True, upper_bound=9, steps=[
        planning_pb2.PlanStep(move=planning_pb2.MoveStep(
            good=town_pb2.GOOD_COAL, count=1, origin=town_pb2.Position(row=0, col=2),
            destination=town_pb2.Position(row=1, col=2), path=[town_pb2.Position(row=0, col=2)])),
        planning_pb2.PlanStep(process=planning_pb2.ProcessStep(points=4)),
        planning_pb2.PlanStep(haul=planning_pb2.HaulStep(
            hut=town_pb2.Position(row=2, col=2), picks=[planning_pb2.HaulPick(
                good=town_pb2.GOOD_WOOD, count=2, origin=town_pb2.Position(row=0, col=0))]))])
    assert to_json(plan) == ff_schemas.FinalRoundPlanSchema().dump(plan)
    assert to_json(plan)["steps"][1] == {"action": "process", "points": 4}
    replay = dfm_pb2.ReplayGameResponse(illegal_index=0)
    assert to_json(replay) == dfm_schemas.GameReplaySchema().dump(replay) == {
        "legal": False, "illegal_index": 0}


@pytest.mark.parametrize("change, pointer", [
    ({"grid": "nope"}, "/board/grid"),
    ({"mode": "expert"}, "/board/mode"),
    ({"grid": [[["egg", "eggs"]]]}, "/board/grid/0/0/1"),
    ({"row_challenges": [{"type": "most", "points": 1}]}, "/board/row_challenges/0/type"),
    ({"row_challenges": [{"type": "majority", "points": True, "ingredient": "egg"}]},
     "/board/row_challenges/0/points"),
    ({"column_challenges": [{"type": "exact_count", "points": 1, "counts": {"egs": 1}}]},
     "/board/column_challenges/0/counts/egs"),
    ({"colour": "red"}, "/board/colour"),
])
def test_json_that_does_not_fit_is_refused_with_a_pointer(change: dict[str, Any],
                                                          pointer: str) -> None:
    with pytest.raises(InvalidRequestError) as raised:
        to_message(dfm_pb2.ScoreBoardRequest, {"board": {**SIMPLE_BOARD, **change}})
    assert [p for p, _ in raised.value.problems] == [pointer]


@given(body=board, data=st.data())
@settings(max_examples=60, deadline=None)
def test_doubtful_boards_and_towns_read_as_the_gateway_reads_them(
        body: dict[str, Any], data: st.DataObject) -> None:
    """A score request's doubtful spaces and goods counts: the same message both ways,
    and the mapping writes them back as the contract writes them."""
    row, col = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    body["grid"][row][col] = {"candidates": data.draw(st.lists(food_tile, min_size=1,
                                                               max_size=4))}
    message = to_message(board_pb2.Board, body)
    assert message == dfm_schemas.ScoreBoardSchema().load(body)
    assert to_json(message)["grid"][row][col] == body["grid"][row][col]
    town = data.draw(town_dicts(max_tiles=6))
    buildings = [tile for tile in town["tiles"] if "building" in tile]
    tile = data.draw(st.sampled_from(buildings))
    tile["goods"] = {**tile.get("goods", {}), "coal": {"candidates": data.draw(
        st.lists(st.integers(0, 9), min_size=1, max_size=4))}}
    message = to_message(town_pb2.Town, town)
    assert message == ff_schemas.ScoreTownSchema().load(town)
    assert to_message(town_pb2.Town, to_json(message)) == message
