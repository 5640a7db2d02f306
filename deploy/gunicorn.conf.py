"""gunicorn settings for the REST gateway: ``gunicorn -c deploy/gunicorn.conf.py``.

Threaded workers (the gateway mostly waits on the engine). In production nginx is in
front (``deploy/proxy.py``) and hands over only whole requests, so a thread is never held
by a slow client; gunicorn then listens on a unix socket (``REFEREE_GATEWAY_BIND`` set to
``unix:path`` by ``deploy/stack.py``). The app is not preloaded: grpcio must not be
initialised before fork, so each worker builds the app, and opens its engine channel on
first use, after it has been forked.

Metrics: every worker writes its Prometheus values to files in
``PROMETHEUS_MULTIPROC_DIR`` (prometheus_client's multiprocess mode, read by any worker
that answers ``/metrics``). Unset, it is a fresh temporary directory of this master's,
removed when it exits; set (e.g. to a Kubernetes ``emptyDir``), its files from an
earlier run are removed at start. A worker that dies is marked dead, so its in-flight
requests stop counting. Logs: JSON lines, or text (``REFEREE_LOG_FORMAT``), from gunicorn
and the app alike (``api_gateway/logs.py``).
"""

import gc
import glob
import multiprocessing
import os
import shutil
import socket
import tempfile

from gunicorn import util

from api_gateway.config import (
    ACCESS_LOG,
    BIND,
    LOG_FORMAT,
    LOG_LEVEL,
    MULTIPROCESS_METRICS,
    THREADS,
    WORKERS,
)
from api_gateway.logs import logging_config
from deploy.proxy import problem_response

METRICS_DIRECTORY = MULTIPROCESS_METRICS.name
MADE_METRICS_DIRECTORY = "METRICS_DIRECTORY_MADE_BY_GUNICORN_CONF"
"""Set in this master's environment when it made the directory (a reload on SIGHUP runs
this file again, and must neither make another nor forget to remove this one). Not a
setting: no ``REFEREE_`` name."""
if not os.environ.get(METRICS_DIRECTORY):
    os.environ[METRICS_DIRECTORY] = tempfile.mkdtemp(prefix="referee-metrics-")
    os.environ[MADE_METRICS_DIRECTORY] = "1"

wsgi_app = "api_gateway:create_app()"
bind = BIND.get()
worker_class = "gthread"
workers = int(WORKERS.get() or min(4, multiprocessing.cpu_count()))
threads = int(THREADS.get())
preload_app = False
timeout = 30
graceful_timeout = 10
keepalive = 5
limit_request_line = 4094
limit_request_fields = 100
accesslog = ACCESS_LOG.get() or None
"""Off by default: nginx in front logs every request already, and gunicorn's own line
costs about 70 µs of CPU a request (8% of the gateway's throughput under wrk). Set it to
``-`` (stdout) or a path to log here too."""
errorlog = "-"
loglevel = LOG_LEVEL.get().lower()
logconfig_dict = logging_config(LOG_FORMAT.get(), loglevel)
# gunicorn 25.1+ opens a control socket at one per-user path; several gateways (or test
# runs) on one machine would fight over it, and nothing here uses gunicornc.
control_socket_disable = True


def on_starting(server):  # type: ignore[no-untyped-def]
    """Before the first worker: no values left from an earlier run in a given directory."""
    for stale in glob.glob(os.path.join(os.environ[METRICS_DIRECTORY], "*.db")):
        os.remove(stale)


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    """The worker has built its app: what it made by now (Flask, the schemas, the catalogs)
    lives as long as it does, so it is kept out of the garbage collector's full passes.
    Without this, the first full pass after a worker starts walks all of it and stalls the
    worker's threads: under benchmarks/bench_ceilings.py's load, three fresh gateways' first
    3 s of Foxglove Farm scores had a p99 of 83 to 105 ms, against 23 to 26 with it."""
    gc.collect()
    gc.freeze()


def child_exit(server, worker):  # type: ignore[no-untyped-def]
    """A worker exited (or was killed): its live gauges (requests in flight) go."""
    # Imported here, where PROMETHEUS_MULTIPROC_DIR is surely set: prometheus_client
    # chooses its value store when it is first imported.
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):  # type: ignore[no-untyped-def]
    if os.environ.get(MADE_METRICS_DIRECTORY):
        shutil.rmtree(os.environ[METRICS_DIRECTORY], ignore_errors=True)


def _write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's answer to a request it cannot parse (400, 414, 431, 501, ...), as the
    contract's problem+json instead of its HTML page; the request is not echoed."""
    sock.sendall(problem_response(status_int))


util.write_error = _write_problem
