"""``GET /v1/version``, ``GET /v1/downtown-farmers-market/challenges`` and
``GET /v1/foxglove-farm/catalog``: what the referee plays, relayed from the engine.

The engine answers them from the rules library, the one source of the rules' data (the
gateway would otherwise hold a second copy, which a rolling upgrade could make disagree
with the engine that scores). Each answer is the same for every caller until the engines
change, so it may be cached (:func:`cacheable`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import metadata
from typing import Any

from flask import Response, current_app, request

from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2 as dfm_pb2
from referee.downtown_farmers_market.v1 import downtown_farmers_market_service_pb2_grpc as dfm_grpc
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2 as ff_pb2
from referee.foxglove_farm.v1 import foxglove_farm_service_pb2_grpc as ff_grpc
from referee.v1 import referee_service_pb2, referee_service_pb2_grpc

from ... import engine
from ...blueprint import Blueprint
from .schemas import DowntownChallengeTypesSchema, FoxgloveBuildingCatalogSchema, VersionSchema

DISTRIBUTION = "tabletop-referee"
"""The distribution the gateway is installed from (pyproject.toml's name)."""

MAX_AGE_SECONDS = 300
"""How long a client or cache may reuse an answer without asking again: it changes only
when the engines are upgraded; after that, a request with If-None-Match costs a 304."""

blueprint = Blueprint("discovery", __name__, url_prefix="/v1",
                      description="What the referee plays: its versions, the challenge "
                                  "types and the building catalog.")

CACHING_HEADERS = {
    "ETag": {"description": "a strong validator of the answer: send it back in "
                            "If-None-Match to get a 304 while it is current",
             "schema": {"type": "string"}},
    "Cache-Control": {"description": f"public, max-age={MAX_AGE_SECONDS}",
                      "schema": {"type": "string"}}}
NOT_MODIFIED = {"description": "Not Modified: the If-None-Match tag is current",
                "headers": {"ETag": CACHING_HEADERS["ETag"]}}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False,
                 "schema": {"type": "string"},
                 "description": "the ETag of an answer already held"}


def cacheable(operation_id: str, schema: type) -> Callable[[Callable[..., Any]], Any]:
    """``GET`` answered by ``schema`` and documented as ``operation_id``; the answer may be
    cached publicly for :data:`MAX_AGE_SECONDS` and carries a strong ETag of its bytes, so
    that If-None-Match answers 304 (compression, when asked, tags its bytes apart)."""
    def decorate(view: Callable[..., Any]) -> Any:
        written = blueprint.response(200, schema, headers=CACHING_HEADERS)(view)

        @functools.wraps(written)
        def answer(*args: Any, **kwargs: Any) -> Response:
            response: Response = written(*args, **kwargs)
            response.cache_control.public = True
            response.cache_control.max_age = MAX_AGE_SECONDS
            response.add_etag()
            response.make_conditional(request)
            return response

        documented = blueprint.problem_responses(503, 504)(answer)
        return blueprint.doc(operationId=operation_id, parameters=[IF_NONE_MATCH],
                             responses={304: NOT_MODIFIED})(documented)
    return decorate


@blueprint.get("/version")
@cacheable("getVersion", VersionSchema)
def version() -> dict[str, object]:
    """The versions of the referee, the rules it plays and its building catalogs: the
    rules_version and catalog_version every score answer names."""
    answer = engine.call(engine.stub(referee_service_pb2_grpc.RefereeServiceStub).GetVersion,
                         referee_service_pb2.GetVersionRequest())
    return {"service": metadata.version(DISTRIBUTION), "api": current_app.config["API_VERSION"],
            "engine": answer}


@blueprint.get("/downtown-farmers-market/challenges")
@cacheable("listDowntownFarmersMarketChallengeTypes", DowntownChallengeTypesSchema)
def challenge_types() -> dfm_pb2.ListChallengeTypesResponse:
    """The seven Challenge types: each one's parameters and the values each accepts (a
    board past a limit is a 422 naming it)."""
    return engine.call(engine.stub(dfm_grpc.DowntownFarmersMarketServiceStub)
                       .ListChallengeTypes, dfm_pb2.ListChallengeTypesRequest())


@blueprint.get("/foxglove-farm/catalog")
@cacheable("getFoxgloveFarmCatalog", FoxgloveBuildingCatalogSchema)
def catalog() -> ff_pb2.GetCatalogResponse:
    """The built-in building catalog: every building's id, name, tiers, slots, cost and
    effects, where each value comes from, which are provisional, and its version."""
    return engine.call(engine.stub(ff_grpc.FoxgloveFarmServiceStub).GetCatalog,
                       ff_pb2.GetCatalogRequest())
