"""``deploy/run.py`` started as the README's quick start starts it, its output on a
terminal (a pty) or a pipe, for the tests of what it prints and how it stops."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from deploy import stack as stack_module

from .conftest import environment

READY = "Ctrl-C stops them"


@dataclass
class QuickStart:
    run: subprocess.Popen[bytes]
    output: int
    """The reading end of run.py's stdout and stderr (the pty's master on a terminal)."""
    processes: set[int] = field(default_factory=set)
    """What run.py had started when it said it was ready, and what those started."""

    def lines_until_ready(self) -> list[str]:
        """The lines printed up to the one saying the service is ready, that one included."""
        lines: list[str] = []
        with open(self.output, encoding="utf-8", errors="replace", closefd=False) as output:
            for line in output:
                lines.append(line.rstrip("\r\n"))
                if READY in line:
                    break
        self.processes = descendants(self.run.pid)
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
        for pid in alive(started.processes, within=0):
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        if started.output >= 0:
            os.close(started.output)


def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs, found in /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (parent := _parent(int(entry.name))) is not None:
            children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    waiting = [pid]
    while waiting:
        for child in children.get(waiting.pop(), ()):
            found.add(child)
            waiting.append(child)
    return found


def alive(pids: set[int], within: float = 10) -> set[int]:
    """Those of ``pids`` still running (not exited, nor a zombie) after ``within`` seconds,
    or as soon as none is."""
    deadline = time.monotonic() + within
    while (running := {pid for pid in pids if _state(pid) not in (None, "Z")}) and (
            time.monotonic() < deadline):
        time.sleep(0.1)
    return running


def _stat(pid: int) -> list[str] | None:
    try:
        # The command's name, in parentheses, may hold spaces: the fields follow its ")".
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if fields else None


def _state(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[0] if fields else None
