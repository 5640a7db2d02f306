"""Which build of the hot modules runs: compiled by mypyc, or their sources.

``setup.py`` compiles the modules of :data:`COMPILED` (the Downtown Farmers Market and
Foxglove Farm rules and the engine's reading and writing of them) into extension modules
beside their sources, which Python then imports in their place. The sources stay the truth: the
compiled modules run only while each is at least as new as its source in a checkout
(an installed build cannot go stale), since compiled modules call one another directly
and one stale module would run old rules behind fresh ones. Otherwise, and with
``REFEREE_PURE_PYTHON=1``, every module is imported from its source.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import shutil
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILED = (
    "tabletop_rules/problems.py",
    "tabletop_rules/deadline.py",
    *(f"tabletop_rules/downtown_farmers_market/{name}.py" for name in (
        "model", "sets", "scoring", "validation", "state", "moves", "draft", "legality")),
    *(f"tabletop_rules/foxglove_farm/{name}.py" for name in (
        "pieces", "model", "effects", "catalog", "catalog_format", "effect_format", "_json",
        "routes", "town", "transcription", "transport", "scoring", "readings", "ranking",
        "processing", "production", "construction", "central_board", "game_state",
        "game_checks", "farm_game", "final_round", "json_form")),
    "engine_service/wire.py",
    "engine_service/wording.py",
    "engine_service/reading.py",
    "engine_service/downtown_farmers_market/convert.py",
    "engine_service/foxglove_farm/convert.py",
)
"""What ``setup.py`` compiles, by path from the project's root: what scoring a board or
town, listing legal moves and validating a move or transport run through. Not the
Challenge types (``challenges.py``): a compiled dataclass keeps neither its class
attributes (``kind``, ``rule``) nor its docstring, which
:mod:`.downtown_farmers_market.challenge_types` reads. Of Foxglove Farm, not
``reasons.py`` (an enum: nothing to gain), the package's ``__init__`` (re-exports) nor the
planner (not on those calls' path; not tried). Compiled code tests a NamedTuple's truth
by its length, whatever its ``__bool__`` says, so none of the rules' tuples has one
(``any(goods)`` says whether a :class:`.foxglove_farm.pieces.Goods` holds a cube)."""

ROOT = Path(__file__).resolve().parent.parent
PURE_PYTHON_VARIABLE = "REFEREE_PURE_PYTHON"
_PACKAGES = frozenset(path.split("/", 1)[0] for path in COMPILED)
_SOURCES_ONLY = ((importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),)


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """Every source file :data:`COMPILED` names."""
    return [root / name for name in COMPILED]


def extension_of(source: Path) -> Path | None:
    """The extension module built from ``source``, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        built = source.with_name(source.stem + suffix)
        if built.exists():
            return built
    return None


def outdated_sources(root: Path = ROOT) -> list[Path]:
    """The sources whose extension module is missing or older than they are."""
    outdated = []
    for source in compiled_sources(root):
        extension = extension_of(source)
        if extension is None or extension.stat().st_mtime < source.stat().st_mtime:
            outdated.append(source)
    return outdated


def compiling_wanted() -> bool:
    """Whether to compile: unless ``REFEREE_COMPILE=0``, where this machine has a C
    compiler and Python's headers, which mypyc's output is built with."""
    if os.environ.get("REFEREE_COMPILE", "1") == "0":
        return False
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.exists()


class _SourcesOnly(importlib.abc.MetaPathFinder):
    """Finds the compiled packages' modules among their sources alone."""

    def find_spec(self, name: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if path is None or name.partition(".")[0] not in _PACKAGES:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *_SOURCES_ONLY).find_spec(name, target)
            if spec is not None:
                return spec
        return None


def _choose() -> str:
    """Import the sources instead of the extension modules where these must not run;
    the build that runs: ``compiled`` or ``source``."""
    built = any(extension_of(source) for source in compiled_sources())
    stale = outdated_sources() if built and (ROOT / ".git").exists() else []
    if stale:
        warnings.warn(
            f"{len(stale)} compiled modules are older than their sources or missing "
            f"({stale[0].relative_to(ROOT)}, ...): running the sources; "
            "python3 deploy/test.py or deploy/run.py compiles them again",
            RuntimeWarning, stacklevel=2)
    if stale or os.environ.get(PURE_PYTHON_VARIABLE) == "1":
        sys.meta_path.insert(0, _SourcesOnly())
        return "source"
    return "compiled" if built else "source"


BUILD = _choose()
"""``compiled`` where the extension modules run, ``source`` where the sources do."""
