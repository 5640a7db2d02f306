"""A real headless Chromium (Debian's, driven by selenium) that can reach one origin only.

Its network goes through a dead proxy, and loopback is taken off the proxy's bypass list
(``<-loopback>``) except for the one ``host:port`` under test: a page that asks any other
host, loopback's other ports included, fails rather than reaching out. Chrome's DevTools
performance log is on, so a test reads back every request a page made
(:func:`requests_sent`), checks that none went elsewhere (:func:`foreign`) and that none
failed (:func:`failed_requests`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as DriverService
from selenium.webdriver.remote.webdriver import WebDriver

from .tooling import debian_tool

DEAD_PROXY = "http://127.0.0.1:9"
"""Nothing listens there: every proxied request fails at once."""
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}


def chromium(origin: str, profile: Path, width: int = 1280, height: int = 900) -> WebDriver:
    """A headless Chromium that reaches only ``origin`` (``http://host:port``), with its
    profile in ``profile``; the test skips if Chromium cannot be installed or started."""
    binary = debian_tool("chromium", "chromium")
    driver = debian_tool("chromedriver", "chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-quic",
                     "--disable-default-apps", "--disable-extensions", "--no-first-run",
                     "--lang=en-GB", f"--window-size={width},{height}",
                     f"--proxy-server={DEAD_PROXY}",
                     f"--proxy-bypass-list=<-loopback>;{urlsplit(origin).netloc}",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    try:
        session = webdriver.Chrome(options=options,
                                   service=DriverService(executable_path=driver))
    except Exception as why:  # noqa: BLE001 - a browser that will not start is a skip
        pytest.skip(f"headless Chromium would not start: {why}")
    session.get("about:blank")  # away from whatever the browser opened with
    return session


def network_events(browser: WebDriver) -> list[dict[str, Any]]:
    """The DevTools Network events of the test's page logged since the last call (the log
    also holds the browser's own pages', which the test does not load)."""
    page = browser.current_window_handle
    logged = [json.loads(entry["message"]) for entry in browser.get_log("performance")]
    return [entry["message"] for entry in logged if entry.get("webview") == page
            and entry["message"]["method"].startswith("Network.")]


def requests_sent(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The requests among ``events`` (each with its ``url``, ``method`` and ``headers``)."""
    return [event["params"]["request"] for event in events
            if event["method"] == "Network.requestWillBeSent"]


def foreign(urls: list[str], origin: str) -> list[str]:
    """The URLs that are neither ``origin``'s nor local to the page (data:, blob:)."""
    return [url for url in urls if urlsplit(url).scheme not in LOCAL_SCHEMES
            and f"{urlsplit(url).scheme}://{urlsplit(url).netloc}" != origin]


def failed_requests(events: list[dict[str, Any]],
                    excused: Collection[str] = ()) -> list[tuple[str, str]]:
    """The URL and error of each request among ``events`` that failed, but for the errors
    in ``excused`` (``net::ERR_ABORTED``: a page left while it loaded); a failure of a
    request sent before ``events`` began does not count."""
    urls = {request["requestId"]: request["request"]["url"] for request in (
        event["params"] for event in events if event["method"] == "Network.requestWillBeSent")}
    return [(urls[failure["requestId"]], failure["errorText"]) for failure in (
        event["params"] for event in events if event["method"] == "Network.loadingFailed")
        if failure["requestId"] in urls and failure.get("errorText") not in excused]
