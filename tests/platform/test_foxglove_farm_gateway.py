"""The Foxglove Farm REST endpoints against a real in-process engine: the contract's
answers, a 422 with a pointer for each kind of malformed town, and no 5xx for any body."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_referee_clients import GrpcClient
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog_version
from tabletop_rules.foxglove_farm.game_state import RULES_VERSION

from ..foxglove_farm.towns import b, t, town_data, town_dicts
from .foxglove_towns import KULY, RANCH, UNBOUNDED_TOWN
from .fuzz import mutated
from .test_gateway import pointers, problem

BASE = "/v1/foxglove-farm"
SCORE, RANK = f"{BASE}/score", f"{BASE}/rank"
TRANSPORT, PLAN = f"{BASE}/transport/validate", f"{BASE}/final-round/plan"
STEP_C = KULY["transportation"][2]["move"]  # a legal first move: Lambing Shed -> Ranch
VERSIONS = {"rules_version": RULES_VERSION, "catalog_version": builtin_catalog_version()}
"""What every score answer names: the rules and catalog it was computed under."""


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_score_answers_the_contract_shape(gateway: FlaskClient) -> None:
    body = ok(gateway.post(SCORE, json=RANCH["town"]))
    assert list(body) == ["total", "score_track", "end_game_points", "end_game",
                          "goods_remaining", "tile_count", "rules_version", "catalog_version"]
    assert {key: body[key] for key in VERSIONS} == VERSIONS
    (entry,) = body["end_game"]
    assert list(entry)[:6] == ["building", "row", "col", "points", "explanation", "rule"]
    assert {key: entry[key] for key in list(entry)[:6]} == {
        "building": "ranch", "row": 1, "col": 1, "points": 30,
        "explanation": entry["explanation"], "rule": "FF-R7"}
    # answers gain fields: the entry's sentence as code and params, and its effects
    assert (entry["code"], entry["params"]) == (
        "FF_END_GAME", {"building": "Ranch", "row": 1, "col": 1, "points": 30})
    assert [(e["code"], e["points"], e["tiles"]) for e in entry["effects"]] == [
        ("FF_GAIN_PER_HELD", 24, [{"row": 1, "col": 1, "building": "ranch", "via": []}]),
        ("FF_BONUS_IF_HELD", 6, [{"row": 1, "col": 1, "building": "ranch", "via": []}])]
    assert (body["total"], body["goods_remaining"], body["tile_count"]) == (30, 8, 4)


def test_a_building_reached_along_trails_names_the_trail_tiles_it_went_by(
        gateway: FlaskClient, grpc_client: GrpcClient) -> None:
    """The Community Centre reaches the Forest by the trail at (-1, 0): each ``via`` item
    is that trail tile's place, not the counted tile's (a list of positions each written
    from its own item)."""
    town = town_data(t(-1, 0, "NS"), b(-2, 0, "community_centre"))
    (entry,) = ok(gateway.post(SCORE, json=town))["end_game"]
    (effect,) = entry["effects"]
    assert effect["tiles"] == [{"row": 0, "col": 0, "building": "forest", "via": [[-1, 0]]}]
    assert grpc_client.foxglove_farm.score_town(town)["end_game"] == [entry]


def test_the_contract_example_town_scores(gateway: FlaskClient) -> None:
    example = {"variant": "standard", "score_track": 64, "tiles": [
        b(0, 0, "forest", wood=2), b(0, 1, "mine"), t(1, 0, "NE"),
        b(1, 1, "ranch", sheep=8)], "catalog": {}}
    body = ok(gateway.post(SCORE, json=example))
    assert (body["total"], body["score_track"], body["end_game_points"]) == (94, 64, 30)
    assert (body["goods_remaining"], body["tile_count"]) == (10, 4)


def test_rank_answers_standings_and_winners(gateway: FlaskClient) -> None:
    players = [{"name": "Kuly", "town": KULY["town"]}, {"name": "Ana", "town": RANCH["town"]}]
    assert ok(gateway.post(RANK, json={"players": players})) == {
        "standings": [{"name": "Ana", "total": 30, "goods_remaining": 8, "tile_count": 4,
                       "place": 1},
                      {"name": "Kuly", "total": 0, "goods_remaining": 8, "tile_count": 9,
                       "place": 2}],
        "winners": ["Ana"], **VERSIONS}


def test_the_kuly_example_through_the_api(gateway: FlaskClient) -> None:
    """Moves A, B and C (each from the town the last one left), then the best final round
    reaches the example's 14 processing points and the Ranch's 3."""
    town = KULY["town"]
    for step in KULY["transportation"]:
        body = ok(gateway.post(TRANSPORT, json={"town": town, "move": step["move"]}))
        assert list(body) == ["legal", "path", "town"] and body["legal"] is True
        assert body["path"] == step["path"]
        town = body["town"]
        goods = {tile["building"]: tile.get("goods", {}) for tile in town["tiles"]
                 if "building" in tile}
        assert {k: goods[k] for k in step["after"]} == step["after"], step["step"]
    plan = ok(gateway.post(PLAN, json=KULY["town"]))
    assert list(plan) == ["total", "processing_points", "end_game_points", "goods_remaining",
                          "steps", "optimal", "upper_bound", "rules_version", "catalog_version"]
    assert plan["optimal"] is True and plan["upper_bound"] == plan["total"]
    assert (plan["total"], plan["processing_points"], plan["end_game_points"]) == (
        KULY["processing"]["points"] + KULY["end_game"]["ranch_points"],
        KULY["processing"]["points"], KULY["end_game"]["ranch_points"])
    assert {"action": "process", "points": 14} in plan["steps"]
    moves = [s for s in plan["steps"] if s["action"] == "move"]
    assert moves and all(list(s) == ["action", "good", "count", "from", "to", "path"]
                         for s in moves)
    assert moves[0]["path"][0] == [moves[0]["from"]["row"], moves[0]["from"]["col"]]


def test_an_illegal_move_is_200_with_violations(gateway: FlaskClient) -> None:
    body = ok(gateway.post(TRANSPORT, json={"town": KULY["town"],
                                            "move": KULY["transportation"][1]["move"]}))
    assert body == {"legal": False, "violations": [{
        "reason": "NOT_ENOUGH_FREE_SLOTS", "rule": "FF-R3",
        "message": body["violations"][0]["message"], "pointer": "/move/to",
        "code": "NOT_ENOUGH_FREE_SLOTS", "params": {
            "why": "move", "building": ["Charcoal Kiln", 1, 1], "free": 1, "count": 3,
            "good": "wood"}}]}
    assert "1 free slot" in body["violations"][0]["message"]


def test_the_town_after_keeps_the_request_catalog(gateway: FlaskClient) -> None:
    town = {**KULY["town"], "catalog": {"ranch": {"slots": 10}}}
    after = ok(gateway.post(TRANSPORT, json={"town": town, "move": STEP_C}))["town"]
    assert after["catalog"]["ranch"]["slots"] == {"value": 10, "source": "request"}
    ok(gateway.post(SCORE, json=after))  # the answer's town is a valid request again


def test_a_move_without_count_moves_one(gateway: FlaskClient) -> None:
    move = {k: v for k, v in STEP_C.items() if k != "count"}
    assert ok(gateway.post(TRANSPORT, json={"town": KULY["town"], "move": move}))["legal"]


UNDOCUMENTED = town_data(b(1, 0, "windmill"))
MALFORMED_TOWNS = {
    "overlap": (town_data(t(1, 0, "NE"), t(1, 0, "NS")), {"/tiles/3"}),
    "disconnected": (town_data(b(5, 5, "ranch")), {"/tiles/2"}),
    "no mine": (town_data(b(0, 0, "forest"), start=False), {"/tiles"}),
    "split starting tile": (town_data(b(0, 0, "forest"), t(0, 1, "EW"), b(0, 2, "mine"),
                                      start=False), {"/tiles/2"}),
    "second forest": (town_data(b(1, 0, "forest")), {"/tiles/2/building"}),
    "one-sided trail": (town_data(t(1, 0, "N")), {"/tiles/2/trail"}),
    "four-sided trail": (town_data(t(1, 0, "NESW")), {"/tiles/2/trail"}),
    "repeated side": (town_data(t(1, 0, "NN")), {"/tiles/2/trail/1"}),
    "unknown side": (town_data(t(1, 0, "Nx")), {"/tiles/2/trail/1"}),
    "trail with goods": (town_data({**t(1, 0, "NS"), "goods": {"wood": 1}}),
                         {"/tiles/2/goods"}),
    "building and trail": (town_data({**b(1, 0, "ranch"), "trail": ["N", "S"]}),
                           {"/tiles/2"}),
    "unknown building": (town_data(b(1, 0, "forrest")), {"/tiles/2/building"}),
    "unknown building and a tile cut off": (town_data(b(1, 0, "granery"), t(5, 5, "NS")),
                                            {"/tiles/2/building", "/tiles/3"}),
    "undocumented building": (UNDOCUMENTED, {"/tiles/2/building"}),
    "goods over slots": (town_data(b(0, 0, "forest", wood=6), b(0, 1, "mine"), start=False),
                         {"/tiles/0/goods"}),
    "goods not depicted": (town_data(b(0, 0, "forest"), b(0, 1, "mine", sheep=1),
                                     start=False), {"/tiles/1/goods/sheep"}),
    "unknown good": (town_data(b(1, 0, "ranch", gold=1)), {"/tiles/2/goods/gold"}),
    "negative goods": (town_data(b(1, 0, "ranch", sheep=-1)), {"/tiles/2/goods/sheep"}),
    "row out of the table": (town_data({**t(1, 0, "NS"), "row": 1001}), {"/tiles/2/row"}),
    "absurd coordinates": (town_data({**t(1, 0, "NS"), "row": 10**40, "col": -(10**12)}),
                           {"/tiles/2/row", "/tiles/2/col"}),
    "fractional coordinate": (town_data({**t(1, 0, "NS"), "col": 0.5}), {"/tiles/2/col"}),
    "missing coordinate": (town_data({"row": 1, "trail": ["N", "S"]}), {"/tiles/2/col"}),
    "too many tiles": (town_data(*(t(1, c, "EW") for c in range(600))), {"/tiles"}),
    "no tiles": ({"variant": "standard"}, {"/tiles"}),
    "tiles not a list": ({"tiles": {}}, {"/tiles"}),
    "negative score track": (town_data(score_track=-1), {"/score_track"}),
    "huge score track": (town_data(score_track=10**6), {"/score_track"}),
    "unknown variant": (town_data(variant="hard"), {"/variant"}),
    "unknown field": (town_data(colour="red"), {"/colour"}),
    "not an object": ([], {""}),
    "catalog not an object": (town_data(catalog=["windmill"]), {"/catalog"}),
    "catalog bad id": (town_data(catalog={"Wind Mill": {}}), {"/catalog/Wind Mill"}),
    "catalog missing effects": (town_data(catalog={"windmill": {"slots": 3}}),
                                {"/catalog/windmill/effects"}),
    "catalog unknown effect": (town_data(catalog={"windmill": {"slots": 3, "effects": [
        {"kind": "teleport"}]}}), {"/catalog/windmill/effects/0/kind"}),
    "catalog growing conversion": (town_data(catalog={"kiln": {"slots": 3, "effects": [
        {"kind": "convert", "inputs": {"wood": 1}, "goods": {"coal": 2}}]}}),
        {"/catalog/kiln/effects/0/goods"}),
    "catalog slots out of range": (town_data(b(1, 0, "windmill"), catalog={
        "windmill": {"slots": -1, "effects": []}}), {"/catalog/windmill/slots"}),
    "catalog number beyond a double": (town_data(catalog={"ranch": {"slots": 10**30}}),
                                       {"/catalog/ranch/slots"}),
    "catalog nested absurdly": (town_data(catalog={"ranch": {"text": json.loads(
        "[" * 20 + "]" * 20)}}), {"/catalog/ranch/text/0/0/0/0/0/0/0/0/0/0/0/0/0/0"}),
}


@pytest.mark.parametrize("body, expected", MALFORMED_TOWNS.values(), ids=MALFORMED_TOWNS)
@pytest.mark.parametrize("path", [SCORE, PLAN])
def test_malformed_towns_are_422_with_a_pointer_each(gateway: FlaskClient, path: str,
                                                     body: Any, expected: set[str]) -> None:
    answer = problem(gateway.post(path, json=body), 422)
    assert pointers(answer) == expected
    assert all(e["detail"] for e in answer["errors"])


def test_unknown_and_undocumented_buildings_say_how_to_define_them(
        gateway: FlaskClient) -> None:
    (unknown,) = problem(gateway.post(SCORE, json=MALFORMED_TOWNS["unknown building"][0]),
                         422)["errors"]
    assert "did you mean Forest" in unknown["detail"] and '"catalog"' in unknown["detail"]
    (undocumented,) = problem(gateway.post(SCORE, json=UNDOCUMENTED), 422)["errors"]
    assert '"catalog": {"windmill": {"slots"' in undocumented["detail"]
    defined = {**UNDOCUMENTED, "catalog": {"windmill": {"slots": 3, "effects": [
        {"kind": "gain", "when": "production", "goods": {"wheat": 2}}]}}}
    assert ok(gateway.post(SCORE, json=defined))["tile_count"] == 3


def test_transport_problems_point_into_town_and_move(gateway: FlaskClient) -> None:
    town = copy.deepcopy(KULY["town"])
    town["tiles"][3]["building"] = "kiln"
    move = {"good": "gold", "count": 0, "from": {"row": "1"}, "too": {}}
    assert pointers(problem(gateway.post(TRANSPORT, json={"town": town, "move": move}),
                            422)) == {"/move/good", "/move/from/row", "/move/from/col",
                                      "/move/to", "/move/too"}
    # Once the JSON types are right, the engine's problems point into the same body.
    move = {"good": "coal", "count": 31, "from": {"row": 2000, "col": 0}, "to": {"row": 0,
                                                                                  "col": 0}}
    assert pointers(problem(gateway.post(TRANSPORT, json={"town": town, "move": move}),
                            422)) == {"/town/tiles/3/building", "/move/count",
                                      "/move/from/row"}
    assert pointers(problem(gateway.post(TRANSPORT, json={"move": STEP_C}), 422)) == {"/town"}


@pytest.mark.parametrize("body, expected", [
    ({"players": []}, {"/players"}),
    ({"players": [{"name": str(i), "town": RANCH["town"]} for i in range(5)]}, {"/players"}),
    ({"players": [{"name": "Ana", "town": RANCH["town"]}] * 2}, {"/players/1/name"}),
    ({"players": [{"name": "Ana"}, {"town": RANCH["town"]}]},
     {"/players/0/town", "/players/1/name"}),
    ({"players": [{"name": "Ana", "town": UNDOCUMENTED}]}, {"/players/0/town/tiles/2/building"}),
    ({"players": [{"name": "Ana", "town": UNDOCUMENTED}, {"name": "Ben", "town": RANCH["town"]},
                  {"name": "Cy", "town": UNDOCUMENTED}, {"name": "x" * 101, "town": RANCH["town"]}]},
     {"/players/0/town/tiles/2/building", "/players/2/town/tiles/2/building", "/players/3/name"}),
])
def test_rank_breaches_point_into_the_players(gateway: FlaskClient, body: Any,
                                              expected: set[str]) -> None:
    assert pointers(problem(gateway.post(RANK, json=body), 422)) == expected


def test_four_players_are_ranked(gateway: FlaskClient) -> None:
    body = {"players": [{"name": name, "town": RANCH["town"]} for name in "ABCD"]}
    answer = gateway.post(RANK, json=body)
    assert answer.status_code == 200, answer.get_json()
    assert [s["place"] for s in answer.get_json()["standings"]] == [1, 1, 1, 1]


def test_an_unbounded_final_round_is_refused_at_the_catalog(gateway: FlaskClient) -> None:
    answer = problem(gateway.post(PLAN, json=UNBOUNDED_TOWN), 422)
    assert pointers(answer) == {"/catalog"}


def test_openapi_documents_the_endpoints(gateway: FlaskClient) -> None:
    spec = gateway.get("/v1/openapi.json").get_json()
    for path in (SCORE, RANK, TRANSPORT, PLAN):
        responses = spec["paths"][path]["post"]["responses"]
        assert {"200", "400", "413", "422", "503", "504"} <= set(responses)
    town = spec["components"]["schemas"]["FoxgloveTown"]
    assert {"variant", "score_track", "tiles", "catalog"} <= set(town["properties"])
    steps_ref = spec["components"]["schemas"]["FoxgloveFinalRoundPlan"]["properties"]["steps"]["items"]
    steps = spec["components"]["schemas"][steps_ref["$ref"].rsplit("/", 1)[-1]]
    assert set(steps["discriminator"]["mapping"]) == {"move", "process", "haul"}


small_towns = town_dicts(max_tiles=8)
transport_requests = st.builds(
    lambda town, good, origin, destination, count: {
        "town": town, "move": {"good": good, "count": count, "from": origin, "to": destination}},
    small_towns, st.sampled_from(["wood", "stone", "wheat", "coal", "sheep"]),
    st.builds(lambda r, c: {"row": r, "col": c}, st.integers(-1, 3), st.integers(-1, 3)),
    st.builds(lambda r, c: {"row": r, "col": c}, st.integers(-1, 3), st.integers(-1, 3)),
    st.integers(1, 3))
rank_requests = st.builds(lambda towns: {"players": [{"name": f"P{i}", "town": town}
                                                     for i, town in enumerate(towns)]},
                          st.lists(small_towns, min_size=1, max_size=4))
FUZZED = [(SCORE, small_towns), (PLAN, small_towns), (TRANSPORT, transport_requests),
          (RANK, rank_requests)]


@pytest.mark.parametrize("path, valid", FUZZED, ids=[p for p, _ in FUZZED])
def test_every_valid_body_is_answered(gateway: FlaskClient, path: str,
                                      valid: st.SearchStrategy[Any]) -> None:
    """The bodies the fuzzers start from are all well formed: each gets its 200 answer."""
    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=valid)
    def check(body: Any) -> None:
        answer = gateway.post(path, json=body)
        assert answer.status_code == 200, answer.get_data(as_text=True)

    check()


@pytest.mark.parametrize("path, valid", FUZZED, ids=[p for p, _ in FUZZED])
def test_no_body_gets_a_server_error(gateway: FlaskClient, path: str,
                                     valid: st.SearchStrategy[Any]) -> None:
    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(body=mutated(valid))
    def check(body: Any) -> None:
        answer = gateway.post(path, data=json.dumps(body), content_type="application/json")
        assert answer.status_code in (200, 422), answer.get_data(as_text=True)
        if answer.status_code == 422:
            assert all(e["pointer"] == "" or e["pointer"].startswith("/")
                       for e in answer.get_json()["errors"])

    check()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=small_towns)
def test_every_generated_town_scores_and_plans(gateway: FlaskClient,
                                               body: dict[str, Any]) -> None:
    scored = ok(gateway.post(SCORE, json=body))
    assert scored["total"] == max(0, body["score_track"] + sum(
        entry["points"] for entry in scored["end_game"]))
    plan = ok(gateway.post(PLAN, json=body))
    assert plan["total"] == max(0, body["score_track"] + plan["processing_points"]
                                + plan["end_game_points"])
