"""The static checks: the rules library (whose types are part of its API), the engine,
the gateway, the clients and the wire package each type-check under ``mypy --strict`` (``[tool.mypy]`` in pyproject.toml
allows what their untyped libraries force), and the whole tree passes ruff as
``[tool.ruff]`` configures it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package, flags", [
    pytest.param("tabletop_rules", ["--strict"], id="rules-strict"),
    pytest.param("engine_service", ["--strict"], id="engine-strict"),
    pytest.param("api_gateway", ["--strict"], id="gateway-strict"),
    # What an app imports: its answers' types are the point (tests/platform/test_client_types.py).
    pytest.param("clients/src/tabletop_referee_clients", ["--strict"], id="clients-strict"),
    pytest.param("wire/src/referee_wire", ["--strict"], id="wire-strict"),
])
def test_package_type_checks(package: str, flags: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", *flags, "--cache-dir", str(tmp_path), package],
        cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_tree_passes_ruff() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
