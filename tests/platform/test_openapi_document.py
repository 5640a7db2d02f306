"""The committed OpenAPI document (docs/openapi.json) is the one the gateway serves.

It is committed so API changes show up in review as a diff of the document.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
REGENERATE = "flask --app api_gateway:create_app openapi write docs/openapi.json"


def test_committed_openapi_document_is_current(gateway: FlaskClient) -> None:
    served = gateway.get("/v1/openapi.json").get_json()
    assert json.loads(DOCUMENT.read_text()) == served, f"stale; run `{REGENERATE}`"
