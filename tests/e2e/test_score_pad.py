"""The score pad, driven in a real headless Chromium against the real engine and gunicorn
gateway, as players would: tapping spaces and ingredients, choosing Challenge tiles in
their dialog, laying out a town square by square.

The browser reaches the gateway's origin and nothing else (``browser.py``): after each
test the DevTools log must show no request to another host, no failed request and no
error logged by the page (a Content-Security-Policy refusal would be one).

``REFEREE_PAD_SCREENSHOTS=docs/screenshots`` also saves each game's page, scored, at a
phone's width (390x844) and a desktop's (1280x900): the screenshots of the README and
of the score pad's page (docs/score-pad.md).
"""

from __future__ import annotations

import json
import os
from urllib.parse import unquote
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from .browser import chromium, failed_requests, foreign, network_events, requests_sent
from .conftest import REPO, Service, running_service

pytestmark = pytest.mark.e2e

DFM_DATA = REPO / "tests" / "data" / "downtown_farmers_market"
KULY = REPO / "tests" / "data" / "foxglove_farm" / "kuly_transport_and_processing.json"
SECONDS = 30
SCREENSHOTS = os.environ.get("REFEREE_PAD_SCREENSHOTS")
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
WIDTHS = {320: True, 390: True, 1280: False}
"""The screen widths no page may be wider than: a small phone's, a phone's (both emulated
as phones), a desktop's."""
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
"""How far the page is wider than the screen, in JavaScript (see
:meth:`Pad.wider_than_the_screen`)."""


def example(name: str) -> dict[str, Any]:
    return json.loads((DFM_DATA / name).read_text(encoding="utf-8"))


def table_boards() -> list[tuple[str, dict[str, Any]]]:
    """The three players' finished boards shipped in examples/boards, by name."""
    return [(path.stem.capitalize(), json.loads(path.read_text(encoding="utf-8")))
            for path in sorted((REPO / "examples" / "boards").glob("*.json"))]


