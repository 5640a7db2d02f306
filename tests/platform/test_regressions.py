"""Regressions found by fuzzing the running service with schemathesis against its own
OpenAPI document: answers the document did not describe."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from ..openapi_document import walk


@pytest.mark.parametrize(("path", "status"), [("/healthz", "ok"), ("/readyz", "ready")])
def test_health_probes_document_their_200_answer(gateway: FlaskClient, path: str,
                                                 status: str) -> None:
    # Only the problem+json default was documented, so every 200 contradicted the document.
    document = gateway.get("/v1/openapi.json").get_json()
    ok = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    schema = document["components"]["schemas"][ok["schema"]["$ref"].rsplit("/", 1)[-1]]
    answer = gateway.get(path)
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == {"status": status}
    assert schema["required"] == ["status"] and status in schema["properties"]["status"]["enum"]


def test_each_tagged_member_documents_its_own_tag(gateway: FlaskClient) -> None:
    # exact_count_any and exact_total have the same fields: with the tag documented as any
    # string, a challenge matched both members of the oneOf and no board validated.
    document = gateway.get("/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    tagged = [n for n in walk(document) if "oneOf" in n and "discriminator" in n]
    assert tagged
    for node in tagged:
        tag = node["discriminator"]["propertyName"]
        for kind, ref in node["discriminator"]["mapping"].items():
            member = schemas[ref.rsplit("/", 1)[-1]]
            assert member["properties"][tag]["const"] == kind, ref


def test_a_challenge_matches_one_member_of_the_oneof(gateway: FlaskClient) -> None:
    document = gateway.get("/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    union = schemas["DowntownBoard"]["properties"]["row_challenges"]["items"]["$ref"]
    challenges = schemas[union.rsplit("/", 1)[-1]]["oneOf"]
    challenge = {"type": "exact_total", "count": 5, "points": 11}
    matching = []
    for ref in challenges:
        member = schemas[ref["$ref"].rsplit("/", 1)[-1]]
        if (set(member["required"]) <= set(challenge) <= set(member["properties"])
                and challenge["type"] == member["properties"]["type"]["const"]):
            matching.append(ref["$ref"])
    assert matching == ["#/components/schemas/DowntownExactTotal"]
    board = {"mode": "standard", "grid": [[None] * 4] * 4,
             "row_challenges": [challenge] * 4, "column_challenges": [challenge] * 4}
    assert gateway.post("/v1/downtown-farmers-market/score", json=board).status_code == 200
