"""At a Downtown Farmers Market reveal, the real gateway's state says how many tiles to
turn over and ``/legal-moves`` says what the game waits for (it answered no moves and
the number was learnt from a refused reveal); over gRPC the engine says the same."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import requests
from tabletop_referee_clients.contract_json import to_message

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as service_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as service_grpc
from referee.downtown_farmers_market.v1 import game_pb2

from ..sample_boards import SIMPLE_BOARD
from .conftest import Service

pytestmark = pytest.mark.e2e

PREFIX = "/v1/downtown-farmers-market"
FACE_UP = [["corn"], ["egg", "corn"], ["milk"], ["bread", "bread"], ["cheese"]]


def post(service: Service, path: str, body: Any) -> Any:
    response = requests.post(f"{service.url}{PREFIX}{path}", json=body, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def first_reveal(service: Service, mode: str) -> dict[str, Any]:
    """A two-player game played by its first legal moves up to its first reveal."""
    board = ({k: v for k, v in SIMPLE_BOARD.items() if k != "grid"} if mode == "standard"
             else {"mode": mode})
    state = post(service, "/games", {
        "mode": mode, "players": [{"name": name, "board": board} for name in ("Ana", "Ben")],
        "face_up": FACE_UP[:5 if mode == "standard" else 3]})
    while state["expected"] != "reveal":
        assert state["reveal_count"] == 0
        listed = post(service, "/legal-moves", {"state": state})
        assert listed["turn"] == {"player": state["current_player"],
                                  "expected": state["expected"], "reveal_count": 0}
        state = post(service, "/moves/validate", {"state": state,
                                                  "move": listed["moves"][0]})["state"]
    return state


@pytest.mark.parametrize(("mode", "count"), [("standard", 4), ("young_shopper", 1)])
def test_a_reveal_says_how_many_tiles_to_turn_over(service: Service, mode: str,
                                                   count: int) -> None:
    state = first_reveal(service, mode)
    assert state["reveal_count"] == count
    listed = post(service, "/legal-moves", {"state": state})
    assert listed == {"turn": {"expected": "reveal", "reveal_count": count}, "moves": []}
    reveal = {"action": "reveal", "tiles": [["milk"]] * state["reveal_count"]}
    verdict = post(service, "/moves/validate", {"state": state, "move": reveal})
    assert verdict["legal"] is True and verdict["state"]["reveal_count"] == 0


def test_a_state_sent_back_with_its_reveal_count_is_read_as_before(service: Service) -> None:
    """The count is the referee's to say: a client that sends it back, changed or not,
    gets the same answer."""
    state = first_reveal(service, "standard")
    assert (post(service, "/legal-moves", {"state": {**state, "reveal_count": 1}})
            == post(service, "/legal-moves", {"state": state}))


def test_grpc_says_the_same_at_a_reveal(service: Service) -> None:
    state = first_reveal(service, "young_shopper")
    message = to_message(game_pb2.GameState, state)
    with grpc.insecure_channel(service.engine_address) as channel:
        stub = service_grpc.DowntownFarmersMarketServiceStub(channel)
        turn = stub.ListLegalMoves(service_pb2.ListLegalMovesRequest(state=message)).turn
    assert (turn.expected, turn.reveal_count, turn.HasField("player")) == (
        game_pb2.ACTION_REVEAL, 1, False)
