"""The code's side of the deployment files, read from the code itself: which environment
variables each process reads, the settings it ends up with under a given environment, the
routes the gateway serves, and what the Dockerfile puts in the image.

The processes' side is computed in fresh interpreters (like the real ones, and because
``deploy/gunicorn.conf.py`` patches gunicorn and sets process-wide variables): the
engine's ``--help`` names every ``REFEREE_ENGINE_*`` variable (``env NAME``), most with
the value it takes under that environment (``; default VALUE``); every other name a
process reads is a string constant in one of the repository modules it imports.
"""

from __future__ import annotations

import ast
import atexit
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GUNICORN_CONFIG = "deploy/gunicorn.conf.py"

_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_HELP_ENV = re.compile(r"\benv (REFEREE_[A-Z0-9_]+)")
_HELP_SETTING = re.compile(r"\benv (REFEREE_[A-Z0-9_]+); default ([^)]*)\)")

_REPO_FILES = """
def repo_files():
    import sys
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path
    repo = Path.cwd().resolve()
    found = set()
    for module in list(sys.modules.values()):
        path = Path(getattr(module, "__file__", None) or "/").resolve()
        for suffix in EXTENSION_SUFFIXES:  # a compiled module (setup.py): its source
            if path.name.endswith(suffix):
                path = path.with_name(path.name.removesuffix(suffix) + ".py")
        if (path.is_relative_to(repo) and path.exists()
                and ".venv" not in path.relative_to(repo).parts):
            found.add(str(path.relative_to(repo)))
    return sorted(found)
"""

_ENGINE_PROBE = _REPO_FILES + """
import contextlib, io, json
import engine_service.__main__ as entry
from engine_service import server
text = io.StringIO()
with contextlib.redirect_stdout(text), contextlib.suppress(SystemExit):
    entry.main(["--help"])
print(json.dumps({"help": text.getvalue(), "files": repo_files(),
                  "exit_margin": server.EXIT_MARGIN_SECONDS}))
"""

_GATEWAY_PROBE = _REPO_FILES + """
import json, runpy, sys
settings = runpy.run_path(sys.argv[1])
print(json.dumps({"bind": settings["bind"], "graceful_timeout": settings["graceful_timeout"],
                  "files": repo_files()}))
"""

_APP_PROBE = _REPO_FILES + """
import json
from api_gateway import config, create_app
app = create_app()
print(json.dumps({"routes": sorted(rule.rule for rule in app.url_map.iter_rules()),
                  "readiness_timeout": app.config["READINESS_TIMEOUT_SECONDS"],
                  "files": repo_files()}))
"""


