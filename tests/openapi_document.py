"""Reading an OpenAPI document as the tests do: its operations, every node in it, its
examples (a request body's example and the answer of the same name), and whether an
answer says what a documented one says.

Shared by the document's own tests (tests/platform/test_openapi_document.py, in process)
and the generated clients' (tests/e2e/test_generated_clients.py, against the live
gateway).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path, operation) of every operation in ``document``."""
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every object in ``node`` (a JSON value), ``node`` itself first if it is one."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


class Example(NamedTuple):
    """A request body's documented example and the documented answer of the same name."""

    operation_id: str
    tags: list[str]
    path: str
    name: str
    schema: dict[str, Any]
    """The request body's schema (a ``$ref``)."""
    request: Any
    status: str
    answer: Any

    @property
    def component(self) -> str:
        """The name of the request body's schema among the components."""
        return str(self.schema["$ref"]).rsplit("/", 1)[-1]


def examples(document: dict[str, Any]) -> list[Example]:
    """Every example of every request body in ``document``, with its answer: exactly one
    response of the operation holds an example of the same name."""
    found = []
    for _, path, operation in operations(document):
        body = operation.get("requestBody")
        if body is None:
            continue
        media = body["content"]["application/json"]
        for name, example in media["examples"].items():
            answers = [(status, content["examples"][name]["value"])
                       for status, response in operation["responses"].items()
                       for content in response.get("content", {}).values()
                       if name in content.get("examples", {})]
            assert len(answers) == 1, (operation["operationId"], name)
            (status, answer), = answers
            found.append(Example(operation["operationId"], operation.get("tags", []), path,
                                 name, media["schema"], example["value"], status, answer))
    return found


def holds(answer: Any, documented: Any) -> bool:
    """``answer`` says what ``documented`` says: the same values, and perhaps more fields
    (answers may gain fields)."""
    if isinstance(documented, dict):
        return isinstance(answer, dict) and all(
            key in answer and holds(answer[key], value) for key, value in documented.items())
    if isinstance(documented, list):
        return (isinstance(answer, list) and len(answer) == len(documented)
                and all(holds(a, d) for a, d in zip(answer, documented)))
    return type(answer) is type(documented) and answer == documented
