"""The REST gateway: the public JSON contract in front of the gRPC engine.

Run it with gunicorn (``deploy/gunicorn.conf.py``); :func:`create_app` builds it. It is
imported on first use: the gunicorn master imports :mod:`api_gateway.logs` for its
logging configuration, and must not load the app, nor grpcio, before it forks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from .app import create_app
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
