"""Refereeing a Foxglove Farm game of four rounds over REST (and gRPC), against a real
in-process engine.

A game is played only through the endpoints: a new game from a setup, then the
legal-moves and validate loop, each answer's state sent back with the next action, then
the log replayed to its standings. Games the rules' simulator plays are sent as the JSON
a client would send; the recorded positions in ``tests/data/foxglove_farm/game_positions``
hold states with their turn and legal-move count.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api_gateway.resources.foxglove_farm.game_schemas import (
    FoxgloveGameSetupSchema,
    FoxgloveGameStateSchema,
    action_field,
)
from api_gateway import create_app
from tabletop_referee_clients import GrpcClient, InvalidRequestError
from engine_service.calls import CallLimits
from engine_service.foxglove_farm import convert
from engine_service.server import create_server, expensive_seats
from referee.foxglove_farm.v1 import game_pb2
from tabletop_rules.foxglove_farm.farm_game import MAX_LOG_ACTIONS
from tabletop_rules.foxglove_farm.game_state import Action, GameState

from ..foxglove_farm.game_simulator import play_random_game, setup_json
from .fuzz import mutated
from .test_gateway import pointers, problem

PREFIX = "/v1/foxglove-farm"
GAMES, LEGAL_MOVES = f"{PREFIX}/games", f"{PREFIX}/legal-moves"
VALIDATE, REPLAY = f"{PREFIX}/actions/validate", f"{PREFIX}/games/replay"

POSITIONS = sorted((Path(__file__).resolve().parents[1] / "data" / "foxglove_farm"
                    / "game_positions").glob("*.json"))
STATE_FIELDS = ["rules_version", "catalog_version", "players", "round", "phase",
                "start_player", "current_player", "board"]
PLAYER_FIELDS = ["name", "town", "passed", "done", "runs", "moved", "hauled"]
ACTIONS = {"produce", "build_building", "build_trails", "pass", "transport", "haul",
           "process", "end_round", "draw_tiles"}
SETUP = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
         "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "coal_mine",
                     "lambing_shed", "allotment"],
         "c_tiles": ["bakery", "bakery", "furniture_store", "marketplace", "grocer"]}
Json = dict[str, Any]


def post(gateway: FlaskClient, path: str, body: Any) -> Any:
    answer = gateway.post(path, json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def setup(**changes: Any) -> Json:
    """The sample setup (a fresh copy, so a test may change it in place)."""
    return {**copy.deepcopy(SETUP), **changes}


def legal(gateway: FlaskClient, state: Json, action: Json) -> Json:
    """The state after ``action``, which must be legal."""
    verdict = post(gateway, VALIDATE, {"state": state, "action": action})
    assert verdict["legal"], verdict
    return verdict["state"]  # type: ignore[no-any-return]


# -- the rules' values as a client's JSON -----------------------------------------------

ACTION_JSON = action_field()


def action_json(action: Action) -> Json:
    return ACTION_JSON.serialize("action", {"action": convert.action_to_proto(action)})


def state_json(state: GameState) -> Json:
    return FoxgloveGameStateSchema().dump(game_pb2.GameState.FromString(convert.state_to_wire(state)))


# -- a new game ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def opening(gateway: FlaskClient) -> Json:
    """The first state of a 2-player game: both to produce."""
    return post(gateway, GAMES, setup())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def construction(gateway: FlaskClient, opening: Json) -> Json:
    """Round 1's construction: both have produced, Ana to construct."""
    produced = legal(gateway, opening, {"action": "produce", "player": 1})
    return legal(gateway, produced, {"action": "produce", "player": 0})


