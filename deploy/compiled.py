"""Which modules the build compiles, and which build of them runs in a checkout.

``setup.py`` compiles the modules of :data:`COMPILED` (the Downtown Farmers Market and
Foxglove Farm rules and the engine's reading and writing of them) with mypyc into extension
modules beside their sources, which Python then imports in their place. The sources stay the
truth: in a checkout the compiled modules run only while each is at least as new as its
source, since compiled modules call one another directly and one stale module would run old
rules behind fresh ones. Otherwise, and with ``REFEREE_PURE_PYTHON=1``, every module is
imported from its source: :func:`choose_build` puts a finder of sources first on
``sys.meta_path``. It runs as the checkout's environment's Python starts (the ``.pth`` file
:func:`install_build_choice` writes there, as ``deploy/bootstrap.py`` makes that environment),
so the rules themselves touch no import machinery. An installed build cannot go stale and
chooses nothing: the image's carries no sources at all (run as a script, this module deletes
them, see the Dockerfile).

Standard library and :mod:`tabletop_rules.settings` only: ``setup.py`` imports it in an
isolated build, and the environment's Python at every start.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import shutil
import sys
import sysconfig
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from tabletop_rules.settings import Setting

COMPILED = (
    "tabletop_rules/problems.py",
    "tabletop_rules/deadline.py",
    "tabletop_rules/json_reading.py",
    *(f"tabletop_rules/downtown_farmers_market/{name}.py" for name in (
        "tallies", "model", "sets", "scoring", "validation", "state", "moves", "draft",
        "legality")),
    *(f"tabletop_rules/foxglove_farm/{name}.py" for name in (
        "pieces", "tiles", "model", "catalog", "catalog_format", "effect_format",
        "_json", "routes", "town", "transcription", "transport", "scoring", "readings",
        "ranking", "processing", "production", "construction", "central_board", "game_state",
        "game_checks", "farm_game", "final_round", "json_form")),
    "engine_service/wire.py",
    "engine_service/wording.py",
    "engine_service/reading.py",
    *(f"engine_service/downtown_farmers_market/{name}.py" for name in (
        "encodings", "board_writing", "message_reading", "byte_reading", "score_answers",
        "game_answers")),
    *(f"engine_service/foxglove_farm/{name}.py" for name in (
        "enums", "town_reading", "game_reading", "town_answers", "game_answers")),
)
"""What ``setup.py`` compiles, by path from the project's root: what scoring a board or
town, listing legal moves and validating a move or transport run through. Not the
Challenge types (``challenges.py``, with their verdicts and sentences: ``line_verdict.py``,
``challenge_sentences.py``) nor Foxglove Farm's effects (``effects.py``): both games give
each kind of value its constants as class attributes (``kind``, a Challenge type's
``rule``, an effect's fixed ``phase``), which a compiled dataclass does not keep, not even
declared ``ClassVar`` (mypyc/mypyc#1122), nor its docstring, which
:mod:`tabletop_rules.downtown_farmers_market.challenge_types` reads. Of Foxglove Farm, not
``reasons.py`` (an enum: nothing to gain), the package's ``__init__`` (re-exports) nor the
planner (not on those calls' path; not tried); of the engine's converters, not the games'
``convert.py`` (re-exports). Compiled code tests a NamedTuple's truth
by its length, whatever its ``__bool__`` says, so none of the rules' tuples has one
(``any(goods)`` says whether a :class:`tabletop_rules.foxglove_farm.pieces.Goods` holds a cube)."""

ROOT = Path(__file__).resolve().parent.parent
PURE_PYTHON = Setting("REFEREE_PURE_PYTHON", None,
                      "`1` runs the hot modules from their sources instead of compiled")
PURE_PYTHON_VARIABLE = PURE_PYTHON.name
COMPILE = Setting("REFEREE_COMPILE", "1",
                  "`0`: installing compiles nothing (`setup.py`), for a machine without a C "
                  "compiler")
SETTINGS = (PURE_PYTHON, COMPILE)
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


def leftover_extensions(root: Path = ROOT) -> list[Path]:
    """The extension modules beside the compiled sources that :data:`COMPILED` no longer
    names (a module split or renamed since it was built): Python would import one in
    place of its source, an old module behind fresh ones."""
    named = set(compiled_sources(root))
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    leftovers = []
    for folder in sorted({source.parent for source in named}):
        for built in sorted(folder.iterdir()) if folder.is_dir() else ():
            suffix = next((s for s in suffixes if built.name.endswith(s)), None)
            if suffix and built.with_name(built.name[:-len(suffix)] + ".py") not in named:
                leftovers.append(built)
    return leftovers


def remove_compiled_sources(root: Path) -> list[Path]:
    """Delete the sources (and their bytecode) of the modules compiled beside them; the
    sources removed. For an installed build that is to run compiled and carry no rules'
    sources (the image's, see the Dockerfile): there, ``REFEREE_PURE_PYTHON`` cannot work."""
    removed = []
    for source in compiled_sources(root):
        if source.exists() and extension_of(source):
            for cached in source.parent.glob(f"__pycache__/{source.stem}.*.pyc"):
                cached.unlink()
            source.unlink()
            removed.append(source)
    return removed


def compiling_wanted() -> bool:
    """Whether to compile: unless ``REFEREE_COMPILE=0``, where this machine has a C
    compiler and Python's headers, which mypyc's output is built with."""
    if COMPILE.get() == "0":
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


def choose_build(root: Path = ROOT) -> None:
    """Import the sources instead of the extension modules where these must not run: where
    ``REFEREE_PURE_PYTHON=1`` asks for them, or where any compiled module is older than its
    source, missing or no longer compiled (with a warning). Once: ``site`` reads a venv's ``.pth`` files twice
    where ``lib64`` links to ``lib``, and each read runs this module afresh."""
    if any(type(finder).__name__ == _SourcesOnly.__name__ for finder in sys.meta_path):
        return
    if not any(extension_of(source) for source in compiled_sources(root)):
        return  # nothing compiled: the sources run anyway
    stale = outdated_sources(root) + leftover_extensions(root)
    if stale:
        warnings.warn(
            f"{len(stale)} compiled modules are older than their sources, missing or no "
            f"longer compiled "
            f"({stale[0].relative_to(root)}, ...): running the sources; "
            "python3 deploy/test.py or deploy/run.py compiles them again",
            RuntimeWarning, stacklevel=1)  # as the interpreter starts: no caller to name
    if stale or PURE_PYTHON.get() == "1":
        sys.meta_path.insert(0, _SourcesOnly())


BUILD_CHOICE = "referee-build-choice.pth"
"""The file in the environment's site-packages that runs :func:`choose_build` as its Python
starts (``site`` runs a ``.pth`` file's ``import`` lines, as setuptools' editable installs
and coverage's subprocess measurement do)."""


def install_build_choice(site_packages: Path) -> None:
    """Have every start of the environment whose ``site_packages`` these are choose which
    build of this checkout's compiled modules runs."""
    line = (f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r})"
            f"['choose_build']()\n")
    choice = site_packages / BUILD_CHOICE
    if not choice.exists() or choice.read_text() != line:
        choice.write_text(line)


if __name__ == "__main__":
    # The image's builder: the installed build runs compiled and carries no rules' sources.
    import tabletop_rules

    remove_compiled_sources(Path(tabletop_rules.__file__).resolve().parent.parent)
