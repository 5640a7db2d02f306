"""The service's processes: one or more engines, gunicorn, and nginx in front; started
and stopped in order. ``deploy/run.py`` and the end-to-end tests both use this module, so
the tests run what the quick start runs.

Stopping goes from the outside in, so no accepted request is cut off: nginx first
(SIGQUIT: it closes its listener and finishes the requests it holds), then gunicorn
(SIGTERM: it finishes its in-flight requests), then the engines, together (SIGTERM: each
drains its calls). Standard library only, as ``deploy/run.py`` runs it before the venv's
packages.
"""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import proxy

REPO_ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_SECONDS = 30
STOP_TIMEOUT_SECONDS = 30


@dataclass
class Process:
    """A child process whose output is read line by line in the background: kept in
    ``lines`` while ``keep_lines`` (to wait for a log line), and echoed if ``echo``."""

    popen: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    echo: bool = False
    keep_lines: bool = True

    @classmethod
    def start(cls, args: list[str], env: Mapping[str, str], *, echo: bool = False) -> Process:
        # A process group of its own: Ctrl-C reaches only deploy/run.py, which then stops
        # the children in order, instead of every child at once.
        popen = subprocess.Popen(args, cwd=REPO_ROOT, env=dict(env), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 errors="replace", process_group=0)
        process = cls(popen, echo=echo)
        threading.Thread(target=process._collect, daemon=True).start()
        return process

    def _collect(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            if self.keep_lines:
                self.lines.append(line)
            if self.echo:
                try:
                    sys.stdout.write(line)
                    sys.stdout.flush()
                except OSError:  # the terminal is gone: read on, or the child blocks
                    self.echo = False

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first output line that matches ``pattern``; fails if the process exits or
        none comes within the start timeout."""
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if match := re.search(pattern, line):
                    return match
            if self.popen.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"never saw {pattern!r}; output:\n{''.join(self.lines)}")

    def stop(self, timeout: float = 15, signum: int = signal.SIGTERM) -> int:
        """Send ``signum`` (unless it has exited) and wait; killed past ``timeout``."""
        if self.popen.poll() is None:
            self.popen.send_signal(signum)
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            return self.popen.wait()


def free_port() -> int:
    """A loopback port free now (for nginx, which cannot report a port 0 it was given)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_engine(python: str, env: Mapping[str, str], address: str, *,
                 echo: bool = False) -> tuple[Process, str]:
    """The engine, and the address it listens on (``address`` may have port 0)."""
    (engine,), (listening,) = start_engines(python, env, [address], echo=echo)
    return engine, listening


def engine_addresses(address: str, count: int) -> list[str]:
    """Where ``count`` engines listen: ``address`` for one; for more, its host with port 0
    each (every engine reports the port it got)."""
    if count == 1:
        return [address]
    host = address.rsplit(":", 1)[0]
    return [f"{host}:0"] * count


def start_engines(python: str, env: Mapping[str, str], addresses: Sequence[str], *,
                  echo: bool = False) -> tuple[list[Process], list[str]]:
    """An engine on each of ``addresses``, started together; their processes and the
    addresses they listen on. If one fails to start, those started are stopped."""
    engines = [Process.start([python, "-m", "engine_service", "--address", address], env,
                             echo=echo) for address in addresses]
    try:
        return engines, [engine.wait_for(r"engine listening on (\S+)").group(1)
                         for engine in engines]
    except BaseException:
        stop_together(engines, STOP_TIMEOUT_SECONDS)
        raise


def stop_together(processes: Sequence[Process], timeout: float) -> list[int]:
    """Stop ``processes`` at once (each gracefully, with SIGTERM); their exit codes."""
    if not processes:
        return []
    with ThreadPoolExecutor(len(processes)) as pool:
        return list(pool.map(lambda process: process.stop(timeout), processes))


def start_gunicorn(python: str, env: Mapping[str, str], engine_address: str, bind: str, *,
                   echo: bool = False) -> tuple[Process, str]:
    """gunicorn serving the gateway on ``bind`` (``host:port``, port 0 allowed, or
    ``unix:path``), and what it listens at."""
    gateway = Process.start(
        [python, "-m", "gunicorn", "-c", str(REPO_ROOT / "deploy" / "gunicorn.conf.py")],
        {**env, "REFEREE_ENGINE_ADDRESS": engine_address, "REFEREE_GATEWAY_BIND": bind},
        echo=echo)
    return gateway, gateway.wait_for(r"Listening at: (\S+)").group(1)


def start_proxy(nginx: str, settings: proxy.ProxySettings, runtime: Path,
                env: Mapping[str, str], *, echo: bool = False) -> Process:
    """nginx with ``settings``, once it listens: it writes its pid file only after it has
    bound its port (a connection test could reach another server on a taken port)."""
    config = proxy.render(settings, runtime)
    process = Process.start(proxy.command(nginx, config), env, echo=echo)
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while process.popen.poll() is None and time.monotonic() < deadline:
        if (runtime / "nginx.pid").exists():
            return process
        time.sleep(0.05)
    process.stop()
    raise RuntimeError("nginx did not start:\n" + "".join(process.lines))


def wait_ready(url: str, gateway: Process | None = None) -> None:
    """Wait until ``url``/readyz answers 200 (the gateway reaches a serving engine); fail
    at once if the ``gateway`` process exits (a setting it refused, say)."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if gateway and gateway.popen.poll() is not None:
            raise RuntimeError("the gateway exited:\n" + "".join(gateway.lines[-10:]))
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} never became ready")


@dataclass
class Stack:
    """The engines, gunicorn and (when ``proxy`` is set) nginx, answering at ``url``."""

    engines: list[Process]
    engine_addresses: list[str]
    gateway: Process
    proxy: Process | None
    url: str
    runtime: Path | None = None
    python: str = sys.executable
    env: Mapping[str, str] = field(default_factory=dict)
    echo: bool = False

    @classmethod
    def start(cls, python: str, env: Mapping[str, str], *, bind: str, engine_address: str,
              nginx: str | None, engines: int = 1, echo: bool = False) -> Stack:
        """Start everything; ``bind`` is the public ``host:port``: nginx's if ``nginx`` is
        given (gunicorn then listens on a unix socket behind it), else gunicorn's. With
        ``engines`` > 1 the engines listen on free ports of ``engine_address``'s host and
        the gateway dials them as a list."""
        started, addresses = start_engines(python, env,
                                           engine_addresses(engine_address, engines),
                                           echo=echo)
        runtime = proxy.runtime_directory() if nginx else None
        gateway: Process | None = None
        front: Process | None = None
        try:
            upstream = f"unix:{runtime / 'gunicorn.sock'}" if runtime else bind
            gateway, listening = start_gunicorn(python, env, ",".join(addresses), upstream,
                                                echo=echo)
            if nginx and runtime:
                settings = proxy.ProxySettings.from_environment(env, bind, listening)
                front = start_proxy(nginx, settings, runtime, env, echo=echo)
                listening = f"http://{bind}"
            stack = cls(started, addresses, gateway, front, listening, runtime, python, env,
                        echo)
            wait_ready(stack.url, gateway)
        except BaseException:
            for process in (front, gateway):  # those started: the outer ones first
                if process:
                    process.stop()
            stop_together(started, STOP_TIMEOUT_SECONDS)
            if runtime:
                shutil.rmtree(runtime, ignore_errors=True)
            raise
        for process in (*started, gateway, front):
            if process:
                process.keep_lines = not echo  # the logs go to the terminal, not to memory
        return stack

    def running(self) -> bool:
        """True while the gateway and the proxy run (an engine that exits is restarted:
        :meth:`restart_exited_engines`)."""
        return all(p.popen.poll() is None for p in (self.gateway, self.proxy) if p)

    def restart_exited_engines(self) -> list[tuple[str, int]]:
        """Start again, on the address it had, each engine that has exited: the gateway
        keeps dialing that address, and has calls on it again once it serves. The address
        and exit code of each; :class:`RuntimeError` if one cannot start (its port taken),
        to be tried again later."""
        restarted = []
        for index, (engine, address) in enumerate(zip(self.engines, self.engine_addresses)):
            code = engine.popen.poll()
            if code is None:
                continue
            (self.engines[index],), _ = start_engines(self.python, self.env, [address],
                                                      echo=self.echo)
            self.engines[index].keep_lines = not self.echo
            restarted.append((address, code))
        return restarted

    def stop(self) -> dict[str, int]:
        """Stop from the outside in, each gracefully; their exit codes by name."""
        codes = {}
        if self.proxy:
            codes["nginx"] = self.proxy.stop(STOP_TIMEOUT_SECONDS, signal.SIGQUIT)
        codes["gunicorn"] = self.gateway.stop(STOP_TIMEOUT_SECONDS)
        engine_codes = stop_together(self.engines, STOP_TIMEOUT_SECONDS)
        if len(engine_codes) == 1:
            codes["engine"] = engine_codes[0]
        else:
            codes |= {f"engine {a}": code for a, code in zip(self.engine_addresses, engine_codes)}
        if self.runtime:
            shutil.rmtree(self.runtime, ignore_errors=True)
        return codes