def _run(script: str, env: Mapping[str, str], *args: str) -> dict:
    """Run ``script`` in a fresh interpreter of this venv, in the repository, with only
    ``env``'s settings of the service (none of the caller's); its last line is JSON."""
    clean = {name: value for name, value in os.environ.items()
             if not name.startswith(("REFEREE_", "PROMETHEUS_", "OTEL_"))}
    # Wide help (no wrapped lines); temporary files of the run in one place.
    clean.update(COLUMNS="10000", TMPDIR=str(_scratch()), **env)
    result = subprocess.run([sys.executable, "-c", script, *args], cwd=REPO, env=clean,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@functools.cache
def _scratch() -> Path:
    path = Path(tempfile.mkdtemp(prefix="referee-deploy-tests-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def _names_in(files: list[str]) -> frozenset[str]:
    """Every string constant that looks like an environment variable's name."""
    names: set[str] = set()
    for name in files:
        tree = ast.parse((REPO / name).read_text(), name)
        names.update(node.value for node in ast.walk(tree)
                     if isinstance(node, ast.Constant) and isinstance(node.value, str)
                     and _ENV_NAME.fullmatch(node.value))
    return frozenset(names)


@dataclass(frozen=True)
class Engine:
    """The engine under one environment."""

    settings: Mapping[str, str]
    """Each variable of ``--help`` shown with its default: the value it takes."""
    reads: frozenset[str]
    exit_margin_seconds: float
    files: frozenset[str]
    """The repository's files the process imports."""


@functools.cache
def _engine(env: tuple[tuple[str, str], ...]) -> Engine:
    found = _run(_ENGINE_PROBE, dict(env))
    text = " ".join(found["help"].split())
    names = frozenset(_HELP_ENV.findall(text))
    assert names, f"no `(env NAME...)` in the engine's --help:\n{text}"
    return Engine(dict(_HELP_SETTING.findall(text)), names | _names_in(found["files"]),
                  found["exit_margin"], frozenset(found["files"]))


def engine(env: Mapping[str, str] | None = None) -> Engine:
    return _engine(tuple(sorted((env or {}).items())))


@dataclass(frozen=True)
class Gateway:
    """gunicorn's settings under one environment, and the app (built with defaults)."""

    bind: str
    graceful_timeout: float
    routes: frozenset[str]
    readiness_timeout_seconds: float
    reads: frozenset[str] = field(repr=False)
    files: frozenset[str] = field(repr=False)
    """The repository's files the process imports, its gunicorn settings among them."""


@functools.cache
def _app() -> dict:
    return _run(_APP_PROBE, {})


@functools.cache
def _gateway(env: tuple[tuple[str, str], ...]) -> Gateway:
    settings = _run(_GATEWAY_PROBE, dict(env), GUNICORN_CONFIG)
    app = _app()
    files = frozenset([GUNICORN_CONFIG, *settings["files"], *app["files"]])
    return Gateway(settings["bind"], settings["graceful_timeout"], frozenset(app["routes"]),
                   app["readiness_timeout"], _names_in(sorted(files)), files)


def gateway(env: Mapping[str, str] | None = None) -> Gateway:
    return _gateway(tuple(sorted((env or {}).items())))


def port_of(address: str) -> int:
    """The port of ``host:port``, ``[v6]:port`` or a gRPC target ``scheme:///host:port``."""
    return int(address.rsplit(":", 1)[1])


def console_scripts() -> Mapping[str, str]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]


def reads(process: str) -> frozenset[str]:
    """The environment variables ``process`` ("engine" or "gateway") reads."""
    return engine().reads if process == "engine" else gateway().reads


def routes() -> frozenset[str]:
    """The gateway's routes."""
    return gateway().routes


# The Dockerfile


@dataclass
class Stage:
    image: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, instruction: str) -> list[str]:
        return [rest for name, rest in self.instructions if name == instruction]

    def env(self) -> dict[str, str]:
        pairs = [pair.split("=", 1) for rest in self.all("ENV") for pair in shlex.split(rest)]
        return {name: value for name, value in pairs}

    def workdir(self) -> str:
        return (self.all("WORKDIR") or ["/"])[-1]

    def path_in_image(self, relative: str) -> str | None:
        """Where this stage's COPYs from the build context put the file ``relative``."""
        workdir, found = "/", None
        for name, rest in self.instructions:
            if name == "WORKDIR":
                workdir = str(Path(workdir, rest))
            elif name == "COPY" and "--from=" not in rest:
                *sources, destination = shlex.split(rest)
                for source in (s.rstrip("/") for s in sources):
                    if relative.startswith(source + "/"):
                        found = str(Path(workdir, destination, relative[len(source) + 1:]))
        return found

    def copies(self) -> list[tuple[list[str], str, bool]]:
        """(sources, destination, from another stage) of each COPY."""
        found = []
        for rest in self.all("COPY"):
            words = shlex.split(rest)
            flags = [w for w in words if w.startswith("--")]
            paths = [w for w in words if not w.startswith("--")]
            found.append((paths[:-1], paths[-1], any(f.startswith("--from=") for f in flags)))
        return found


def dockerfile(path: Path = REPO / "Dockerfile") -> list[Stage]:
    """The stages of a Dockerfile, each with its instructions (continuation lines joined,
    comments dropped, ``ARG``s before the first ``FROM`` substituted)."""
    lines = [line for line in path.read_text().splitlines() if not line.lstrip().startswith("#")]
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in filter(None, map(str.strip, "\n".join(lines).replace("\\\n", " ").splitlines())):
        name, _, rest = line.partition(" ")
        name, rest = name.upper(), rest.strip()
        if name == "ARG" and not stages:
            key, _, value = rest.partition("=")
            args[key] = value
        elif name == "FROM":
            for key, value in args.items():
                rest = rest.replace(f"${{{key}}}", value).replace(f"${key}", value)
            image, _, alias = rest.partition(" AS ")
            stages.append(Stage(image.strip(), alias.strip() or None))
        else:
            stages[-1].instructions.append((name, rest))
    return stages


def _dockerignore_pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regular expression (``**`` any directories, ``*``
    and ``?`` within one path element)."""
    parts = re.split(r"(\*\*/|\*\*|\*|\?)", pattern.strip("/"))
    wildcards = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    return re.compile("".join(wildcards.get(part, re.escape(part)) for part in parts))


def dockerignore_excludes(relative: str, path: Path = REPO / ".dockerignore") -> bool:
    """Whether the build context leaves the file ``relative`` out: the last pattern that
    matches it or one of its parent directories decides; ``!`` lets it back in."""
    parts = Path(relative).parts
    candidates = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    excluded = False
    for line in path.read_text().splitlines():
        pattern = line.strip()
        if pattern and not pattern.startswith("#"):
            expression = _dockerignore_pattern(pattern.removeprefix("!"))
            if any(expression.fullmatch(candidate) for candidate in candidates):
                excluded = not pattern.startswith("!")
    return excluded

