"""The ``code`` and ``params`` fields of the answers, and how OpenAPI documents them.

Every explanation, violation and 422 detail carries, beside its words, a stable ``code``
naming its sentence and the ``params`` the sentence interpolates (a flat JSON object), so
an app can word it itself. Each code is documented as an enum whose description is a
table of the codes with their English sentences (the params in braces): the templates the
code declares (:data:`tabletop_rules.messages.TEMPLATES`), so the document and the
answers have one source.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import marshmallow as ma

from tabletop_rules.messages import TEMPLATES, Template

from .compiled import Compiler, Dump
from .fields import Component
from .i18n import params_json

PARAMS_DESCRIPTION = (
    "the values the sentence interpolates, by name (snake_case): strings, whole numbers, "
    "booleans or lists of those, as the `code`'s sentence names them in braces (a "
    "building as [name, row, col], goods as [\"2 wood\", \"1 coal\"], a Food tile as "
    "\"corn+egg\"). Rows and columns count from 0 unless the param says `_number`.")


class ParamsField(ma.fields.Field[Any]):
    """``referee.common.v1.Param`` messages written as a flat JSON object."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=True, metadata={
            "type": "object", "description": PARAMS_DESCRIPTION,
            "additionalProperties": {"anyOf": [
                {"type": "string"}, {"type": "integer"}, {"type": "boolean"},
                {"type": "array", "items": {"anyOf": [
                    {"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}}]},
            **kwargs.pop("metadata", {})}, **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any
                   ) -> dict[str, Any]:
        return params_json(value)

    def compiled_dump(self, compiler: Compiler) -> Dump:
        return params_json


def _sentence(made: Template) -> str:
    """A template's English, its fragments' where it is worded one of several ways."""
    if made.english != "{wording}":
        return made.english
    ways = [t.english for key, t in sorted(TEMPLATES.items()) if key.startswith(f"{made.key}.")]
    return " / ".join(ways)


def code_table(templates: Iterable[Template]) -> str:
    """A Markdown table of ``templates``: each code, and its English sentence."""
    rows = [f"| `{made.code}` | {_sentence(made).replace('|', '&#124;')} |"
            for made in templates]
    return "| code | sentence (English; params in braces) |\n|---|---|\n" + "\n".join(rows)


def templates_of(kind: str, namespace: str | None = None, prefix: str = "") -> list[Template]:
    """The registered templates of ``kind``, in one game's ``namespace`` if given, whose
    codes start with ``prefix``."""
    return [made for key, made in sorted(TEMPLATES.items()) if made.kind == kind and (
        namespace is None or key.startswith(f"{namespace}:")) and made.code.startswith(prefix)]


def code_field(name: str, about: str, templates: list[Template], **kwargs: Any
               ) -> ma.fields.String:
    """A ``code``: documented as the component ``name``, an enum of ``templates``' codes
    described by their table."""
    codes = sorted({made.code for made in templates})
    return ma.fields.String(metadata={
        "enum": codes, "type": "string",
        "component": Component(name, f"{about}\n\n{code_table(templates)}"),
        "description": "the sentence, for machines: a stable name; with `params`, what an "
                       "app needs to word it itself"}, **kwargs)
