"""Clients generated from docs/openapi.json build and work against the live gateway.

* Python: openapi-python-client (PyPI, a test extra) generates a client with no warning;
  every module imports; it has one enum class for the ingredients and one Problem model
  (no model written twice); it scores the rulebook's 43-point board against the real
  engine and gunicorn gateway, and sends every documented example through its typed
  models, getting the documented answer back as a model.
* TypeScript: openapi-typescript (npm, installed in the virtual environment) generates the
  types, and ``tsc --noEmit --strict`` compiles a file that types every documented
  example's request and answer with them, and uses a few of them as an app would.
* Every documented example, sent as is, gets its documented status and answer.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import subprocess
import sys
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest
import requests

from tabletop_rules.downtown_farmers_market.model import INGREDIENTS

from ..openapi_document import examples, holds
from .conftest import REPO, Service
from .tooling import npm_tools

pytestmark = pytest.mark.e2e

DOCUMENT = REPO / "docs" / "openapi.json"
PACKAGE = "referee_client"
NPM_PACKAGES = {"openapi-typescript": "7.13.0", "typescript": "5.9.3"}
RULEBOOK_BOARD = REPO / "tests" / "data" / "downtown_farmers_market" / "rulebook_standard_example.json"


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).replace("-", "_").lower()


def document() -> dict[str, Any]:
    return json.loads(DOCUMENT.read_text(encoding="utf-8"))


EXAMPLES = examples(document())


@pytest.mark.parametrize(("operation_id", "path", "request_body", "status", "answer"),
                         [(e.operation_id, e.path, e.request, e.status, e.answer)
                          for e in EXAMPLES],
                         ids=[e.operation_id for e in EXAMPLES])
def test_each_documented_example_gets_its_documented_status(
        service: Service, operation_id: str, path: str, request_body: Any, status: str,
        answer: Any) -> None:
    got = requests.post(service.url + path, json=request_body, timeout=15)
    assert str(got.status_code) == status, got.text[:500]
    assert holds(got.json(), answer), f"{operation_id}: {got.text[:1000]}"


# --- Python: openapi-python-client -------------------------------------------------------

@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    where = tmp_path_factory.mktemp("python-client")
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code as generated
    generated = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(DOCUMENT),
         "--output-path", str(where / PACKAGE), "--meta", "none", "--config", str(config)],
        capture_output=True, text=True, timeout=300)
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert "Warning" not in output and "Error" not in output, output
    sys.path.insert(0, str(where))
    try:
        package = importlib.import_module(PACKAGE)
        for module in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
            importlib.import_module(module.name)  # every module compiles and imports
    finally:
        sys.path.remove(str(where))
    return package


def model_classes(package: ModuleType) -> list[type]:
    models = importlib.import_module(f"{package.__name__}.models")
    return [value for value in vars(models).values() if inspect.isclass(value)]


def test_the_python_client_has_one_type_per_thing(python_client: ModuleType) -> None:
    classes = model_classes(python_client)
    ingredient_enums = [cls for cls in classes if issubclass(cls, Enum)
                        and {member.value for member in cls} == {i.value for i in INGREDIENTS}]
    assert [cls.__name__ for cls in ingredient_enums] == ["DowntownIngredient"]
    problems = [cls for cls in classes if attrs.has(cls) and {"type", "title", "status", "detail"}
                <= {f.name.rstrip("_") for f in attrs.fields(cls)}]  # type_: not the builtin
    assert [cls.__name__ for cls in problems] == ["Problem"]
    enums = {name for name, schema in document()["components"]["schemas"].items()
             if "enum" in schema}
    enum_classes = [cls for cls in classes if issubclass(cls, Enum)]
    assert enums <= {cls.__name__ for cls in enum_classes}
    assert not [cls.__name__ for cls in enum_classes if len(cls) == 1]  # a tag is a Literal
    names = [cls.__name__ for cls in classes]
    assert len(names) == len(set(names))
    numbered = [name for name in names if re.search(r"\d$", name)]
    assert not numbered, f"models a generator had to number apart: {numbered}"


def test_the_python_client_scores_the_rulebook_board(service: Service,
                                                     python_client: ModuleType) -> None:
    client_module = importlib.import_module(f"{PACKAGE}.client")
    models = importlib.import_module(f"{PACKAGE}.models")
    score = importlib.import_module(
        f"{PACKAGE}.api.downtown_farmers_market.score_downtown_farmers_market_board")
    example = json.loads(RULEBOOK_BOARD.read_text(encoding="utf-8"))
    board = models.DowntownBoard.from_dict(example["board"])
    with client_module.Client(base_url=service.url, timeout=15.0) as client:
        answer = score.sync(client=client, body=board)
    assert isinstance(answer, models.DowntownScore)
    assert answer.total == example["expected"]["total"] == 43
    assert answer.complete is True and answer.challenges_met == 7
    assert [line.points for line in answer.rows] == [0, 11, 5, 5]
    assert answer.rows[1].rule == "DFM-R4"


@pytest.mark.parametrize(("operation_id", "tag", "schema", "request_body", "answer"),
                         [(e.operation_id, e.tags[0], e.component, e.request, e.answer)
                          for e in EXAMPLES],
                         ids=[e.operation_id for e in EXAMPLES])
def test_the_python_client_sends_every_example(
        service: Service, python_client: ModuleType, operation_id: str, tag: str, schema: str,
        request_body: Any, answer: Any) -> None:
    """Each example read into the client's model, sent, and its answer read into a model:
    the model writes the request as documented (the same JSON, perhaps in another key
    order), and the answer's model says all the answer said."""
    client_module = importlib.import_module(f"{PACKAGE}.client")
    models = importlib.import_module(f"{PACKAGE}.models")
    endpoint = importlib.import_module(f"{PACKAGE}.api.{snake(tag)}.{snake(operation_id)}")
    body = getattr(models, schema).from_dict(request_body)
    assert body.to_dict() == request_body
    with client_module.Client(base_url=service.url, timeout=15.0) as client:
        response = endpoint.sync_detailed(client=client, body=body)
    assert response.status_code == 200, response.content[:500]
    assert hasattr(response.parsed, "to_dict"), response.parsed
    assert holds(response.parsed.to_dict(), json.loads(response.content))
    assert response.parsed.to_dict().keys() == answer.keys()


