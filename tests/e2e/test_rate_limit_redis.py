"""A key's rate limit counted across two gunicorn gateways (two workers each) that share
one real Redis server: requests alternate between the gateways, and the one past the
rate is refused by whichever gateway gets it, with 429 and ``Retry-After``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import redis
import requests

from api_gateway.access import line
from deploy import stack
from deploy.packages import ensure_command

from ..sample_boards import SIMPLE_BOARD
from .conftest import Process, environment, start_engine

pytestmark = pytest.mark.e2e

SCORE = "/v1/downtown-farmers-market/score"
RATE = 5
KEYS = {"ana": "ana-key-7Qe2", "ben": "ben-key-kR91"}


@dataclass
class Redis:
    process: Process
    url: str


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    """A Redis server of its own on a free loopback port, keeping nothing on disk."""
    server = ensure_command("redis-server", "redis-server", who="test")
    if server is None:
        pytest.skip("redis-server is not installed and cannot be installed here (needs "
                    "root and apt-get: apt-get install redis-server)")
    port = stack.free_port()
    process = Process.start([server, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                             "--appendonly", "no",
                             "--dir", str(tmp_path_factory.mktemp("redis"))], environment())
    try:
        process.wait_for(r"Ready to accept connections")
        yield Redis(process, f"redis://127.0.0.1:{port}")
    finally:
        process.stop()


@pytest.fixture(scope="module")
def gateways(redis_server: Redis, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[str, str]]:
    """Two gateways with the same keys, rate and Redis store, before one engine."""
    keys = tmp_path_factory.mktemp("keys") / "api-keys"
    keys.write_text("".join(f"{line(name, key)}\n" for name, key in KEYS.items()))
    env = environment(REFEREE_GATEWAY_WORKERS="2", REFEREE_API_KEYS_FILE=str(keys),
                      REFEREE_RATE_LIMIT=f"{RATE}/minute",
                      REFEREE_RATE_LIMIT_STORAGE_URI=redis_server.url)
    engine, engine_address = start_engine()
    started: list[Process] = [engine]
    try:
        urls = []
        for _ in range(2):
            gateway, url = stack.start_gunicorn(sys.executable, env, engine_address,
                                                "127.0.0.1:0")
            started.append(gateway)
            stack.wait_ready(url)
            urls.append(url)
        yield urls[0], urls[1]
    finally:
        for process in reversed(started):
            process.stop()


def score(url: str, key: str | None) -> requests.Response:
    # A connection of its own for each: any worker of the gateway may take it.
    return requests.post(url + SCORE, json=SIMPLE_BOARD, timeout=10,
                         headers={"Connection": "close",
                                  **({"X-API-Key": key} if key else {})})


def test_a_key_past_its_rate_on_either_gateway_gets_429(gateways: tuple[str, str]) -> None:
    answers = [score(gateways[n % 2], KEYS["ana"]) for n in range(RATE + 1)]
    assert [a.status_code for a in answers] == [200] * RATE + [429]
    refused = answers[-1]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["Content-Type"] == "application/problem+json"
    problem = refused.json()
    assert problem["type"].endswith("/rate-limited")
    assert problem["request_id"] == refused.headers["X-Request-ID"]
    # Refused on the other gateway too, and another key keeps its own budget there.
    assert score(gateways[(RATE + 1) % 2], KEYS["ana"]).status_code == 429
    assert score(gateways[0], KEYS["ben"]).status_code == 200


@pytest.mark.parametrize("key", [None, "not-a-key"])
def test_a_request_without_a_good_key_gets_401(gateways: tuple[str, str],
                                               key: str | None) -> None:
    for url in gateways:
        answer = score(url, key)
        assert answer.status_code == 401
        assert answer.headers["WWW-Authenticate"] == 'ApiKey realm="referee"'
        assert answer.json()["type"].endswith("/api-key-needed")


def test_the_gateways_count_in_redis_under_the_keys_name(gateways: tuple[str, str],
                                                         redis_server: Redis) -> None:
    assert score(gateways[1], KEYS["ben"]).status_code == 200
    stored = redis.Redis.from_url(redis_server.url).keys("*")
    assert any(b"referee-gateway" in key and b"ben" in key for key in stored), stored


def test_without_redis_the_gateways_go_on_answering(gateways: tuple[str, str],
                                                    redis_server: Redis) -> None:
    """Last: it stops the module's Redis. Each process then counts in memory."""
    redis_server.process.stop()
    for url in gateways:
        assert score(url, None).status_code == 401
        assert [score(url, KEYS["ben"]).status_code for _ in range(2)] == [200, 200]
