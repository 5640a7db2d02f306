"""The configuration page is generated from the settings' declarations: what is declared
is on the page, and what the code reads is declared."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from api_gateway import config
from tabletop_rules.settings import Setting

from .site import DOCS, REPO, build_site

SERVICE_CODE = ("api_gateway", "engine_service", "tabletop_rules", "deploy/proxy.py",
                "deploy/gunicorn.conf.py", "setup.py")
"""What the engine, the gateway, nginx's configuration and the install run."""
SETTING_NAME = re.compile(r"(REFEREE|OTEL|PROMETHEUS)_[A-Z0-9_]+")


def hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def declared() -> set[str]:
    return {setting.name for _, modules in hooks().SETTINGS_SOURCES for module in modules
            for setting in importlib.import_module(module).SETTINGS}


def _environment_reads(tree: ast.AST) -> list[str]:
    """The names read from an environment as string literals: ``environ.get("X")``,
    ``environ["X"]``, ``"X" in environ``."""
    def environ(node: ast.expr) -> bool:
        return (node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")) \
            in ("environ", "env", "os")
    found = []
    for node in ast.walk(tree):
        name = None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("get", "getenv", "pop") and environ(node.func.value)
                and node.args):
            name = node.args[0]
        elif isinstance(node, ast.Subscript) and environ(node.value):
            name = node.slice
        elif (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn)
              and environ(node.comparators[0])):
            name = node.left
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            found.append(name.value)
    return found


def test_what_the_code_reads_by_name_is_declared() -> None:
    files = [path for part in SERVICE_CODE for path in
             ([REPO / part] if part.endswith(".py") else sorted((REPO / part).rglob("*.py")))]
    read = {name for path in files for name in _environment_reads(ast.parse(path.read_text()))
            if SETTING_NAME.fullmatch(name)}
    assert read <= declared()


def test_every_declared_setting_is_on_the_page_with_its_default(tmp_path: Path) -> None:
    page = (build_site(tmp_path / "site") / "configuration" / "index.html").read_text()
    for _, modules in hooks().SETTINGS_SOURCES:
        for module in modules:
            for setting in importlib.import_module(module).SETTINGS:
                assert f"<code>{setting.name}</code>" in page
    assert "<code>127.0.0.1:50051</code>" in page and "<code>600/minute</code>" in page
    assert "<code>--max-concurrent-plans</code>" in page


def test_a_new_declaration_appears_on_the_page(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    made_up = Setting("REFEREE_MADE_UP_BY_THE_TEST", 42, "a setting only this test declares")
    monkeypatch.setattr(config, "SETTINGS", (*config.SETTINGS, made_up))
    page = (build_site(tmp_path / "site") / "configuration" / "index.html").read_text()
    assert "<code>REFEREE_MADE_UP_BY_THE_TEST</code>" in page
    assert "a setting only this test declares" in page and "<code>42</code>" in page
