"""Every RPC is declared free of side effects, so the gateway's channel may retry any call
on any engine: the declaration is the machine-readable half of the services' comment."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import MethodDescriptor

from engine_service.downtown_farmers_market.servicer import SERVICE as DFM_SERVICE
from engine_service.foxglove_farm.servicer import SERVICE as FF_SERVICE

METHODS = [method for service in (DFM_SERVICE, FF_SERVICE) for method in service.methods]


@pytest.mark.parametrize("method", METHODS, ids=[m.full_name for m in METHODS])
def test_every_rpc_is_declared_without_side_effects(method: MethodDescriptor) -> None:
    assert method.GetOptions().idempotency_level == (
        descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS)
