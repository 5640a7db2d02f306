"""``--local``: the referee in this process, with no service running.

Its answers must be the service's, byte for byte, so nothing here computes one: the
engine's own gRPC server runs in this process on a Unix socket in a private temporary
directory, the gateway's own Flask app in front of it, and a :class:`~tabletop_referee_clients.RestClient`
reaches the app through a requests transport adapter that calls it as WSGI, without a
socket. So an answer under ``--local`` goes through the code of a deployed service: the
gateway reads the body (its compiled fast path or marshmallow) and writes the answer or
the problem+json, the engine converts and applies the rules. Calling the engine's
servicers through the gRPC client's JSON mapping would give what the engine says, but
not what the gateway writes: a second writer, held equal by tests, instead of one.

The clients distribution does not depend on the service (an app that calls the referee
installs neither flask nor the engine): its packages are imported here only, when
``--local`` asks for them, and their absence is said as such.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers

from ..rest_client import RestClient

if TYPE_CHECKING:
    from flask import Flask

LOCAL_URL = "http://referee.local"
"""What the in-process gateway is called: no request to it leaves the process."""

PLAINTEXT_ENGINE = {"ENGINE_TLS_CA": "", "ENGINE_TLS_CERT": "", "ENGINE_TLS_KEY": "",
                    "ENGINE_TLS_SERVER_NAME": ""}
"""The in-process engine listens on a private socket, in plaintext, whatever the
environment configures for a deployed gateway."""

STOP_GRACE_SECONDS = 1.0
"""The engine stops gracefully, though no call is in flight by then: the gateway's
channel gets a clean GOAWAY, which grpc does not log to the terminal (an abrupt stop's
it does, half the time)."""


class LocalUnavailableError(Exception):
    """The service's packages are not installed: there is no local referee."""


class WsgiAdapter(BaseAdapter):
    """A requests transport that answers every request with ``app``, called in this
    process through werkzeug's test client."""

    def __init__(self, app: Flask) -> None:
        super().__init__()
        self._client = app.test_client()

    def send(self, request: requests.PreparedRequest, stream: bool = False,
             timeout: Any = None, verify: Any = True, cert: Any = None,
             proxies: Mapping[str, str] | None = None) -> requests.Response:
        url = urlsplit(request.url)
        # No content coding: requests decodes gzip in urllib3, which this adapter bypasses.
        headers = {**request.headers, "Accept-Encoding": "identity"}
        answer = self._client.open(url.path, method=request.method, query_string=url.query,
                                   headers=headers, data=request.body)
        response = requests.Response()
        response.status_code = answer.status_code
        response.reason = answer.status.partition(" ")[2]
        response.headers = CaseInsensitiveDict(answer.headers)
        response.encoding = get_encoding_from_headers(response.headers)
        response.raw = io.BytesIO(answer.get_data())
        response.url = request.url or ""
        response.request = request
        return response

    def close(self) -> None:
        """Nothing to close: no connection was opened."""


@contextmanager
def local_client(timeout: float, language: str | None = None) -> Iterator[RestClient]:
    """A REST client whose every call the gateway and engine answer in this process."""
    try:
        from api_gateway import create_app
        from engine_service.server import create_server
    except ImportError as error:
        raise LocalUnavailableError(
            f"--local runs the referee in this process and needs the service's packages "
            f"(the tabletop-referee distribution; {error.name} is not installed): install "
            "it, or call a running referee with --url or --grpc") from None
    with tempfile.TemporaryDirectory(prefix="referee-") as directory:
        address = f"unix:{directory}/engine.sock"
        engine = create_server(address, max_workers=2)
        engine.server.start()
        try:
            session = requests.Session()
            session.mount(LOCAL_URL, WsgiAdapter(create_app(
                {"ENGINE_ADDRESS": address, **PLAINTEXT_ENGINE})))
            with RestClient(LOCAL_URL, timeout, session, language=language) as client:
                yield client
        finally:
            engine.server.stop(STOP_GRACE_SECONDS).wait()
