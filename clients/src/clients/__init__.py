"""Python clients for the referee: the same calls over REST (JSON) and gRPC (protobuf).

>>> from clients import RestClient
>>> RestClient("http://127.0.0.1:8080").score_board(board)  # doctest: +SKIP
"""

from .errors import InvalidRequestError, RefereeError
from .grpc_client import GrpcClient
from .rest_client import RestClient

__all__ = ["GrpcClient", "InvalidRequestError", "RefereeError", "RestClient"]
