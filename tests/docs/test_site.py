"""The documentation site builds in strict mode, with every page in its navigation, a
search index, and nothing fetched from another host; a broken link or a page left out of
the navigation fails the build. The README stays the short front door."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from mkdocs.exceptions import Abort

from api_gateway import create_app

from .site import CONFIG, DOCS, REPO, build_site, copy_of_docs

PAGES = ("index.md", "getting-started.md", "score-pad.md", "score-pad-play.md",
         "command-line.md", "api-guide.md",
         "api-reference.md", "contract.md", "downtown-farmers-market.md", "foxglove-farm.md",
         "foxglove-catalog.md", "deploying.md", "containers.md", "operating.md", "configuration.md",
         "library.md", "architecture.md", "development.md", "performance.md")
"""The pages issue 26 asks for, by what a reader comes to do."""


def _nav_pages(nav: list) -> list[str]:
    pages = []
    for entry in nav:
        for value in entry.values():
            pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def _built(site: Path, page: str) -> Path:
    return site / ("index.html" if page == "index.md" else f"{page.removesuffix('.md')}/index.html")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def test_every_page_is_in_the_navigation_and_built(site: Path) -> None:
    nav = _nav_pages(yaml.safe_load(CONFIG.read_text())["nav"])
    assert sorted(nav) == sorted(PAGES)
    for page in PAGES:
        assert _built(site, page).is_file(), page


def test_the_search_index_holds_every_page(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text())
    located = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert located >= {"" if page == "index.md" else f"{page.removesuffix('.md')}/"
                       for page in PAGES}
    assert any("Young Shopper" in doc["text"] for doc in index["docs"])


class _Assets(HTMLParser):
    """The URLs a page loads by itself (scripts, styles, icons, images, frames), and
    those it links to."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "link" and attributes.get("rel") not in ("canonical",):
            self.urls.append(attributes.get("href") or "")
        elif tag in ("script", "img", "iframe", "source", "audio", "video", "embed"):
            self.urls.append(attributes.get("src") or "")
        elif tag == "a" and attributes.get("href"):
            self.links.append(attributes["href"] or "")


def test_nothing_is_loaded_from_another_host(site: Path) -> None:
    loaded = []
    for page in site.rglob("*.html"):
        parser = _Assets()
        parser.feed(page.read_text())
        loaded += [(page.relative_to(site), url) for url in parser.urls
                   if urlsplit(url).scheme or url.startswith("//")]
    assert loaded == []
    for sheet in site.rglob("*.css"):
        text = sheet.read_text()
        assert "url(http" not in text.replace("'", "").replace('"', ""), sheet
        assert "@import" not in text, sheet
    assert yaml.safe_load(CONFIG.read_text())["theme"]["font"] is False


def test_every_relative_url_of_every_page_is_in_the_site(site: Path) -> None:
    """Strict mode checks Markdown links; this checks the HTML too (a raw ``<img>``)."""
    missing = []
    for page in site.rglob("*.html"):
        parser = _Assets()
        parser.feed(page.read_text())
        for url in parser.urls + parser.links:
            parts = urlsplit(url)
            if parts.scheme or url.startswith(("//", "#")) or not parts.path:
                continue
            base = site if parts.path.startswith("/") else page.parent  # 404.html's
            target = (base / parts.path.lstrip("/")).resolve()
            if not (target / "index.html" if target.is_dir() else target).is_file():
                missing.append((str(page.relative_to(site)), url))
    assert missing == []


def test_the_api_reference_is_the_served_document_in_the_served_viewer(site: Path) -> None:
    served = create_app().test_client().get("/v1/openapi.json")
    assert json.loads((site / "openapi.json").read_text()) == served.get_json()
    page = _built(site, "api-reference.md")
    parser = _Assets()
    parser.feed(page.read_text())
    scripts = [url for url in parser.urls if url.endswith(".js") and "swagger" in url]
    assert scripts
    for url in scripts:
        assert (page.parent / url).resolve().is_file(), url


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    docs = copy_of_docs(tmp_path)
    with (docs / "operating.md").open("a") as page:
        page.write("\nSee [the missing page](no-such-page.md).\n")
    with pytest.raises(Abort):
        build_site(tmp_path / "site", docs)


def test_a_page_left_out_of_the_navigation_fails_the_build(tmp_path: Path) -> None:
    docs = copy_of_docs(tmp_path)
    (docs / "forgotten.md").write_text("# A page no one can reach\n")
    with pytest.raises(Abort):
        build_site(tmp_path / "site", docs)


def test_the_readme_is_short_and_holds_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "python3 deploy/run.py" in readme and "python3 deploy/test.py" in readme
    assert "mkdocs serve" in readme


def test_every_page_the_readme_links_is_a_page_of_the_site() -> None:
    readme = (REPO / "README.md").read_text()
    for page in PAGES:
        if page != "index.md":
            assert f"](docs/{page})" in readme, page
    assert DOCS.joinpath("screenshots", "downtown-farmers-market-phone.png").is_file()
