"""Python clients for the referee: the same calls over REST (JSON) and gRPC (protobuf or
the same JSON), one namespace per game.

>>> from tabletop_referee_clients import RestClient
>>> client = RestClient("http://127.0.0.1:8080")
>>> client.downtown_farmers_market.score_board(board)  # doctest: +SKIP
"""

from .errors import InvalidRequestError, RefereeError
from .grpc_client import GrpcClient
from .rest_client import RestClient

__all__ = ["GrpcClient", "InvalidRequestError", "RefereeError", "RestClient"]
