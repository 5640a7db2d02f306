"""The documentation page works offline: a real headless Chromium renders ``/v1/docs`` from
the live gateway (real engine, real gunicorn) and lists every operation, and the page
requests nothing from any other host.

The browser runs with its network pointed at a dead proxy (so any request to another
host fails rather than reaching out; loopback is never proxied) and Chrome's DevTools
performance log on: every request the page made is read back from it, and the test fails
for any URL whose origin is not the gateway's. Chromium and its driver are Debian's
(``chromium``, ``chromium-driver``), installed with apt-get when missing; selenium drives
them. The test skips, saying why, only when they cannot be installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as DriverService
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from .conftest import REPO, Service
from .tooling import debian_tool

pytestmark = pytest.mark.e2e

DEAD_PROXY = "http://127.0.0.1:9"
"""Nothing listens there: a request to any host but loopback (which Chromium never sends
through a proxy) fails at once."""
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension"}
RENDER_SECONDS = 60


def documented_operations() -> dict[str, tuple[str, str]]:
    """operationId: (method, path) of every operation in the committed document."""
    document = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))
    return {operation["operationId"]: (method.upper(), path)
            for path, item in document["paths"].items()
            for method, operation in item.items()}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    chromium = debian_tool("chromium", "chromium")
    driver = debian_tool("chromedriver", "chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    profile: Path = tmp_path_factory.mktemp("chromium-profile")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-quic",
                     "--disable-default-apps", "--disable-extensions", "--no-first-run",
                     "--window-size=1280,2000", f"--proxy-server={DEAD_PROXY}",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    try:
        session = webdriver.Chrome(options=options, service=DriverService(executable_path=driver))
    except Exception as why:  # noqa: BLE001 - a browser that will not start is a skip
        pytest.skip(f"headless Chromium would not start: {why}")
    try:
        session.get("about:blank")  # away from whatever the browser opened with
        yield session
    finally:
        session.quit()


def network_events(browser: WebDriver) -> list[dict[str, Any]]:
    """The DevTools Network events of the test's page logged since the last call (the log
    also holds the browser's own pages', such as its new-tab page's, which the test does
    not load and which do not count)."""
    page = browser.current_window_handle
    logged = [json.loads(entry["message"]) for entry in browser.get_log("performance")]
    return [entry["message"] for entry in logged if entry.get("webview") == page
            and entry["message"]["method"].startswith("Network.")]


def foreign(urls: list[str], origin: str) -> list[str]:
    """The URLs that are neither the gateway's nor local to the page (data:, blob:)."""
    return [url for url in urls if urlsplit(url).scheme not in LOCAL_SCHEMES
            and f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" != origin]


def test_docs_render_every_operation_offline(service: Service, browser: WebDriver) -> None:
    operations = documented_operations()
    network_events(browser)  # nothing before the page counts
    browser.get(f"{service.url}/v1/docs")
    WebDriverWait(browser, RENDER_SECONDS).until(
        lambda page: len(page.find_elements(By.CSS_SELECTOR, ".opblock")) >= len(operations),
        "Swagger UI did not list the operations")

    rows = browser.find_elements(By.CSS_SELECTOR, ".opblock-summary")
    listed = {(row.find_element(By.CSS_SELECTOR, ".opblock-summary-method").text,
               row.find_element(By.CSS_SELECTOR, ".opblock-summary-path").text.replace("\u200b", ""))
              for row in rows}
    assert listed == set(operations.values())
    text = browser.find_element(By.TAG_NAME, "body").text
    missing = [operation_id for operation_id in operations if operation_id not in text]
    assert not missing, f"operationIds not shown: {missing}"
    assert "Score one board, line by line" in text  # a summary row

    events = network_events(browser)
    requested = [event["params"]["request"]["url"] for event in events
                 if event["method"] == "Network.requestWillBeSent"]
    assert f"{service.url}/v1/openapi.json" in requested
    assert any(url.endswith("/v1/docs/assets/swagger-ui-bundle.js") for url in requested)
    assert not foreign(requested, service.url), "the page asked another host"
    urls = {event["params"]["requestId"]: event["params"]["request"]["url"] for event in events
            if event["method"] == "Network.requestWillBeSent"}
    failed = [(urls[event["params"]["requestId"]], event["params"]["errorText"])
              for event in events if event["method"] == "Network.loadingFailed"
              and event["params"]["requestId"] in urls]  # not one from before the page
    assert not failed, f"requests failed: {failed}"
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"
              and "/favicon.ico " not in entry["message"]]  # the browser's own guess: a 404
    assert not errors, f"the page logged errors (a Content-Security-Policy refusal?): {errors}"


def test_try_it_out_sends_the_documented_example(service: Service, browser: WebDriver) -> None:
    """"Try it out" on the score operation sends its example (the rulebook's board) to the
    gateway, which answers 200 with the rulebook's 43 points."""
    browser.get("about:blank")  # a new page, not a jump within the last one
    browser.get(f"{service.url}/v1/docs#/downtown-farmers-market/scoreDowntownFarmersMarketBoard")
    wait = WebDriverWait(browser, RENDER_SECONDS)
    block = wait.until(lambda page: page.find_element(
        By.CSS_SELECTOR, "#operations-downtown-farmers-market-scoreDowntownFarmersMarketBoard"))
    wait.until(lambda page: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"))[0].click()
    wait.until(lambda page: block.find_elements(By.CSS_SELECTOR, ".execute"))[0].click()
    status = wait.until(lambda page: block.find_elements(
        By.CSS_SELECTOR, ".live-responses-table .response .response-col_status"))[0]
    assert status.text.strip() == "200"
    body = block.find_element(By.CSS_SELECTOR,
                              ".live-responses-table .response .response-col_description")
    assert '"total": 43' in body.text
    requested = [event["params"]["request"]["url"] for event in network_events(browser)
                 if event["method"] == "Network.requestWillBeSent"]
    assert f"{service.url}/v1/downtown-farmers-market/score" in requested
    assert not foreign(requested, service.url), "the page asked another host"