def test_a_new_game_answers_the_first_state(opening: Json) -> None:
    assert list(opening) == STATE_FIELDS
    assert {k: v for k, v in opening.items() if k not in ("players", "board")} == {
        "rules_version": 1, "catalog_version": opening["catalog_version"], "round": 1,
        "phase": "production", "start_player": 0, "current_player": 0}
    assert opening["catalog_version"].startswith("builtin-")
    ana, ben = opening["players"]
    assert list(ana) == PLAYER_FIELDS and (ana["name"], ben["name"]) == ("Ana", "Ben")
    assert (ana["town"]["variant"], ben["town"]["variant"]) == ("standard", "expert")
    assert ana["town"]["tiles"] == [{"row": 0, "col": 0, "building": "forest"},
                                    {"row": 0, "col": 1, "building": "mine"}]
    assert "catalog" not in ana["town"]
    assert opening["board"] == {
        "offer": [{"building": "granary", "count": 1}, {"building": "charcoal_kiln", "count": 1},
                  {"building": "barn", "count": 1}, {"building": "coal_mine", "count": 2},
                  {"building": "lambing_shed", "count": 1}, {"building": "allotment", "count": 1}],
        "c_spaces": [{"building": "bakery", "count": 2},
                     {"building": "furniture_store", "count": 1},
                     {"building": "marketplace", "count": 1}, {"building": "grocer", "count": 1}],
        "stacks": {"A": 31 - 7, "B": 35, "C": 24 - 5}}


def test_a_solo_game_starts_from_its_laid_out_tiles(gateway: FlaskClient) -> None:
    state = post(gateway, GAMES, {"players": [{"name": "Kuly"}], "solo": 2})
    assert state["solo"] == 2 and len(state["players"]) == 1
    assert [s["building"] for s in state["board"]["offer"]] == [
        "industrial_farm", "smallholding", "granary", "windmill", "lean_to", "scrapyard"]
    assert post(gateway, LEGAL_MOVES, {"state": state})["turn"] == {"player": 0,
                                                                  "expected": "produce"}


def test_the_game_catalog_is_the_state_s_and_comes_back_with_it(gateway: FlaskClient) -> None:
    """A group's definitions go in the setup; the state carries them once, not its towns."""
    state = post(gateway, GAMES, setup(catalog={"granary": {"slots": 9}}))
    assert state["catalog"]["granary"]["slots"] == {"value": 9, "source": "request"}
    assert all("catalog" not in p["town"] for p in state["players"])
    after = legal(gateway, state, {"action": "produce", "player": 0})
    assert after["catalog"] == state["catalog"]


