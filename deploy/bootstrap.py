"""Create the project's virtual environment and install the project into it, once.

Shared by ``deploy/run.py`` and ``deploy/test.py`` so both quick-start commands work on a
fresh machine with only Python 3.11+. The install is redone only when a pyproject.toml
changes (or the requested extras do); the compiled modules (``setup.py``) only when one
is older than its source. Every start of the venv's Python then chooses which build runs
(``deploy/compiled.py``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("REFEREE_VENV", REPO_ROOT / ".venv"))


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


KNOWN_EXTRAS = ("test",)


LOCAL_DISTRIBUTIONS = ("./wire", "./clients")
"""The distributions of this checkout that the project depends on, on no package index:
installed before it, in this order (the clients depend on the wire)."""


def _fingerprint() -> str:
    """Every distribution's metadata: a change to any (a new dependency, the clients'
    ``referee`` script) reinstalls."""
    digest = hashlib.sha256()
    for project in (".", *LOCAL_DISTRIBUTIONS):
        digest.update((REPO_ROOT / project / "pyproject.toml").read_bytes())
    return digest.hexdigest()


def _stamp(extras: tuple[str, ...]) -> Path:
    return VENV / f".installed-{'-'.join(sorted(extras)) or 'base'}"


def _installed(extras: tuple[str, ...]) -> bool:
    """True if this pyproject.toml was installed with ``extras`` or more."""
    candidates = [extras, *((extra,) for extra in KNOWN_EXTRAS if set(extras) <= {extra})]
    return any(_stamp(c).exists() and _stamp(c).read_text() == _fingerprint()
               for c in candidates)


def ensure_environment(extras: tuple[str, ...]) -> Path:
    """The venv's python, with the project (and ``extras``) installed and up to date."""
    if sys.version_info < (3, 11):
        raise SystemExit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    python = venv_python()
    if not python.exists():
        print(f"bootstrap: creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    if not _installed(extras):
        target = f".[{','.join(extras)}]" if extras else "."
        print(f"bootstrap: installing {target} into {VENV}", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                       check=True, cwd=REPO_ROOT)
        for project in (*LOCAL_DISTRIBUTIONS, target):
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-e", project],
                           check=True, cwd=REPO_ROOT)
        _stamp(extras).write_text(_fingerprint())
    _ensure_compiled(python)
    return python


def _ensure_compiled(python: Path) -> None:
    """Remove the compiled modules no longer compiled (split or renamed since), compile
    the hot modules again (``setup.py``) where any is older than its source or missing,
    unless the sources alone are wanted or can be had here; and have the venv's Python run
    the sources where the compiled modules must not run."""
    sys.path.insert(0, str(REPO_ROOT))
    from deploy.compiled import (
        compiling_wanted,
        install_build_choice,
        leftover_extensions,
        outdated_sources,
    )

    site_packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True).stdout.strip()
    install_build_choice(Path(site_packages))
    for leftover in leftover_extensions(REPO_ROOT):  # would run in place of its source
        leftover.unlink()
    if compiling_wanted() and outdated_sources(REPO_ROOT):
        print("bootstrap: compiling the rules' hot modules (mypyc, about a minute)", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-qq", "--no-deps", "-e", "."],
                       check=True, cwd=REPO_ROOT)