def dfm_record(players: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """What the pad keeps of a Downtown Farmers Market table of ``players`` (each a name
    and a board in the contract's JSON, all of one mode), on the first player's tab."""
    return {"mode": players[0][1]["mode"], "current": 0, "selected": {"row": 0, "col": 0},
            "players": [{"name": name, "rows": board.get("row_challenges", [None] * 4),
                         "columns": board.get("column_challenges", [None] * 4),
                         "grid": [[tile or [] for tile in row] for row in board["grid"]]}
                        for name, board in players]}


def ff_record(town: dict[str, Any]) -> dict[str, Any]:
    """What the pad keeps of a Foxglove Farm ``town`` (the contract's JSON)."""
    return {"variant": town["variant"], "track": town["score_track"], "selected": None,
            "tiles": {f"{tile['row']},{tile['col']}": (
                {"trail": tile["trail"]} if "trail" in tile
                else {"building": tile["building"], "goods": tile.get("goods", {})})
                for tile in town["tiles"]}}


class Pad:
    """The score pad page in ``browser``, served by the gateway at ``url``."""

    def __init__(self, browser: WebDriver, url: str) -> None:
        self.browser = browser
        self.url = url
        self.wait = WebDriverWait(browser, SECONDS)
        self.events: list[dict[str, Any]] = []

    def network(self) -> list[dict[str, Any]]:
        """Every DevTools Network event of the page since this pad was made."""
        self.events += network_events(self.browser)
        return self.events

    def open(self, game: str, saved: dict[str, Any] | None = None) -> None:
        """The pad on ``game``'s tab, holding nothing from an earlier test: fresh, or as
        this device last left it with ``saved`` (the pad's own record, JSON)."""
        self.browser.get(f"{self.url}/pad#{game}")
        self.browser.execute_script("localStorage.clear()")
        if saved is not None:
            self.browser.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                                        f"referee.pad.{game}", json.dumps(saved))
        self.browser.refresh()
        self.find(f"#{game}:not([hidden])")

    def saved(self, game: str) -> Any:
        """What the pad keeps of ``game`` on this device."""
        return json.loads(self.browser.execute_script(
            "return localStorage.getItem(arguments[0])", f"referee.pad.{game}"))

    def find(self, css: str) -> WebElement:
        return self.wait.until(lambda page: page.find_element(By.CSS_SELECTOR, css),
                               f"nothing matches {css}")

    def all(self, css: str) -> list[WebElement]:
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def click(self, css: str) -> None:
        self.wait.until(lambda page: (element := page.find_element(By.CSS_SELECTOR, css))
                        .is_enabled() and element, f"{css} is not there to click").click()

    def type(self, css: str, text: object) -> None:
        field = self.find(css)
        field.clear()
        field.send_keys(str(text))

    def text(self, css: str) -> str:
        return self.find(css).text

    # Downtown Farmers Market

    def challenge(self, lines: str, index: int, challenge: dict[str, Any]) -> None:
        """Choose the Challenge tile of ``lines`` (rows or columns) ``index`` in its dialog."""
        self.click(f'[data-key="{lines}-challenge-{index}"]')
        self.fill_challenge(challenge)

    def fill_challenge(self, challenge: dict[str, Any]) -> None:
        """Choose ``challenge`` in the Challenge tile dialog its slot opened."""
        self.find("#challenge-dialog[open]")
        Select(self.find("#challenge-type")).select_by_value(challenge["type"])
        self.type("#challenge-points", challenge["points"])
        kind = challenge["type"]
        if kind == "exact_count":
            for ingredient, count in challenge["counts"].items():
                self.type(f'#challenge-counts [data-ingredient="{ingredient}"]', count)
        elif kind in ("exact_count_any", "exact_total"):
            self.type("#challenge-count", challenge["count"])
        elif kind == "majority":
            Select(self.find("#challenge-ingredient")).select_by_value(challenge["ingredient"])
        elif kind == "forbidden":
            for ingredient in challenge["ingredients"]:
                self.click(f'#challenge-forbidden input[value="{ingredient}"]')
        elif kind == "per_set":
            for ingredients in challenge["sets"]:
                for ingredient in ingredients:
                    self.click(f'#challenge-set-ingredients [data-ingredient="{ingredient}"]')
                self.click("#challenge-add-set")
        self.click('#challenge-form button[type="submit"]')
        self.wait.until(lambda page: not self.all("#challenge-dialog[open]"),
                        "the challenge dialog did not close")

    def board(self, board: dict[str, Any]) -> None:
        """Enter ``board``: its mode, its challenges, then each space's tile."""
        self.click(f'input[name="dfm-mode"][value="{board["mode"]}"]')
        for lines, field in (("rows", "row_challenges"), ("columns", "column_challenges")):
            for index, challenge in enumerate(board.get(field, [])):
                self.challenge(lines, index, challenge)
        for row, tiles in enumerate(board["grid"]):
            for col, tile in enumerate(tiles):
                self.click(f'[data-key="cell-{row}-{col}"]')
                for ingredient in tile or []:
                    self.click(f'#dfm-ingredients [data-ingredient="{ingredient}"]')

    def line_points(self) -> dict[str, list[int]]:
        """The points shown beside each row and column."""
        return {lines: [int(self.text(f'[data-line="{lines}-{index}"]')) for index in range(4)]
                for lines in ("rows", "columns")}

    # Foxglove Farm

    def square(self, row: int, col: int) -> str:
        return f'[data-key="sq-{row},{col}"]'

    def tile(self, tile: dict[str, Any]) -> None:
        """Lay ``tile`` (the contract's JSON) on its square with the square's editor."""
        self.click(self.square(tile["row"], tile["col"]))
        kind = "trail" if "trail" in tile else "building"
        self.click(f'input[name="ff-kind"][value="{kind}"]')
        if kind == "trail":
            for side in tile["trail"]:
                self.click(f'#ff-sides [data-side="{side}"]')
            return
        self.type("#ff-building", tile["building"])
        for good, count in tile.get("goods", {}).items():
            self.type(f'#ff-goods [data-good="{good}"]', count)

    def town(self, town: dict[str, Any]) -> None:
        Select(self.find("#ff-variant")).select_by_value(town["variant"])
        self.type("#ff-track", town["score_track"])
        for tile in sorted(town["tiles"], key=lambda tile: (tile["row"], tile["col"])):
            self.tile(tile)

    def screenshots(self, name: str) -> None:
        """With REFEREE_PAD_SCREENSHOTS set, the whole page at each width in :data:`SIZES`."""
        if not SCREENSHOTS:
            return
        folder = REPO / SCREENSHOTS
        folder.mkdir(parents=True, exist_ok=True)
        for device, (width, height) in SIZES.items():
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1,
                       "mobile": device == "phone"}
            self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            full = self.browser.execute_script(
                "return document.documentElement.scrollHeight")
            self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                         {**metrics, "height": max(height, full)})
            (folder / f"{name}-{device}.png").write_bytes(
                self.browser.get_screenshot_as_png())
        self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def shared(self, key: str) -> str:
        """Share the result of ``key`` (board, standings, town), and what the clipboard
        then holds: headless Chromium on Linux has no share sheet, so the pad copies it."""
        self.browser.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": self.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.click(f'[data-key="{key}-share"]')
        self.wait.until(lambda page: self.text(f'[data-key="{key}-shared"]'), "not shared")
        assert self.text(f'[data-key="{key}-shared"]') == "Copied: paste it where you like."
        copied: str = self.browser.execute_async_script(
            "navigator.clipboard.readText().then(arguments[arguments.length - 1])")
        return copied

    def download(self, key: str) -> tuple[str, str]:
        """The name and the text of the file the download link of ``key`` gives."""
        link = self.find(f'[data-key="{key}-download"]')
        media, _, content = (link.get_attribute("href") or "").partition(",")
        assert media.startswith("data:") and media.endswith(";charset=utf-8")
        return link.get_attribute("download") or "", unquote(content)

    def wider_than_the_screen(self) -> dict[int, int]:
        """How many pixels the page, as it stands, is wider than the screen at each of
        :data:`WIDTHS` (those it fits left out): what would make it scroll sideways.

        Measured against the root's clientWidth, the screen's width less any scrollbar: a
        phone widens its layout viewport (and so ``innerWidth``) to a page too wide."""
        wider: dict[int, int] = {}
        try:
            for width, mobile in WIDTHS.items():
                self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 844, "deviceScaleFactor": 1, "mobile": mobile})
                excess = self.browser.execute_script(f"return {OVERFLOW}")
                if excess > 0:
                    wider[width] = excess
        finally:
            self.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return wider