def test_legal_moves_name_the_turn_and_what_can_pay(gateway: FlaskClient, opening: Json,
                                                    construction: Json) -> None:
    assert post(gateway, LEGAL_MOVES, {"state": opening}) == {
        "turn": {"player": 0, "expected": "produce"},
        "moves": [{"action": "produce", "player": 0, "choices": []},
                  {"action": "produce", "player": 1, "choices": []}],
        "goods_on_hand": []}
    answer = post(gateway, LEGAL_MOVES, {"state": construction})
    assert answer["turn"] == {"player": 0, "expected": "construct"}
    on_hand = answer["goods_on_hand"]
    assert {(g["player"], g["building"]) for g in on_hand} == {
        (seat, b) for seat in (0, 1) for b in ("forest", "mine")}
    moves = answer["moves"]
    assert moves[0] == {"action": "pass", "player": 0}
    assert {m["action"] for m in moves} == {"pass", "build_building", "build_trails"}
    ana = {(g["row"], g["col"]): g["goods"] for g in on_hand if g["player"] == 0}
    for move in moves[1:]:
        assert move["player"] == 0 and move["payment"]
        for part in move["payment"]:  # a default payment, from goods Ana has
            held = ana[part["row"], part["col"]]
            assert all(held.get(good, 0) >= n for good, n in part["goods"].items())
    for move in moves[1::25]:
        assert post(gateway, VALIDATE, {"state": construction, "action": move})["legal"]


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_recorded_positions_have_their_turn_and_legal_moves(gateway: FlaskClient,
                                                            path: Path) -> None:
    """Positions recorded from simulated games, sent as they are recorded: the engine
    names their turn and lists as many legal actions, each one legal."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    answer = post(gateway, LEGAL_MOVES, {"state": recorded["state"]})
    assert answer["turn"] == recorded["turn"]
    assert len(answer["moves"]) == recorded["legal_move_count"]
    assert len({json.dumps(m, sort_keys=True) for m in answer["moves"]}) == len(answer["moves"])
    for move in answer["moves"][::max(1, len(answer["moves"]) // 4)]:
        verdict = post(gateway, VALIDATE, {"state": recorded["state"], "action": move})
        assert verdict["legal"], verdict


def test_the_recorded_positions_cover_the_game() -> None:
    recorded = [json.loads(p.read_text(encoding="utf-8")) for p in POSITIONS]
    assert {r["turn"]["expected"] for r in recorded} == {
        "produce", "construct", "transport", "draw_tiles", None}
    assert {len(r["state"]["players"]) for r in recorded} == {1, 2, 3, 4}
    assert {r["state"].get("solo") for r in recorded} >= {1, 2, None}
    assert {r["state"]["round"] for r in recorded} == {1, 2, 3, 4}
    assert any(p["town"]["variant"] == "expert" for r in recorded for p in r["state"]["players"])


# -- judging actions --------------------------------------------------------------------

def test_a_legal_action_answers_the_next_state(gateway: FlaskClient, construction: Json) -> None:
    build = {"action": "build_building", "player": 0, "building": "granary",
             "position": {"row": 1, "col": 0},
             "payment": [{"row": 0, "col": 0, "goods": {"wood": 1}},
                         {"row": 0, "col": 1, "goods": {"stone": 1}}]}
    verdict = post(gateway, VALIDATE, {"state": construction, "action": build})
    assert list(verdict) == ["legal", "state"] and verdict["legal"] is True
    after = verdict["state"]
    ana = after["players"][0]["town"]["tiles"]
    assert {"row": 1, "col": 0, "building": "granary", "goods": {"wheat": 1}} in ana  # its gain
    before = {(t["row"], t["col"]): t.get("goods", {})
              for t in construction["players"][0]["town"]["tiles"]}
    assert ana[0]["goods"]["wood"] == before[0, 0]["wood"] - 1
    assert after["board"]["offer"][0] is None  # the one granary was taken
    assert after["current_player"] == 1
    waiting = post(gateway, LEGAL_MOVES, {"state": after})  # for a tile to fill the space
    assert (waiting["turn"], waiting["moves"]) == ({"expected": "draw_tiles"}, [])


def test_an_illegal_action_is_a_200_with_every_violation(gateway: FlaskClient,
                                                          construction: Json) -> None:
    trail_on_the_forest = {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 0, "col": 0}, "sides": ["N", "S"]}], "payment": []}
    verdict = post(gateway, VALIDATE, {"state": construction, "action": trail_on_the_forest})
    assert list(verdict) == ["legal", "violations"] and verdict["legal"] is False
    assert {(v["reason"], v["rule"], v["pointer"]) for v in verdict["violations"]} == {
        ("OCCUPIED", "FF-R9", "/action/trails/0/position"),
        ("WRONG_PAYMENT", "FF-R11", "/action/payment")}
    assert all(v["message"] for v in verdict["violations"])
    cases = [
        ({"action": "pass", "player": 1}, ("NOT_YOUR_TURN", "/action/player")),
        ({"action": "process", "player": 0}, ("WRONG_PHASE", "/action/action")),
        ({"action": "draw_tiles", "tiles": ["granary"]}, ("NO_TILES_TO_DRAW", "/action/action")),
        ({"action": "build_building", "player": 0, "building": "bakery",
          "position": {"row": 3, "col": 3}, "payment": []},
         ("NOT_ADJACENT", "/action/position")),
        ({"action": "build_building", "player": 0, "building": "ranch",
          "position": {"row": 1, "col": 0}, "payment": []},
         ("NOT_ON_OFFER", "/action/building")),
        ({"action": "build_building", "player": 0, "building": "granary",
          "position": {"row": 1, "col": 0},
          "payment": [{"row": 5, "col": 5, "goods": {"wood": 1}},
                      {"row": 0, "col": 1, "goods": {"stone": 99}}]},
         ("PAYMENT_NOT_A_BUILDING", "/action/payment/0/row")),
    ]
    for action, (reason, pointer) in cases:
        verdict = post(gateway, VALIDATE, {"state": construction, "action": action})
        assert not verdict["legal"]
        assert (reason, pointer) in {(v["reason"], v["pointer"]) for v in verdict["violations"]}


def test_an_action_out_of_its_phase_points_at_its_kind(gateway: FlaskClient,
                                                       opening: Json) -> None:
    haul = {"action": "haul", "player": 0, "to": {"row": 0, "col": 0}, "picks": []}
    verdict = post(gateway, VALIDATE, {"state": opening, "action": haul})
    assert [(v["reason"], v["pointer"]) for v in verdict["violations"]] == [
        ("WRONG_PHASE", "/action/action")]


# -- replays ------------------------------------------------------------------------------

@pytest.mark.parametrize("players, solo", [(1, 3), (2, None), (4, None)])
def test_a_simulated_game_replays_to_its_standings(gateway: FlaskClient, players: int,
                                                   solo: int | None) -> None:
    played = play_random_game(random.Random(f"replay/{players}"), players, solo)
    game, log = setup_json(played.setup), [action_json(a) for a in played.moves]
    assert post(gateway, GAMES, game) == state_json(played.states[0])
    replayed = post(gateway, REPLAY, {"setup": game, "actions": log})
    assert list(replayed) == ["legal", "state", "standings", "winners", "scores",
                              *(["solo"] if solo else [])]
    final = replayed["state"]
    assert replayed["legal"] is True and final == state_json(played.states[-1])
    assert final["phase"] == "game_over"
    over = post(gateway, LEGAL_MOVES, {"state": final})
    assert (over["turn"], over["moves"]) == ({"expected": None}, [])
    towns = [{"name": p["name"], "town": p["town"]} for p in final["players"]]
    ranked = post(gateway, f"{PREFIX}/rank", {"players": towns})
    assert (replayed["standings"], replayed["winners"]) == (ranked["standings"],
                                                            ranked["winners"])
    assert replayed["scores"] == [post(gateway, f"{PREFIX}/score", p["town"])
                                  for p in final["players"]]
    if solo is not None:  # Food Festival, measured by the one standing's total (FF-R20)
        (standing,) = replayed["standings"]
        assert standing["total"] == replayed["scores"][0]["total"]
        thresholds = [60, 80, 100, 120]
        assert replayed["solo"] == {
            "setup": 3, "name": "Food Festival", "thresholds": thresholds,
            "reached": [t for t in thresholds if standing["total"] >= t]}
    cut = random.Random(players).randrange(len(log))
    partial = post(gateway, REPLAY, {"setup": game, "actions": log[:cut]})
    assert partial == {"legal": True, "state": state_json(played.states[cut])}


def test_a_game_played_action_by_action_through_the_api(gateway: FlaskClient) -> None:
    """Each answer's state sent back with the next action reaches the simulator's end."""
    played = play_random_game(random.Random("action by action"), 2)
    state = post(gateway, GAMES, setup_json(played.setup))
    for action in played.moves:
        state = legal(gateway, state, action_json(action))
    assert state == state_json(played.states[-1])
    over = post(gateway, VALIDATE, {"state": state, "action": action_json(played.moves[-1])})
    assert [v["reason"] for v in over["violations"]] == ["GAME_OVER"]


def test_replay_stops_at_the_first_illegal_action(gateway: FlaskClient, opening: Json) -> None:
    log = [{"action": "produce", "player": 0}, {"action": "produce", "player": 0}]
    replayed = post(gateway, REPLAY, {"setup": setup(), "actions": log})
    assert list(replayed) == ["legal", "illegal_index", "violations", "state"]
    assert (replayed["legal"], replayed["illegal_index"]) == (False, 1)
    assert [(v["reason"], v["pointer"]) for v in replayed["violations"]] == [
        ("ALREADY_DONE", "/actions/1/player")]
    assert replayed["state"] == legal(gateway, opening, log[0])


def test_replay_refuses_a_malformed_action_anywhere_in_the_log(gateway: FlaskClient) -> None:
    log = [{"action": "pass", "player": 0},  # illegal: it is production
           {"action": "transport", "player": 5, "good": "wood", "count": 0,
            "from": {"row": 0, "col": 0}, "to": {"row": 0, "col": 2000}}]
    answer = gateway.post(REPLAY, json={"setup": setup(start_player=4), "actions": log})
    assert pointers(problem(answer, 422)) == {"/setup/start_player"}
    answer = gateway.post(REPLAY, json={"setup": setup(), "actions": log})
    assert pointers(problem(answer, 422)) == {"/actions/1/player", "/actions/1/count",
                                              "/actions/1/to/col"}


def test_a_replay_waits_for_a_replay_seat() -> None:
    """Replays are the game's expensive call: with no seat free the gateway says 429."""
    engine = create_server("127.0.0.1:0", max_workers=2,
                           limits=CallLimits(seats=expensive_seats(replays=0)))
    engine.server.start()
    try:
        gateway = create_app({"ENGINE_ADDRESS": f"127.0.0.1:{engine.port}"}).test_client()
        busy = gateway.post(REPLAY, json={"setup": setup(), "actions": []})
        assert busy.status_code == 429 and busy.headers["Retry-After"] == "1"
        assert gateway.post(GAMES, json=setup()).status_code == 200
    finally:
        engine.server.stop(0)


