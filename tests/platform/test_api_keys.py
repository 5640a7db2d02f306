"""API keys and per-key rate limits on one gateway process (flask-limiter's memory store).
Two gunicorn gateways sharing a Redis store: tests/e2e/test_rate_limit_redis.py."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api_gateway import create_app
from api_gateway.access import ApiKeys, line

from ..sample_boards import SIMPLE_BOARD

REPO = Path(__file__).resolve().parents[2]
SCORE = "/v1/downtown-farmers-market/score"
KEYS = {"ana": "ana-key-7Qe2", "ben": "ben-key-kR91", "ben-old": "ben-key-previous"}


def keys_file(directory: Path) -> Path:
    path = directory / "api-keys"
    path.write_text("# the referee's callers\n\n"
                    f"{line('ana', KEYS['ana'])}\n"
                    f"  {line('ben', KEYS['ben'])}  \n"
                    "# ben's previous key, still accepted while he changes over\n"
                    f"{line('ben', KEYS['ben-old'])}\n")
    return path


def gateway(engine_address: str, directory: Path, rate: str = "600/minute") -> Flask:
    return create_app({"ENGINE_ADDRESS": engine_address, "RATE_LIMIT": rate,
                       "API_KEYS_FILE": str(keys_file(directory))})


@pytest.fixture(scope="module")
def client(engine_address: str, tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    return gateway(engine_address, tmp_path_factory.mktemp("keys")).test_client()


def score(client: FlaskClient, key: str | None) -> TestResponse:
    return client.post(SCORE, json=SIMPLE_BOARD, headers={"X-API-Key": key} if key else {})


@pytest.mark.parametrize("key", ["ana-key-7Qe2", "ben-key-kR91", "ben-key-previous"])
def test_a_known_key_is_let_through(client: FlaskClient, key: str) -> None:
    assert score(client, key).status_code == 200


@pytest.mark.parametrize(("key", "detail"), [
    (None, "This referee needs an API key: send yours in the X-API-Key header."),
    ("", "This referee needs an API key: send yours in the X-API-Key header."),
    ("ana-key-7Qe", "The API key in the X-API-Key header is not one this referee accepts; "
                    "check it, or ask for a new one."),
    (hashlib.sha256(b"ana-key-7Qe2").hexdigest(), "The API key in the X-API-Key header is "
                                                  "not one this referee accepts; check it, "
                                                  "or ask for a new one."),
])
def test_a_missing_or_unknown_key_is_a_401_problem(client: FlaskClient, key: str | None,
                                                   detail: str) -> None:
    answer = client.post(SCORE, json=SIMPLE_BOARD,
                         headers={"X-Request-ID": "no-entry",
                                  **({} if key is None else {"X-API-Key": key})})
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"] == 'ApiKey realm="referee"'
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json(force=True) == {
        "type": "https://tabletop-referee.example/problems/api-key-needed",
        "title": "API key needed", "status": 401, "detail": detail,
        "request_id": "no-entry"}


@pytest.mark.parametrize("path", ["/v1/downtown-farmers-market/nothing", "/elsewhere"])
def test_without_a_key_no_path_is_told_apart(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 401
    assert client.get(path, headers={"X-API-Key": KEYS["ana"]}).status_code == 404


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/v1/docs",
                                  "/v1/openapi.json", "/", "/pad", "/pad/static/pad.js"])
def test_probes_metrics_documentation_and_the_pad_need_no_key(client: FlaskClient,
                                                              path: str) -> None:
    assert client.get(path).status_code == 200
    assert client.get(path, headers={"X-API-Key": "wrong"}).status_code == 200


def test_past_its_rate_a_key_gets_429_with_retry_after(engine_address: str,
                                                       tmp_path: Path) -> None:
    client = gateway(engine_address, tmp_path, rate="3/minute").test_client()
    assert [score(client, KEYS["ana"]).status_code for _ in range(3)] == [200] * 3
    refused = client.post(SCORE, json=SIMPLE_BOARD,
                          headers={"X-API-Key": KEYS["ana"], "X-Request-ID": "too-many"})
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    problem = refused.get_json(force=True)
    assert problem["type"].endswith("/rate-limited") and problem["request_id"] == "too-many"
    assert problem["detail"] == ("Calls with this API key are limited to 3 per 1 minute; "
                                 f"try again in {refused.headers['Retry-After']} s.")
    # The limit is the key's name's: ben's two keys share his budget, apart from ana's.
    assert [score(client, k).status_code for k in (KEYS["ben"], KEYS["ben-old"],
                                                   KEYS["ben"], KEYS["ben-old"])] == [
        200, 200, 200, 429]
    # Probes are not limited.
    assert client.get("/healthz", headers={"X-API-Key": KEYS["ana"]}).status_code == 200


def test_without_keys_a_key_is_ignored_and_nothing_is_limited(engine_address: str) -> None:
    client = create_app({"ENGINE_ADDRESS": engine_address, "RATE_LIMIT": "1/minute"}
                        ).test_client()
    assert [score(client, key).status_code for key in (None, "anything", None)] == [
        200, 200, 200]


@pytest.mark.parametrize("text", [
    "ana\n", "ana:abc\n", f"ana:{'0' * 63}\n", f"ana:{'0' * 65}\n", f":{'0' * 64}\n",
    f"two words:{'0' * 64}\n", f"ana:{'g' * 64}\n", f"{'a' * 65}:{'0' * 64}\n",
])
def test_a_bad_line_in_the_keys_file_stops_the_gateway(tmp_path: Path, text: str) -> None:
    path = tmp_path / "keys"
    path.write_text(f"# fine\n{line('ok', 'fine-key')}\n{text}")
    with pytest.raises(ValueError, match=f"^{path}:3: expected name:sha256-hex"):
        ApiKeys.read(path)
    with pytest.raises(ValueError, match=f"^{path}:3: "):
        create_app({"API_KEYS_FILE": str(path)})


def test_the_keys_file_holds_only_hashes(tmp_path: Path) -> None:
    keys = ApiKeys.read(keys_file(tmp_path))
    assert [name for _, name in keys.digests] == ["ana", "ben", "ben"]
    assert all(secret.encode() not in (tmp_path / "api-keys").read_bytes()
               for secret in KEYS.values())
    assert keys.name_of(KEYS["ben-old"]) == "ben" and keys.name_of("ben") is None


def test_the_hash_command_prints_a_keys_file_line(tmp_path: Path) -> None:
    made = subprocess.run([sys.executable, "-m", "api_gateway.access", "hash", "carla"],
                          input="carla-key-Zx0\n", capture_output=True, text=True, cwd=REPO)
    assert made.returncode == 0, made.stderr
    assert made.stdout == f"carla:{hashlib.sha256(b'carla-key-Zx0').hexdigest()}\n"
    (tmp_path / "keys").write_text(made.stdout)
    assert ApiKeys.read(tmp_path / "keys").name_of("carla-key-Zx0") == "carla"


@pytest.mark.parametrize(("name", "key"), [("two words", "k"), ("carla", ""),
                                           ("carla", " padded"), ("carla", "ünï")])
def test_the_hash_command_refuses_what_the_gateway_would_not_read(name: str,
                                                                  key: str) -> None:
    made = subprocess.run([sys.executable, "-m", "api_gateway.access", "hash", name],
                          input=key + "\n", capture_output=True, text=True, cwd=REPO)
    assert made.returncode == 2 and not made.stdout and "error:" in made.stderr


def test_the_openapi_document_says_how_to_send_a_key(client: FlaskClient) -> None:
    document = client.get("/v1/openapi.json").get_json()
    assert document["components"]["securitySchemes"] == {"ApiKey": {
        "type": "apiKey", "in": "header", "name": "X-API-Key",
        "description": "An API key, when the referee is configured with keys."}}
    assert document["security"] == [{}, {"ApiKey": []}]
    responses = document["paths"][SCORE]["post"]["responses"]
    assert {"401", "429"} <= responses.keys()