def assert_offline_and_clean(pad: Pad) -> None:
    """Every request the pad's page made went to its gateway and was answered, each of
    the page's own files with a 200 (the API may refuse), and the page logged no error
    (a Content-Security-Policy refusal would be one)."""
    events = pad.network()
    sent = requests_sent(events)
    assert sent, "the DevTools log shows no request at all"
    assert not foreign([request["url"] for request in sent], pad.url), \
        "the page asked another host"
    failed = failed_requests(events, excused={"net::ERR_ABORTED"})  # a page left
    assert not failed, f"requests failed: {failed}"
    missing = [(answer["url"], answer["status"]) for answer in (
        event["params"]["response"] for event in events
        if event["method"] == "Network.responseReceived")
        # 304: a file the browser holds, revalidated by its ETag (the pad's files are
        # no-cache), is served as well as a 200.
        if answer["status"] not in (200, 304)
        and not answer["url"].startswith(f"{pad.url}/v1/")]
    assert not missing, f"the page's files were not all served: {missing}"
    errors = [entry for entry in pad.browser.get_log("browser")
              if entry["level"] == "SEVERE" and entry["source"] != "network"]
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def pad(browser: WebDriver, service: Service) -> Iterator[Pad]:
    network_events(browser)  # what earlier tests left in the log does not count
    browser.get_log("browser")
    checked = Pad(browser, service.url)
    yield checked
    assert_offline_and_clean(checked)


def test_only_the_gateway_is_reachable(browser: WebDriver, service: Service) -> None:
    """The browser's blocking works: a server on another loopback port (the engine's)
    cannot be reached, while the gateway's page loads."""
    with pytest.raises(WebDriverException, match="ERR_PROXY_CONNECTION_FAILED|ERR_TUNNEL"):
        browser.get(f"http://{service.engine_address}/")
    browser.get(f"{service.url}/pad")
    assert browser.find_element(By.CSS_SELECTOR, "h1").text


AUDIT = """
const small = [], unnamed = [];
for (const control of document.querySelectorAll('button, input, select, a[href]')) {
  if (!control.checkVisibility()) continue;
  const target = ['radio', 'checkbox'].includes(control.type) ? control.closest('label') : control;
  const box = target.getBoundingClientRect();
  const where = `${target.outerHTML.slice(0, 90)} (${box.width}x${box.height})`;
  if (box.width < 44 || box.height < 44) small.push(where);
  if (!(control.getAttribute('aria-label') || control.labels?.length || control.textContent.trim())) {
    unnamed.push(where);
  }
}
return {small, unnamed, overflow: %s};
""" % OVERFLOW
"""Every visible control's touch target (a radio's or checkbox's label), whether it has a
name, and how far the page overflows the screen's width."""


@pytest.mark.parametrize("game", ["dfm", "ff"])
def test_on_a_phone_every_control_is_a_named_touch_target(pad: Pad, game: str) -> None:
    width, height = SIZES["phone"]
    pad.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    try:
        pad.open(game)
        if game == "ff":
            pad.click(pad.square(0, 0))  # its editor
        audit = pad.browser.execute_script(AUDIT)
    finally:
        pad.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert audit == {"small": [], "unnamed": [], "overflow": 0}


def test_no_downtown_farmers_market_page_scrolls_sideways(pad: Pad) -> None:
    """At a small phone's, a phone's and a desktop's width, the page fits the screen as
    the players go: a board scored, the standings (in French too, its words are longer),
    a player refused (the red mark on their tab)."""
    pad.open("dfm", dfm_record(table_boards()))
    wider = {"new": pad.wider_than_the_screen()}
    pad.click("#dfm-score")
    pad.find("#dfm-total")
    wider["scored"] = pad.wider_than_the_screen()
    pad.click("#dfm-rank")
    pad.find("#dfm-standings table")
    wider["standings"] = pad.wider_than_the_screen()
    pad.click("#language")
    pad.wait.until(lambda page: pad.text("#dfm-standings caption") == "Classement")
    wider["standings in French"] = pad.wider_than_the_screen()
    pad.click("#language")
    pad.click("#dfm-add-player")
    pad.click("#dfm-score")  # its Challenge tiles not chosen yet
    pad.find('[data-key="player-3"].refused')
    wider["refused"] = pad.wider_than_the_screen()
    assert wider == {state: {} for state in wider}


def test_no_foxglove_farm_page_scrolls_sideways(pad: Pad) -> None:
    """The same for a town: scored, its best final round, a tile refused."""
    town = {**json.loads(KULY.read_text(encoding="utf-8"))["town"], "score_track": 64}
    pad.open("ff", ff_record(town))
    wider = {"new": pad.wider_than_the_screen()}
    pad.click("#ff-score")
    pad.find("#ff-total")
    wider["scored"] = pad.wider_than_the_screen()
    pad.click("#ff-plan")
    pad.find("#ff-plan-total")
    wider["planned"] = pad.wider_than_the_screen()
    pad.tile({"row": -1, "col": 3, "building": "granary"})  # touching no tile of the town
    pad.click("#ff-score")
    pad.find(".square.refused")
    wider["refused"] = pad.wider_than_the_screen()
    assert wider == {state: {} for state in wider}


def test_rulebook_board_scores_43_line_by_line(pad: Pad) -> None:
    rulebook = example("rulebook_standard_example.json")
    expected = rulebook["expected"]
    pad.open("dfm")
    pad.board(rulebook["board"])
    pad.click("#dfm-score")

    pad.wait.until(lambda page: pad.all("#dfm-total"), "no score shown")
    assert pad.text("#dfm-total") == "43"
    assert pad.line_points() == {lines: [line["points"] for line in expected[lines]]
                                 for lines in ("rows", "columns")}
    assert "Total: 43 points" in pad.text("#dfm-summary")
    assert "7 challenges met; best challenge 11 points." in pad.text("#dfm-summary")
    lines = pad.all("#dfm-lines .line")
    assert [line.find_element(By.CSS_SELECTOR, ".rule").text for line in lines] == [
        line["rule"] for lines in ("rows", "columns") for line in expected[lines]]
    assert all(line.find_element(By.CSS_SELECTOR, ".explanation").text for line in lines)
    assert not pad.all(".refused")

    # Choosing a line highlights its spaces; the row's badge says what it scored.
    pad.click('[data-line="rows-1"]')
    assert len(pad.all(".cell.in-line")) == 4
    assert pad.find('[data-line="rows-1"]').get_attribute("aria-label") == "Row 2: 11 points, met"
    pad.click('[data-line="rows-1"]')
    pad.screenshots("downtown-farmers-market")

    # In French the pad asks for French explanations, and words its own text in French.
    pad.click("#language")
    pad.click("#dfm-score")
    pad.wait.until(lambda page: "Total : 43 points" in pad.text("#dfm-summary"))
    scored = [request["headers"].get("Accept-Language") for request in requests_sent(pad.network())
              if request["url"].endswith("/v1/downtown-farmers-market/score")]
    assert scored == ["en", "fr"]
    assert pad.text("#dfm-score") == "Compter ce plateau"
    pad.click("#language")


