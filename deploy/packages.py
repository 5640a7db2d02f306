"""Programs the service or its tests run, installed from Debian's packages when missing.

Standard library only: ``deploy/run.py`` uses it before the venv exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SYSTEM_PATHS = "/usr/sbin:/sbin:/usr/bin:/bin"
"""Where Debian puts daemons, which a user's PATH often lacks."""


def which(command: str) -> str | None:
    """``command``'s path, on PATH or in the system directories."""
    return shutil.which(command) or shutil.which(command, path=SYSTEM_PATHS)


def ensure_command(command: str, package: str, *, who: str) -> str | None:
    """``command``'s path, installing Debian's ``package`` with apt-get first if it is
    missing; ``who`` names the caller in the messages.

    None (and a message saying why) if it is missing and cannot be installed: not root,
    or no apt-get. A package's postinst may start its service (nginx on port 80, a
    system redis-server); a ``policy-rc.d`` that exits 101 (in place of the machine's own,
    if any, for the install's length) keeps it from starting any.
    """
    found = which(command)
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"{who}: {command} is not installed, and this is not root with apt-get to "
              f"install it (apt-get install {package})", file=sys.stderr, flush=True)
        return None
    policy = Path("/usr/sbin/policy-rc.d")
    before = policy.read_bytes() if policy.exists() else None
    policy.write_text("#!/bin/sh\n# deploy/packages.py: start no service while installing\n"
                      "exit 101\n")
    policy.chmod(0o755)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        print(f"{who}: installing {package} with apt-get", flush=True)
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", package]
        if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
            subprocess.run(install, env=env, stdout=subprocess.DEVNULL)
    finally:  # the machine's own policy back, as it was
        if before is None:
            policy.unlink()
        else:
            policy.write_bytes(before)
    found = which(command)
    if not found:
        print(f"{who}: apt-get could not install {package}", file=sys.stderr, flush=True)
    return found
