"""The .proto files lint clean and the committed generated code is not stale."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_buf_lint_passes_with_standard_rules() -> None:
    buf = shutil.which("buf", path=str(Path(sys.executable).parent)) or shutil.which("buf")
    if buf is None:
        pytest.fail("buf is not installed; it comes with the test extra (buf-bin)")
    result = subprocess.run([buf, "lint"], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _differences(left: Path, right: Path) -> list[str]:
    comparison = filecmp.dircmp(left, right, ignore=["__pycache__"])
    found = [f"only in committed: {n}" for n in comparison.left_only]
    found += [f"missing from committed: {n}" for n in comparison.right_only]
    found += [f"differs: {n}" for n in comparison.diff_files
              if (left / n).read_bytes() != (right / n).read_bytes()]
    for sub in comparison.common_dirs:
        found += [f"{sub}/{d}" for d in _differences(left / sub, right / sub)]
    return found


def test_generated_code_matches_the_protos(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(REPO / "proto" / "codegen.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    stale = _differences(REPO / "wire" / "src" / "referee", tmp_path / "referee")
    assert not stale, "generated code is stale; run `python proto/codegen.py`: " + ", ".join(stale)
