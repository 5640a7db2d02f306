"""Tools the end-to-end tests install for themselves: Debian packages (as root, with
apt-get) and npm packages (into the virtual environment). Each install is done once, under
a lock, so parallel test workers neither race nor repeat it; a test that cannot have its
tool skips, saying why."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

LOCKS = Path(sys.prefix) / "test-tool-locks"
NPM_TOOLS = Path(sys.prefix) / "npm-tools"
"""npm packages the tests use, installed in the virtual environment (not the repository)."""


@contextmanager
def locked(name: str) -> Iterator[None]:
    LOCKS.mkdir(parents=True, exist_ok=True)
    with open(LOCKS / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def which(command: str) -> str | None:
    return shutil.which(command) or shutil.which(command, path="/usr/bin:/usr/sbin:/bin")


def debian_tool(command: str, *packages: str) -> str:
    """``command``'s path, installing Debian's ``packages`` first if it is missing; the
    test skips if it is missing and cannot be installed (not root, no apt-get)."""
    found = which(command)
    if found:
        return found
    wanted = " ".join(packages)
    if os.geteuid() != 0 or not which("apt-get"):
        pytest.skip(f"{command} is not installed, and this is not root with apt-get to "
                    f"install it (apt-get install {wanted})")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    with locked("apt"):
        if not which(command):
            if subprocess.run(install, env=env, capture_output=True).returncode != 0:
                subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
                subprocess.run(install, env=env, capture_output=True)
    found = which(command)
    if not found:
        pytest.skip(f"apt-get could not install {wanted} (no package index reachable?)")
    return found


def npm_tools(packages: dict[str, str]) -> Path:
    """``node_modules/.bin`` with ``packages`` (name: exact version) installed by npm in
    the virtual environment; Node.js and npm from Debian when missing."""
    debian_tool("node", "nodejs")
    npm = debian_tool("npm", "npm")
    manifest = {"private": True, "devDependencies": packages}
    with locked("npm"):
        NPM_TOOLS.mkdir(parents=True, exist_ok=True)
        wanted = json.dumps(manifest, indent=1, sort_keys=True)
        stamp = NPM_TOOLS / ".installed"
        if not (stamp.exists() and stamp.read_text() == wanted):
            (NPM_TOOLS / "package.json").write_text(wanted)
            done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=NPM_TOOLS, capture_output=True, text=True, timeout=600)
            if done.returncode != 0:
                pytest.skip(f"npm could not install {', '.join(packages)} (no registry "
                            f"reachable?): {done.stderr[-500:]}")
            stamp.write_text(wanted)
    return NPM_TOOLS / "node_modules" / ".bin"
