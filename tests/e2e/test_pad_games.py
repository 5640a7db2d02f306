"""The score pad's play-along tab referees whole games, driven in a real headless
Chromium against the real engine and gunicorn gateway as players at the table would:
names typed, Challenge tiles chosen in their dialog, market tiles and spaces tapped,
the tiles turned over from the pile entered ingredient by ingredient; Foxglove Farm's
actions tapped or chosen from the legal ones (and edited), the tiles drawn named.

Each move is one the referee lists in its ``/legal-moves`` answer for the state the pad
holds (the test asks; the pad is only tapped), but for the illegal ones the test makes
on purpose to see them refused. The browser reaches the gateway and nothing else
(``browser.py``); ``assert_offline_and_clean`` checks that afterwards.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from .browser import chromium, network_events
from .conftest import Service, running_service
from .test_score_pad import AUDIT, SIZES, Pad, assert_offline_and_clean, example

pytestmark = pytest.mark.e2e

DFM = "/v1/downtown-farmers-market"
FF = "/v1/foxglove-farm"
STORE = "referee.pad.play"
INGREDIENTS = ("bread", "carrot", "corn", "cheese", "milk", "egg")
QUICK = ("produce", "pass", "process", "end_round")
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
"""axe-core 4.14.1 (MPL-2.0, from npm's axe-core package): for the tests only, never served."""


class PlayPad(Pad):
    """The play-along tab, and what the pad keeps of the game it follows."""

    def game(self) -> dict[str, Any]:
        store = json.loads(self.browser.execute_script(
            "return localStorage.getItem(arguments[0])", STORE))
        game: dict[str, Any] = store["games"][store["current"]]
        return game

    def state(self) -> dict[str, Any]:
        game = self.game()
        return game["log"][-1]["state"] if game["log"] else game["initial"]

    def rulings(self) -> int:
        return len(self.game()["history"])

    def accessibility_problems(self) -> list[str]:
        """What axe-core finds serious or critical on the page as it stands."""
        self.browser.execute_script(AXE.read_text(encoding="utf-8"))
        found = self.browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document).then((results) => done(results.violations));")
        return [f"{violation['id']}: {[node['target'] for node in violation['nodes']]}"
                for violation in found if violation["impact"] in ("serious", "critical")]

    def enter_tile(self, prefix: str, tile: list[str]) -> None:
        """Enter ``tile`` in the tile entry ``prefix`` (the setup's or the reveal's)."""
        for ingredient in tile:
            self.click(f'#{prefix}-ingredients [data-ingredient="{ingredient}"]')
        self.click(f"#{prefix}-add")

    def ruled(self, tap: str) -> None:
        """Tap ``tap`` and wait for the referee's ruling on it."""
        before = self.rulings()
        self.click(tap)
        self.wait.until(lambda page: self.rulings() == before + 1, f"no ruling after {tap}")

    def market_tile(self, tile: list[str]) -> str:
        """The market button of ``tile`` in the state the pad shows."""
        face_up = [sorted(shown) for shown in self.state()["face_up"]]
        return f'[data-key="face-{face_up.index(sorted(tile))}"]'

    def play(self, move: dict[str, Any]) -> None:
        """Enter ``move`` with the pad's controls, as the player would, and wait for its ruling."""
        if move["action"] == "reveal":
            for tile in move["tiles"]:
                self.enter_tile("play-reveal", tile)
            self.ruled("#play-reveal-done")
            return
        self.click(self.market_tile(move["tile"]))
        self.ruled(f'[data-key="space-{move["row"]}-{move["col"]}"]'
                   if move["action"] == "take" else "#play-discard")


    def shows_refusal(self, refusals: dict[str, Any], marked: str) -> None:
        """The ruling reads the referee's refusal (``refusals``: its answers in English and
        French) in the pad's language, switched from English to French and back, and the
        element ``marked`` (the tile or space the refusal names) is marked refused."""
        [violation] = refusals["en"]["violations"]
        assert self.text("#play-ruling") == (
            f"Refused: {violation['message']} ({violation['rule']})")
        assert "refused" in (self.find(marked).get_attribute("class") or "")
        self.click("#language")
        [french] = refusals["fr"]["violations"]
        assert french["message"] != violation["message"]
        in_french = f"Refusé : {french['message']} ({french['rule']})"
        self.wait.until(lambda page: self.text("#play-ruling") == in_french, "not in French")
        self.click("#language")
        self.wait.until(lambda page: self.text("#play-ruling").startswith("Refused: "))

    def act(self, index: int, move: dict[str, Any]) -> None:
        """Enter the Foxglove Farm action ``move``, the legal one at ``index`` of the
        referee's list, as the player would: tapped, or chosen from the list and sent."""
        if move["action"] == "draw_tiles":
            for tile in move["tiles"]:
                self.find("#pff-draw-tile").send_keys(tile, Keys.ENTER)
            self.ruled("#pff-draw-done")
        elif move["action"] in QUICK:
            self.ruled(f'#pff-quick [data-move="{index}"]')
        else:
            self.find(f'#pff-choice option[value="{index}"]')
            Select(self.find("#pff-choice")).select_by_value(str(index))
            assert json.loads(self.find("#pff-action").get_attribute("value") or "null") == move
            self.ruled("#pff-submit")


