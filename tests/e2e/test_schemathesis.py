"""Schemathesis against the live gateway (real engine, real gunicorn, loopback).

Every operation of the served ``/v1/openapi.json`` is called with generated requests
(valid and invalid ones) and each answer must be no server error and conform to the
document: a documented status code, a documented content type, a body matching its
schema and the documented headers. A 503 is acceptable only where the document lists it
(the gateway documents 413, 415, 429 and 503 where they can happen).

Deterministic (``derandomize``, no example database) and bounded: a few examples per
operation and no shrinking, so a failure names the request that broke the contract (the
curl command in the report) and the whole run stays well under a minute.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ..sample_boards import SIMPLE_BOARD, board
from .conftest import REPO, Service

pytestmark = pytest.mark.e2e

EXAMPLES_PER_OPERATION = 25
"""Per generation mode (valid requests, then invalid ones)."""
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]


def _documented_operations() -> list[tuple[str, str]]:
    """(method, path) of every operation in the committed document (the served one is
    the same; the test fails for an operation the live document lacks)."""
    document = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))
    return [(method.upper(), path) for path, item in document["paths"].items()
            for method in item if method in ("get", "post", "put", "patch", "delete")]


OPERATIONS = _documented_operations()


@pytest.fixture(scope="module")
def api_schema(service: Service) -> schemathesis.BaseSchema:
    # not_a_server_error flags every 5xx; a 503 (engine unavailable) is allowed through it
    # here, and status_code_conformance then fails it wherever the document omits it.
    config = schemathesis.Config.from_dict(
        {"checks": {"not_a_server_error": {"expected-statuses": ["2xx", "3xx", "4xx", "503"]}}})
    return schemathesis.openapi.from_url(f"{service.url}/v1/openapi.json", config=config,
                                         timeout=10)


@pytest.mark.parametrize(("method", "path"), OPERATIONS,
                         ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_operation_keeps_the_contract(service: Service, api_schema: schemathesis.BaseSchema,
                                      method: str, path: str) -> None:
    operation = api_schema[path][method]
    broken = []
    with requests.Session() as session:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None,
                      deadline=None, phases=[Phase.explicit, Phase.generate],
                      suppress_health_check=list(HealthCheck))
            def call(case: schemathesis.Case) -> None:
                case.call_and_validate(base_url=service.url, session=session, checks=CHECKS,
                                       timeout=15)

            try:
                call()
            except Unsatisfiable:
                continue  # no invalid request exists (an operation without parameters)
            except Exception as failure:  # noqa: BLE001 - every break is reported
                broken.append(f"--- {mode.value} examples ---\n{failure}")
    assert not broken, f"{method} {path} breaks the contract:\n" + "\n".join(broken)


# --- valid requests ------------------------------------------------------------------
# Generated bodies rarely get past the gateway's checks (a board must be a 4 x 4 grid with
# 4 + 4 challenges, a town needs its starting tile...), so valid ones are sent too: the
# answers the engine computes must conform to the document as well.

DATA = REPO / "tests" / "data"
REPRODUCERS = REPO.parent / "shared" / "reproducers"
if not REPRODUCERS.is_dir():
    REPRODUCERS = Path("/work/shared/reproducers")
DFM = "/v1/downtown-farmers-market"
FF = "/v1/foxglove-farm"


def _valid_bodies(url: str, path: str) -> list[Any]:
    """Requests the contract accepts for ``path``, the game states asked of the gateway."""
    kuly = json.loads((DATA / "foxglove_farm" / "kuly_transport_and_processing.json"
                       ).read_text(encoding="utf-8"))
    packed = json.loads((REPRODUCERS / "planner-packed-expert-16-tiles.json"
                         ).read_text(encoding="utf-8"))
    towns = [kuly["town"], packed]
    board = {k: v for k, v in SIMPLE_BOARD.items() if k != "grid"}
    setup = {"players": [{"name": "Ana", "board": board}, {"name": "Ben", "board": board}],
             "face_up": [["corn"], ["egg", "corn"], ["milk"], ["bread"], ["cheese"]]}
    young = {"mode": "young_shopper", "face_up": [["corn"], ["egg"], ["milk"]],
             "players": [{"name": "Ana", "board": {"mode": "young_shopper"}},
                         {"name": "Ben", "board": {"mode": "young_shopper"}}]}
    if path in (f"{DFM}/legal-moves", f"{DFM}/moves/validate", f"{DFM}/games/replay"):
        state = requests.post(f"{url}{DFM}/games", json=setup, timeout=10).json()
        moves = requests.post(f"{url}{DFM}/legal-moves", json={"state": state},
                              timeout=10).json()["moves"]
        illegal = {"action": "take", "player": 1, "tile": ["carrot"], "row": 0, "col": 0}
    farm_setup = {"players": [{"name": "Ana"}, {"name": "Ben", "variant": "expert"}],
                  "a_tiles": ["granary", "charcoal_kiln", "barn", "coal_mine", "lambing_shed",
                              "allotment"], "c_tiles": ["bakery", "grocer", "cafe", "tavern"]}
    farm_states = [json.loads(p.read_text(encoding="utf-8"))["state"] for p in sorted(
        (DATA / "foxglove_farm" / "game_positions").glob("*.json"))]
    produce, wrong = {"action": "produce", "player": 0}, {"action": "pass", "player": 0}
    bodies: dict[str, list[Any]] = {
        f"{DFM}/score": [SIMPLE_BOARD],
        f"{DFM}/rank": [{"players": [{"name": "Ana", "board": SIMPLE_BOARD},
                                     {"name": "Ben", "board": SIMPLE_BOARD}]}],
        f"{DFM}/games": [setup, young],
        f"{DFM}/legal-moves": lambda: [{"state": state}],
        f"{DFM}/moves/validate": lambda: [{"state": state, "move": moves[0]},
                                          {"state": state, "move": illegal}],
        f"{DFM}/games/replay": lambda: [{"setup": setup, "moves": moves[:1]},
                                        {"setup": setup, "moves": [moves[0], illegal]}],
        f"{FF}/score": towns,
        f"{FF}/rank": [{"players": [{"name": "Kuly", "town": kuly["town"]},
                                    {"name": "Ana", "town": packed}]}],
        f"{FF}/transport/validate": [{"town": kuly["town"], "move": step["move"]}
                                     for step in kuly["transportation"][:2]],
        f"{FF}/final-round/plan": towns,
        f"{FF}/games": [farm_setup, {"players": [{"name": "Kuly"}], "solo": 5}],
        f"{FF}/legal-moves": [{"state": state} for state in farm_states],
        f"{FF}/actions/validate": [{"state": farm_states[-1], "action": action}
                                   for action in (produce, wrong)],
        f"{FF}/games/replay": [{"setup": farm_setup, "actions": [produce]},
                               {"setup": farm_setup, "actions": [produce, wrong]}],
    }.get(path, [])
    return bodies() if callable(bodies) else bodies


POSTS = [(m, p) for m, p in OPERATIONS if m == "POST"]


@pytest.mark.parametrize(("method", "path"), POSTS, ids=[f"{m} {p}" for m, p in POSTS])
def test_valid_requests_keep_the_contract(service: Service, api_schema: schemathesis.BaseSchema,
                                          method: str, path: str) -> None:
    operation = api_schema[path][method]
    bodies = _valid_bodies(service.url, path)
    assert bodies, f"no valid request for {path}: add one"
    if path in (f"{DFM}/score", f"{DFM}/rank"):  # and generated boards
        boards = st.lists(board, min_size=1, max_size=4)
        for example in _examples(boards, EXAMPLES_PER_OPERATION // 2):
            if path.endswith("/score"):
                bodies.append(example[0])
            elif len({b["mode"] for b in example}) == 1:
                bodies.append({"players": [{"name": f"P{i}", "board": b}
                                           for i, b in enumerate(example)]})
    broken = []
    with requests.Session() as session:
        for body in bodies:
            case = operation.Case(body=body, media_type="application/json")
            try:
                answer = case.call_and_validate(base_url=service.url, session=session,
                                                checks=CHECKS, timeout=15)
            except Exception as failure:  # noqa: BLE001 - every break is reported
                broken.append(str(failure))
                continue
            if answer.status_code != 200:
                broken.append(f"a valid request answered {answer.status_code}: "
                              f"{json.dumps(body)[:300]} -> {answer.text[:300]}")
    assert not broken, f"{method} {path}:\n" + "\n".join(broken)


def _examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """``count`` examples of ``strategy``, the same every run."""
    found: list[Any] = []

    @given(strategy)
    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found[:count]
