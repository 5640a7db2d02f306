"""gunicorn settings for the REST gateway: ``gunicorn -c deploy/gunicorn.conf.py``.

Threaded workers (the gateway mostly waits on the engine). In production nginx is in
front (``deploy/proxy.py``) and hands over only whole requests, so a thread is never held
by a slow client; gunicorn then listens on a unix socket (``REFEREE_GATEWAY_BIND`` set to
``unix:path`` by ``deploy/stack.py``). The app is not preloaded: grpcio must not be
initialised before fork, so each worker builds the app, and opens its engine channel on
first use, after it has been forked.
"""

import multiprocessing
import os
import socket

from gunicorn import util

from deploy.proxy import problem_response

wsgi_app = "api_gateway:create_app()"
bind = os.environ.get("REFEREE_GATEWAY_BIND", "127.0.0.1:8080")
worker_class = "gthread"
workers = int(os.environ.get("REFEREE_GATEWAY_WORKERS", min(4, multiprocessing.cpu_count())))
threads = int(os.environ.get("REFEREE_GATEWAY_THREADS", "8"))
preload_app = False
timeout = 30
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 100
accesslog = os.environ.get("REFEREE_GATEWAY_ACCESS_LOG") or None
"""Off by default: nginx in front logs every request already, and gunicorn's own line
costs about 70 µs of CPU a request (8% of the gateway's throughput under wrk). Set it to
``-`` (stdout) or a path to log here too."""
errorlog = "-"
loglevel = os.environ.get("REFEREE_LOG_LEVEL", "info").lower()
# gunicorn 25.1+ opens a control socket at one per-user path; several gateways (or test
# runs) on one machine would fight over it, and nothing here uses gunicornc.
control_socket_disable = True


def _write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it cannot parse (400, 414, 431, 501, ...), as the
    contract's problem+json instead of its HTML page; the request is not echoed."""
    sock.sendall(problem_response(status_int))


util.write_error = _write_problem