def test_challenge_refusals_are_shown_on_their_tile(pad: Pad, service: Service) -> None:
    """A board kept on the phone comes back on reload; a challenge not chosen yet, then
    one the referee refuses, is marked on its tile with what is wrong; fixed, it scores."""
    board = example("rulebook_standard_example.json")["board"]
    pad.open("dfm", dfm_record([("Ana", {
        **board, "column_challenges": [*board["column_challenges"][:3], None]})]))
    slot = '[data-key="columns-challenge-3"]'

    pad.click("#dfm-score")
    pad.wait.until(lambda page: pad.all(f"{slot}.refused"), "the empty slot is not marked")
    assert pad.text("#dfm-problems li") == ("Challenge of column 4: "
                                            "Choose this line’s Challenge tile first.")
    assert not [request for request in requests_sent(pad.network())
                if request["url"].endswith("/score")], "asked the referee anyway"

    pad.challenge("columns", 3, {"type": "per_set", "sets": [], "points": 4})
    assert not pad.all(f"{slot}.refused"), "a changed challenge keeps its old refusal"
    pad.click("#dfm-score")
    pad.wait.until(lambda page: pad.all(f"{slot}.refused"), "the refused slot is not marked")
    refused = {**board, "column_challenges": [*board["column_challenges"][:3],
                                              {"type": "per_set", "sets": [], "points": 4}]}
    answer = requests.post(f"{service.url}/v1/downtown-farmers-market/score", json=refused,
                           timeout=10).json()
    [problem] = answer["errors"]
    assert problem["pointer"] == "/column_challenges/3/sets"
    assert pad.find(f'#{pad.find(slot).get_attribute("aria-describedby")}').text == \
        f"Challenge of column 4: {problem['detail']}"
    assert [element.get_attribute("data-key") for element in pad.all("#dfm-board .refused")
            ] == ["columns-challenge-3"]
    assert "refused" in pad.find('[data-key="player-0"]').get_attribute("class")  # its tab too

    pad.challenge("columns", 3, board["column_challenges"][3])
    pad.click("#dfm-score")
    pad.wait.until(lambda page: pad.all("#dfm-total"), "no score shown")
    assert pad.text("#dfm-total") == "43"
    assert not pad.all(".refused") and not pad.all("#dfm-problems li")


def test_young_shopper_board_scores_28_and_players_are_ranked(pad: Pad) -> None:
    rulebook = example("rulebook_young_shopper_example.json")
    expected = rulebook["expected"]
    pad.open("dfm")
    pad.type("#dfm-name", "Ana")
    pad.board(rulebook["board"])
    assert not pad.all('[data-key^="rows-challenge"]'), "Young Shopper has no challenges"
    pad.click("#dfm-score")

    pad.wait.until(lambda page: pad.all("#dfm-total"), "no score shown")
    assert pad.text("#dfm-total") == "28"
    assert pad.line_points() == {lines: [line["points"] for line in expected[lines]]
                                 for lines in ("rows", "columns")}

    pad.click("#dfm-add-player")
    pad.type("#dfm-name", "Ben")
    pad.click('[data-key="cell-0-0"]')
    pad.click('#dfm-ingredients [data-ingredient="egg"]')
    pad.click("#dfm-rank")
    table = pad.find("#dfm-standings table")
    rows = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert rows == [["1", "Ana", "28"], ["2", "Ben", "2"]]
    assert pad.text("#dfm-standings .winners") == "Winner: Ana"


def standings_rows(pad: Pad, game: str = "dfm") -> list[list[str]]:
    """The standings table's rows as shown, each cell's text."""
    table = pad.find(f"#{game}-standings table")
    return [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
            for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]


def player_tabs(pad: Pad, game: str = "dfm") -> list[str]:
    return [tab.text for tab in pad.all(f"#{game}-tabs [role=tab]")]


TABLE_STANDINGS = [["1", "Ana", "43", "7", "11"], ["2", "Ben", "22", "3", "10"],
                   ["3", "Cleo", "10", "1", "10"]]
"""The standings of examples/boards (see the README)."""


def test_a_removed_player_comes_back_with_undo(pad: Pad) -> None:
    """"Remove this player" takes a filled board away at once, and offers to undo it:
    undone, the board is back in its seat as it was; after another edit, the offer is gone."""
    pad.open("dfm", dfm_record(table_boards()))
    pad.click('[data-key="player-1"]')
    pad.click("#dfm-score")
    pad.find("#dfm-total")
    pad.click("#dfm-remove-player")
    assert player_tabs(pad) == ["Ana", "Cleo"]
    assert pad.text("#dfm-removed p") == "Ben’s board is removed."
    pad.click("#language")
    assert pad.text("#dfm-removed p") == "Le plateau de Ben est retiré."
    pad.click("#language")

    pad.click("#dfm-removed button")
    assert player_tabs(pad) == ["Ana", "Ben", "Cleo"]
    assert pad.find('[data-key="player-1"]').get_attribute("aria-selected") == "true"
    assert pad.text("#dfm-total") == "22"  # scored as before
    assert not pad.all("#dfm-removed p")
    assert pad.saved("dfm")["players"][1]["name"] == "Ben"

    pad.click("#dfm-remove-player")
    pad.click("#dfm-add-player")  # another edit: the removal stands
    assert player_tabs(pad) == ["Ana", "Cleo", "Player 3"]
    assert not pad.all("#dfm-removed p")


