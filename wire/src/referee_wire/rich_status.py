"""A gRPC refusal's rich-status details (``google.rpc.Status``), as the engine writes them:
read by the gateway, which turns them into problems, and by the gRPC client."""

from __future__ import annotations

from typing import TypeVar

import grpc
from google.protobuf.message import Message
from grpc_status import rpc_status

from referee.common.v1 import params_pb2

DetailT = TypeVar("DetailT", bound=Message)


def status_details(error: grpc.RpcError, detail_type: type[DetailT]) -> list[DetailT]:
    """The error's rich-status details of ``detail_type`` (``google.rpc.BadRequest``,
    ``google.rpc.RetryInfo``, ...), in order."""
    found = []
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    for packed in status.details if status else ():
        detail = detail_type()
        if packed.Unpack(detail):
            found.append(detail)
    return found


def field_violation_params(error: grpc.RpcError) -> list[list[params_pb2.Param]]:
    """The params of each field violation (``referee.common.v1.BadRequestParams``, in the
    field violations' order), empty when the status carries none."""
    return [list(v.params) for detail in status_details(error, params_pb2.BadRequestParams)
            for v in detail.field_violations]
