"""Refereeing a Downtown Farmers Market game over REST, against a real in-process engine.

The game is played only through the endpoints: a new game from a setup, then the
legal-moves and validate loop, each answer's state sent back with the next move, then
the log replayed. The tiles come from a box the test holds, as they would from the pile
on a real table.
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

from api_gateway.resources.downtown_farmers_market.schemas import GameSetupSchema, TakeTileSchema
from tabletop_referee_clients import GrpcClient, InvalidRequestError
from referee.downtown_farmers_market.v1 import game_pb2

from ..sample_boards import INGREDIENTS, SIMPLE_BOARD
from .fuzz import mutated
from .test_gateway import pointers, problem

PREFIX = "/v1/downtown-farmers-market"
GAMES, LEGAL_MOVES = f"{PREFIX}/games", f"{PREFIX}/legal-moves"
VALIDATE, REPLAY = f"{PREFIX}/moves/validate", f"{PREFIX}/games/replay"

POSITIONS = sorted((Path(__file__).resolve().parents[1] / "data" / "downtown_farmers_market"
                    / "positions").glob("*.json"))
STATE_FIELDS = ["rules_version", "mode", "players", "face_up", "pile_count", "discards",
                "round", "first_player", "current_player", "expected", "game_over", "reveal_count"]
FIRST_FACE_UP = {"standard": 5, "young_shopper": 3}
REVEAL_SIZE = {"standard": 4, "young_shopper": 1}
NAMES = ["Ana", "Ben", "Cy", "Dee"]
Json = dict[str, Any]


def post(gateway: FlaskClient, path: str, body: Any) -> Any:
    answer = gateway.post(path, json=body)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def setup(mode: str = "standard", players: int = 2, **changes: Any) -> Json:
    """A setup with the sample board's challenges (none in Young Shopper), grids left out;
    a fresh copy, so the fuzz test may change it in place."""
    board = ({"mode": mode} if mode == "young_shopper" else
             {k: v for k, v in SIMPLE_BOARD.items() if k != "grid"})
    face_up = [["corn"], ["egg", "corn"], ["milk"], ["bread", "bread"], ["cheese"]]
    return {"mode": mode, "players": [{"name": n, "board": copy.deepcopy(board)}
                                      for n in NAMES[:players]],
            "face_up": face_up[:FIRST_FACE_UP[mode]], **changes}


def take(player: int, tile: list[str], row: int, col: int) -> Json:
    return {"action": "take", "player": player, "tile": tile, "row": row, "col": col}


@pytest.fixture(scope="module")
def opening(gateway: FlaskClient) -> Json:
    """The first state of a 2-player standard game: Ana to take."""
    return post(gateway, GAMES, setup())


def test_a_new_game_answers_the_first_state(opening: Json) -> None:
    assert list(opening) == STATE_FIELDS
    assert {k: v for k, v in opening.items() if k != "players"} == {
        "rules_version": 1, "mode": "standard",
        "face_up": setup()["face_up"], "pile_count": 60, "discards": [], "round": 1,
        "first_player": 0, "current_player": 0, "expected": "take", "game_over": False,
        "reveal_count": 0}
    ana = opening["players"][0]
    assert ana["name"] == "Ana" and ana["board"]["grid"] == [[None] * 4] * 4
    assert ana["board"]["row_challenges"] == SIMPLE_BOARD["row_challenges"]
    assert ana["board"]["column_challenges"] == SIMPLE_BOARD["column_challenges"]


def test_a_young_shopper_game_starts_from_its_own_setup(gateway: FlaskClient) -> None:
    state = post(gateway, GAMES, setup("young_shopper", 3, first_player=2, rules_version=1))
    assert (state["mode"], state["pile_count"], state["current_player"]) == (
        "young_shopper", 62, 2)
    assert state["players"][0]["board"]["row_challenges"] == []


def test_legal_moves_lists_each_take_once(gateway: FlaskClient, opening: Json) -> None:
    moves = post(gateway, LEGAL_MOVES, {"state": opening})["moves"]
    assert len(moves) == 5 * 16
    assert moves[0] == take(0, ["corn"], 0, 0)
    assert {m["row"] * 4 + m["col"] for m in moves} == set(range(16))


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_legal_moves_of_the_recorded_positions(gateway: FlaskClient, path: Path) -> None:
    """The hand-counted positions the rules' tests use, sent as they are recorded."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    moves = post(gateway, LEGAL_MOVES, {"state": recorded["state"]})["moves"]
    assert len(moves) == recorded["legal_move_count"]
    for move in moves[:3]:
        assert post(gateway, VALIDATE, {"state": recorded["state"], "move": move})["legal"]


