"""The probes the Kubernetes manifests name, as a command a container can run on itself.

``python -m deploy.probe http://127.0.0.1:8080/readyz`` exits 0 when the URL answers 200;
``python -m deploy.probe grpc 127.0.0.1:50052`` when the gRPC health service there says
SERVING. compose.yaml's health checks run it (an image that runs two different processes
has no one ``HEALTHCHECK``: see the Dockerfile), and so do the container tests, from
inside the containers' network.
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request

PROBE_TIMEOUT_SECONDS = 2.0
"""As the manifests' ``timeoutSeconds``."""


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=PROBE_TIMEOUT_SECONDS) as answer:
            return bool(answer.status == 200)
    except (OSError, urllib.error.HTTPError):
        return False


def grpc_serving(address: str) -> bool:
    import grpc  # only here: the HTTP probe runs without grpcio's start-up cost
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as channel:
        try:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=PROBE_TIMEOUT_SECONDS)
        except grpc.RpcError:
            return False
    return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", nargs="+",
                        help="an http(s):// URL, or 'grpc' and a host:port")
    args = parser.parse_args(argv)
    match args.target:
        case ["grpc", address]:
            healthy = grpc_serving(address)
        case [url] if url.startswith(("http://", "https://")):
            healthy = http_ok(url)
        case _:
            parser.error("give an http:// URL, or: grpc HOST:PORT")
    print("healthy" if healthy else "unhealthy")
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
