"""An in-process engine on a free port, and a gateway test client wired to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from api_gateway import create_app
from tabletop_referee_clients import GrpcClient
from engine_service.server import Engine, create_server


@pytest.fixture(scope="session")
def engine() -> Iterator[Engine]:
    built = create_server("127.0.0.1:0", max_workers=4)
    built.server.start()
    yield built
    built.server.stop(0)


@pytest.fixture(scope="session")
def engine_address(engine: Engine) -> str:
    return f"127.0.0.1:{engine.port}"


@pytest.fixture(scope="session")
def grpc_client(engine_address: str) -> Iterator[GrpcClient]:
    with GrpcClient(engine_address, timeout=5) as client:
        yield client


@pytest.fixture(scope="session")
def gateway(engine_address: str) -> FlaskClient:
    return create_app({"ENGINE_ADDRESS": engine_address, "MAX_CONTENT_LENGTH": 64 * 1024}
                      ).test_client()
