"""The service's wheel (what the image and every plain ``pip install .`` install) carries
every file its packages read at run time, not only the Python modules: a catalog, a
translation or a page of the score pad left out of the package data is found only when an
installed gateway fails to start, as the image's did once without the French catalog."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("tabletop_rules", "engine_service", "api_gateway")
# Built, not shipped as sources: bytecode, and the modules setup.py compiles.
BUILT_SUFFIXES = {".pyc", ".so"}


def _shipped_files() -> set[str]:
    return {
        path.relative_to(REPO).as_posix()
        for package in PACKAGES
        for path in (REPO / package).rglob("*")
        if path.is_file() and path.suffix not in BUILT_SUFFIXES
        and "__pycache__" not in path.parts
    }


def _copy_sources(into: Path) -> None:
    """What the Dockerfile copies to build from, and no earlier build's leftovers
    (``build/``, ``*.egg-info``), which would hide a file the package data leaves out."""
    for name in ("pyproject.toml", "setup.py", "README.md", "deploy/__init__.py",
                 "deploy/compiled.py"):
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, into / name)
    for package in PACKAGES:
        shutil.copytree(REPO / package, into / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))


def test_the_wheel_holds_every_file_of_the_packages(tmp_path: Path) -> None:
    sources, wheels = tmp_path / "sources", tmp_path / "wheels"
    _copy_sources(sources)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "--wheel-dir", str(wheels), str(sources)],
        env={"PATH": "/usr/bin:/bin", "REFEREE_COMPILE": "0", "HOME": str(tmp_path)},
        check=True, capture_output=True)
    (wheel,) = wheels.glob("tabletop_referee-*.whl")
    with zipfile.ZipFile(wheel) as built:
        in_wheel = set(built.namelist())
    assert _shipped_files() - in_wheel == set()
