"""What the command line's tests give it: request bodies, written as files.

A tournament's boards are the rulebook's two examples (their totals are the rulebook's)
and random boards; a game's log is played through the referee itself (Downtown Farmers
Market) or by the rules' simulator (Foxglove Farm), in the contract's JSON.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from tabletop_referee_clients.contract_json import to_json
from engine_service.foxglove_farm import convert

from ..downtown_farmers_market.random_boards import random_board
from ..foxglove_farm.game_simulator import play_random_game, setup_json

Json = Any
DATA = Path(__file__).resolve().parents[1] / "data"
RULEBOOK = {"rulebook_standard_example.json": 43, "rulebook_young_shopper_example.json": 28}
"""The rulebook's boards and their totals."""


def rulebook_board(name: str) -> Json:
    return json.loads((DATA / "downtown_farmers_market" / name).read_text("utf-8"))["board"]


def write(path: Path, body: Json) -> Path:
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def tournament(directory: Path, seed: int = 0, random_boards: int = 6) -> dict[str, int | None]:
    """A tournament's boards written into ``directory``: the rulebook's (file -> its
    total) and random ones (file -> None: only the referee knows)."""
    directory.mkdir(parents=True, exist_ok=True)
    expected: dict[str, int | None] = {}
    for name, total in RULEBOOK.items():
        write(directory / name, rulebook_board(name))
        expected[name] = total
    rng = random.Random(seed)
    for number in range(random_boards):
        write(directory / f"random_{number:02}.json", random_board(rng))
        expected[f"random_{number:02}.json"] = None
    return expected


def bad_board() -> tuple[Json, set[str]]:
    """The rulebook's board misread twice: a tile of four ingredients and a crate of 101
    points; with the pointers to both. Both are the referee's to find, so every
    transport names both (over gRPC, JSON no protobuf message can carry, like a misspelt
    mode, is refused by the client at its first problem)."""
    board = copy.deepcopy(rulebook_board("rulebook_standard_example.json"))
    board["grid"][1][2] = ["corn", "egg", "milk", "bread"]
    board["column_challenges"][0]["points"] = 101
    return board, {"/grid/1/2", "/column_challenges/0/points"}


REVEAL_SIZE = {"standard": 4, "young_shopper": 1}


def dfm_game(referee: Any, seed: int = 0) -> Json:
    """A whole 2-player game played through ``referee`` (a client's Downtown Farmers
    Market namespace): the replay body ``{"setup", "moves"}``."""
    rng = random.Random(seed)
    board = {k: v for k, v in rulebook_board("rulebook_standard_example.json").items()
             if k != "grid"}
    setup = {"players": [{"name": "Ana", "board": board}, {"name": "Ben", "board": board}],
             "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread"], ["cheese"]]}
    state, moves = referee.new_game(setup), []
    while not state["game_over"]:
        if state["expected"] == "reveal":
            move = {"action": "reveal", "tiles": [rng.choices(["corn", "egg", "milk"], k=2)
                                                  for _ in range(REVEAL_SIZE["standard"])]}
        else:
            move = rng.choice(referee.legal_moves(state))
        state = referee.validate_move(state, move)["state"]
        moves.append(move)
    return {"setup": setup, "moves": moves}


def ff_game(seed: int = 0, players: int = 1, solo: int | None = 3) -> Json:
    """A whole Foxglove Farm game by the rules' simulator (by default solo setup 3, Food
    Festival): the replay body ``{"setup", "actions"}``."""
    played = play_random_game(random.Random(seed), players, solo)
    return {"setup": setup_json(played.setup),
            "actions": [to_json(convert.action_to_proto(action)) for action in played.moves]}
