"""Create the project's virtual environment and install the project into it, once.

Shared by ``deploy/run.py`` and ``deploy/test.py`` so both quick-start commands work on a
fresh machine with only Python 3.11+. The install is redone only when a pyproject.toml
changes (or the requested extras do); the compiled modules (``setup.py``) only when one
is older than its source. Every start of the venv's Python then chooses which build runs
(``deploy/compiled.py``). A first start says each step on stderr as it begins, and how long
it all took; pip's own output is shown only when it fails, and an environment already
installed and current starts without a word.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import venv
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("REFEREE_VENV", REPO_ROOT / ".venv"))


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


KNOWN_EXTRAS = ("test",)


LOCAL_DISTRIBUTIONS = {"./wire": "the wire format", "./clients": "the Python clients"}
"""The distributions of this checkout that the project depends on, on no package index,
and what each is: installed before it, in this order (the clients depend on the wire)."""


def _fingerprint() -> str:
    """Every distribution's metadata: a change to any (a new dependency, the clients'
    ``referee`` script) reinstalls."""
    digest = hashlib.sha256()
    for project in (".", *LOCAL_DISTRIBUTIONS):
        digest.update((REPO_ROOT / project / "pyproject.toml").read_bytes())
    return digest.hexdigest()


def _stamp(extras: tuple[str, ...]) -> Path:
    return VENV / f".installed-{'-'.join(sorted(extras)) or 'base'}"


def installed(extras: tuple[str, ...]) -> bool:
    """True if this pyproject.toml was installed with ``extras`` or more."""
    candidates = [extras, *((extra,) for extra in KNOWN_EXTRAS if set(extras) <= {extra})]
    return any(_stamp(c).exists() and _stamp(c).read_text() == _fingerprint()
               for c in candidates)


class Steps:
    """The steps of an install, said on stderr as each begins (``bootstrap: ...``), then
    how long they took. A command's own output is kept back unless it fails: a newcomer
    reads what is happening, not pip's log."""

    def __init__(self) -> None:
        self.started: float | None = None

    def say(self, step: str) -> None:
        if self.started is None:
            self.started = time.monotonic()
        print(f"bootstrap: {step}", file=sys.stderr, flush=True)

    def run(self, step: str, command: list[str]) -> None:
        """Say ``step``, then run ``command``; if it fails, show its output and stop."""
        self.say(f"{step}...")
        finished = subprocess.run(command, cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace")
        if finished.returncode:
            sys.stderr.write(finished.stdout)
            raise SystemExit(f"bootstrap: {step} failed (exit status {finished.returncode}); "
                             "its output is above")

    def finish(self) -> None:
        """How long the steps took, if there were any."""
        if self.started is not None:
            self.say(f"done in {time.monotonic() - self.started:.0f} s")


def _shown(path: Path) -> str:
    """``path`` as a newcomer in the checkout reads it: ``.venv/``."""
    return f"{path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path}/"


COMPILING = "compiling the rules with mypyc (about a minute)"


def ensure_environment(extras: tuple[str, ...]) -> Path:
    """The venv's python, with the project (and ``extras``) installed and up to date."""
    if sys.version_info < (3, 11):
        raise SystemExit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    sys.path.insert(0, str(REPO_ROOT))
    from deploy.compiled import compiling_wanted

    steps = Steps()
    python = venv_python()
    if not python.exists():
        steps.say(f"creating the virtual environment in {_shown(VENV)}")
        venv.create(VENV, with_pip=True)
    if not installed(extras):
        pip_install = [str(python), "-m", "pip", "install", "--quiet"]
        steps.run("updating pip", [*pip_install, "--upgrade", "pip"])
        for project, what in LOCAL_DISTRIBUTIONS.items():
            steps.run(f"installing {what} ({project})", [*pip_install, "-e", project])
        target = f".[{','.join(extras)}]" if extras else "."
        project_step = f"installing the referee ({target}) and its dependencies (pip)"
        steps.run(f"{project_step}, {COMPILING}" if compiling_wanted() else project_step,
                  [*pip_install, "-e", target])
        _stamp(extras).write_text(_fingerprint())
    _ensure_compiled(python, steps)
    steps.finish()
    return python


def _ensure_compiled(python: Path, steps: Steps) -> None:
    """Remove the compiled modules no longer compiled (split or renamed since), compile
    the hot modules again (``setup.py``) where any is older than its source or missing,
    unless the sources alone are wanted or can be had here; and have the venv's Python run
    the sources where the compiled modules must not run."""
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
        steps.run(COMPILING, [str(python), "-m", "pip", "install", "-qq", "--no-deps", "-e", "."])
