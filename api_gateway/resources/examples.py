"""Each endpoint's operationId and its example, for the OpenAPI document.

A game's examples are data (``examples.json`` beside its routes), keyed by operationId:
a request taken from the rulebooks' worked examples (or a realistic game position), and
the answer the referee gives it. The document shows them as the request body's example
and the 200 answer's example of the same name, so "Try it out" sends a request that
succeeds and shows what comes back; a test sends each one to the live gateway and holds
the answer to the documented one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask_smorest import Blueprint

View = Callable[..., Any]


class Examples:
    """The examples of one game's endpoints, read from ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.by_operation: dict[str, dict[str, Any]] = json.loads(
            path.read_text(encoding="utf-8"))

    def operation(self, operation_id: str) -> Callable[[View], View]:
        """Document the decorated view as ``operation_id``, with its example."""
        example = self.by_operation[operation_id]
        name = example["name"]
        request = {"summary": example["summary"], "description": example["description"],
                   "value": example["request"]}
        answer = {"summary": example["summary"], "value": example["answer"]}
        document: Callable[[View], View] = Blueprint.doc(
            operationId=operation_id,
            requestBody={"content": {"application/json": {"examples": {name: request}}}},
            responses={200: {"content": {"application/json": {"examples": {name: answer}}}}})
        return document
