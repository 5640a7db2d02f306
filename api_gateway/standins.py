"""A whole transcription checked at once: the gateway's shape problems and the rules'
problems with the rest of the body, in one 422.

A body that breaks the contract's shape at some places (a misspelt ingredient, good or
side, a goods count of the wrong type) is refused by marshmallow before the engine sees
it. For the calls that check a whole transcription (a board or town scored or ranked, a
town and a move to rule on), the gateway then still asks the rules about the rest, so a
companion app fixing a photo's reading hears of every problem in one answer:

* **Stand-ins.** Each refused value is stood in for where the rules have a reading of
  "something is here that cannot be read", and nowhere else:

  - a name from a fixed list (an ingredient, a side, a mode, a variant, a good to move)
    becomes the protobuf enum's unset value, which the engine reads as unreadable: it
    keeps its place (a tile keeps its number of ingredients, a trail its square), the
    engine names it at the same pointer and judges the rest around it, as it does a
    misspelt building;
  - an entry of a goods or counts object (an unknown good or ingredient as its key, or a
    count that is no whole number in range, doubtful readings included) is left out of
    its object;
  - a key that is no field is left out (the rules never read it).

  Any other refused value (a position, a tile or list of the wrong type, a required field
  missing, a catalog) has no such reading: the answer is the gateway's problems alone,
  as before.
* **Merging.** The rules' problems are added to the gateway's, leaving out each one at or
  under a place the gateway refused or stood in for (it already said what is wrong
  there), and each one about an object an entry was left out of (the rules saw it with
  one entry fewer: "list at least one ingredient" is not said of a misspelt one). The
  problems come in the order their places appear in the body; at most
  :data:`MAX_PROBLEMS`, then one saying how many more.
* **Failures.** If the engine cannot be asked (unreachable, busy, late), or the rest of the
  body has nothing more to say, the answer is the gateway's problems alone: a correct
  422, never a 503 for a body that is wrong anyway.

Only refused bodies take this path: a well-formed body is read and asked about once,
exactly as before.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from flask import request

from tabletop_rules.problems import MORE_PROBLEMS, Path, PathPart, json_pointer

from .fields import UNREADABLE, ProtoEnum, Tagged
from .parsing import load_json_body
from .problems import FieldProblem, ProblemError, invalid_request

log = logging.getLogger(__name__)

MAX_PROBLEMS = 100
"""Problems one merged 422 lists (then one saying how many more): the engine's limit."""

@dataclass(frozen=True)
class StandIn:
    """A place of the body the gateway refused a value at, and what stands in there."""

    path: Path
    """Where the stood-in value is: the refused value, or the entry or key holding it."""
    holder: Any
    """The object or list (in the body's copy) that holds it."""
    key: PathPart
    left_out: bool
    """True: the entry is left out of ``holder``; false: it is the enum's unset value."""
    holder_changed: bool
    """The rules see ``holder`` with one entry fewer (not so for a key that is no field)."""


def parse_pointer(pointer: str) -> list[str]:
    """An RFC 6901 pointer's reference tokens ("" is the whole document)."""
    if not pointer:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _member(field: Any, value: Any) -> Any:
    """What reads ``value`` in place of ``field``: a nested schema, the member schema a
    tagged object names, a space's or count's reading (a doubtful one is an object)."""
    if isinstance(field, ma.fields.Nested):
        return field.schema
    if isinstance(field, Tagged):
        kind = value.get(field.tag) if isinstance(value, dict) else None
        return field.instances.get(kind) if isinstance(kind, str) else None
    doubtful = getattr(field, "doubtful", None)
    if isinstance(doubtful, ma.Schema):  # a SpaceField's tile or a CountField's count
        if isinstance(value, dict):
            return doubtful
        return field.tile if hasattr(field, "tile") else field.count
    return field


def stand_in_place(schema: ma.Schema, document: Any, tokens: list[str]) -> StandIn | None:
    """Where the value refused at ``tokens`` is stood in for in ``document`` (read by
    ``schema``), and how; None where it cannot be (see the module's docstring)."""
    found: StandIn | None = None
    field: Any = schema
    value: Any = document
    holder: Any = None
    key: PathPart | None = None
    path: list[PathPart] = []
    for token in tokens:
        field = _member(field, value)
        if isinstance(field, ma.Schema):
            if not isinstance(value, dict) or token not in value:
                return None  # a field missing: nothing to stand in for
            fields = {f.data_key or name: f for name, f in field.load_fields.items()}
            if token not in fields:  # no field: left out, the rules never read it
                return StandIn((*path, token), value, token, True, False)
            holder, key, field = value, token, fields[token]
        elif isinstance(field, ma.fields.List):
            if not isinstance(value, list) or not token.isdigit() or int(token) >= len(value):
                return None
            holder, key, field = value, int(token), field.inner
        elif isinstance(field, ma.fields.Dict):
            if not isinstance(value, dict) or token not in value:
                return None
            found = StandIn((*path, token), value, token, True, True)
            holder, key, field = value, token, field.value_field
        else:
            return found  # inside a value read whole (a catalog): its entry, if any
        path.append(key)
        value = holder[key]
    field = _member(field, value)
    if isinstance(field, ProtoEnum) and holder is not None and key is not None:
        return StandIn(tuple(path), holder, key, False, False)
    return found


