"""Regressions found by fuzzing the running service with schemathesis against its own
OpenAPI document: answers the document did not describe."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


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
