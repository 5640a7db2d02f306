"""The service's image, built here: a container runtime, local base images, the build.

``python3 deploy/containers.py`` builds the image (``tabletop-referee:VERSION``) and prints
its tag; the container tests (``tests/containers``) call the same functions. On a machine
that can reach no image registry (these can reach only Debian's archive and the Python
package index) the Dockerfile's bases are made here: a Debian bookworm root filesystem
by ``debootstrap --variant=minbase``, imported with ``docker import`` as the runtime base,
and a builder base on top of it with the compiler and Python's headers. Both are kept by
tag, so a second run bootstraps nothing. The machine's CA bundle goes into the runtime
base, so pip inside the build trusts the package index as the host's pip does. Where the
official images can be pulled, ``docker build .`` needs none of this.

Standard library only: it runs before the project's virtual environment exists.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.packages import ensure_command, which  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
DAEMON_START_SECONDS = 60
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
RUNTIME_PACKAGES = ("python3", "python-is-python3", "ca-certificates", "passwd")
"""What the final stage runs on: Debian's Python 3.11 (as the official slim image's is),
and ``passwd`` for the Dockerfile's ``useradd``."""
BUILDER_PACKAGES = ("python3-venv", "python3-dev", "gcc", "libc6-dev")
"""What only the builder stage has: the venv module, and what mypyc's C is built with."""
BASE_REVISION = "1"
"""Raised when the package lists change, so that a cached base is made again."""
RUNTIME_BASE = f"referee-base/{SUITE}-runtime:{BASE_REVISION}"
BUILDER_BASE = f"referee-base/{SUITE}-builder:{BASE_REVISION}"
IMAGE = "tabletop-referee"


class ContainersUnavailable(RuntimeError):
    """This machine cannot run containers (not root, no apt-get, no daemon): why."""


