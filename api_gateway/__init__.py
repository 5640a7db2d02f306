"""The REST gateway: the public JSON contract in front of the gRPC engine.

Run it with gunicorn (``deploy/gunicorn.conf.py``); :func:`create_app` builds it.
"""

from .app import create_app

__all__ = ["create_app"]
