"""Both clients against the real in-process engine and gateway: the same calls per game,
the same JSON answers over REST and gRPC, and a distribution that needs no flask."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from werkzeug.serving import make_server

from api_gateway import create_app
from tabletop_referee_clients import GrpcClient, InvalidRequestError, RestClient
from tabletop_referee_clients.contract_json import to_message
from referee.downtown_farmers_market.v1 import board_pb2, game_pb2, scoring_pb2
from referee.foxglove_farm.v1 import planning_pb2, town_pb2
from referee.foxglove_farm.v1 import scoring_pb2 as ff_scoring_pb2

from ..foxglove_farm.towns import town_dicts
from ..sample_boards import SIMPLE_BOARD, SIMPLE_BOARD_TOTAL, board
from .foxglove_towns import KULY, RANCH

REPO = Path(__file__).resolve().parents[2]
GAMES = ("downtown_farmers_market", "foxglove_farm")
CLIENT_REQUIREMENTS = {"tabletop-referee-wire", "requests", "grpcio", "protobuf",
                       "googleapis-common-protos", "click", "rich"}
SERVICE_ONLY = {"flask", "gunicorn", "marshmallow", "werkzeug", "flask-smorest"}
NO_GRID = {key: value for key, value in SIMPLE_BOARD.items() if key != "grid"}
SETUP = {"players": [{"name": "Ana", "board": NO_GRID}, {"name": "Ben", "board": NO_GRID}],
         "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread"], ["cheese"]]}


@pytest.fixture(scope="module")
def rest(engine_address: str) -> Iterator[RestClient]:
    """A RestClient over real HTTP to the gateway, served from a thread."""
    server = make_server("127.0.0.1", 0, create_app({"ENGINE_ADDRESS": engine_address}),
                         threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with RestClient(f"http://127.0.0.1:{server.server_port}", timeout=10) as client:
        yield client
    server.shutdown()
    thread.join()


def calls(namespace: object) -> dict[str, list[str]]:
    """A namespace's public methods and their parameters' names (but ``as_json``, which
    the gRPC client's calls that take nothing have to say which form to answer in)."""
    return {name: [p for p in inspect.signature(method).parameters if p != "as_json"]
            for name, method in inspect.getmembers(namespace, inspect.ismethod)
            if not name.startswith("_")}


def test_each_game_has_the_same_calls_over_rest_and_grpc(rest: RestClient,
                                                         grpc_client: GrpcClient) -> None:
    for game in GAMES:
        assert calls(getattr(rest, game)) == calls(getattr(grpc_client, game))
    assert calls(rest.downtown_farmers_market).keys() == {
        "score_board", "rank_players", "new_game", "legal_moves", "validate_move",
        "replay_game", "challenge_types"}
    assert calls(rest.foxglove_farm).keys() == {
        "score_town", "rank_towns", "validate_transport", "plan_final_round", "new_game",
        "legal_moves", "validate_action", "replay_game", "catalog"}
    assert {"ready", "close", "version"} <= calls(grpc_client).keys() & calls(rest).keys()
    assert not calls(grpc_client).keys() & calls(grpc_client.foxglove_farm).keys()


def test_downtown_farmers_market_answers_the_same_json_over_both(
        rest: RestClient, grpc_client: GrpcClient) -> None:
    over_rest, over_grpc = rest.downtown_farmers_market, grpc_client.downtown_farmers_market
    score = over_grpc.score_board(SIMPLE_BOARD)
    assert score == over_rest.score_board(SIMPLE_BOARD) and score["total"] == SIMPLE_BOARD_TOTAL
    players = [{"name": "Ana", "board": SIMPLE_BOARD}, {"name": "Ben", "board": SIMPLE_BOARD}]
    assert over_grpc.rank_players(players) == over_rest.rank_players(players)
    state = over_grpc.new_game(SETUP)
    assert state == over_rest.new_game(SETUP)
    moves = over_grpc.legal_moves(state)
    assert moves == over_rest.legal_moves(state) and moves
    illegal = {"action": "take", "player": 1, "tile": ["carrot"], "row": 0, "col": 0}
    for move in (moves[0], illegal):
        assert over_grpc.validate_move(state, move) == over_rest.validate_move(state, move)
    after = over_grpc.validate_move(state, moves[0])
    assert after["legal"] and "violations" not in after
    log = [moves[0], illegal]
    replay = over_grpc.replay_game(SETUP, log)
    assert replay == over_rest.replay_game(SETUP, log)
    assert replay["illegal_index"] == 1 and replay["state"] == after["state"]


def test_foxglove_farm_answers_the_same_json_over_both(rest: RestClient,
                                                       grpc_client: GrpcClient) -> None:
    over_rest, over_grpc = rest.foxglove_farm, grpc_client.foxglove_farm
    for example in (RANCH, KULY):
        assert over_grpc.score_town(example["town"]) == over_rest.score_town(example["town"])
    players = [{"name": "Kuly", "town": KULY["town"]}, {"name": "Ann", "town": RANCH["town"]}]
    assert over_grpc.rank_towns(players) == over_rest.rank_towns(players)
    town = KULY["town"]
    for step in KULY["transportation"]:
        verdict = over_grpc.validate_transport(town, step["move"])
        assert verdict == over_rest.validate_transport(town, step["move"])
        assert verdict["path"] == step["path"]
        town = verdict["town"]
    refused = over_grpc.validate_transport(town, KULY["transportation"][0]["move"])
    assert refused == over_rest.validate_transport(town, KULY["transportation"][0]["move"])
    assert not refused["legal"] and refused["violations"][0]["pointer"].startswith("/move")


def test_a_foxglove_farm_game_answers_the_same_json_over_both(
        rest: RestClient, grpc_client: GrpcClient) -> None:
    over_rest, over_grpc = rest.foxglove_farm, grpc_client.foxglove_farm
    setup = {"players": [{"name": "Ana"}, {"name": "Ben"}],
             "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "lambing_shed",
                         "allotment"], "c_tiles": ["bakery", "grocer", "cafe", "tavern"]}
    state = over_grpc.new_game(setup)
    assert state == over_rest.new_game(setup)
    log = []
    for _ in range(3):  # both produce; then Ana's first listed construction
        listed = over_grpc.legal_moves(state)
        assert listed == over_rest.legal_moves(state)
        action = listed["moves"][-1]
        verdict = over_grpc.validate_action(state, action)
        assert verdict == over_rest.validate_action(state, action) and verdict["legal"]
        state = verdict["state"]
        log.append(action)
    wrong = {"action": "pass", "player": 0}  # Ben's turn now
    refused = over_grpc.validate_action(state, wrong)
    assert refused == over_rest.validate_action(state, wrong) and not refused["legal"]
    replayed = over_grpc.replay_game(setup, [*log, wrong])
    assert replayed == over_rest.replay_game(setup, [*log, wrong])
    assert replayed["illegal_index"] == 3 and replayed["state"] == state