def test_a_legal_move_answers_the_next_state(gateway: FlaskClient, opening: Json) -> None:
    verdict = post(gateway, VALIDATE, {"state": opening, "move": take(0, ["corn", "egg"], 1, 2)})
    assert list(verdict) == ["legal", "state"] and verdict["legal"] is True
    after = verdict["state"]
    assert after["players"][0]["board"]["grid"][1][2] == ["egg", "corn"]  # as it lay face up
    assert after["face_up"] == [["corn"], ["milk"], ["bread", "bread"], ["cheese"]]
    assert (after["expected"], after["current_player"]) == ("discard", 0)
    discard = {"action": "discard", "player": 0, "tile": ["cheese"]}
    assert post(gateway, VALIDATE, {"state": after, "move": discard})["state"]["discards"] == [
        ["cheese"]]


def test_an_illegal_move_is_a_200_with_every_violation(gateway: FlaskClient,
                                                         opening: Json) -> None:
    state = post(gateway, VALIDATE, {"state": opening, "move": take(0, ["corn"], 0, 0)})["state"]
    state = post(gateway, VALIDATE, {"state": state, "move": {
        "action": "discard", "player": 0, "tile": ["milk"]}})["state"]  # Ben to take
    verdict = post(gateway, VALIDATE, {"state": state, "move": take(0, ["carrot"], 0, 0)})
    assert list(verdict) == ["legal", "violations"] and verdict["legal"] is False
    assert {(v["reason"], v["rule"], v["pointer"]) for v in verdict["violations"]} == {
        ("NOT_YOUR_TURN", "DFM-R11", "/move/player"),
        ("TILE_NOT_ON_DISPLAY", "DFM-R11", "/move/tile"),
        ("OCCUPIED_SPACE", "DFM-R12", "/move"),
    }
    assert all(v["message"] for v in verdict["violations"])
    reveal = {"action": "reveal", "tiles": [["egg"]] * 4}
    verdict = post(gateway, VALIDATE, {"state": state, "move": reveal})
    assert [v["reason"] for v in verdict["violations"]] == ["REVEAL_NOT_ALLOWED"]


@pytest.mark.parametrize("change, expected", [
    (lambda s, m: (s, {**m, "action": "steal"}), {"/move/action"}),
    (lambda s, m: (s, {k: v for k, v in m.items() if k != "action"}), {"/move/action"}),
    (lambda s, m: (s, {**m, "row": -1}), {"/move/row"}),
    (lambda s, m: (s, {**m, "row": 4, "col": 9, "player": 2}),
     {"/move/row", "/move/col", "/move/player"}),
    (lambda s, m: (s, {**m, "player": "0", "tile": ["corn", "cabbage"]}),
     {"/move/player", "/move/tile/1"}),
    (lambda s, m: (s, {**m, "tile": ["egg"] * 4}), {"/move/tile"}),
    (lambda s, m: ({**s, "rules_version": 2}, m), {"/state/rules_version"}),
    (lambda s, m: ({**s, "players": s["players"] + [
        {**s["players"][0], "name": n} for n in ("Cy", "Dee", "Eve")]}, m), {"/state/players"}),
    (lambda s, m: ({**s, "players": [s["players"][0]] * 2}, m), {"/state/players/1/name"}),
    (lambda s, m: ({**s, "pile_count": 50}, m), {"/state", "/state/pile_count"}),
    (lambda s, m: ({**s, "expected": "reveal"}, m), {"/state"}),
    (lambda s, m: ({**s, "expected": "pass", "round": "1"}, m),
     {"/state/expected", "/state/round"}),
    (lambda s, m: ({**s, "face_up": s["face_up"][1:]}, m), {"/state", "/state/face_up"}),
    (lambda s, m: ({k: v for k, v in s.items() if k != "players"}, m), {"/state/players"}),
])
def test_malformed_states_and_moves_are_422_with_a_pointer_each(
        gateway: FlaskClient, opening: Json, change: Any, expected: set[str]) -> None:
    state, move = change(opening, take(0, ["corn"], 0, 0))
    answer = problem(gateway.post(VALIDATE, json={"state": state, "move": move}), 422)
    assert pointers(answer) == expected
    assert all(e["detail"] for e in answer["errors"])


def test_legal_moves_points_into_the_state(gateway: FlaskClient, opening: Json) -> None:
    answer = gateway.post(LEGAL_MOVES, json={"state": {**opening, "first_player": 7}})
    assert pointers(problem(answer, 422)) == {"/state/first_player"}


