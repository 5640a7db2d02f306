"""``deploy/run.py`` writes plain text log lines on a terminal and JSON lines otherwise:
what a person starting it by hand reads, and what a collector reads from a pipe."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from deploy import stack as stack_module

from .conftest import environment


def _log_lines_of_a_start(on_a_terminal: bool) -> list[str]:
    """The lines ``run.py`` prints until it says it is ready and is stopped by Ctrl-C."""
    port = stack_module.free_port()
    reader, writer = pty.openpty() if on_a_terminal else os.pipe()
    run = subprocess.Popen(
        [sys.executable, str(Path(stack_module.REPO_ROOT) / "deploy" / "run.py")],
        env=environment(REFEREE_GATEWAY_BIND=f"127.0.0.1:{port}",
                        REFEREE_ENGINE_ADDRESS=f"127.0.0.1:{stack_module.free_port()}",
                        REFEREE_GATEWAY_WORKERS="1"),
        stdin=subprocess.DEVNULL, stdout=writer, stderr=writer)
    os.close(writer)
    lines: list[str] = []
    try:
        with open(reader, encoding="utf-8", errors="replace") as output:
            for line in output:
                lines.append(line.rstrip("\r\n"))
                if "Ctrl-C stops them" in line:
                    break
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=60)
    return lines


@pytest.mark.parametrize("on_a_terminal", [True, False], ids=["terminal", "pipe"])
def test_the_quick_start_logs_text_on_a_terminal_and_json_otherwise(on_a_terminal: bool) -> None:
    lines = _log_lines_of_a_start(on_a_terminal)
    logged = [line for line in lines if not line.startswith(("referee:", "bootstrap:"))]
    json_lines = [line for line in logged if line.startswith("{")]
    text_lines = [line for line in logged if " engine INFO " in line or " gateway " in line]
    if on_a_terminal:
        assert not json_lines, lines
        assert text_lines, lines
    else:
        assert not text_lines, lines
        assert {json.loads(line)["process"] for line in json_lines} == {"engine", "gateway"}, lines