def test_a_replay_longer_than_the_limit_is_refused(grpc_client: GrpcClient) -> None:
    actions = [game_pb2.Action(end_round=game_pb2.EndRound(player=0))] * (MAX_LOG_ACTIONS + 1)
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.foxglove_farm.replay_game(FoxgloveGameSetupSchema().load(setup()), actions)
    assert [p for p, _ in raised.value.problems] == ["/actions"]
    assert str(MAX_LOG_ACTIONS) in raised.value.problems[0][1]


# -- what cannot be read ----------------------------------------------------------------

def test_a_transcribed_state_hears_of_every_problem(gateway: FlaskClient,
                                                    construction: Json) -> None:
    """Problems the rules find anywhere in a hand-built state come back together, each with
    its pointer."""
    state = copy.deepcopy(construction)
    state["catalog_version"] = "builtin-000000000000"
    state["players"][0]["town"]["tiles"][2:] = [{"row": 1, "col": 0, "building": "granery"}]
    state["players"][1]["name"] = "Ana"
    state["players"][1]["done"] = True  # done is not a construction flag
    state["current_player"] = 7
    state["board"]["offer"][0] = {"building": "bakery", "count": 1}  # a C tile
    state["board"]["stacks"]["C"] = 99
    answer = problem(gateway.post(LEGAL_MOVES, json={"state": state}), 422)
    assert pointers(answer) == {
        "/state/catalog_version", "/state/players/0/town/tiles/2/building",
        "/state/players/1/name", "/state/players/1/done", "/state/current_player",
        "/state/board/offer/0/building", "/state/board/stacks/C"}
    unknown = next(e for e in answer["errors"] if e["pointer"].endswith("/building")
                   and "players" in e["pointer"])
    assert "did you mean Granary" in unknown["detail"]