@settings(max_examples=30, deadline=None)
@given(board=board, town=town_dicts(max_tiles=12))
def test_random_boards_and_towns_score_the_same_over_both(
        rest: RestClient, grpc_client: GrpcClient, board: dict[str, Any],
        town: dict[str, Any]) -> None:
    assert (grpc_client.downtown_farmers_market.score_board(board)
            == rest.downtown_farmers_market.score_board(board))
    assert grpc_client.foxglove_farm.score_town(town) == rest.foxglove_farm.score_town(town)


def test_final_round_plans_agree(rest: RestClient, grpc_client: GrpcClient) -> None:
    for example in (RANCH, KULY):
        town = example["town"]
        plan = grpc_client.foxglove_farm.plan_final_round(town)
        assert plan == rest.foxglove_farm.plan_final_round(town)
        message = grpc_client.foxglove_farm.plan_final_round(to_message(town_pb2.Town, town))
        assert isinstance(message, planning_pb2.FinalRoundPlan)
        assert message.total == plan["total"]


def test_messages_in_are_messages_out(grpc_client: GrpcClient) -> None:
    board = to_message(board_pb2.Board, SIMPLE_BOARD)
    score = grpc_client.downtown_farmers_market.score_board(board)
    assert isinstance(score, scoring_pb2.BoardScore) and score.total == SIMPLE_BOARD_TOTAL
    moves = grpc_client.downtown_farmers_market.legal_moves(
        grpc_client.downtown_farmers_market.new_game(to_message(game_pb2.Setup, SETUP)))
    assert moves and all(isinstance(move, game_pb2.Move) for move in moves)
    town = grpc_client.foxglove_farm.score_town(to_message(town_pb2.Town, RANCH["town"]))
    assert isinstance(town, ff_scoring_pb2.TownScore)
    assert town.total == grpc_client.foxglove_farm.score_town(RANCH["town"])["total"]


def refusal(call: Any, *args: Any) -> list[tuple[str, str]]:
    with pytest.raises(InvalidRequestError) as raised:
        call(*args)
    return raised.value.problems


def codes(call: Any, *args: Any) -> list[tuple[str, dict[str, Any]]]:
    with pytest.raises(InvalidRequestError) as raised:
        call(*args)
    return raised.value.codes