def docker(*args: str, check: bool = True, capture: bool = True,
           timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``docker args...``; its output captured unless ``capture`` is false."""
    return subprocess.run(["docker", *args], check=check, text=True, timeout=timeout,
                          capture_output=capture)


def _daemon_answers() -> bool:
    return docker("info", check=False).returncode == 0


def ensure_docker() -> None:
    """A docker client and a running daemon: Debian's docker.io installed if missing,
    ``dockerd`` started (in the background, logging to a temporary file) if none
    answers. Raises :class:`ContainersUnavailable` saying why where neither can be."""
    if not ensure_command("docker", "docker.io", who="containers"):
        raise ContainersUnavailable("docker is not installed and cannot be (root with "
                                    "apt-get install docker.io is needed)")
    if _daemon_answers():
        return
    dockerd = which("dockerd") or ensure_command("dockerd", "docker.io", who="containers")
    if not dockerd or os.geteuid() != 0:
        raise ContainersUnavailable("no docker daemon answers, and this is not root to "
                                    "start dockerd")
    log = Path(tempfile.gettempdir()) / "referee-dockerd.log"
    print(f"containers: starting dockerd (log: {log})", flush=True)
    with log.open("ab") as output:
        subprocess.Popen([dockerd], stdout=output, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + DAEMON_START_SECONDS
    while time.monotonic() < deadline:
        if _daemon_answers():
            return
        time.sleep(0.5)
    raise ContainersUnavailable(f"dockerd did not answer within {DAEMON_START_SECONDS} s; "
                                f"its log: {log}")


def image_exists(tag: str) -> bool:
    return docker("image", "inspect", tag, check=False).returncode == 0


def ensure_runtime_base() -> str:
    """The runtime base's tag, made with debootstrap and ``docker import`` if missing."""
    if image_exists(RUNTIME_BASE):
        return RUNTIME_BASE
    debootstrap = ensure_command("debootstrap", "debootstrap", who="containers")
    if not debootstrap:
        raise ContainersUnavailable("debootstrap is not installed and cannot be")
    print(f"containers: making {RUNTIME_BASE} with debootstrap (about a minute)", flush=True)
    with tempfile.TemporaryDirectory(prefix="referee-rootfs-") as work:
        root = Path(work) / "rootfs"
        subprocess.run([debootstrap, "--variant=minbase",
                        f"--include={','.join(RUNTIME_PACKAGES)}", SUITE, str(root), MIRROR],
                       check=True, stdout=subprocess.DEVNULL)
        for cache in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for entry in (root / cache).glob("*"):
                if entry.is_file():
                    entry.unlink()
        if CA_BUNDLE.exists():  # the authorities the host trusts, for pip in the build
            shutil.copyfile(CA_BUNDLE, root / CA_BUNDLE.relative_to("/"))
        archive = subprocess.Popen(["tar", "-C", str(root), "-c", "."],
                                   stdout=subprocess.PIPE)
        subprocess.run(["docker", "import",
                        "--change", "ENV LANG=C.UTF-8",
                        "--change", f"ENV PIP_CERT={CA_BUNDLE}",
                        "--change", 'CMD ["python3"]',
                        "-", RUNTIME_BASE], stdin=archive.stdout, check=True,
                       stdout=subprocess.DEVNULL)
        if archive.wait() != 0:
            raise RuntimeError("could not archive the bootstrapped root filesystem")
    return RUNTIME_BASE


def ensure_builder_base() -> str:
    """The builder base's tag: the runtime base with :data:`BUILDER_PACKAGES`."""
    if image_exists(BUILDER_BASE):
        return BUILDER_BASE
    runtime = ensure_runtime_base()
    print(f"containers: making {BUILDER_BASE}", flush=True)
    dockerfile = (f"FROM {runtime}\n"
                  "RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install"
                  f" -y -q --no-install-recommends {' '.join(BUILDER_PACKAGES)}"
                  " && rm -rf /var/lib/apt/lists/*\n")
    subprocess.run(["docker", "build", "--network", "host", "-t", BUILDER_BASE, "-"],
                   input=dockerfile, text=True, check=True, stdout=subprocess.DEVNULL)
    return BUILDER_BASE


@dataclass(frozen=True)
class Project:
    """What the image's labels say, from pyproject.toml."""

    version: str
    licence: str
    description: str

    @classmethod
    def read(cls) -> Project:
        project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
        return cls(project["version"], project["license"], project["description"])


def build_image(*, quiet: bool = True) -> str:
    """Build the image from the Dockerfile on the local bases; its tag. Docker's layer
    cache makes a rebuild of unchanged sources take seconds."""
    ensure_docker()
    project = Project.read()
    tag = f"{IMAGE}:{project.version}"
    revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, text=True,
                              capture_output=True).stdout.strip() or "unknown"
    arguments = {"BUILDER_BASE": ensure_builder_base(), "RUNTIME_BASE": ensure_runtime_base(),
                 "VERSION": project.version, "LICENCE": project.licence,
                 "DESCRIPTION": project.description, "REVISION": revision}
    command = ["docker", "build", "--network", "host", "-t", tag, "-t", f"{IMAGE}:latest"]
    for name, value in arguments.items():
        command += ["--build-arg", f"{name}={value}"]
    print(f"containers: building {tag}", flush=True)
    built = subprocess.run([*command, str(REPO_ROOT)], text=True,
                           capture_output=quiet)
    if built.returncode != 0:
        raise RuntimeError(f"docker build failed:\n{built.stdout or ''}{built.stderr or ''}")
    return tag


def image_size(tag: str) -> int:
    """The image's size in bytes, as ``docker images`` counts it."""
    return int(json.loads(docker("image", "inspect", tag).stdout)[0]["Size"])


def main() -> int:
    try:
        tag = build_image(quiet=False)
    except ContainersUnavailable as reason:
        print(f"containers: {reason}", file=sys.stderr)
        return 1
    print(f"containers: built {tag} ({image_size(tag) / 1e6:.0f} MB; base "
          f"{RUNTIME_BASE}: {image_size(RUNTIME_BASE) / 1e6:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