def challenges(record: dict[str, Any], seat: int) -> list[Any]:
    """The eight Challenge tiles the pad keeps for the player in ``seat``."""
    player = record["players"][seat]
    return [*player["rows"], *player["columns"]]


def test_challenge_tiles_are_copied_to_the_other_players_and_undone(pad: Pad) -> None:
    """The current player's eight Challenge tiles are copied to one player or to every
    other one (a board still to finish is then ranked); copying over tiles another
    player chose offers to put theirs back, in English or French."""
    [ana, ben, cleo] = table_boards()
    unchosen = {**ben[1], "row_challenges": [None] * 4, "column_challenges": [None] * 4}
    pad.open("dfm", dfm_record([ana, ("Ben", unchosen), cleo]))
    pad.click("#dfm-rank")
    assert [row[1] for row in standings_rows(pad)] == ["Ana", "Cleo"]
    anas = challenges(pad.saved("dfm"), 0)

    Select(pad.find("#dfm-copy-to")).select_by_visible_text("Ben")
    pad.click("#dfm-copy-challenges")
    assert challenges(pad.saved("dfm"), 1) == anas
    assert challenges(pad.saved("dfm"), 2) == challenges(dfm_record([cleo]), 0)
    assert pad.text("#dfm-removed p") == "Ana’s Challenge tiles are copied to Ben."
    pad.click("#dfm-rank")
    assert sorted(row[1] for row in standings_rows(pad)) == ["Ana", "Ben", "Cleo"]

    Select(pad.find("#dfm-copy-to")).select_by_value("all")
    pad.click("#dfm-copy-challenges")
    assert [challenges(pad.saved("dfm"), seat) for seat in (1, 2)] == [anas, anas]
    assert pad.text("#dfm-removed p") == "Ana’s Challenge tiles are copied to every other player."
    pad.click("#language")
    assert pad.text("#dfm-removed p") == (
        "Les tuiles Défi de Ana sont copiées vers tous les autres joueurs.")
    pad.click("#language")
    pad.click("#dfm-removed button")
    assert challenges(pad.saved("dfm"), 2) == challenges(dfm_record([cleo]), 0)
    assert challenges(pad.saved("dfm"), 1) == anas  # copied before: that copy stands
    assert not pad.all("#dfm-removed p")
    assert pad.find('[data-key="player-0"]').get_attribute("aria-selected") == "true"

    width, height = SIZES["phone"]
    pad.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    try:
        audit = pad.browser.execute_script(AUDIT)
    finally:
        pad.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert audit == {"small": [], "unnamed": [], "overflow": 0}
    assert pad.find("#dfm-copy-to").is_displayed()

    pad.click('input[name="dfm-mode"][value="young_shopper"]')
    assert not pad.find("#dfm-copy").is_displayed(), "Young Shopper has no Challenge tiles"


def test_a_doubtful_space_shows_the_range_and_the_spaces_to_check(
        pad: Pad, service: Service) -> None:
    """A space read in doubt gets its other readings; the score is the likeliest
    reading's, with the range of totals and the spaces to check as the referee answers
    (docs/api-guide.md's example); the standings rank the likeliest reading."""
    board = example("rulebook_standard_example.json")["board"]
    pad.open("dfm", dfm_record([("Ana", board)]))
    pad.click('[data-key="cell-0-0"]')
    pad.click('#dfm-readings [data-key="add-reading"]')
    pad.click('#dfm-ingredients [data-ingredient="cheese"]')
    pad.click('[data-key="cell-2-3"]')
    for tile in (["egg", "egg"], ["milk"]):
        pad.click('#dfm-readings [data-key="add-reading"]')
        for ingredient in tile:
            pad.click(f'#dfm-ingredients [data-ingredient="{ingredient}"]')
    assert "doubtful, 2 other readings" in (
        pad.find('[data-key="cell-2-3"]').get_attribute("aria-label") or "")
    pad.click("#dfm-score")

    doubtful = json.loads(json.dumps(board))
    doubtful["grid"][0][0] = {"candidates": [board["grid"][0][0], ["cheese"]]}
    doubtful["grid"][2][3] = {"candidates": [board["grid"][2][3], ["egg", "egg"], ["milk"]]}
    answer = requests.post(f"{service.url}/v1/downtown-farmers-market/score", timeout=SECONDS,
                           json=doubtful).json()["uncertainty"]
    assert (answer["lowest_total"], answer["highest_total"], answer["likely_total"]) == (42, 53, 43)
    assert pad.text("#dfm-total") == "43"
    assert pad.text("#dfm-uncertainty .range") == (
        "Between 42 and 53 points; 43 as read likeliest (6 readings).")
    checks = [space for space in answer["spaces"] if space["decides"]]
    assert [button.text for button in pad.all("#dfm-uncertainty li button")] == [
        f"Row {space['row'] + 1}, column {space['col'] + 1}: totals "
        f"{', '.join(map(str, space['totals']))}, reading by reading" for space in checks]
    assert {cell.get_attribute("data-key") for cell in pad.all(".cell.to-check")} == {
        f"cell-{space['row']}-{space['col']}" for space in checks}
    pad.click("#language")
    assert pad.text("#dfm-uncertainty .range") == (
        "Entre 42 et 53 points ; 43 selon la lecture la plus probable (6 lectures).")
    pad.click("#language")
    pad.click(f'[data-key="check-{checks[0]["pointer"]}"]')
    assert pad.find(f'[data-key="cell-{checks[0]["row"]}-{checks[0]["col"]}"]'
                    ).get_attribute("aria-pressed") == "true"

    pad.browser.refresh()  # the readings are kept, the score asked again
    assert pad.text("#dfm-uncertainty .range").startswith("Between 42 and 53 points")
    pad.click("#dfm-rank")
    assert standings_rows(pad) == [["1", "Ana", "43", "7", "11"]]

    pad.click('[data-key="cell-0-0"]')
    pad.click('#dfm-readings [data-key="reading-1"]')
    pad.click('#dfm-readings [data-key="remove-reading"]')
    assert not pad.find('[data-key="cell-0-0"]').get_attribute("class").count("doubtful")


