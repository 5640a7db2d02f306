"""What the engine needs to serve one game, as one value, so that the server iterates
the games instead of naming each (issue 27 item 6)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum

import grpc
from google.protobuf.descriptor import ServiceDescriptor

from .calls import CallLimits


class Seats(Enum):
    """Which bound limits a method's concurrent calls (see server.expensive_seats)."""

    PLANS = "plans"
    REPLAYS = "replays"


@dataclass(frozen=True)
class GameRegistration:
    """One game's service, how to add its servicer, and its expensive methods."""

    service: ServiceDescriptor
    add_servicer: Callable[[grpc.Server, CallLimits], None]
    expensive: Mapping[str, Seats] = field(default_factory=dict)
    """Method name -> the bound on its concurrent calls."""

    def register(self, server: grpc.Server, limits: CallLimits) -> str:
        """Add the servicer to ``server``; returns its full service name."""
        self.add_servicer(server, limits)
        return self.service.full_name
