"""``deploy/run.py`` started as the README's quick start starts it, its output on a
terminal (a pty) or a pipe, for the tests of what it prints and how it stops."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from deploy import stack as stack_module

from .conftest import environment

READY = "Ctrl-C stops them"


@dataclass
class QuickStart:
    run: subprocess.Popen[bytes]
    output: int
    """The reading end of run.py's stdout and stderr (the pty's master on a terminal)."""
    processes: list[psutil.Process] = field(default_factory=list)
    """What run.py had started when it said it was ready, and what those started."""

    def lines_until_ready(self) -> list[str]:
        """The lines printed up to the one saying the service is ready, that one included."""
        lines: list[str] = []
        with open(self.output, encoding="utf-8", errors="replace", closefd=False) as output:
            for line in output:
                lines.append(line.rstrip("\r\n"))
                if READY in line:
                    break
        self.processes = psutil.Process(self.run.pid).children(recursive=True)
        return lines

    def close_output(self) -> None:
        """Stop reading and close the output, as a closed terminal window does."""
        os.close(self.output)
        self.output = -1


@contextmanager
def quick_start(on_a_terminal: bool) -> Iterator[QuickStart]:
    """run.py on free loopback ports, one gateway worker; killed, with every process it
    had started when ready, if a test leaves any running (as run.py did on SIGHUP)."""
    reader, writer = pty.openpty() if on_a_terminal else os.pipe()
    run = subprocess.Popen(
        [sys.executable, str(Path(stack_module.REPO_ROOT) / "deploy" / "run.py")],
        env=environment(REFEREE_GATEWAY_BIND=f"127.0.0.1:{stack_module.free_port()}",
                        REFEREE_ENGINE_ADDRESS=f"127.0.0.1:{stack_module.free_port()}",
                        REFEREE_GATEWAY_WORKERS="1"),
        stdin=subprocess.DEVNULL, stdout=writer, stderr=writer)
    os.close(writer)
    started = QuickStart(run, reader)
    try:
        yield started
    finally:
        run.kill()
        run.wait()
        for process in alive(started.processes, within=0):
            with suppress(psutil.NoSuchProcess):
                process.kill()
        if started.output >= 0:
            os.close(started.output)


def alive(processes: list[psutil.Process], within: float = 10) -> list[psutil.Process]:
    """Those of ``processes`` still running (not exited, nor a zombie) after ``within``
    seconds, or as soon as none is."""
    deadline = time.monotonic() + within
    while (running := [p for p in processes if _running(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running


def _running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
