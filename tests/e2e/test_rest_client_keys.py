"""The REST client (and the command line) before a real gunicorn gateway that requires API
keys and limits their rate: the key it is given is sent, and a call past the rate is asked again (after the
gateway's ``Retry-After``) instead of failing."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from api_gateway.access import line
from tabletop_referee_clients import RefereeError, RestClient
from tabletop_referee_clients.cli import main
from deploy import stack

from ..sample_boards import SIMPLE_BOARD, SIMPLE_BOARD_TOTAL
from .conftest import environment, start_engine

pytestmark = pytest.mark.e2e

KEY = "ana-key-4Hq8"
BURST = 5
"""Calls sent at once: more than two seconds' worth of the rate below."""


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One worker (the rate is counted per worker without a shared store), two calls a
    second per key."""
    keys: Path = tmp_path_factory.mktemp("keys") / "api-keys"
    keys.write_text(f"{line('ana', KEY)}\n")
    engine, engine_address = start_engine()
    try:
        process, url = stack.start_gunicorn(
            sys.executable, environment(REFEREE_GATEWAY_WORKERS="1",
                                        REFEREE_API_KEYS_FILE=str(keys),
                                        REFEREE_RATE_LIMIT="2/second"),
            engine_address, "127.0.0.1:0")
        try:
            stack.wait_ready(url, process)
            yield url
        finally:
            process.stop()
    finally:
        engine.stop()


def test_the_client_sends_the_key_it_is_given(gateway: str) -> None:
    with RestClient(gateway) as anonymous, pytest.raises(RefereeError) as refused:
        anonymous.downtown_farmers_market.score_board(SIMPLE_BOARD)
    assert refused.value.status == 401
    with RestClient(gateway, api_key=KEY) as client:
        assert client.downtown_farmers_market.score_board(SIMPLE_BOARD)["total"] \
            == SIMPLE_BOARD_TOTAL


def test_calls_past_the_rate_are_asked_again(gateway: str) -> None:
    """Without retries the burst is refused (429); with them, every call is answered."""
    with (RestClient(gateway, api_key=KEY, retries=0) as impatient,
          pytest.raises(RefereeError) as refused):
        for _ in range(BURST):
            impatient.downtown_farmers_market.score_board(SIMPLE_BOARD)
    assert refused.value.status == 429
    with RestClient(gateway, api_key=KEY) as client:
        totals = [client.downtown_farmers_market.score_board(SIMPLE_BOARD)["total"]
                  for _ in range(BURST)]
    assert totals == [SIMPLE_BOARD_TOTAL] * BURST


def test_the_command_line_sends_its_key(gateway: str, tmp_path: Path) -> None:
    board = tmp_path / "board.json"
    board.write_text(json.dumps(SIMPLE_BOARD))
    result = CliRunner(env={"REFEREE_API_KEY": KEY}).invoke(
        main, ["dfm", "score", str(board), "--url", gateway, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["answer"]["total"] == SIMPLE_BOARD_TOTAL
