"""The code's layout: the rules' modules form floors (each imports only from below, so no
import circle, not even through an import inside a function or under ``TYPE_CHECKING``),
and no hand-written module grows past what one reads at a sitting."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "tabletop_rules"

HAND_WRITTEN = ("tabletop_rules", "engine_service", "api_gateway", "clients/src",
                "wire/src/referee_wire", "deploy")
"""Where the project's own Python lives (the protobuf code, generated, is in
``wire/src/referee``)."""
MAX_LINES = 500
GENERATED = {
    # The REST client's answer types, from docs/openapi.json by clients/codegen.py.
    "clients/src/tabletop_referee_clients/contract_types.py",
}


def modules_of(package: Path) -> dict[str, Path]:
    """Every module of ``package`` (a folder), by its dotted name."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: Mapping[str, Path]) -> Iterator[str]:
    """The package's modules that module ``name`` imports, anywhere in it: ``from . import
    x`` names module ``x``, ``from .x import name`` module ``x`` (or the package, for a name
    its ``__init__`` defines)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def import_circles(modules: Mapping[str, Path]) -> list[list[str]]:
    """Each circle of imports found by a depth-first walk, as the modules around it."""
    imports = {name: sorted(set(imported_modules(name, path, modules))) for name, path in modules.items()}
    circles: list[list[str]] = []
    done: set[str] = set()

    def walk(name: str, trail: list[str]) -> None:
        if name in trail:
            circles.append([*trail[trail.index(name):], name])
            return
        if name in done:
            return
        for imported in imports[name]:
            walk(imported, [*trail, name])
        done.add(name)

    for name in sorted(modules):
        walk(name, [])
    return circles


def test_no_module_of_the_rules_imports_one_that_imports_it_back() -> None:
    circles = import_circles(modules_of(RULES))
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_the_circle_finder_sees_an_import_inside_a_function_or_for_typing(
        tmp_path: Path) -> None:
    package = tmp_path / "tabletop_rules"
    package.mkdir()
    (package / "low.py").write_text("def later():\n    from .high import X\n")
    (package / "high.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import low\n")
    assert import_circles(modules_of(package)) == [
        ["tabletop_rules.high", "tabletop_rules.low", "tabletop_rules.high"]]


def test_no_hand_written_module_is_over_500_lines() -> None:
    too_long = {}
    for folder in HAND_WRITTEN:
        for path in (REPO / folder).rglob("*.py"):
            name = path.relative_to(REPO).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES and name not in GENERATED:
                too_long[name] = lines
    assert not too_long, f"split these by concern (message family, resource): {too_long}"
