"""``deploy/run.py`` writes plain text log lines on a terminal and JSON lines otherwise:
what a person starting it by hand reads, and what a collector reads from a pipe."""

from __future__ import annotations

import json
import signal

import pytest

from .quick_start import quick_start


@pytest.mark.parametrize("on_a_terminal", [True, False], ids=["terminal", "pipe"])
def test_the_quick_start_logs_text_on_a_terminal_and_json_otherwise(on_a_terminal: bool) -> None:
    with quick_start(on_a_terminal) as started:
        lines = started.lines_until_ready()
        started.run.send_signal(signal.SIGINT)
        started.run.wait(timeout=60)
    logged = [line for line in lines if not line.startswith(("referee:", "bootstrap:"))]
    json_lines = [line for line in logged if line.startswith("{")]
    text_lines = [line for line in logged if " engine INFO " in line or " gateway " in line]
    if on_a_terminal:
        assert not json_lines, lines
        assert text_lines, lines
    else:
        assert not text_lines, lines
        assert {json.loads(line)["process"] for line in json_lines} == {"engine", "gateway"}, lines
