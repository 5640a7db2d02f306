"""What the pages say about the code exists: every repository path, setting and endpoint
a page names in code (backticks). A renamed module, a removed variable or a moved route
fails here until the page follows."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from api_gateway import create_app

from .site import DOCS, REPO
from .test_configuration import _environment_reads, declared

PAGES = sorted(DOCS.glob("*.md")) + [REPO / "README.md"]
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
REPO_PATH = re.compile(r"(?:api_gateway|engine_service|tabletop_rules|deploy|docs|tests|"
                       r"benchmarks|clients|wire|proto)/[\w./-]*|[\w-]+\.(?:py|toml|yaml|yml)")
SETTING = re.compile(r"\b(?:REFEREE|OTEL|PROMETHEUS)_[A-Z0-9_]*")
ENDPOINT = re.compile(r"(?<![\w.])/(?:v1(?:/[\w.-]+)*/?|healthz|readyz|metrics|pad)(?![\w/])")
UNSURE = re.compile(r"[<>{}*]|\.\.\.")
"""A placeholder (``<game>``, ``{schemas.py, routes.py}``, ``*.json``, ``.../score``)."""


def _spans(page: Path) -> list[str]:
    """The page's code: inline spans and fenced blocks."""
    text = page.read_text()
    blocks = FENCE.findall(text)
    return [match.group(2) for match in CODE_SPAN.finditer(FENCE.sub("", text))] + blocks


def _words(span: str) -> list[str]:
    return [word.strip("()[],;:'\"") for word in span.split()]


@cache
def _read_elsewhere() -> frozenset[str]:
    """Variables the tests and the command line read (``environ.get("X")``, click's
    ``envvar="X"``) and compose.yaml interpolates (``${X:-default}``): pages name them,
    and they are no settings of the service."""
    names = set(re.findall(r"\$\{(\w+)", (REPO / "compose.yaml").read_text()))
    for path in [*(REPO / "tests").rglob("*.py"), *(REPO / "clients" / "src").rglob("*.py")]:
        tree = ast.parse(path.read_text())
        names.update(_environment_reads(tree))
        names.update(node.value.value for node in ast.walk(tree)
                     if isinstance(node, ast.keyword) and node.arg == "envvar"
                     and isinstance(node.value, ast.Constant))
    return frozenset(names)


@cache
def _rules() -> tuple[str, ...]:
    return tuple(rule.rule for rule in create_app().url_map.iter_rules())


def _served(path: str) -> bool:
    """A route, or the start of routes (``/v1/docs/assets/``, ``/v1``)."""
    return any(re.fullmatch(re.sub(r"<[^>]+>", "[^/]+", rule).rstrip("/") + "/?", path)
               or rule.startswith(path.rstrip("/") + "/") for rule in _rules())


def paths_named(page: Path) -> list[str]:
    return [word for span in _spans(page) for word in _words(span)
            if REPO_PATH.fullmatch(word) and "/" in word and not UNSURE.search(word)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_file_a_page_names_exists(page: Path) -> None:
    relative_to_docs = ("screenshots/",)
    missing = [path for path in paths_named(page)
               if not (REPO / path).exists()
               and not (path.startswith(relative_to_docs) and (DOCS / path).exists())]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_setting_a_page_names_is_declared(page: Path) -> None:
    named = {name for span in _spans(page) for name in SETTING.findall(span)
             if not name.endswith("_")}  # REFEREE_ENGINE_*, OTEL_EXPORTER_OTLP_(TRACES_)...
    assert named - declared() - _read_elsewhere() == set()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_endpoint_a_page_names_is_served(page: Path) -> None:
    named = {path for span in _spans(page) for path in ENDPOINT.findall(span)}
    assert {path for path in named if not _served(path)} == set()


@pytest.mark.parametrize("check, wrong", [
    (test_every_file_a_page_names_exists, "`engine_service/wir.py`"),
    (test_every_setting_a_page_names_is_declared, "`REFEREE_ENGINE_ADRESS=127.0.0.1:1`"),
    (test_every_endpoint_a_page_names_is_served, "`POST /v1/foxglove-farm/scores`"),
])
def test_a_page_naming_what_does_not_exist_fails(check, wrong: str, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"See `engine_service/wire.py` and `GET /v1/version`; then {wrong}.\n")
    with pytest.raises(AssertionError):
        check(page)
    page.write_text("See `engine_service/wire.py`, `REFEREE_ENGINE_ADDRESS` and "
                    "`GET /v1/version`.\n")
    check(page)
