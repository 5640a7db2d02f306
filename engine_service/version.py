"""The ``RefereeService`` servicer: what the engine's answers are made under.

Its release (the installed distribution's version), each game's rules version and each
built-in catalog's version, read from the rules library: the same values the score
answers and game states name (``rules_version``, ``catalog_version``).
"""

from __future__ import annotations

from importlib import metadata

import grpc

from referee.v1 import referee_service_pb2 as service_pb2
from referee.v1 import referee_service_pb2_grpc as service_grpc
from tabletop_rules import downtown_farmers_market as dfm
from tabletop_rules.foxglove_farm.catalog_format import builtin_catalog_version
from tabletop_rules.foxglove_farm.farm_game import GAME as FOXGLOVE_FARM
from tabletop_rules.foxglove_farm.game_state import RULES_VERSION as FOXGLOVE_FARM_RULES

DISTRIBUTION = "tabletop-referee"
"""The distribution the engine is installed from (pyproject.toml's name)."""

SERVICE = service_pb2.DESCRIPTOR.services_by_name["RefereeService"]


def version_answer() -> service_pb2.GetVersionResponse:
    """The versions of this engine, its games' rules and their built-in catalogs."""
    return service_pb2.GetVersionResponse(
        service=metadata.version(DISTRIBUTION),
        rules={dfm.GAME.slug: dfm.RULES_VERSION, FOXGLOVE_FARM.slug: FOXGLOVE_FARM_RULES},
        catalogs={FOXGLOVE_FARM.slug: builtin_catalog_version()})


class RefereeServicer(service_grpc.RefereeServiceServicer):
    """Says what the engine is; keeps nothing."""

    def __init__(self) -> None:
        self._answer = version_answer()

    def GetVersion(self, request: service_pb2.GetVersionRequest,
                   context: grpc.ServicerContext) -> service_pb2.GetVersionResponse:
        return self._answer


def register(server: grpc.Server) -> str:
    """Add the servicer to ``server``; returns its full service name."""
    service_grpc.add_RefereeServiceServicer_to_server(RefereeServicer(), server)
    return SERVICE.full_name