@pytest.mark.parametrize("body, expected", [
    (setup(players=1), {"/players"}),
    (setup(first_player=2, face_up=[["corn"]] * 4), {"/first_player", "/face_up"}),
    (setup(rules_version=3), {"/rules_version"}),
    ({**setup(), "players": [{"name": "Ana", "board": SIMPLE_BOARD},
                             {"name": "Ben", "board": {"mode": "young_shopper"}}]},
     {"/players/0/board/grid", "/players/1/board/mode"}),
])
def test_a_bad_setup_is_422_pointing_into_it(gateway: FlaskClient, body: Json,
                                             expected: set[str]) -> None:
    assert pointers(problem(gateway.post(GAMES, json=body), 422)) == expected


def test_replay_refuses_a_malformed_move_anywhere_in_the_log(gateway: FlaskClient) -> None:
    moves = [take(1, ["corn"], 0, 0), take(0, ["corn"], 4, 0)]  # the first is illegal
    answer = gateway.post(REPLAY, json={"setup": setup(first_player=5), "moves": moves})
    assert pointers(problem(answer, 422)) == {"/setup/first_player", "/moves/1/row"}


def test_replay_stops_at_the_first_illegal_move(gateway: FlaskClient, opening: Json) -> None:
    log = [take(0, ["corn"], 0, 0), take(0, ["milk"], 0, 1)]  # Ana must discard first
    replayed = post(gateway, REPLAY, {"setup": setup(), "moves": log})
    assert list(replayed) == ["legal", "illegal_index", "violations", "state"]
    assert (replayed["legal"], replayed["illegal_index"]) == (False, 1)
    assert [(v["reason"], v["pointer"]) for v in replayed["violations"]] == [
        ("DISCARD_REQUIRED", "/moves/1")]
    assert replayed["state"] == post(gateway, VALIDATE, {"state": opening,
                                                         "move": log[0]})["state"]
    first = post(gateway, REPLAY, {"setup": setup(), "moves": [take(1, ["corn"], 0, 0)]})
    assert first["illegal_index"] == 0 and first["state"] == opening


def play(gateway: FlaskClient, rng: random.Random, mode: str, players: int
         ) -> tuple[Json, list[Json], list[Json]]:
    """A random game through the API: its setup, its log and the state before each move
    and at the end."""
    box = [rng.choices(INGREDIENTS[:3], k=rng.randint(1, 3)) for _ in range(65)]
    game = setup(mode, players, first_player=rng.randrange(players),
                 face_up=box[:FIRST_FACE_UP[mode]])
    pile = box[FIRST_FACE_UP[mode]:]
    states, log = [post(gateway, GAMES, game)], []
    while not states[-1]["game_over"]:
        state = states[-1]
        if state["expected"] == "reveal":
            assert state["reveal_count"] == REVEAL_SIZE[mode]
            move = {"action": "reveal", "tiles": pile[:state["reveal_count"]]}
            del pile[:state["reveal_count"]]
        else:
            move = rng.choice(post(gateway, LEGAL_MOVES, {"state": state})["moves"])
            assert move["action"] == state["expected"] and move["player"] == state[
                "current_player"]
        verdict = post(gateway, VALIDATE, {"state": state, "move": move})
        assert verdict["legal"], verdict
        states.append(verdict["state"])
        log.append(move)
    return game, log, states


@pytest.mark.parametrize("mode, players", [("standard", 2), ("standard", 3), ("standard", 4),
                                           ("young_shopper", 2), ("young_shopper", 4)])
def test_a_random_game_played_and_replayed_through_the_api(
        gateway: FlaskClient, mode: str, players: int) -> None:
    rng = random.Random(f"{mode}/{players}")
    game, log, states = play(gateway, rng, mode, players)
    final = states[-1]
    assert final["expected"] is None and final["round"] == 16
    assert all(None not in row for p in final["players"] for row in p["board"]["grid"])
    assert post(gateway, LEGAL_MOVES, {"state": final}) == {
        "turn": {"expected": None, "reveal_count": 0}, "moves": []}
    over = post(gateway, VALIDATE, {"state": final, "move": log[-1]})
    assert [v["reason"] for v in over["violations"]] == ["GAME_OVER"]

    replayed = post(gateway, REPLAY, {"setup": game, "moves": log})
    assert list(replayed) == ["legal", "state", "standings", "winners", "scores"]
    assert replayed["legal"] is True and replayed["state"] == final
    ranked = post(gateway, f"{PREFIX}/rank", {"players": final["players"]})
    assert (replayed["standings"], replayed["winners"]) == (ranked["standings"],
                                                            ranked["winners"])
    assert replayed["scores"] == [post(gateway, f"{PREFIX}/score", p["board"])
                                  for p in final["players"]]
    cut = rng.randrange(len(log))
    partial = post(gateway, REPLAY, {"setup": game, "moves": log[:cut]})
    assert partial == {"legal": True, "state": states[cut]}


