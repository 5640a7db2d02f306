"""The built site works offline in a real headless Chromium that reaches the site's own
origin and nothing else (``tests/e2e/browser.py``): the API reference renders every
operation of the served document, and search finds a page, with no request to another
host and none failed."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.browser import chromium, failed_requests, foreign, network_events, requests_sent

from .site import build_site

RENDER_SECONDS = 60


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """No line per request on the test's output."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The built site, served over HTTP on a free loopback port, as ``mkdocs serve`` does."""
    root = build_site(tmp_path_factory.mktemp("site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(site: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[WebDriver]:
    session = chromium(site[0], tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield session
    finally:
        session.quit()


def _asked_only(browser: WebDriver, origin: str) -> list[str]:
    """The URLs the page requested, once none went elsewhere and none failed."""
    events = network_events(browser)
    requested = [request["url"] for request in requests_sent(events)]
    assert not foreign(requested, origin), "the page asked another host"
    assert not failed_requests(events), "requests failed"
    return requested


def test_the_api_reference_renders_every_operation_offline(
        site: tuple[str, Path], browser: WebDriver) -> None:
    origin, root = site
    document = json.loads((root / "openapi.json").read_text())
    operations = {(method.upper(), path) for path, item in document["paths"].items()
                  for method in item}
    network_events(browser)  # nothing before the page counts
    browser.get(f"{origin}/api-reference/")
    WebDriverWait(browser, RENDER_SECONDS).until(
        lambda page: len(page.find_elements(By.CSS_SELECTOR, ".opblock")) >= len(operations),
        "Swagger UI did not list the operations")
    listed = {(row.find_element(By.CSS_SELECTOR, ".opblock-summary-method").text,
               row.find_element(By.CSS_SELECTOR, ".opblock-summary-path").text
               .replace("\u200b", ""))
              for row in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary")}
    assert listed == operations
    assert f"{origin}/openapi.json" in _asked_only(browser, origin)


def test_search_finds_a_page_offline(site: tuple[str, Path], browser: WebDriver) -> None:
    origin, _ = site
    network_events(browser)
    browser.get(f"{origin}/")
    box = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")
    box.click()
    box.send_keys("Hauler's Hut")
    box.send_keys(Keys.SPACE)
    WebDriverWait(browser, RENDER_SECONDS).until(
        lambda page: page.find_elements(By.CSS_SELECTOR, ".md-search-result__item"),
        "search found nothing")
    links = [item.get_attribute("href") for item in
             browser.find_elements(By.CSS_SELECTOR, ".md-search-result__link")]
    assert any("/foxglove-farm/" in (link or "") for link in links)
    assert f"{origin}/search/search_index.json" in _asked_only(browser, origin)