def test_a_reload_shows_the_scores_and_standings_again(pad: Pad) -> None:
    """A phone that reloads the page at the table shows what the referee last said: the
    boards scored and the standings, asked again."""
    pad.open("dfm", dfm_record(table_boards()))
    pad.click("#dfm-score")
    pad.find("#dfm-total")
    pad.click("#dfm-rank")
    assert standings_rows(pad) == TABLE_STANDINGS
    pad.click('[data-key="player-2"]')  # Cleo's board, not scored

    pad.browser.refresh()
    assert standings_rows(pad) == TABLE_STANDINGS
    assert not pad.all("#dfm-total"), "a board never scored is shown scored"
    pad.click('[data-key="player-0"]')
    assert pad.text("#dfm-total") == "43"
    assert "Total: 43 points" in pad.text("#dfm-summary")

    pad.click('[data-key="cell-0-0"]')
    pad.click("#dfm-clear")  # an edit: Ana's score and the standings, not to be asked again
    saved = pad.saved("dfm")
    assert not saved["ranked"] and not saved["players"][0]["scored"]
    pad.browser.refresh()
    pad.find('[data-key="player-0"][aria-selected="true"]')
    assert not pad.all("#dfm-total") and not pad.all("#dfm-standings table")


def test_a_reload_shows_the_towns_score_and_plan_again(pad: Pad) -> None:
    """The same for a town: its score and its best final round, asked again."""
    town = {**json.loads(KULY.read_text(encoding="utf-8"))["town"], "score_track": 64}
    pad.open("ff", ff_record(town))
    pad.click("#ff-score")
    total = pad.text("#ff-total")
    pad.click("#ff-plan")
    plan = pad.text("#ff-plan-total")

    pad.browser.refresh()
    assert (pad.text("#ff-total"), pad.text("#ff-plan-total")) == (total, plan)
    pad.type("#ff-track", 65)  # an edit: both are out of date, not to be asked again
    assert pad.saved("ff")["towns"][0]["asked"] == []
    pad.browser.refresh()
    pad.find("#ff-town .square")
    assert not pad.all("#ff-total") and not pad.all("#ff-plan-total")


def test_standings_leave_out_unfinished_boards_one_line_each(pad: Pad) -> None:
    """The finished boards are ranked; each player left out is named, with why, in one
    line (not one refusal per Challenge tile still to choose)."""
    [ana, ben, cleo] = table_boards()
    dana = {**ana[1], "column_challenges": [*ana[1]["column_challenges"][:2], None, None],
            "grid": [[None] * 4] * 4}
    empty = {"mode": "standard", "row_challenges": [None] * 4, "column_challenges": [None] * 4,
             "grid": [[None] * 4] * 4}
    pad.open("dfm", dfm_record([ana, ("", empty), ben, ("Dana", dana), cleo]))
    pad.click("#dfm-rank")
    assert standings_rows(pad) == TABLE_STANDINGS
    assert [line.text for line in pad.all("#dfm-standings .left-out li")] == [
        "Player 2: left out until all 8 Challenge tiles are chosen (8 to go).",
        "Dana: left out until all 8 Challenge tiles are chosen (2 to go)."]
    assert not pad.all("#dfm-problems li") and not pad.all(".refused")
    pad.click("#language")
    assert pad.text("#dfm-standings .left-out li") == (
        "Joueur 2 : hors classement tant que les 8 tuiles Défi ne sont pas choisies (encore 8).")
    pad.click("#language")

    pad.click("#dfm-standings .left-out button")  # to the board to finish
    assert pad.find('[data-key="player-1"]').get_attribute("aria-selected") == "true"

    pad.click('input[name="dfm-mode"][value="young_shopper"]')
    pad.click("#dfm-rank")
    assert sorted(row[1] for row in standings_rows(pad)) == ["Ana", "Ben", "Cleo"]
    assert [line.text for line in pad.all("#dfm-standings .left-out li")] == [
        "Player 2: left out, nothing is entered on the board yet.",
        "Dana: left out, nothing is entered on the board yet."]


