"""Discovery against a real in-process engine: the catalog is the built-in catalog.json,
the challenge types' limits are the ones the referee enforces (a value just past one is a
422), the versions are those every score answer names, and the answers are cacheable."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api_gateway import create_app
from api_gateway.resources.downtown_farmers_market.schemas import CHALLENGE_SCHEMAS
from tabletop_referee_clients import GrpcClient
from tabletop_rules.downtown_farmers_market import RULES_VERSION as DFM_RULES
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog, builtin_catalog_version
from tabletop_rules.foxglove_farm.catalog_format import building_to_dict
from tabletop_rules.foxglove_farm.game_state import RULES_VERSION as FF_RULES

from ..sample_boards import SIMPLE_BOARD
from .foxglove_towns import KULY, RANCH

CATALOG_FILE = Path(__file__).resolve().parents[2] / "tabletop_rules" / "foxglove_farm" \
    / "catalog.json"
VERSION, CHALLENGES, CATALOG = ("/v1/version", "/v1/downtown-farmers-market/challenges",
                                "/v1/foxglove-farm/catalog")
DFM, FF = "/v1/downtown-farmers-market", "/v1/foxglove-farm"


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


# -- the version -------------------------------------------------------------------------

def test_version_names_the_releases_and_every_games_rules_and_catalog(
        gateway: FlaskClient) -> None:
    version = ok(gateway.get(VERSION))
    assert version == {
        "service": metadata.version("tabletop-referee"), "api": "v1",
        "engine": metadata.version("tabletop-referee"),
        "rules": {"downtown-farmers-market": DFM_RULES, "foxglove-farm": FF_RULES},
        "catalogs": {"foxglove-farm": builtin_catalog_version()}}


def score_answers(gateway: FlaskClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every answer that scores, from each endpoint that does: (game, path, answer)."""
    yield "downtown-farmers-market", "score", ok(gateway.post(f"{DFM}/score", json=SIMPLE_BOARD))
    yield "downtown-farmers-market", "rank", ok(gateway.post(f"{DFM}/rank", json={"players": [
        {"name": "Ana", "board": SIMPLE_BOARD}]}))
    yield "foxglove-farm", "score", ok(gateway.post(f"{FF}/score", json=RANCH["town"]))
    yield "foxglove-farm", "rank", ok(gateway.post(f"{FF}/rank", json={"players": [
        {"name": "Kuly", "town": KULY["town"]}, {"name": "Ana", "town": RANCH["town"]}]}))
    yield "foxglove-farm", "plan", ok(gateway.post(f"{FF}/final-round/plan", json=KULY["town"]))
    custom = {**RANCH["town"], "catalog": {"ranch": {"slots": 10}}}
    yield "foxglove-farm", "score with a catalog", ok(gateway.post(f"{FF}/score", json=custom))


def test_every_score_answer_names_the_versions_the_referee_lists(gateway: FlaskClient) -> None:
    version = ok(gateway.get(VERSION))
    for game, what, answer in score_answers(gateway):
        assert answer["rules_version"] == version["rules"][game], what
        if game in version["catalogs"]:
            assert answer["catalog_version"] == version["catalogs"][game], what
        else:
            assert "catalog_version" not in answer, what


def test_the_engine_says_the_same_over_grpc(gateway: FlaskClient,
                                            grpc_client: GrpcClient) -> None:
    """The gRPC client's JSON is the REST answer: the same call over either transport."""
    rest = ok(gateway.get(VERSION))
    assert grpc_client.version(as_json=True) == {
        "service": rest["engine"], "rules": rest["rules"], "catalogs": rest["catalogs"]}
    assert grpc_client.downtown_farmers_market.challenge_types(as_json=True) == \
        ok(gateway.get(CHALLENGES))
    assert grpc_client.foxglove_farm.catalog(as_json=True) == ok(gateway.get(CATALOG))
    assert grpc_client.foxglove_farm.catalog().catalog_version == builtin_catalog_version()


# -- the catalog -------------------------------------------------------------------------

def test_the_catalog_is_every_building_of_catalog_json_with_its_provenance(
        gateway: FlaskClient) -> None:
    """Held to the data file itself, read here independently of the rules library."""
    answer = ok(gateway.get(CATALOG))
    assert answer["catalog_version"] == builtin_catalog_version()
    written = json.loads(CATALOG_FILE.read_text())["buildings"]
    ids = [b["id"] for b in answer["buildings"]]
    assert ids == sorted(written) and len(set(ids)) == len(ids)
    for building in answer["buildings"]:
        entry = written[building["id"]]
        sourced = {name: value for name, value in entry.items() if isinstance(value, dict)
                   and "source" in value}
        assert building["name"] == entry["name"]
        assert building["documented"] is (entry.get("status") != "undocumented")
        assert building["expert"] is entry.get("expert", False)
        assert building["text"] == entry.get("text", "")
        assert building["tiers"] == entry["tiers"]["value"]
        assert building["provenance"] == {
            name: {"source": value["source"], "note": value.get("note", "")}
            for name, value in sourced.items()}
        assert building["provisional"] is any(v["source"] == "provisional"
                                              for v in sourced.values()), building["id"]
        if building["documented"]:
            assert building["slots"] == entry["slots"]["value"]
            assert building["cost"] == {k: n for k, n in entry["cost"]["value"].items() if n}
            assert building["effects"] == building_to_dict(builtin_catalog()[building["id"]]
                                                           )["effects"]["value"]
    assert any(b["provisional"] for b in answer["buildings"])
    assert any(not b["documented"] for b in answer["buildings"])


