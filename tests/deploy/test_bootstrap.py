"""The first start (``deploy/bootstrap.py``) says what it is doing while it installs and
compiles, on stderr, and how long it took; pip's own output only when pip fails. An
environment already installed and current starts with a line at most.

The steps are run here with real quick commands: a fresh install takes minutes."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deploy import bootstrap

CHATTY = ("import sys; print('Collecting grpcio'); "
          "print('WARNING: Location is ignored', file=sys.stderr)")


def test_each_step_is_said_and_a_commands_own_output_kept_back(
        capfd: pytest.CaptureFixture[str]) -> None:
    """The time said is the steps' own, which a busy machine stretches past a second."""
    before = time.monotonic()
    steps = bootstrap.Steps()
    steps.say("creating the virtual environment in .venv/")
    steps.run("installing the referee (.) and its dependencies (pip)",
              [sys.executable, "-c", CHATTY])
    steps.finish()
    took = time.monotonic() - before
    printed = capfd.readouterr()
    assert printed.out == ""
    *said, done = printed.err.splitlines()
    assert said == [
        "bootstrap: creating the virtual environment in .venv/",
        "bootstrap: installing the referee (.) and its dependencies (pip)..."]
    seconds = re.fullmatch(r"bootstrap: done in (\d+) s", done)
    assert seconds is not None, done
    assert int(seconds[1]) <= math.ceil(took)


def test_a_failed_step_shows_the_commands_output_and_says_which_step_failed(
        capfd: pytest.CaptureFixture[str]) -> None:
    steps = bootstrap.Steps()
    with pytest.raises(SystemExit) as stopped:
        steps.run("updating pip", [sys.executable, "-c", f"{CHATTY}; sys.exit(3)"])
    printed = capfd.readouterr()
    assert printed.err.splitlines() == ["bootstrap: updating pip...", "Collecting grpcio",
                                        "WARNING: Location is ignored"]
    assert str(stopped.value.code) == ("bootstrap: updating pip failed (exit status 3); its "
                                       "output is above")


def test_no_steps_say_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    bootstrap.Steps().finish()
    assert capfd.readouterr() == ("", "")


def test_an_environment_installed_and_current_starts_with_a_line_at_most(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """This test run's own environment, as ``deploy/test.py`` installed it. Not compiling
    (``REFEREE_COMPILE=0``): a source edited since its last build is a step of its own."""
    environment = Path(sys.prefix)
    monkeypatch.setattr(bootstrap, "VENV", environment)
    if not bootstrap.installed(("test",)):
        pytest.skip("this test run's Python is no environment deploy/test.py installed and "
                    "is current")
    started = subprocess.run(
        [sys.executable, "-c", "from deploy.bootstrap import ensure_environment; "
                               "ensure_environment(extras=('test',))"],
        cwd=bootstrap.REPO_ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "REFEREE_VENV": str(environment), "REFEREE_COMPILE": "0"})
    assert started.returncode == 0, started.stderr
    assert len((started.stdout + started.stderr).splitlines()) <= 1, started