def ask(service: Service, path: str, body: dict[str, Any], language: str = "en") -> Any:
    answer = requests.post(f"{service.url}{path}", json=body, timeout=10,
                           headers={"Accept-Language": language})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture
def pad(browser: WebDriver, service: Service) -> Iterator[PlayPad]:
    network_events(browser)  # what earlier tests left in the log does not count
    browser.get_log("browser")  # type: ignore[attr-defined]  # Chrome's, not in the stubs
    checked = PlayPad(browser, service.url)
    yield checked
    assert_offline_and_clean(checked)


def set_up_downtown_farmers_market(pad: PlayPad, names: list[str],
                                   board: dict[str, Any], face_up: list[list[str]]) -> None:
    pad.open("play")
    pad.type("#play-new-name", "Friday night")
    pad.click("#play-new-dfm")
    for seat, name in enumerate(names):
        pad.find(f"#psetup-name-{seat}").send_keys(name, Keys.TAB)
        pad.wait.until(lambda page, seat=seat, name=name:  # type: ignore[misc]
                       pad.game()["setup"]["players"][seat]["name"] == name)
        for lines, field in (("rows", "row_challenges"), ("columns", "column_challenges")):
            for index, challenge in enumerate(board[field]):
                pad.click(f'[data-key="psetup-{seat}-{lines}-{index}"]')
                pad.fill_challenge(challenge)
                pad.wait.until(lambda page, seat=seat, field=field, index=index:  # type: ignore[misc]
                               pad.game()["setup"]["players"][seat][field][index])
    for tile in face_up:
        pad.enter_tile("psetup", tile)
    assert not pad.accessibility_problems()
    pad.click("#psetup-start")
    pad.find("#pdfm-play:not([hidden])")


