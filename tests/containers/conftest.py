"""The image built (``deploy/containers.py``) and run as the Kubernetes manifests run it:
engine and gateway containers on a user-defined network, each read-only with a tmpfs at
``/tmp``, every capability dropped, no new privileges, user 10001, and the manifests' own
environment files (``deploy/kubernetes/base/*.env``).

The host reaches the containers by their addresses on the network's bridge (nothing is
published, as in a cluster); the probes run inside the containers.
"""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from deploy import containers

BASE = containers.REPO_ROOT / "deploy" / "kubernetes" / "base"
ENGINE_ALIAS = "referee-engine-headless"
"""The headless Service's name, which base/gateway.env dials: here a network alias that
every engine container answers to (Docker's DNS gives all their addresses, as the
Service's does)."""
HARDENED = ["--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges", "--user", "10001:10001"]
"""The manifests' securityContext, in docker's words."""
READY_WITHIN_SECONDS = 60.0
ENGINES = 3


@pytest.fixture(scope="session")
def image() -> str:
    try:
        return containers.build_image()
    except containers.ContainersUnavailable as reason:
        pytest.skip(f"containers cannot run on this machine: {reason}")


@dataclass
class Container:
    name: str
    network: str

    def ip(self) -> str:
        inspected = json.loads(containers.docker("inspect", self.name).stdout)[0]
        return str(inspected["NetworkSettings"]["Networks"][self.network]["IPAddress"])

    def exec(self, *command: str) -> str:
        """``command``'s output, run inside the container; fails if it fails."""
        return containers.docker("exec", self.name, *command).stdout

    def probe(self, *target: str) -> bool:
        return containers.docker("exec", self.name, "python", "-m", "deploy.probe", *target,
                                 check=False).returncode == 0

    def logs(self) -> str:
        done = containers.docker("logs", self.name)
        return done.stdout + done.stderr


@dataclass
class ContainerStack:
    """Engines and a gateway, as base/ deploys them; the gateway at ``url``."""

    image: str
    network: str = field(default_factory=lambda: f"referee-test-{uuid.uuid4().hex[:8]}")
    engines: list[Container] = field(default_factory=list)
    gateway: Container | None = None

    def run(self, name: str, env_file: str, *command: str, alias: str | None = None
            ) -> Container:
        aliases = ["--network-alias", alias] if alias else []
        containers.docker("run", "-d", "--name", name, "--network", self.network, *aliases,
                          *HARDENED, "--env-file", str(BASE / env_file), self.image, *command)
        return Container(name, self.network)

    def start(self) -> ContainerStack:
        containers.docker("network", "create", self.network)
        self.engines = [self.run(f"{self.network}-engine-{i}", "engine.env", "referee-engine",
                                 alias=ENGINE_ALIAS) for i in range(ENGINES)]
        self.gateway = self.run(f"{self.network}-gateway", "gateway.env",
                                "gunicorn", "-c", "deploy/gunicorn.conf.py")
        self.wait_ready()
        return self

    @property
    def url(self) -> str:
        assert self.gateway is not None
        return f"http://{self.gateway.ip()}:8080"

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_WITHIN_SECONDS
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        assert self.gateway is not None
        raise AssertionError(f"the gateway container never became ready:\n"
                             f"{self.gateway.logs()[-3000:]}")

    def remove(self) -> None:
        names = [c.name for c in (*self.engines, self.gateway) if c]
        if names:
            containers.docker("rm", "-f", *names, check=False)
        containers.docker("network", "rm", self.network, check=False)


@pytest.fixture(scope="module")
def container_stack(image: str) -> Iterator[ContainerStack]:
    stack = ContainerStack(image)
    try:
        yield stack.start()
    finally:
        stack.remove()
