"""What the gateway needs to serve one game, as one value: its prefix, its stub, and a
table of POST endpoints each relayed to one RPC (issue 27 item 6).

Every game endpoint has the same shape: a JSON body read by a schema into a request
message (or into one field of it), one engine call, and the answer (or one field of it)
written by a schema. So a game's routes are data, and :meth:`GameRoutes.blueprint` makes
the views; what is not a relay (the discovery GETs) stays a view of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import marshmallow as ma
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from . import engine
from .blueprint import Blueprint
from .resources.examples import Examples

JUDGED_WHOLE = """
    One 422 names every problem: where the body's types or names are wrong, the rules still
    judge the rest (see "A transcription checked whole")."""
"""The end of the doc of an endpoint whose body is judged whole."""


@dataclass(frozen=True)
class Carried:
    """The body is one field of the request (``board``), the answer one field of the
    response (``score``): the engine's pointers then lose ``/board``."""

    request_field: str
    answer_field: str


@dataclass(frozen=True)
class Endpoint:
    """``POST <prefix><path>``, relayed to ``rpc``; ``doc`` is the OpenAPI summary (its
    first line) and description."""

    path: str
    rpc: str
    body: type[ma.Schema]
    answer: type[ma.Schema]
    operation_id: str
    doc: str
    carried: Carried | None = None
    whole: bool = False
    """The body is a transcription judged whole (see :meth:`Blueprint.json_post`)."""


@dataclass(frozen=True)
class GameRoutes:
    """One game's REST surface: ``/v1/<slug>`` and its endpoints, in the document's
    order; ``examples`` is the ``examples.json`` keyed by operationId."""

    slug: str
    description: str
    service: ServiceDescriptor
    stub: Callable[[grpc.Channel], Any]
    examples: Path
    endpoints: Sequence[Endpoint]

    def blueprint(self) -> Blueprint:
        """The game's blueprint, one view per endpoint."""
        blueprint = Blueprint(self.slug, __name__, url_prefix=f"/v1/{self.slug}",
                              description=self.description)
        examples = Examples(self.examples)
        for endpoint in self.endpoints:
            view = examples.operation(endpoint.operation_id)(self._relay(endpoint))
            blueprint.json_post(endpoint.path, endpoint.body, endpoint.answer,
                                whole=endpoint.whole)(view)
        return blueprint

    def _relay(self, endpoint: Endpoint) -> Callable[[Any], Message]:
        """The view: the body to the engine, its answer back."""
        stub, rpc, carried = self.stub, endpoint.rpc, endpoint.carried
        if carried is None:
            def view(request: Message) -> Message:
                answer: Message = engine.call(getattr(engine.stub(stub), rpc), request)
                return answer
        else:
            request_class = GetMessageClass(self.service.methods_by_name[rpc].input_type)
            prefix = f"/{carried.request_field}"

            def view(request: Message) -> Message:
                answer = engine.call(getattr(engine.stub(stub), rpc),
                                     request_class(**{carried.request_field: request}),
                                     strip_prefix=prefix)
                field: Message = getattr(answer, carried.answer_field)
                return field
        view.__name__ = view.__qualname__ = _snake(rpc)
        view.__doc__ = endpoint.doc
        return view


def _snake(name: str) -> str:
    """``ScoreBoard`` -> ``score_board``: the view's (and Flask endpoint's) name."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