@dataclass(frozen=True)
class StoodIn:
    """A refused body with its stand-ins, and the places the rules' problems about which
    the gateway's answer leaves out."""

    document: Any
    shadowed: frozenset[str]
    """Pointers at or under which the rules' problems are left out."""
    changed: frozenset[str]
    """Pointers of objects an entry was left out of: the rules' problems there are."""

    def kept(self, problem: FieldProblem) -> bool:
        pointer = problem.pointer
        if pointer in self.changed:
            return False
        return not any(pointer == place or pointer.startswith(place + "/")
                       for place in self.shadowed)


def stand_in(schema: ma.Schema, document: Any, refused: list[FieldProblem]
             ) -> StoodIn | None:
    """A copy of ``document`` with a stand-in for every value the gateway ``refused``;
    None if some refused value has none."""
    body = copy.deepcopy(document)
    places = []
    for problem in refused:
        place = stand_in_place(schema, body, parse_pointer(problem.pointer))
        if place is None:
            return None
        places.append(place)
    for place in places:  # in place first: leaving entries out changes no list's indices
        if not place.left_out:
            place.holder[place.key] = UNREADABLE
    for place in places:
        if place.left_out:
            place.holder.pop(place.key, None)
    return StoodIn(
        body,
        frozenset({p.pointer for p in refused} | {json_pointer(p.path) for p in places}),
        frozenset(json_pointer(p.path[:-1]) for p in places if p.holder_changed))


def _document_order(document: Any, pointer: str) -> tuple[int, ...]:
    """Where ``pointer``'s place comes in ``document``, as JSON writes it (a place not in
    it after its siblings)."""
    order = []
    value = document
    for token in parse_pointer(pointer):
        if isinstance(value, dict):
            keys = list(value)
            order.append(keys.index(token) if token in value else len(keys))
            value = value.get(token)
        elif isinstance(value, list) and token.isdigit():
            index = int(token)
            order.append(index)
            value = value[index] if index < len(value) else None
        else:
            break
    return tuple(order)


def merged(document: Any, refused: list[FieldProblem], found: list[FieldProblem]
           ) -> list[FieldProblem]:
    """The gateway's problems and the rules' kept ones, in the body's order, at most
    :data:`MAX_PROBLEMS` and then one saying how many more."""
    more = sum(count for p in found if p.code == MORE_PROBLEMS.code
               and isinstance(count := p.params.get("count"), int))
    listed = [p for p in found if p.code != MORE_PROBLEMS.code]
    problems = sorted([*refused, *listed], key=lambda p: _document_order(document, p.pointer))
    if len(problems) > MAX_PROBLEMS or more:
        more += max(0, len(problems) - MAX_PROBLEMS)
        problems = [*problems[:MAX_PROBLEMS],
                    FieldProblem("", MORE_PROBLEMS(count=more, limit=MAX_PROBLEMS))]
    return problems


def whole_transcription(refused: ProblemError, schema: ma.Schema,
                        ask: Callable[[Any], Any]) -> ProblemError:
    """The 422 for a body the gateway ``refused``: its problems, and what the rules find
    with the rest of the body (``ask``: the view, which asks the engine), merged; or
    ``refused`` itself where the rest cannot be asked about or adds nothing."""
    try:
        document = load_json_body(request)  # read once already: no new problem
        stood_in = stand_in(schema, document, refused.errors)
        if stood_in is None:
            return refused
        rest = schema.load(stood_in.document)
    except Exception:  # a stand-in the schema does not take: the shape problems alone
        log.debug("no stand-in for a refused body", exc_info=True)
        return refused
    try:
        ask(rest)
    except ProblemError as answer:
        if answer.status != 422:  # unreachable, busy, late: the shape problems alone
            return refused
        found = [p for p in answer.errors if stood_in.kept(p)]
        if not found:
            return refused
        return invalid_request(merged(document, refused.errors, found))
    except Exception:
        log.exception("asking the rules about a refused body's rest failed")
    return refused
