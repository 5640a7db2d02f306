# syntax=docker/dockerfile:1
# One image for both processes of the referee. The engine is the default command; the
# REST gateway is the same image with another command:
#   docker run IMAGE                                       the engine, gRPC on 0.0.0.0:50051
#   docker run IMAGE gunicorn -c deploy/gunicorn.conf.py   the gateway, HTTP on 0.0.0.0:8080
# The engine also serves Prometheus metrics on 9090, and the gRPC health service alone,
# in plaintext, on 50052 (for probes that present no client certificate).
# No HEALTHCHECK: one image runs two processes, each probed its own way (the gateway by
# HTTP /readyz, the engine by the gRPC health service on 50052); Kubernetes ignores a
# HEALTHCHECK and uses the manifests' probes, and compose.yaml gives each service its own,
# with deploy/probe.py.
#
# The bases are build arguments: the official images by default; deploy/containers.py
# makes equivalent ones locally where no registry can be reached, and passes the labels'
# values from pyproject.toml. Python 3.11: the version the test suite and CI run on.
# Builder and final stage must be the same Python release, at the same path, since the
# virtual environment is copied across.
ARG BUILDER_BASE=python:3.11-bookworm
ARG RUNTIME_BASE=python:3.11-slim-bookworm

FROM ${BUILDER_BASE} AS builder
# The builder base carries gcc and the Python headers: setup.py compiles the rules' hot
# modules with mypyc (and a dependency with no wheel for the target platform would build);
# none of it reaches the final image, only the compiled modules.
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# ./wire first: the project depends on it, and it is on no package index (as in
# deploy/bootstrap.py; the clients are no part of the service). Plain (not editable)
# installs: the sources stay in this stage.
COPY wire/ wire/
RUN pip install --no-cache-dir ./wire
COPY pyproject.toml setup.py README.md ./
# What setup.py compiles (deploy/compiled.py names it), and deletes after.
COPY deploy/__init__.py deploy/compiled.py deploy/
COPY tabletop_rules/ tabletop_rules/
COPY engine_service/ engine_service/
COPY api_gateway/ api_gateway/
# The compiled modules' sources go: the image runs them compiled, and carries no rules'
# source that could be run instead (REFEREE_PURE_PYTHON does not work in it). Isolated
# (-I), so that the installed package is found, not the one in this directory.
RUN pip install --no-cache-dir . && python -I deploy/compiled.py

FROM ${RUNTIME_BASE}
ARG VERSION
ARG LICENCE
ARG DESCRIPTION
ARG REVISION
LABEL org.opencontainers.image.title="tabletop-referee" \
      org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="${LICENCE}" \
      org.opencontainers.image.revision="${REVISION}"
# pip compiled the installed modules in the builder; nothing is written at run time, so
# the root filesystem can be mounted read-only. The listen addresses a container needs
# (all interfaces) are the defaults here; REFEREE_ENGINE_ADDRESS is not, since the
# gateway reads that name as the engines' target.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    REFEREE_GATEWAY_BIND=0.0.0.0:8080 \
    REFEREE_ENGINE_METRICS_ADDRESS=0.0.0.0:9090 \
    REFEREE_ENGINE_HEALTH_ADDRESS=0.0.0.0:50052
RUN groupadd --system --gid 10001 referee \
    && useradd --system --uid 10001 --gid 10001 --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin referee
COPY --from=builder /opt/venv /opt/venv
# gunicorn's settings (and the deploy/ modules they import) are read from the working
# directory, as in a checkout. Owned by root: the service cannot change its own code.
WORKDIR /app
COPY deploy/ deploy/
USER 10001:10001
EXPOSE 50051 50052 9090 8080
CMD ["referee-engine", "--address", "0.0.0.0:50051"]
