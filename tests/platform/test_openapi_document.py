"""The OpenAPI document (docs/openapi.json): current, valid, and made for SDK generators.

It is committed so API changes show up in review as a diff of the document. Generated
clients need more than a valid document: one name per operation, one type per shared
thing (no schema written out twice, no enum repeated), ``required`` on what answers always
hold, the limits the referee enforces, and examples that work. The generated clients
themselves are built and run in ``tests/e2e/test_generated_clients.py``.

``REFEREE_RECORD_EXAMPLES=1`` rewrites the recorded answers of the examples
(``api_gateway/resources/*/examples.json``) with what the referee answers now; review the
diff, then rewrite the document.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import referencing.jsonschema
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource

from tabletop_rules.downtown_farmers_market.model import INGREDIENTS

from ..openapi_document import examples, holds, operations, walk

REPO = Path(__file__).resolve().parents[2]
DOCUMENT = REPO / "docs" / "openapi.json"
REGENERATE = "flask --app api_gateway:create_app openapi write docs/openapi.json"
EXAMPLE_FILES = sorted((REPO / "api_gateway" / "resources").glob("*/examples.json"))
SCHEMAS = "#/components/schemas/"
VERBS = ("check", "score", "rank", "start", "list", "validate", "replay", "plan", "get")
"""How an operationId may begin: what the operation does."""
WIRE_BOUNDS = {-(2**31), 2**31 - 1}
UNBOUNDED = {"FoxglovePlayer.runs"}
"""Request numbers the rules bound by nothing narrower than the wire's int32."""


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return json.loads(DOCUMENT.read_text(encoding="utf-8"))


def schemas_in(document: dict[str, Any], node: Any) -> set[str]:
    """The component schemas ``node`` uses, directly or through others."""
    found: set[str] = set()
    todo = [node]
    while todo:
        for each in walk(todo.pop()):
            ref = each.get("$ref")
            if isinstance(ref, str) and ref.startswith(SCHEMAS):
                name = ref.removeprefix(SCHEMAS)
                if name not in found:
                    found.add(name)
                    todo.append(document["components"]["schemas"][name])
    return found


def without_examples(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: without_examples(v) for k, v in node.items() if k != "examples"}
    if isinstance(node, list):
        return [without_examples(v) for v in node]
    return node


def test_committed_openapi_document_is_current(gateway: FlaskClient) -> None:
    served = gateway.get("/v1/openapi.json").get_json()
    assert json.loads(DOCUMENT.read_text()) == served, f"stale; run `{REGENERATE}`"