def test_downtown_farmers_market_refereed_from_setup_to_standings(pad: PlayPad,
                                                                  service: Service) -> None:
    board = example("rulebook_standard_example.json")["board"]
    deal = random.Random(25)
    pile = lambda: sorted(deal.choices(INGREDIENTS, k=deal.choice((1, 1, 2, 3))))  # noqa: E731
    set_up_downtown_farmers_market(pad, ["Ana", "Ben"], board, [pile() for _ in range(5)])
    assert pad.text("#play-turn").endswith("Ana: take a market tile and place it on your grid.")

    step, refused = 0, False
    while not (state := pad.state())["game_over"]:
        if state["expected"] == "reveal":
            pad.play({"action": "reveal", "tiles": [pile() for _ in range(4)]})
            continue
        step += 1
        moves = ask(service, f"{DFM}/legal-moves", {"state": state})["moves"]
        move = moves[(step * 7) % len(moves)]
        if step > 8 and move["action"] == "take" and not refused:
            # a tile on a space already filled: refused, in English then in French
            refused = True
            filled = next((r, c) for r, row in enumerate(state["players"][move["player"]]
                                                         ["board"]["grid"])
                          for c, space in enumerate(row) if space)
            illegal = {**move, "row": filled[0], "col": filled[1]}
            pad.play(illegal)
            assert pad.state() == state, "a refused move changed the game"
            refusals = {language: ask(service, f"{DFM}/moves/validate",
                                      {"state": state, "move": illegal}, language)
                        for language in ("en", "fr")}
            assert not refusals["en"]["legal"]
            pad.shows_refusal(refusals, f'[data-key="space-{filled[0]}-{filled[1]}"]')
        if step == 21:  # the tab closed and opened again: the game carries on
            pad.browser.refresh()
            pad.find("#pdfm-play:not([hidden])")
            assert pad.state() == state
            assert not pad.accessibility_problems()
            pad.screenshots("play-dfm")
        pad.play(move)
        assert pad.game()["history"][-1]["legal"], f"{move} refused"
        if step == 31:  # undone twice and redone twice
            log = pad.game()["log"]
            pad.click("#play-undo")
            pad.click("#play-undo")
            assert pad.state() == log[-3]["state"]
            if log[-1]["move"]["action"] == "take":
                last = log[-1]["move"]
                emptied = pad.find(f'[data-key="space-{last["row"]}-{last["col"]}"]') \
                    if pad.state()["current_player"] == last["player"] else None
                assert emptied is None or not emptied.find_elements(By.CSS_SELECTOR, ".chip")
            pad.click("#play-redo")
            pad.click("#play-redo")
            assert pad.game()["log"] == log
    assert pad.text("#play-turn").endswith("The game is over.")

    assert not pad.accessibility_problems()
    table = pad.find("#play-standings")
    shown = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
             for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    replayed = ask(service, f"{DFM}/games/replay",
                   json.loads(pad.find("#play-export").get_attribute("value") or "null"))
    assert replayed["legal"] and replayed["state"]["game_over"]
    assert shown == [[str(s["place"]), s["name"], str(s["total"]), str(s["challenges_met"]),
                      str(s["best_challenge_points"])] for s in replayed["standings"]]
    assert [entry["legal"] for entry in pad.game()["history"]].count(False) == 1

    # a disputed log, its second move a copy of the first: the replay stops there
    disputed = json.loads(pad.find("#play-export").get_attribute("value") or "null")
    disputed["moves"][1] = disputed["moves"][0]
    stopped = ask(service, f"{DFM}/games/replay", disputed)
    pad.click("#play-exchange summary")
    pad.type("#play-import", json.dumps(disputed))
    pad.click("#play-import-go")
    pad.wait.until(lambda page: pad.text("#play-import-result").startswith(
        "Move 2 is illegal: "), "the replay's stop is not shown")
    assert stopped["illegal_index"] == 1
    assert stopped["violations"][0]["message"] in pad.text("#play-import-result")

    # a second game kept beside the first, which is resumed as it ended
    pad.type("#play-new-name", "Sunday")
    pad.click("#play-new-dfm")
    pad.find("#pdfm-setup:not([hidden])")
    Select(pad.find("#play-saved")).select_by_value("Friday night")
    pad.click("#play-open")
    assert [row.text.split() for row in pad.all("#play-standings tbody tr")] == [
        row.split() for row in (" ".join(cells) for cells in shown)]
    assert sorted(json.loads(pad.browser.execute_script(
        "return localStorage.getItem(arguments[0])", STORE))["games"]) == ["Friday night", "Sunday"]
    assert step == 64  # 16 rounds of two takes and two discards: each step above was taken


def drawn_tiles(service: Service, state: dict[str, Any]) -> list[str]:
    """Tiles for the board's empty spaces, none like a tile on it (so none stacks)."""
    board = state["board"]
    spaces = board["offer"] + board["c_spaces"]
    shown = {space["building"] for space in spaces if space}
    tier = "A" if state["round"] < 3 else "B"
    buildings = requests.get(f"{service.url}{FF}/catalog", timeout=10).json()["buildings"]
    candidates = [b["id"] for b in buildings if tier in b["tiers"] and b["documented"]
                  and not b["expert"] and b["id"] not in shown]
    return candidates[:spaces.count(None)]


