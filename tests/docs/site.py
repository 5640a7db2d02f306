"""Building the documentation site (``mkdocs.yml``) in strict mode, as ``mkdocs build
--strict`` does, in this process (so a test may change what the hooks read first)."""

from __future__ import annotations

import shutil
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "mkdocs.yml"
DOCS = REPO / "docs"


def build_site(site: Path, docs: Path = DOCS) -> Path:
    """Build the site from ``docs`` into ``site`` (strict: any warning aborts it)."""
    config = load_config(str(CONFIG), docs_dir=str(docs), site_dir=str(site), strict=True)
    build(config)
    return site


def copy_of_docs(where: Path) -> Path:
    """A copy of ``docs/`` to change before building it."""
    return Path(shutil.copytree(DOCS, where / "docs"))