def test_the_document_is_valid_openapi(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_operation_has_a_verb_first_camel_case_id(document: dict[str, Any]) -> None:
    ids = [operation.get("operationId") for _, _, operation in operations(document)]
    assert all(ids) and len(set(ids)) == len(ids), ids
    for operation_id in ids:
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+", operation_id), operation_id
        assert operation_id.startswith(VERBS), operation_id


def test_the_forward_compatibility_rule_is_stated(document: dict[str, Any]) -> None:
    description = document["info"]["description"]
    assert "Answers may gain fields" in description and "must ignore" in description


def test_every_component_is_used(document: dict[str, Any]) -> None:
    used = schemas_in(document, {"paths": document["paths"],
                                 "responses": document["components"].get("responses", {})})
    assert set(document["components"]["schemas"]) == used
    assert "PaginationMetadata" not in used


GAME_PREFIXES = {"downtown-farmers-market": "Downtown", "foxglove-farm": "Foxglove"}
"""How the components of each game alone are named, by the game's path: the same way for
both, so a generated client's types say which game they are of."""


def test_each_games_own_components_are_named_for_it(document: dict[str, Any]) -> None:
    """A component only one game's operations use begins with that game's prefix, and one
    that begins with a game's prefix is that game's alone: no game has the plain names."""
    games_using: dict[str, set[str]] = {name: set() for name in document["components"]["schemas"]}
    for _, path, operation in operations(document):
        game = path.split("/")[2] if path.startswith("/v1/") else ""
        for name in schemas_in(document, operation):
            games_using[name].add(game)
    misnamed = []
    for name, games in games_using.items():
        named_for = {game for game, prefix in GAME_PREFIXES.items() if name.startswith(prefix)}
        own = games if len(games) == 1 and games <= set(GAME_PREFIXES) else set()
        if named_for != own:
            misnamed.append(f"{name} (used by {sorted(games)})")
    assert not misnamed, misnamed


def test_each_shared_type_is_written_once(document: dict[str, Any]) -> None:
    """Problems and enums are components that every use refers to: no schema has the
    problem's properties but Problem, no enum of ingredients but Ingredient."""
    schemas = document["components"]["schemas"]
    for name in ("Problem", "FieldError", "DowntownIngredient", "FoxgloveGood", "FoxgloveSide",
                 "DowntownMode", "FoxgloveVariant", "DowntownFoodTile", "FoxgloveGoods",
                 "DowntownChallenge", "DowntownMove", "FoxgloveAction", "DowntownBoard",
                 "FoxgloveTown", "FoxgloveTownTile", "Violation", "DowntownGameState",
                 "FoxgloveGameState"):
        assert name in schemas, name
    ingredients = [v.value for v in INGREDIENTS]
    enums = [node for node in walk(without_examples(document)) if "enum" in node]
    assert [e["enum"] for e in enums].count(ingredients) == 1
    problem_like = [node for node in walk(schemas) if {"type", "title", "status", "detail"}
                    <= set(node.get("properties", {}))]
    assert problem_like == [schemas["Problem"]]
    for response in document["components"]["responses"].values():
        for media in response["content"].values():
            assert media["schema"] == {"$ref": SCHEMAS + "Problem"}
    for _, _, operation in operations(document):
        for answer in operation["responses"].values():
            for media in answer.get("content", {}).values():
                assert set(media["schema"]) == {"$ref"}, operation["operationId"]


def request_schemas(document: dict[str, Any]) -> set[str]:
    return schemas_in(document, [operation.get("requestBody", {}) for _, _, operation
                                 in operations(document)])


def test_numbers_and_lists_a_request_holds_state_their_limits(document: dict[str, Any]
                                                              ) -> None:
    """The real limits, not the wire's: every integer a request may hold has a range the
    rules accept, and every list a most."""
    schemas = document["components"]["schemas"]
    unbounded = []
    for name in request_schemas(document):
        parts = schemas[name].get("properties") or {"": schemas[name]}
        for key, prop in parts.items():
            for node in walk(prop):
                kind = node.get("type")
                kinds = kind if isinstance(kind, list) else [kind]
                where = f"{name}.{key}"
                if "integer" in kinds and (
                        not {"minimum", "maximum"} <= set(node)
                        or ({node["minimum"], node["maximum"]} & WIRE_BOUNDS
                            and where not in UNBOUNDED)):
                    unbounded.append(where)
                if "array" in kinds and "maxItems" not in node:
                    unbounded.append(where)
    assert not unbounded, unbounded


def test_answers_may_gain_fields_requests_may_not(document: dict[str, Any]) -> None:
    """A schema a request uses refuses unknown fields (they are a 422); one only answers
    use does not forbid them: answers may gain fields."""
    schemas = document["components"]["schemas"]
    requests = request_schemas(document)
    for name, schema in schemas.items():
        if schema.get("type") != "object" or "properties" not in schema:
            continue
        closed = schema.get("additionalProperties") is False
        assert closed == (name in requests), name


def test_answers_mark_what_they_always_hold(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    # uncertainty: only in the answer for a transcription with doubtful readings
    for score in ("DowntownScore", "FoxgloveTownScore"):
        assert set(schemas[score]["required"]) == set(schemas[score]["properties"]) - {
            "uncertainty"}, score
    assert set(schemas["DowntownLineScore"]["required"]) == set(
        schemas["DowntownLineScore"]["properties"])
    for uncertainty in ("DowntownBoardUncertainty", "DowntownDoubtfulSpace",
                        "FoxgloveTownUncertainty", "FoxgloveDoubtfulCount"):
        assert set(schemas[uncertainty]["required"]) == set(
            schemas[uncertainty]["properties"]), uncertainty
    assert {"mode", "discards", "game_over"} <= set(schemas["DowntownGameState"]["required"])
    assert schemas["DowntownMoveVerdict"]["required"] == ["legal"]
    assert schemas["DowntownBoard"]["required"] == ["grid"]  # a client's: the rest defaults


def test_each_operation_with_a_body_has_an_example(document: dict[str, Any]) -> None:
    documented = {example.operation_id for example in examples(document)}
    assert documented == {operation["operationId"] for _, _, operation in operations(document)
                          if "requestBody" in operation}


def test_examples_agree_with_their_schemas(document: dict[str, Any]) -> None:
    resource = Resource.from_contents(document,
                                      default_specification=referencing.jsonschema.DRAFT202012)
    registry = Registry().with_resource("urn:document", resource)
    problems = []
    for _method, _path, operation in operations(document):
        for name, example in operation.get("requestBody", {}).get("content", {}).get(
                "application/json", {}).get("examples", {}).items():
            shapes = [(operation["requestBody"]["content"]["application/json"]["schema"],
                       example["value"])]
            for answer in operation["responses"].values():
                for media in answer.get("content", {}).values():
                    if name in media.get("examples", {}):
                        shapes.append((media["schema"], media["examples"][name]["value"]))
            for schema, value in shapes:
                ref = "urn:document#" + schema["$ref"].removeprefix("#")
                checker = Draft202012Validator({"$ref": ref}, registry=registry)
                problems += [f"{operation['operationId']} {name}: /"
                             f"{'/'.join(map(str, error.absolute_path))}: {error.message[:200]}"
                             for error in checker.iter_errors(value)]
    assert not problems, "\n".join(problems)


def test_each_example_gets_its_documented_answer(gateway: FlaskClient,
                                                 document: dict[str, Any]) -> None:
    """Sent as is, each example gets its documented status and answer."""
    record = os.environ.get("REFEREE_RECORD_EXAMPLES") == "1"
    answers = {}
    wrong = []
    for example in examples(document):
        answer = gateway.post(example.path, json=example.request)
        answers[example.operation_id] = answer.get_json()
        if str(answer.status_code) != example.status or not holds(answer.get_json(),
                                                                   example.answer):
            wrong.append(f"{example.operation_id} ({example.name}): {answer.status_code} "
                         f"{answer.get_data(as_text=True)[:500]}")
    if record:  # also answers that only gained fields
        changed = False
        for path in EXAMPLE_FILES:
            recorded = json.loads(path.read_text(encoding="utf-8"))
            for operation_id, example in recorded.items():
                changed |= example["answer"] != answers[operation_id]
                example["answer"] = answers[operation_id]
            path.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        if changed:
            pytest.fail(f"recorded the examples' answers again; run `{REGENERATE}`")
    assert not wrong, ("documented answers differ (REFEREE_RECORD_EXAMPLES=1 records them "
                       "again):\n" + "\n".join(wrong))


def test_the_rulebook_examples_are_the_tests_own(document: dict[str, Any]) -> None:
    """The score examples are the rulebooks' worked examples the rules tests check."""
    data = REPO / "tests" / "data"
    board = json.loads((data / "downtown_farmers_market" / "rulebook_standard_example.json"
                        ).read_text(encoding="utf-8"))
    town = json.loads((data / "foxglove_farm" / "ranch_example.json").read_text(encoding="utf-8"))
    found = {example.operation_id: (example.request, example.answer)
             for example in examples(document)}
    request, answer = found["scoreDowntownFarmersMarketBoard"]
    assert request == board["board"] and answer["total"] == board["expected"]["total"] == 43
    request, answer = found["scoreFoxgloveFarmTown"]
    assert request == town["town"] and answer["end_game_points"] == town["ranch_points"]


def shared_file(name: str) -> Path | None:
    """A file of the shared folder beside the repository, when it is there."""
    for shared in (REPO.parent / "shared", Path("/work/shared")):
        if (shared / name).is_file():
            return shared / name
    return None


@pytest.mark.parametrize("name", ["contract/README.md", "rulings.md"])
def test_the_contract_page_holds_the_shared_contract(name: str) -> None:
    """docs/contract.md carries the public contract and the rulings inside the repository:
    every line of the shared originals, in order (their titles and the lines pointing at
    files outside the repository aside)."""
    original = shared_file(name)
    if original is None:
        pytest.skip(f"no shared {name} beside the repository to compare with")
    page = (REPO / "docs" / "contract.md").read_text(encoding="utf-8").splitlines()
    position = 0
    for line in original.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ") or "`../" in line or "are in `../rulings.md`" in line \
                or "(`rules/`)" in line:
            continue
        wanted = line.lstrip("#")
        found = next((i for i in range(position, len(page))
                      if page[i].lstrip("#") == wanted), None)
        assert found is not None, f"docs/contract.md lacks (in order): {line!r}"
        position = found + 1