def test_a_phase_every_player_finished_is_refused_not_failed(gateway: FlaskClient,
                                                              opening: Json) -> None:
    """``check_state`` lets such a state pass; the engine refuses it (the rules' turn
    would have no one to name)."""
    state = copy.deepcopy(opening)
    for player in state["players"]:
        player["done"] = True
    assert pointers(problem(gateway.post(LEGAL_MOVES, json={"state": state}), 422)) == {
        "/state/phase"}


CONSTRUCTION_ACTION = {"action": "build_building", "player": 0, "building": "granary",
                       "position": {"row": 1, "col": 0}, "payment": []}


@pytest.mark.parametrize("change, expected", [
    (lambda s, a: (s, {**a, "action": "steal"}), {"/action/action"}),
    (lambda s, a: (s, {k: v for k, v in a.items() if k != "action"}), {"/action/action"}),
    (lambda s, a: (s, {k: v for k, v in a.items() if k != "position"}), {"/action/position"}),
    (lambda s, a: (s, {**a, "player": "0", "payment": [{"row": 0, "col": 0,
                                                        "goods": {"gold": 1}}]}),
     {"/action/player", "/action/payment/0/goods/gold"}),
    (lambda s, a: (s, {**a, "player": 9, "building": "granery",
                       "position": {"row": 1001, "col": 0}}),
     {"/action/player", "/action/building", "/action/position/row"}),
    (lambda s, a: (s, {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 1, "col": 0}, "sides": ["N", "Q"]}]}),
     {"/action/trails/0/sides/1"}),
    (lambda s, a: (s, {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 0, "col": 5000}, "sides": ["N"]}]}),
     {"/action/trails/0/position/col", "/action/trails/0/sides"}),
    (lambda s, a: (s, {"action": "haul", "player": 0, "to": {"row": -5000, "col": 0},
                       "picks": [{"good": "wood", "count": 0, "from": {"row": 0, "col": 0}}]}),
     {"/action/to/row", "/action/picks/0/count"}),
    (lambda s, a: (s, {"action": "draw_tiles", "tiles": ["granary", "windmil"]}),
     {"/action/tiles/1"}),
    (lambda s, a: ({**s, "phase": "lunch", "round": "1"}, a), {"/state/phase", "/state/round"}),
    (lambda s, a: ({k: v for k, v in s.items() if k != "board"}, a), {"/state/board"}),
    (lambda s, a: ({**s, "board": {**s["board"], "stacks": {"A": 1, "B": 2}}}, a),
     {"/state/board/stacks/C"}),
    (lambda s, a: ({**s, "board": {**s["board"], "offer": [{"count": 2}]}}, a),
     {"/state/board/offer/0/building"}),
    (lambda s, a: ({**s, "players": [{**s["players"][0], "town": {
        **s["players"][0]["town"], "catalog": {}}}, s["players"][1]]}, a),
     {"/state/players/0/town/catalog"}),
    (lambda s, a: ({**s, "players": s["players"] * 3}, a),
     {"/state/players", *(f"/state/players/{i}/name" for i in range(2, 6))}),
])
def test_malformed_states_and_actions_are_422_with_a_pointer_each(
        gateway: FlaskClient, construction: Json, change: Any, expected: set[str]) -> None:
    state, action = change(construction, CONSTRUCTION_ACTION)
    answer = problem(gateway.post(VALIDATE, json={"state": state, "action": action}), 422)
    assert pointers(answer) == expected
    assert all(e["detail"] for e in answer["errors"])


