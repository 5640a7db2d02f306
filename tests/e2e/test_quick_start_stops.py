"""``deploy/run.py`` stops every process it started, however it is stopped: no engine,
gateway or proxy outlives the quick start, even when its terminal has gone."""

from __future__ import annotations

import re
import signal

import requests

from .quick_start import alive, quick_start

STOPPED_WITHIN_SECONDS = 60
"""Longer than a graceful stop of the three takes; far shorter than a hung child's."""
LOGGED_REQUESTS = 2000
"""Their access log lines are several times what a pipe holds (64 KiB)."""


def test_closing_the_terminal_stops_every_process_the_quick_start_started() -> None:
    with quick_start(on_a_terminal=True) as started:
        started.lines_until_ready()
        started.close_output()
        started.run.send_signal(signal.SIGHUP)  # what a terminal sends when it closes
        started.run.wait(timeout=STOPPED_WITHIN_SECONDS)
        assert started.processes, "the quick start started no process"
        assert not alive(started.processes)


def test_the_service_answers_and_stops_after_its_terminal_stopped_reading() -> None:
    """Its logs then have nowhere to go, and must not fill a pipe the processes block on:
    some hundred kilobytes of access log lines, then Ctrl-C."""
    with quick_start(on_a_terminal=True) as started:
        ready = started.lines_until_ready()[-1]
        url = re.search(r"gateway on (\S+)", ready)
        assert url, ready
        started.close_output()
        with requests.Session() as session:
            answers = [session.get(f"{url[1]}/healthz", timeout=10).status_code
                       for _ in range(LOGGED_REQUESTS)]
        assert set(answers) == {200}
        started.run.send_signal(signal.SIGINT)
        started.run.wait(timeout=STOPPED_WITHIN_SECONDS)
        assert not alive(started.processes)