def test_a_result_is_shared_as_text_and_downloaded(pad: Pad, service: Service) -> None:
    """A scored board is shared as text and downloaded as JSON; the standings are shared
    as text and downloaded as CSV, a spreadsheet reading no name as a formula."""
    players = [*table_boards()[:2], ('=Cleo, "C"', table_boards()[2][1])]
    pad.open("dfm", dfm_record(players))
    pad.click("#dfm-score")
    pad.find("#dfm-total")
    text = pad.shared("board").split("\n")
    score = requests.post(f"{service.url}/v1/downtown-farmers-market/score",
                          json=players[0][1], timeout=10).json()
    assert text[:3] == ["Downtown Farmers Market · Ana", "Total: 43 points",
                        "7 challenges met; best challenge 11 points."]
    assert text[3:] == [f"{name} {index + 1}: {line['points']} pts · {line['explanation']}"
                        for name, lines in (("Row", "rows"), ("Column", "columns"))
                        for index, line in enumerate(score[lines])]
    name, content = pad.download("board")
    assert name == "downtown-farmers-market-score.json"
    assert json.loads(content) == {"name": "Ana", "board": players[0][1], "score": score}

    pad.click("#dfm-rank")
    pad.find("#dfm-standings table")
    assert pad.shared("standings") == (
        "Downtown Farmers Market · Standings\n1. Ana: 43 points\n2. Ben: 22 points\n"
        '3. =Cleo, "C": 10 points\nWinner: Ana')
    assert pad.download("standings") == ("downtown-farmers-market-standings.csv", (
        "place,name,total,challenges_met,best_challenge_points\r\n1,Ana,43,7,11\r\n"
        '2,Ben,22,3,10\r\n3,"\'=Cleo, ""C""",10,1,10\r\n'))

    town = {**json.loads(KULY.read_text(encoding="utf-8"))["town"], "score_track": 64}
    pad.open("ff", ff_record(town))
    pad.click("#ff-score")
    pad.find("#ff-total")
    answer = requests.post(f"{service.url}/v1/foxglove-farm/score", json=town, timeout=10).json()
    text = pad.shared("town").split("\n")
    assert text[:2] == ["Foxglove Farm", f"Total: {answer['total']} points"]
    assert [line.rsplit(" · ", 1)[-1] for line in text[3:]] == [
        entry["explanation"] for entry in answer["end_game"]]
    name, content = pad.download("town")
    assert name == "foxglove-farm-score.json"
    assert json.loads(content)["score"] == answer


def test_foxglove_farm_town_scored_planned_and_refused_on_its_tile(pad: Pad,
                                                                   service: Service) -> None:
    town = {**json.loads(KULY.read_text(encoding="utf-8"))["town"], "score_track": 64}
    score = requests.post(f"{service.url}/v1/foxglove-farm/score", json=town, timeout=10).json()
    plan = requests.post(f"{service.url}/v1/foxglove-farm/final-round/plan", json=town,
                         timeout=10).json()
    pad.open("ff")
    pad.town(town)

    pad.click("#ff-score")
    pad.wait.until(lambda page: pad.all("#ff-total"), "no score shown")
    assert pad.text("#ff-total") == f"Total: {score['total']} points"
    entries = pad.all("#ff-lines .line")
    assert len(entries) == len(score["end_game"])
    for shown, entry in zip(entries, score["end_game"]):
        assert shown.find_element(By.CSS_SELECTOR, ".explanation").text == entry["explanation"]
    for index, entry in enumerate(score["end_game"]):  # an entry lights what it counted
        pad.click(f'[data-key="entry-{index}"]')
        tiles = [tile for effect in entry["effects"] for tile in effect["tiles"]]
        assert {(int(square.get_attribute("data-row")), int(square.get_attribute("data-col")))
                for square in pad.all(".square.lit")} == {
            (entry["row"], entry["col"]), *[(tile["row"], tile["col"]) for tile in tiles],
            *[tuple(trail) for tile in tiles for trail in tile["via"]]}
    pad.click(f'[data-key="entry-{len(score["end_game"]) - 1}"]')  # lit no more
    pad.click("#ff-plan")
    pad.wait.until(lambda page: pad.all("#ff-plan-total"), "no plan shown")
    assert pad.text("#ff-plan-total") == f"Best final total: {plan['total']} points"
    steps = pad.all("#ff-plan-result .step")
    assert len(steps) == len(plan["steps"])
    assert steps[0].text.startswith("Move 2 coal from row 1, column 1 to row 1, column 3")
    pad.click('[data-key="step-0"]')  # the first move's path is highlighted on the town
    lit = {(int(square.get_attribute("data-row")), int(square.get_attribute("data-col")))
           for square in pad.all(".square.lit")}
    assert lit == {tuple(cell) for cell in plan["steps"][0]["path"]}
    pad.screenshots("foxglove-farm")

    # A Granary, spelt right, on a square that touches no tile of the town.
    pad.tile({"row": -1, "col": 3, "building": "granary"})
    pad.click("#ff-score")
    pad.wait.until(lambda page: pad.all(".square.refused"), "no tile refused")
    refused = pad.all(".square.refused")
    assert [pad.square(-1, 3)] == [f'[data-key="{square.get_attribute("data-key")}"]'
                                   for square in refused]
    assert refused[0].get_attribute("aria-invalid") == "true"
    problem = pad.find(f'#{refused[0].get_attribute("aria-describedby")}')
    answer = requests.post(f"{service.url}/v1/foxglove-farm/score", timeout=10, json={
        **town, "tiles": [*town["tiles"], {"row": -1, "col": 3, "building": "granary"}]}).json()
    detail = answer["errors"][0]["detail"]
    assert problem.text == f"Row -1, column 3: {detail}"
    assert pad.text("#ff-editor-problems") == detail  # shown where the tile is edited
    assert not pad.all("#ff-total"), "a refused town shows no score"
    assert "pointer" not in pad.find("body").text