@pytest.mark.parametrize("body, expected", [
    (setup(players=[]), {"/players"}),
    (setup(start_player=2, a_tiles=["granary"]), {"/start_player", "/a_tiles"}),
    (setup(c_tiles=["granary", *SETUP["c_tiles"]]), {"/c_tiles/0"}),
    (setup(solo=1), {"/solo"}),
    ({"players": [{"name": "Kuly", "variant": "hard"}]}, {"/players/0/variant"}),
    ({"players": [{"name": "Kuly"}]}, {"/solo"}),
    (setup(catalog={"granary": {"slots": -1}}), {"/catalog/granary/slots"}),
])
def test_a_bad_setup_is_422_pointing_into_it(gateway: FlaskClient, body: Json,
                                             expected: set[str]) -> None:
    assert pointers(problem(gateway.post(GAMES, json=body), 422)) == expected


# -- over gRPC ------------------------------------------------------------------------------

def test_the_same_game_over_grpc(grpc_client: GrpcClient) -> None:
    engine = grpc_client.foxglove_farm
    game = FoxgloveGameSetupSchema().load(setup())
    state = engine.new_game(game)
    assert state.phase == game_pb2.GAME_PHASE_PRODUCTION and not state.HasField("solo")
    answer = engine.legal_moves(state)
    assert answer.turn.expected == game_pb2.EXPECTATION_PRODUCE and len(answer.moves) == 2
    verdict = engine.validate_action(state, answer.moves[0])
    assert verdict.legal and verdict.next_state.players[0].done
    replayed = engine.replay_game(game, [answer.moves[0], answer.moves[0]])
    assert replayed.illegal_index == 1 and replayed.state == verdict.next_state
    with pytest.raises(InvalidRequestError) as raised:
        engine.validate_action(state, game_pb2.Action())
    assert raised.value.problems == [(
        "/action/action", "the action has no action; expected one of produce, "
        "build_building, build_trails, pass, transport, haul, process, end_round, draw_tiles")]


def test_grpc_json_and_rest_answer_alike(grpc_client: GrpcClient, gateway: FlaskClient,
                                         construction: Json) -> None:
    """The gRPC client's contract JSON is the gateway's, both ways."""
    engine = grpc_client.foxglove_farm
    assert engine.new_game(setup()) == post(gateway, GAMES, setup())
    assert engine.legal_moves(construction) == post(gateway, LEGAL_MOVES,
                                                    {"state": construction})
    build = {**CONSTRUCTION_ACTION, "payment": [{"row": 0, "col": 0, "goods": {"wood": 1}},
                                                {"row": 0, "col": 1, "goods": {"stone": 1}}]}
    for action in (build, CONSTRUCTION_ACTION):
        assert engine.validate_action(construction, action) == post(
            gateway, VALIDATE, {"state": construction, "action": action})


