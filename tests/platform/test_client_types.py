"""The REST client's answers are typed: each call returns the TypedDict that
``clients/codegen.py`` generates from the OpenAPI document for the path it calls, so an
app's type checker sees a misspelt key or a wrong type in what the referee answers."""

from __future__ import annotations

import importlib.util
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from tabletop_referee_clients import contract_types
from tabletop_referee_clients.rest_client import DowntownFarmersMarketRest, FoxgloveFarmRest, RestClient

REPO = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))


def _codegen() -> Any:
    spec = importlib.util.spec_from_file_location("clients_codegen", REPO / "clients" / "codegen.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_types_are_generated_from_the_current_document() -> None:
    committed = Path(contract_types.__file__).read_text(encoding="utf-8")
    assert committed == _codegen().render(DOCUMENT), "run: python clients/codegen.py"


def _answer_component(method: str, path: str) -> str:
    schema = DOCUMENT["paths"][path][method]["responses"]["200"]["content"][
        "application/json"]["schema"]
    return str(schema["$ref"]).rsplit("/", 1)[-1]


class _Asked:
    """Stands in for the HTTP session: records the path a call asks, answers nothing."""

    def __init__(self) -> None:
        self.asked: tuple[str, str] | None = None

    def post(self, path: str, body: object) -> Any:
        self.asked = ("post", path)
        return {"moves": []}

    def get(self, path: str) -> Any:
        self.asked = ("get", path)
        return {}


CALLS = [(DowntownFarmersMarketRest, name) for name in (
    "score_board", "rank_players", "new_game", "legal_moves", "validate_move", "replay_game",
    "challenge_types")] + [(FoxgloveFarmRest, name) for name in (
        "score_town", "rank_towns", "validate_transport", "plan_final_round", "new_game",
        "legal_moves", "validate_action", "replay_game", "catalog")]


@pytest.mark.parametrize("namespace, name", CALLS, ids=[f"{n.__name__}.{m}" for n, m in CALLS])
def test_each_call_returns_the_type_the_document_gives_its_path(namespace: type,
                                                                 name: str) -> None:
    asked = _Asked()
    method = getattr(namespace(asked.post, asked.get), name)
    method(*({} for _ in inspect.signature(method).parameters))
    assert asked.asked is not None
    component = getattr(contract_types, _answer_component(*asked.asked))
    returned = typing.get_type_hints(method)["return"]
    if typing.get_origin(returned) is list:  # the list a call unwraps (legal moves' "moves")
        assert typing.get_args(returned)[0] == typing.get_type_hints(component)["moves"] \
            .__args__[0]
    else:
        assert returned is component


def test_the_version_call_is_typed_too() -> None:
    assert typing.get_type_hints(RestClient.version)["return"] is \
        getattr(contract_types, _answer_component("get", "/v1/version"))


APP = '''
from tabletop_referee_clients import RestClient
with RestClient() as client:
    score = client.downtown_farmers_market.score_board({"grid": []})
    total: int = score["total"]
    wrong: str = score["total"]
    missing = score["totl"]
    plan = client.foxglove_farm.plan_final_round({"tiles": []})
    for step in plan["steps"]:
        step["action"]
'''


def test_a_type_checker_sees_what_an_app_gets_wrong(tmp_path: Path) -> None:
    app = tmp_path / "app.py"
    app.write_text(APP, encoding="utf-8")
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir",
         str(tmp_path / "cache"), str(app)], capture_output=True, text=True, cwd=tmp_path)
    errors = [line.split(": error: ")[1] for line in checked.stdout.splitlines()
              if ": error: " in line]
    assert errors == [
        'Incompatible types in assignment (expression has type "int", variable has type '
        '"str")  [assignment]',
        'TypedDict "DowntownScore" has no key "totl"  [typeddict-item]'], checked.stdout