def test_foxglove_farm_refereed_from_setup_to_standings(pad: PlayPad, service: Service) -> None:
    """A solo game (setup 1, the shortest the rules allow): a building and trails built
    in the first round, a pass in each, the tiles drawn named, the planner's hint in the
    fourth round, and an illegal build refused on the square it names."""
    a_tiles = ["granary", "charcoal_kiln", "barn", "coal_mine", "lambing_shed", "allotment"]
    c_tiles = ["bakery", "grocer", "cafe", "tavern"]
    pad.open("play")
    pad.type("#play-new-name", "Harvest")
    pad.click("#play-new-ff")
    pad.find("#pffsetup-name-0").send_keys("Ana", Keys.TAB)
    pad.wait.until(lambda page: pad.game()["setup"]["players"][0]["name"] == "Ana")
    Select(pad.find("#pffsetup-solo")).select_by_value("1")
    for tile in a_tiles:
        pad.find("#pffsetup-a-tile").send_keys(tile, Keys.ENTER)
    for tile in c_tiles:
        pad.type("#pffsetup-c-tile", tile)
        pad.click("#pffsetup-c-add")
    pad.wait.until(lambda page: pad.game()["setup"]["c_tiles"] == c_tiles)
    assert pad.game()["setup"]["a_tiles"] == a_tiles
    assert not pad.accessibility_problems()
    pad.click("#pffsetup-start")
    pad.find("#pff-play:not([hidden])")

    built: list[dict[str, Any]] = []
    refused = reloaded = hinted = False
    while (state := pad.state())["phase"] != "game_over":
        answer = ask(service, f"{FF}/legal-moves", {"state": state})
        moves = answer["moves"]
        if answer["turn"]["expected"] == "draw_tiles":
            pad.act(-1, {"action": "draw_tiles", "tiles": drawn_tiles(service, state)})
            assert pad.game()["history"][-1]["legal"], "the tiles drawn were refused"
            continue
        pick = {move["action"]: index for index, move in reversed(list(enumerate(moves)))}
        if state["round"] == 2 and answer["turn"]["expected"] == "construct" and not reloaded:
            # the tab closed and opened again
            reloaded = True
            pad.browser.refresh()
            pad.find("#pff-play:not([hidden])")
            assert pad.state() == state
            pad.find(f'#pff-quick [data-move="{pick["pass"]}"]')
            assert not pad.accessibility_problems()
            width, height = SIZES["phone"]
            pad.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
            audit = pad.browser.execute_script(AUDIT)
            pad.browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            assert audit == {"small": [], "unnamed": [], "overflow": 0}
            pad.screenshots("play-ff")
        if answer["turn"]["expected"] == "construct" and state["round"] == 1 and len(built) < 2:
            kind = "build_trails" if built else "build_building"
            if not refused:  # on the starting tile's Forest: refused, in English then in French
                refused = True
                illegal = {**moves[pick[kind]], "position": {"row": 0, "col": 0}}
                Select(pad.find("#pff-choice")).select_by_value(str(pick[kind]))
                pad.type("#pff-action", json.dumps(illegal))
                pad.ruled("#pff-submit")
                assert pad.state() == state, "a refused action changed the game"
                refusals = {language: ask(service, f"{FF}/actions/validate",
                                          {"state": state, "action": illegal}, language)
                            for language in ("en", "fr")}
                [violation] = refusals["en"]["violations"]
                assert violation["pointer"] == "/action/position"
                pad.shows_refusal(refusals, '#pff-town-0 [data-key="sq-0,0"]')
            built.append(moves[pick[kind]])
            pad.act(pick[kind], moves[pick[kind]])
        elif answer["turn"]["expected"] == "transport" and state["round"] == 4 and not hinted:
            hinted = True
            plan = ask(service, f"{FF}/final-round/plan", state["players"][0]["town"])
            pad.click("#pff-hint")
            hinted_text = f"Ana can reach {plan['total']} points:"
            pad.wait.until(lambda page, shown=hinted_text: pad.text(  # type: ignore[misc]
                "#pff-hint-result").startswith(shown), "no hint")
            pad.act(pick["process"], moves[pick["process"]])
        else:
            chosen = next(pick[kind] for kind in ("pass", "end_round", "produce", "process")
                          if kind in pick)
            pad.act(chosen, moves[chosen])
        assert pad.game()["history"][-1]["legal"], f"{pad.game()['history'][-1]} refused"
        if len(built) == 2 and len(pad.game()["log"]) == 4:  # undone twice and redone twice
            log = pad.game()["log"]
            trail = built[1]["trails"][0]["position"]
            drawn = f'#pff-town-0 [data-key="sq-{trail["row"]},{trail["col"]}"].trail'
            pad.find(drawn)
            pad.click("#play-undo")
            pad.click("#play-undo")  # the trails, and the tiles drawn after the building
            assert pad.state() == log[-3]["state"]
            assert not pad.all(drawn)
            pad.find("#pff-draw:not([hidden])")
            pad.click("#play-redo")
            pad.click("#play-redo")
            assert pad.game()["log"] == log
            pad.find(drawn)
    assert pad.text("#pff-turn").endswith("The game is over.")
    assert refused and reloaded and hinted and [m["action"] for m in built] == [
        "build_building", "build_trails"]

    assert not pad.accessibility_problems()
    shown = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
             for row in pad.find("#play-standings").find_elements(By.CSS_SELECTOR, "tbody tr")]
    exported = json.loads(pad.find("#play-export").get_attribute("value") or "null")
    replayed = ask(service, f"{FF}/games/replay", exported)
    assert replayed["legal"] and replayed["state"]["phase"] == "game_over"
    assert shown == [[str(s["place"]), s["name"], str(s["total"]), str(s["goods_remaining"]),
                      str(s["tile_count"])] for s in replayed["standings"]]
    assert [entry["legal"] for entry in pad.game()["history"]].count(False) == 1

    # the game shared as a link, its first trail moved onto the Granary: the replay stops there
    disputed = json.loads(json.dumps(exported))
    trails = next(i for i, action in enumerate(disputed["actions"])
                  if action["action"] == "build_trails")
    disputed["actions"][trails]["trails"][0]["position"] = built[0]["position"]
    stopped = ask(service, f"{FF}/games/replay", disputed)
    assert stopped["illegal_index"] == trails
    link = base64.urlsafe_b64encode(json.dumps(disputed).encode()).decode().rstrip("=")
    pad.browser.get(f"{pad.url}/pad#replay={link}")
    pad.wait.until(lambda page: pad.text("#play-import-result").startswith(
        f"Move {trails + 1} is illegal: "), "the shared game's stop is not shown")
    assert stopped["violations"][0]["message"] in pad.text("#play-import-result")


def test_the_pad_opens_offline_and_keeps_what_was_entered(tmp_path: Path) -> None:
    """Once loaded, the pad opens with its gateway gone (its service worker keeps the
    page's files), and a ruling it cannot get is a banner that loses nothing entered."""
    with running_service() as service:
        browser = chromium(service.url, tmp_path / "profile", width=390, height=844)
        try:
            pad = PlayPad(browser, service.url)
            pad.open("play")
            pad.wait.until(lambda page: page.execute_script(
                "return Boolean(navigator.serviceWorker.controller)"), "no service worker")
            pad.type("#play-new-name", "On the train")
            pad.click("#play-new-dfm")
            pad.find("#psetup-name-0").send_keys("Ana", Keys.TAB)
            pad.wait.until(lambda page: pad.game()["setup"]["players"][0]["name"] == "Ana")
            service.gateway.stop()

            browser.refresh()
            assert pad.find("#psetup-name-0:not([hidden])").get_attribute("value") == "Ana"
            pad.click("#psetup-start")
            assert "The referee cannot be reached" in pad.find("#banner:not([hidden])").text
            game = pad.game()
            assert game["initial"] is None and game["setup"]["players"][0]["name"] == "Ana"
        finally:
            browser.quit()