def test_a_catalog_entry_is_a_definition_a_request_may_send(gateway: FlaskClient) -> None:
    """A building as the catalog answers it, sent back as the town's own definition of it
    (the definition format), scores the town as the built-in one does."""
    ranch = next(b for b in ok(gateway.get(CATALOG))["buildings"] if b["id"] == "ranch")
    definition = {name: ranch[name] for name in ("name", "tiers", "slots", "cost", "effects",
                                                 "expert", "text")}
    scored = ok(gateway.post(f"{FF}/score", json=RANCH["town"]))
    again = ok(gateway.post(f"{FF}/score", json={**RANCH["town"],
                                                 "catalog": {"ranch": definition}}))
    assert again == scored


# -- the challenge types -----------------------------------------------------------------

def test_the_seven_challenge_types_are_the_ones_boards_take(gateway: FlaskClient) -> None:
    answer = ok(gateway.get(CHALLENGES))
    assert [t["type"] for t in answer["challenge_types"]] == list(CHALLENGE_SCHEMAS)
    assert answer["ingredients"] == ["bread", "carrot", "corn", "cheese", "milk", "egg"]
    assert answer["rules_version"] == DFM_RULES
    for kind in answer["challenge_types"]:
        schema = CHALLENGE_SCHEMAS[kind["type"]]()
        assert {p["name"] for p in kind["parameters"]} == set(schema.fields) - {"type"}
        assert kind["rule"].startswith("DFM-R") and kind["rule"] in kind["description"]


def value_at(values: dict[str, Any], ingredients: list[str], end: str) -> Any:
    """A value ``values`` accepts, at its ``end`` (``"minimum"`` or ``"maximum"``): the
    smallest or largest number, the fewest or most entries, each entry at the same end."""
    kind = values["kind"]
    if kind == "whole_number":
        return values[end]
    if kind == "ingredient":
        return ingredients[0]
    count = values["min_items" if end == "minimum" else "max_items"]
    if kind == "object":
        return {i: value_at(values["items"], ingredients, end) for i in ingredients[:count]}
    if values["unique_items"]:
        return ingredients[:count]
    return [value_at(values["items"], ingredients, end) for _ in range(count)]


def past_limits(values: dict[str, Any], ingredients: list[str]
                ) -> Iterator[tuple[str, str, Any]]:
    """Values just past each of ``values``' limits: (limit, relative pointer, value)."""
    kind = values["kind"]
    if kind == "whole_number":
        yield "minimum", "", values["minimum"] - 1
        yield "maximum", "", values["maximum"] + 1
    if kind not in ("list", "object"):
        return
    fewest = value_at(values, ingredients, "minimum")
    if kind == "object":
        yield "min_items", "", dict(list(fewest.items())[:values["min_items"] - 1])
        key = next(iter(fewest))
        for limit, pointer, item in past_limits(values["items"], ingredients):
            yield f"items.{limit}", f"/{key}{pointer}", {**fewest, key: item}
        return  # max_items is every ingredient: an object cannot hold another key
    most = value_at(values, ingredients, "maximum")
    yield "min_items", "", fewest[:values["min_items"] - 1]
    yield "max_items", "", most + most[:1]  # one more (unique lists: a repeat)
    for limit, pointer, item in past_limits(values["items"], ingredients):
        yield f"items.{limit}", f"/0{pointer}", [item, *fewest[1:]]


def board_with(challenge: dict[str, Any]) -> dict[str, Any]:
    board = copy.deepcopy(SIMPLE_BOARD)
    board["row_challenges"][0] = challenge
    return board


def challenges(answer: dict[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Each type with each of its parameters."""
    for kind in answer["challenge_types"]:
        for parameter in kind["parameters"]:
            yield kind, parameter


def test_each_listed_limit_is_the_one_the_referee_enforces(gateway: FlaskClient) -> None:
    """Every parameter at each end of what it accepts scores (200); just past any listed
    limit, the board is a 422 whose problem points at that parameter."""
    answer = ok(gateway.get(CHALLENGES))
    ingredients = answer["ingredients"]
    probed = 0
    for kind, parameter in challenges(answer):
        for end in ("minimum", "maximum"):
            challenge = {"type": kind["type"], **{p["name"]: value_at(p["values"], ingredients,
                                                                     end)
                                                 for p in kind["parameters"]}}
            ok(gateway.post(f"{DFM}/score", json=board_with(challenge)))
            for limit, _pointer, value in past_limits(parameter["values"], ingredients):
                broken = {**challenge, parameter["name"]: value}
                response = gateway.post(f"{DFM}/score", json=board_with(broken))
                where = f"/row_challenges/0/{parameter['name']}"
                assert response.status_code == 422, (kind["type"], limit, value)
                assert any(e["pointer"].startswith(where)
                           for e in response.get_json()["errors"]), response.get_json()
                probed += 1
    assert probed > 40  # every limit of the seven types, from both ends' valid values


# -- caching -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", [VERSION, CHALLENGES, CATALOG])
def test_discovery_answers_are_cacheable_and_revalidated(gateway: FlaskClient,
                                                         path: str) -> None:
    first = gateway.get(path)
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "public, max-age=300"
    etag = first.headers["ETag"]
    assert not etag.startswith("W/")
    again = gateway.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert gateway.get(path, headers={"If-None-Match": '"other"'}).data == first.data
    assert gateway.head(path).headers["ETag"] == etag


def test_score_answers_stay_uncached(gateway: FlaskClient) -> None:
    response = gateway.post(f"{DFM}/score", json=SIMPLE_BOARD)
    assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers


def test_an_unreachable_engine_is_a_503_not_a_cached_answer() -> None:
    client = create_app({"ENGINE_ADDRESS": "127.0.0.1:1", "ENGINE_TIMEOUT_SECONDS": 0.5}
                        ).test_client()
    response = client.get(VERSION)
    assert response.status_code == 503 and response.headers["Cache-Control"] == "no-store"
    assert "ETag" not in response.headers
