"""What the image carries: the compiled rules and not their sources, no compiler, the
labels from pyproject.toml, and no HEALTHCHECK (the Dockerfile says why). Its size beside
its base's is printed, a figure and not an assert."""

from __future__ import annotations

import json

import pytest

from deploy import containers
from deploy.compiled import COMPILED

pytestmark = [pytest.mark.containers, pytest.mark.xdist_group("containers")]

SITE_PACKAGES = "/opt/venv/lib/python3.11/site-packages"


def run(image: str, script: str) -> str:
    return containers.docker("run", "--rm", "--entrypoint", "sh", image, "-c", script).stdout


def test_the_image_runs_the_compiled_rules_and_carries_none_of_their_sources(
        image: str) -> None:
    listing = run(image, f"cd {SITE_PACKAGES} && ls {' '.join(COMPILED)} 2>/dev/null; "
                         f"ls {' '.join(path.removesuffix('.py') + '.*.so' for path in COMPILED)}")
    extensions = listing.split()
    assert not [path for path in COMPILED if path in extensions], listing
    assert len(extensions) == len(COMPILED), listing


def test_the_image_has_no_compiler(image: str) -> None:
    assert run(image, "for c in gcc cc c99 x86_64-linux-gnu-gcc; do command -v $c; done; "
                      "true") == ""


def test_the_labels_come_from_the_package_and_no_healthcheck(image: str) -> None:
    config = json.loads(containers.docker("image", "inspect", image).stdout)[0]["Config"]
    project = containers.Project.read()
    labels = config["Labels"]
    assert labels["org.opencontainers.image.version"] == project.version
    assert labels["org.opencontainers.image.licenses"] == project.licence
    assert labels["org.opencontainers.image.description"] == project.description
    assert len(labels["org.opencontainers.image.revision"]) == 40
    assert config.get("Healthcheck") is None
    assert config["User"] == "10001:10001"
    size, base = containers.image_size(image), containers.image_size(containers.RUNTIME_BASE)
    print(f"\nimage {image}: {size / 1e6:.0f} MB; its base {containers.RUNTIME_BASE}: "
          f"{base / 1e6:.0f} MB (the service's layers: {(size - base) / 1e6:.0f} MB)")