def test_every_problem_of_an_unreadable_state_over_grpc(grpc_client: GrpcClient,
                                                        construction: Json) -> None:
    """What only protobuf can carry (an unset phase, a tile of no kind, a town catalog)
    is said beside what the rules find, and a placeholder is never judged."""
    state = FoxgloveGameStateSchema().load(construction)
    state.phase = game_pb2.GAME_PHASE_UNSPECIFIED
    state.players[0].passed = True  # judged against the phase, which cannot be read
    state.players[0].town.tiles.add(row=5, col=5)
    state.players[1].town.catalog.update({"granary": {"slots": 3}})
    state.current_player = 7  # the rules' to refuse
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.foxglove_farm.legal_moves(state)
    assert {p for p, _ in raised.value.problems} == {
        "/state/phase", "/state/players/0/town/tiles/2", "/state/players/1/town/catalog",
        "/state/current_player"}


# -- the document and the fuzzers ---------------------------------------------------------

def test_openapi_documents_the_game_endpoints(gateway: FlaskClient) -> None:
    spec = gateway.get("/v1/openapi.json").get_json()
    for path in (GAMES, LEGAL_MOVES, VALIDATE, REPLAY):
        responses = spec["paths"][path]["post"]["responses"]
        assert {"200", "400", "413", "422", "503", "504"} <= set(responses)
    assert "429" in spec["paths"][REPLAY]["post"]["responses"]
    schemas = spec["components"]["schemas"]
    action_ref = schemas["FoxgloveValidateActionRequest"]["properties"]["action"]
    action = schemas[action_ref["$ref"].rsplit("/", 1)[-1]]
    assert action["discriminator"]["propertyName"] == "action"
    assert set(action["discriminator"]["mapping"]) == ACTIONS
    assert list(schemas["FoxgloveGameState"]["properties"]) == [*STATE_FIELDS, "solo",
                                                                 "catalog"]
    assert "catalog" not in schemas["FoxgloveGameTown"]["properties"]
    replay = schemas["FoxgloveReplayGameRequest"]["properties"]["actions"]
    assert replay["maxItems"] == MAX_LOG_ACTIONS


recorded_states = st.sampled_from(POSITIONS).map(
    lambda p: json.loads(p.read_text(encoding="utf-8"))["state"])
setups = st.sampled_from([setup(), {"players": [{"name": "Kuly"}], "solo": 4},
                          setup(start_player=1, catalog={"granary": {"slots": 4}})]
                         ).map(copy.deepcopy)  # fresh: the fuzzer changes bodies in place
actions = st.sampled_from([
    {"action": "produce", "player": 0, "choices": [{"row": 0, "col": 0, "goods": {"wood": 1}}]},
    CONSTRUCTION_ACTION, {"action": "pass", "player": 1},
    {"action": "build_trails", "player": 0, "trails": [
        {"position": {"row": 1, "col": 0}, "sides": ["N", "E", "S"], "upgrade": True}],
     "payment": [{"row": 0, "col": 0, "goods": {"wood": 2}}]},
    {"action": "transport", "player": 0, "good": "wood", "from": {"row": 0, "col": 0},
     "to": {"row": 0, "col": 1}},
    {"action": "haul", "player": 0, "to": {"row": 0, "col": 1},
     "picks": [{"good": "wood", "count": 1, "from": {"row": 0, "col": 0}}]},
    {"action": "process", "player": 0}, {"action": "end_round", "player": 0},
    {"action": "draw_tiles", "tiles": ["granary", "bakery"]}]).map(copy.deepcopy)
BODIES = {
    GAMES: setups,
    LEGAL_MOVES: st.fixed_dictionaries({"state": recorded_states}),
    VALIDATE: st.fixed_dictionaries({"state": recorded_states, "action": actions}),
    REPLAY: st.fixed_dictionaries({"setup": setups, "actions": st.lists(actions, max_size=4)}),
}


@pytest.mark.parametrize("path", list(BODIES))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_body_gets_a_server_error(gateway: FlaskClient, path: str,
                                     data: st.DataObject) -> None:
    body = data.draw(BODIES[path] | mutated(BODIES[path]))
    answer = gateway.post(path, data=json.dumps(body), content_type="application/json")
    assert answer.status_code in (200, 422), answer.get_data(as_text=True)