def test_the_same_game_over_grpc(grpc_client: GrpcClient) -> None:
    game = GameSetupSchema().load(setup())
    state = grpc_client.downtown_farmers_market.new_game(game)
    assert state.expected == game_pb2.ACTION_TAKE and not state.game_over
    assert len(grpc_client.downtown_farmers_market.legal_moves(state)) == 5 * 16
    with pytest.raises(InvalidRequestError) as raised:
        grpc_client.downtown_farmers_market.validate_move(state, game_pb2.Move())
    assert raised.value.problems == [
        ("/move/action", "the move has no action; expected one of take, discard, reveal")]
    first = TakeTileSchema().load(take(0, ["corn"], 0, 0))
    assert not grpc_client.downtown_farmers_market.replay_game(game, [first]).HasField(
        "illegal_index")
    wrong = TakeTileSchema().load(take(1, ["corn"], 0, 0))
    replayed = grpc_client.downtown_farmers_market.replay_game(game, [wrong])
    assert replayed.HasField("illegal_index") and replayed.illegal_index == 0
    assert replayed.state == state and not replayed.winners


def test_openapi_documents_the_game_endpoints(gateway: FlaskClient) -> None:
    spec = gateway.get("/v1/openapi.json").get_json()
    for path in (GAMES, LEGAL_MOVES, VALIDATE, REPLAY):
        responses = spec["paths"][path]["post"]["responses"]
        assert {"200", "400", "413", "422", "503", "504"} <= set(responses)
    move_ref = spec["components"]["schemas"]["DowntownValidateMoveRequest"]["properties"]["move"]
    move = spec["components"]["schemas"][move_ref["$ref"].rsplit("/", 1)[-1]]
    assert move["discriminator"]["propertyName"] == "action"
    assert set(move["discriminator"]["mapping"]) == {"take", "discard", "reveal"}
    state = spec["components"]["schemas"]["DowntownGameState"]["properties"]
    assert list(state) == STATE_FIELDS and state["game_over"]["readOnly"] is True


tiles = st.lists(st.lists(st.sampled_from(INGREDIENTS), min_size=1, max_size=3),
                 min_size=1, max_size=4)
moves = st.one_of(
    st.builds(take, st.integers(0, 3), tiles.map(lambda t: t[0]), st.integers(0, 3),
              st.integers(0, 3)),
    st.builds(lambda p, t: {"action": "discard", "player": p, "tile": t},
              st.integers(0, 3), tiles.map(lambda t: t[0])),
    st.builds(lambda t: {"action": "reveal", "tiles": t}, tiles))
states = st.sampled_from(POSITIONS).map(
    lambda p: json.loads(p.read_text(encoding="utf-8"))["state"])
setups = st.builds(lambda mode, n: setup(mode, n), st.sampled_from(list(FIRST_FACE_UP)),
                   st.integers(2, 4))
BODIES = {
    GAMES: setups,
    LEGAL_MOVES: st.fixed_dictionaries({"state": states}),
    VALIDATE: st.fixed_dictionaries({"state": states, "move": moves}),
    REPLAY: st.fixed_dictionaries({"setup": setups, "moves": st.lists(moves, max_size=4)}),
}


@pytest.mark.parametrize("path", [GAMES, LEGAL_MOVES])
@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_valid_body_is_answered(gateway: FlaskClient, path: str,
                                      data: st.DataObject) -> None:
    """Setups and recorded states are well formed: each gets its 200 answer (a move drawn
    for them may name a seat the game lacks, so validate and replay bodies may not)."""
    answer = gateway.post(path, json=data.draw(BODIES[path]))
    assert answer.status_code == 200, answer.get_data(as_text=True)


@pytest.mark.parametrize("path", list(BODIES))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_body_gets_a_server_error(gateway: FlaskClient, path: str, data: st.DataObject
                                     ) -> None:
    body = data.draw(BODIES[path] | mutated(BODIES[path]))  # well-formed ones reach the rules
    answer = gateway.post(path, data=json.dumps(body), content_type="application/json")
    assert answer.status_code in (200, 422), answer.get_data(as_text=True)