def test_refusals_point_at_the_same_places(rest: RestClient, grpc_client: GrpcClient) -> None:
    """The engine's pointers are into the gRPC request (``/board/...``), the gateway's into
    the body; JSON no message can carry is refused by the client, before any call. Both
    clients carry each problem's code and params alike."""
    bad = dict(SIMPLE_BOARD, grid=[[["egg"] * 4, None, None, None]] + [[None] * 4] * 3)
    over_rest = refusal(rest.downtown_farmers_market.score_board, bad)
    over_grpc = refusal(grpc_client.downtown_farmers_market.score_board, bad)
    assert over_rest == [(p.removeprefix("/board"), d) for p, d in over_grpc]
    coded = codes(rest.downtown_farmers_market.score_board, bad)
    assert coded == codes(grpc_client.downtown_farmers_market.score_board, bad)
    assert len(coded) == len(over_rest) and all(code for code, _ in coded)
    misspelt = dict(SIMPLE_BOARD, mode="young shopper")
    assert [p for p, _ in refusal(rest.downtown_farmers_market.score_board, misspelt)] == ["/mode"]
    with GrpcClient("127.0.0.1:9", timeout=1) as nowhere:  # nothing listens: no call is made
        assert [p for p, _ in refusal(nowhere.downtown_farmers_market.score_board, misspelt)
                ] == ["/board/mode"]


def test_json_no_message_can_carry_is_refused_by_pointer() -> None:
    """An argument that is not a message (a string, a list of strings) is the contract's
    JSON, refused by pointer before any call, never a TypeError from protobuf."""
    with GrpcClient("127.0.0.1:9", timeout=1) as nowhere:
        assert [p for p, _ in refusal(nowhere.downtown_farmers_market.rank_players, "Ana")
                ] == ["/players"]
        assert [p for p, _ in refusal(nowhere.foxglove_farm.validate_transport, ["town"],
                                      {"good": "wood"})] == ["/town"]
        assert [p for p, _ in refusal(nowhere.downtown_farmers_market.replay_game, "",
                                      [])] == ["/setup"]


def test_ready(rest: RestClient, grpc_client: GrpcClient) -> None:
    assert rest.ready() and grpc_client.ready()
    with GrpcClient("127.0.0.1:9", timeout=1) as nowhere:
        assert not nowhere.ready()


def _names(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` need here: with no extra asked for, and only
    those whose environment marker holds on this machine (click needs colorama on
    Windows only)."""
    needed = (Requirement(r) for r in requirements)
    return {canonicalize_name(r.name) for r in needed
            if r.marker is None or r.marker.evaluate({"extra": ""})}


def test_clients_distribution_requires_neither_flask_nor_gunicorn(tmp_path: Path) -> None:
    """The built metadata's Requires-Dist, and everything they need in turn (as installed
    here), leave out the service's web stack."""
    subprocess.run([sys.executable, "-c", "import sys, setuptools.build_meta as b; "
                    "b.prepare_metadata_for_build_wheel(sys.argv[1])", str(tmp_path)],
                   cwd=REPO / "clients", check=True, capture_output=True)
    (built,) = tmp_path.glob("*.dist-info/METADATA")
    required = _names(re.findall(r"^Requires-Dist: (.+)$", built.read_text(), re.MULTILINE))
    assert required == CLIENT_REQUIREMENTS
    closure, todo = set(), list(required)
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo.extend(_names(metadata.requires(name) or []))
    assert not closure & SERVICE_ONLY


BLOCKED_IMPORT = """
import sys
BLOCKED = {"flask", "marshmallow", "werkzeug", "gunicorn", "grpc_health",
           "api_gateway", "engine_service", "tabletop_rules"}
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"the clients imported {name}")
sys.meta_path.insert(0, Blocker())
from tabletop_referee_clients import GrpcClient, RestClient
from tabletop_referee_clients.cli import main
from tabletop_referee_clients.contract_json import to_json, to_message
from referee.foxglove_farm.v1 import town_pb2
town = {"tiles": [{"row": 0, "col": 0, "building": "forest"},
                  {"row": 0, "col": 1, "building": "mine"}]}
assert to_json(to_message(town_pb2.Town, town))["variant"] == "standard"
GrpcClient("127.0.0.1:9", timeout=1).ready()
"""


def test_clients_import_without_the_service_packages(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", BLOCKED_IMPORT], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


SERVICE_WITHOUT_CLIENTS = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "tabletop_referee_clients":
            raise ImportError(f"the service imported {name}")
sys.meta_path.insert(0, Blocker())
import engine_service.__main__, engine_service.server
from api_gateway import create_app
create_app()
"""


def test_the_service_imports_none_of_the_clients(tmp_path: Path) -> None:
    """The engine and the gateway speak the wire distribution's code, as the clients do;
    they depend on it, not on their own client."""
    result = subprocess.run([sys.executable, "-c", SERVICE_WITHOUT_CLIENTS], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
