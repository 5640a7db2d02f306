"""What the engine needs to serve one game, as one value, so that the server iterates
the games instead of naming each (issue 27 item 6), and registers every game's methods
the same way: each request parsed once (by protobuf, or for the methods that read their
request's bytes, by the servicer) and each answer sent as the bytes its servicer wrote
(issue 27 item 2; see :mod:`engine_service.wire`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import ServiceDescriptor

from .calls import CallLimits


class Seats(Enum):
    """Which bound limits a method's concurrent calls (see server.expensive_seats)."""

    PLANS = "plans"
    REPLAYS = "replays"


@dataclass(frozen=True)
class GameRegistration:
    """One game's service, how to make its servicer, and its expensive methods.

    The servicer has a method per RPC, named as in the service; each takes the request
    (parsed, or its bytes for a method in :attr:`byte_requests`) and the call's context,
    and returns the answer's encoding (``bytes``), which grpcio sends as it is (no
    response serializer): an answer is written once."""

    service: ServiceDescriptor
    servicer: Callable[[CallLimits], Any]
    expensive: Mapping[str, Seats] = field(default_factory=dict)
    """Method name -> the bound on its concurrent calls."""
    byte_requests: frozenset[str] = frozenset()
    """The methods whose servicer reads the request's bytes (protobuf parses them only
    where the servicer's reader gives up)."""

    def register(self, server: grpc.Server, limits: CallLimits) -> str:
        """Add the servicer's methods to ``server``; returns the full service name."""
        servicer = self.servicer(limits)
        handlers: dict[str, grpc.RpcMethodHandler[Any, bytes]] = {
            method.name: grpc.unary_unary_rpc_method_handler(
                getattr(servicer, method.name),
                request_deserializer=self.request_deserializer(method.name))
            for method in self.service.methods}
        name = self.service.full_name
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
        server.add_registered_method_handlers(name, handlers)
        return name

    def request_deserializer(self, method: str) -> Callable[[bytes], Any] | None:
        """What makes ``method``'s request from its bytes before the servicer has it:
        protobuf's parser, or nothing for a method in :attr:`byte_requests`."""
        if method in self.byte_requests:
            return None
        return message_factory.GetMessageClass(
            self.service.methods_by_name[method].input_type).FromString