# --- TypeScript: openapi-typescript ------------------------------------------------------

TYPESCRIPT_USE = """
import type { components, operations } from "./referee";

type Schemas = components["schemas"];
type Body<Id extends keyof operations> =
  operations[Id] extends { requestBody: { content: { "application/json": infer B } } } ? B : never;
type Answer<Id extends keyof operations> =
  operations[Id]["responses"][200]["content"]["application/json"];

// An app scores a board and reads the answer: total is always there, a number.
export function describe(score: Answer<"scoreDowntownFarmersMarketBoard">): string {
  const lines = [...score.rows, ...score.columns].map((line) => `${line.index}: ${line.points}`);
  return `${score.total} points${score.complete ? "" : " so far"}; ${lines.join(", ")}`;
}

// A problem: its pointer per field error.
export function pointers(problem: Schemas["Problem"]): string[] {
  return (problem.errors ?? []).map((error) => error.pointer);
}

export const egg: Schemas["DowntownIngredient"] = "egg";
// @ts-expect-error: cabbage is not an ingredient
export const cabbage: Schemas["DowntownIngredient"] = "cabbage";
export const tile: Schemas["DowntownFoodTile"] = ["corn", "corn"];
export const move: Schemas["DowntownMove"] = {action: "take", player: 0, tile, row: 1, col: 2};
// @ts-expect-error: a take names its row and column
export const incomplete: Schemas["DowntownMove"] = {action: "take", player: 0, tile};
"""


def test_typescript_types_compile(tmp_path: Path) -> None:
    tools = npm_tools(NPM_PACKAGES)
    # A field with a default may be left out of a request (the document says so): types
    # that keep it optional, not openapi-typescript's default of making it required.
    generated = subprocess.run([str(tools / "openapi-typescript"), str(DOCUMENT), "-o",
                                str(tmp_path / "referee.d.ts"), "--default-non-nullable",
                                "false"],
                               capture_output=True, text=True, timeout=300)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    declarations = (tmp_path / "referee.d.ts").read_text(encoding="utf-8")
    assert declarations.count('"bread" | "carrot" | "corn" | "cheese" | "milk" | "egg"') == 1
    typed = [TYPESCRIPT_USE]
    for index, example in enumerate(EXAMPLES):
        operation_id = json.dumps(example.operation_id)
        typed.append(f"export const request{index}: Body<{operation_id}> = "
                     f"{json.dumps(example.request)};\n"
                     f"export const answer{index}: Answer<{operation_id}> = "
                     f"{json.dumps(example.answer)};\n")
    (tmp_path / "use.ts").write_text("\n".join(typed), encoding="utf-8")
    compiled = subprocess.run(
        [str(tools / "tsc"), "--noEmit", "--strict", "--target", "es2022", "--module",
         "es2022", "--moduleResolution", "bundler", "--exactOptionalPropertyTypes",
         "--noUncheckedIndexedAccess", str(tmp_path / "use.ts")],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