def test_several_towns_are_scored_in_tabs_and_ranked_as_the_referee_answers(
        pad: Pad, service: Service) -> None:
    """Each player's town in its own tab, scored on its own; the standings are the
    referee's (/rank), ties and their tie-breaks as it answered them."""
    kuly = json.loads(KULY.read_text(encoding="utf-8"))["town"]
    towns = {"Ana": {**kuly, "score_track": 70}, "Ben": {**kuly, "score_track": 64},
             "Cleo": {**kuly, "score_track": 64}}
    pad.open("ff", {"variant": kuly["variant"], "current": 0, "towns": [
        {"name": name, **ff_record(town)} for name, town in towns.items()]})
    assert player_tabs(pad, "ff") == ["Ana", "Ben", "Cleo"]
    pad.click('#ff-tabs [data-key="player-1"]')
    assert pad.find("#ff-track").get_attribute("value") == "64"
    pad.click("#ff-score")
    ben = pad.text("#ff-total")
    pad.click('#ff-tabs [data-key="player-0"]')
    assert not pad.all("#ff-total"), "Ana's town is not scored yet"

    pad.click("#ff-rank")
    answer = requests.post(f"{service.url}/v1/foxglove-farm/rank", timeout=SECONDS, json={
        "players": [{"name": name, "town": town} for name, town in towns.items()]}).json()
    assert standings_rows(pad, "ff") == [
        [str(s["place"]), s["name"], str(s["total"]), str(s["goods_remaining"]),
         str(s["tile_count"])] for s in answer["standings"]]
    assert [row[0] for row in standings_rows(pad, "ff")] == ["1", "2", "2"]  # a tie shared
    assert pad.text("#ff-standings .winners") == "Winner: Ana"
    assert pad.text("#ff-standings .note") == (
        "Ties: fewest goods left in the town, then the most tiles (FF-R16).")
    pad.click("#language")
    assert pad.text("#ff-standings .note").startswith("Égalité : le moins de marchandises")
    pad.click("#language")

    pad.browser.refresh()  # asked again
    assert len(standings_rows(pad, "ff")) == 3
    pad.click('#ff-tabs [data-key="player-1"]')
    assert pad.text("#ff-total") == ben
    pad.type("#ff-name", "Bea")
    assert not pad.all("#ff-standings table"), "the standings name Ben still"
    pad.click("#ff-add-player")
    assert player_tabs(pad, "ff") == ["Ana", "Bea", "Cleo", "Player 4"]
    assert pad.find('#ff-tabs [data-key="player-3"]').get_attribute("aria-selected") == "true"
    assert not pad.all("#ff-total"), "a new town starts unscored"


def test_a_doubtful_goods_count_shows_the_range_and_the_counts_to_check(
        pad: Pad, service: Service) -> None:
    """A building's goods count read in doubt gets its other possible counts; the town's
    score shows the range and the counts to check as the referee answers them."""
    town = {**json.loads(KULY.read_text(encoding="utf-8"))["town"], "score_track": 64}
    pad.open("ff", ff_record(town))
    pad.click(pad.square(2, 3))  # the ranch, no sheep read: or 2, or 1
    pad.type('#ff-goods [data-doubt="sheep"]', "2 1")
    pad.click(pad.square(0, 0))  # the forest, 3 wood: or 4
    pad.type('#ff-goods [data-doubt="wood"]', "4")
    pad.click("#ff-score")

    doubtful = json.loads(json.dumps(town))
    for tile in doubtful["tiles"]:
        if (tile["row"], tile["col"]) == (2, 3):
            tile["goods"] = {"sheep": {"candidates": [0, 2, 1]}}
        if (tile["row"], tile["col"]) == (0, 0):
            tile["goods"]["wood"] = {"candidates": [3, 4]}
    answer = requests.post(f"{service.url}/v1/foxglove-farm/score", timeout=SECONDS,
                           json=doubtful).json()
    uncertainty = answer["uncertainty"]
    assert pad.text("#ff-total") == f"Total: {answer['total']} points"
    assert uncertainty["lowest_total"] < uncertainty["highest_total"]
    assert pad.text("#ff-uncertainty .range") == (
        f"Between {uncertainty['lowest_total']} and {uncertainty['highest_total']} points; "
        f"{uncertainty['likely_total']} as read likeliest ({uncertainty['readings']} readings).")
    checks = [count for count in uncertainty["counts"] if count["decides"]]
    assert checks, "the ranch's sheep decide the total"
    goods = {"sheep": "sheep", "wood": "wood"}
    assert [button.text for button in pad.all("#ff-uncertainty li button")] == [
        f"Row {count['row']}, column {count['col']} · {goods[count['good']]}: totals "
        f"{', '.join(map(str, count['totals']))}, reading by reading" for count in checks]
    assert len(pad.all("#ff-town .square.doubtful")) == 2
    assert pad.saved("ff")["towns"][0]["tiles"]["2,3"]["doubts"] == {"sheep": [2, 1]}
    pad.click("#ff-rank")  # the likeliest reading is ranked
    assert standings_rows(pad, "ff")[0][2] == str(answer["total"])


def test_an_unreachable_engine_is_a_banner(tmp_path: Path) -> None:
    """503 from the gateway (its engine gone) is a friendly banner, not an error."""
    with running_service() as service:
        browser = chromium(service.url, tmp_path / "profile", width=390, height=844)
        try:
            pad = Pad(browser, service.url)
            pad.open("dfm")
            pad.click('input[name="dfm-mode"][value="young_shopper"]')
            service.engine.stop()
            pad.click("#dfm-score")
            banner = pad.find("#banner:not([hidden])")
            assert "The referee is not answering right now. Try again in" in banner.text
            assert not pad.all("#dfm-total")
            pad.click("#banner-close")
            assert pad.all("#banner[hidden]")
        finally:
            browser.quit()
