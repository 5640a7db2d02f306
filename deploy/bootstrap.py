"""Create the project's virtual environment and install the project into it, once.

Shared by ``deploy/run.py`` and ``deploy/test.py`` so both quick-start commands work on a
fresh machine with only Python 3.11+. The install is redone only when a pyproject.toml
changes (or the requested extras do); the compiled modules (``setup.py``) only when one
is older than its source.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("REFEREE_VENV", REPO_ROOT / ".venv"))


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


KNOWN_EXTRAS = ("test",)


def _fingerprint() -> str:
    """Both distributions' metadata: a change to either (a new dependency, the clients'
    ``referee`` script) reinstalls."""
    digest = hashlib.sha256()
    for project in (REPO_ROOT / "pyproject.toml", REPO_ROOT / "clients" / "pyproject.toml"):
        digest.update(project.read_bytes())
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
        # ./clients first: the project depends on it, and it is on no package index.
        for project in ("./clients", target):
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-e", project],
                           check=True, cwd=REPO_ROOT)
        _stamp(extras).write_text(_fingerprint())
    _ensure_compiled(python)
    return python


def _ensure_compiled(python: Path) -> None:
    """Compile the hot modules again (``setup.py``) where any is older than its source or
    missing, unless the sources alone are wanted or can be had here."""
    sys.path.insert(0, str(REPO_ROOT))
    with warnings.catch_warnings():  # that they are outdated is what is looked at here
        warnings.simplefilter("ignore", RuntimeWarning)
        from tabletop_rules.compiled import compiling_wanted, outdated_sources

    if compiling_wanted() and outdated_sources(REPO_ROOT):
        print("bootstrap: compiling the rules' hot modules (mypyc, about a minute)", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-qq", "--no-deps", "-e", "."],
                       check=True, cwd=REPO_ROOT)
