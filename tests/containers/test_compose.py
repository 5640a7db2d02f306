"""compose.yaml with the Compose at hand (Debian's docker-compose): up with the Redis
profile, scored through, down. No registry is reachable here, so its Redis image is one
made on the local base (the file's default is the official image)."""

from __future__ import annotations

import subprocess
import time
import uuid

import pytest
import requests

from deploy import containers
from deploy.packages import ensure_command
from deploy.stack import free_port

from ..sample_boards import SIMPLE_BOARD

pytestmark = [pytest.mark.containers, pytest.mark.xdist_group("containers")]

REDIS_IMAGE = f"referee-test/redis:{containers.BASE_REVISION}"
UP_WITHIN_SECONDS = 90.0


def local_redis_image() -> str:
    if not containers.image_exists(REDIS_IMAGE):
        dockerfile = (f"FROM {containers.ensure_runtime_base()}\n"
                      "RUN apt-get update -q && apt-get install -y -q --no-install-recommends"
                      " redis-server && rm -rf /var/lib/apt/lists/*\n")
        subprocess.run(["docker", "build", "--network", "host", "-t", REDIS_IMAGE, "-"],
                       input=dockerfile, text=True, check=True, capture_output=True)
    return REDIS_IMAGE


def test_compose_brings_the_stack_up_scores_and_takes_it_down(image: str) -> None:
    compose = ensure_command("docker-compose", "docker-compose", who="test")
    if not compose:
        pytest.skip("docker-compose is not installed and cannot be (apt-get install "
                    "docker-compose needs root)")
    port = free_port()
    project = f"referee-compose-{uuid.uuid4().hex[:8]}"
    env = {"REFEREE_IMAGE": image, "REFEREE_PORT": str(port),
           "REFEREE_REDIS_IMAGE": local_redis_image(),
           "REFEREE_RATE_LIMIT_STORAGE_URI": "redis://redis:6379", "PATH": "/usr/bin:/bin"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([compose, "-p", project, "--profile", "shared-limits", *args],
                              cwd=containers.REPO_ROOT, env=env, text=True,
                              capture_output=True)

    up = run("up", "-d")
    try:
        assert up.returncode == 0, up.stderr
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + UP_WITHIN_SECONDS
        while time.monotonic() < deadline:
            try:
                if requests.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.5)
        scored = requests.post(url + "/v1/downtown-farmers-market/score", json=SIMPLE_BOARD,
                               timeout=10)
        services = run("ps", "--services", "--filter", "status=running").stdout.split()
        gateway_env = run("exec", "-T", "gateway", "env").stdout
    finally:
        down = run("down", "--timeout", "20")
    left = containers.docker("ps", "-aq", "--filter", f"label=com.docker.compose.project={project}")
    assert scored.status_code == 200 and scored.json()["total"] > 0, scored.text
    assert sorted(services) == ["engine-1", "engine-2", "engine-3", "gateway", "redis"]
    assert "REFEREE_RATE_LIMIT_STORAGE_URI=redis://redis:6379" in gateway_env
    assert down.returncode == 0, down.stderr
    assert left.stdout == ""
