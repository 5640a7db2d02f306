"""The documentation page works offline: a real headless Chromium renders ``/v1/docs`` from
the live gateway (real engine, real gunicorn) and lists every operation, and the page
requests nothing from any other host.

The browser is ``browser.py``'s: it reaches the gateway's origin and nothing else (a dead
proxy, loopback's other ports included), and Chrome's DevTools performance log is on, so
every request the page made is read back from it and the test fails for any URL whose
origin is not the gateway's, for any request that failed and for any error the page
logged. Chromium and its driver are Debian's (``chromium``, ``chromium-driver``), installed
with apt-get when missing; selenium drives them. The test skips, saying why, only when
they cannot be installed.
"""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from .browser import failed_requests, foreign, network_events, requests_sent
from .conftest import REPO, Service

pytestmark = pytest.mark.e2e

RENDER_SECONDS = 60


def documented_operations() -> dict[str, tuple[str, str]]:
    """operationId: (method, path) of every operation in the committed document."""
    document = json.loads((REPO / "docs" / "openapi.json").read_text(encoding="utf-8"))
    return {operation["operationId"]: (method.upper(), path)
            for path, item in document["paths"].items()
            for method, operation in item.items()}


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
    requested = [request["url"] for request in requests_sent(events)]
    assert f"{service.url}/v1/openapi.json" in requested
    assert any(url.endswith("/v1/docs/assets/swagger-ui-bundle.js") for url in requested)
    assert not foreign(requested, service.url), "the page asked another host"
    # Every failure counts, an aborted load too: unlike the score pad's tests, this one
    # never leaves a page while it loads.
    failed = failed_requests(events)
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
    requested = [request["url"] for request in requests_sent(network_events(browser))]
    assert f"{service.url}/v1/downtown-farmers-market/score" in requested
    assert not foreign(requested, service.url), "the page asked another host"
