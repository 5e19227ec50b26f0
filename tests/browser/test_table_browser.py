"""The /table page in Debian's chromium (headless) against a live gunicorn: a seeded
deal shows every card once, a whole deal is played by clicking legal cards only and
its score sheet is /score's, states with an illegal play or hand show the offending
card with the problem's words in English and Chinese, suggest and claim answer as
the API does; the console stays free of errors and no request leaves the service.
Screenshots (desktop and phone widths) are saved in GONGZHU_ARTIFACTS, or a
temporary directory, which the run prints."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import random
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.conftest import SCREENSHOTS

from .chromium import driver

pytestmark = [pytest.mark.live, pytest.mark.browser]

DESKTOP = (1280, 900)
PHONE = (390, 844)
WAIT_S = 30
CHINESE = {"Accept-Language": "zh-CN"}


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = driver(tmp_path_factory.mktemp("chromium-profile"))
    chromium.set_window_size(*DESKTOP)
    yield chromium
    chromium.quit()


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    folder = os.environ.get("GONGZHU_ARTIFACTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("table-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture()
def screenshots(artifacts, record_property):
    """Where this test's screenshots go, named in its report (the run prints it at the end)."""
    record_property(SCREENSHOTS, str(artifacts))
    return artifacts


def b64url(value) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def post(base: str, path: str, body: dict, headers: dict | None = None) -> requests.Response:
    return requests.post(f"{base}{path}", json=body, headers=headers or {}, timeout=10)


def open_table(browser, base: str, fragment: str) -> None:
    browser.get("about:blank")
    browser.get(f"{base}/table#{fragment}")
    settle(browser)


def settle(browser) -> None:
    # polled every 20 ms, not selenium's default 500 ms: the page is busy for a few ms after a click
    WebDriverWait(browser, WAIT_S, poll_frequency=0.02).until(
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-busy") == "false")


def click(browser, element) -> None:
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()
    settle(browser)


def page_state(browser) -> dict:
    """The deal state the page shows, from its URL fragment."""
    fragment = parse_qs(urlsplit(browser.current_url).fragment)
    text = fragment["state"][0]
    return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))


def cursor(browser) -> int:
    return int(browser.find_element(By.CSS_SELECTOR, "[data-role=position]").get_attribute("data-cursor"))


def hand_cards(browser, seat: int | None = None, extra: str = "") -> list:
    seats = f"[data-seat='{seat}']" if seat is not None else ""
    return browser.find_elements(By.CSS_SELECTOR, f"[data-role=hand]{seats} [data-card]{extra}")


def legal_shown(browser) -> list[list[str]]:
    """[card, seat] of every card the page marks legal, in document order: one round trip to the
    browser, not two a card (a whole deal asks this 52 times)."""
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-role=hand] [data-card][data-legal=true]')]"
        ".map(e => [e.getAttribute('data-card'), e.getAttribute('data-seat')])")


@contextlib.contextmanager
def viewport(browser, size: tuple[int, int]):
    """The page laid out at that width (a phone's: a mobile viewport)."""
    width, height = size
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < DESKTOP[0]})
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def screenshot(browser, path: Path, size: tuple[int, int]) -> None:
    """The whole page at that width (a phone's: a mobile viewport)."""
    width, height = size
    with viewport(browser, size):
        full = browser.execute_script("return document.documentElement.scrollHeight")
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": max(height, full), "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def network_events(browser) -> list[dict]:
    """The DevTools network events chromium logged since the last read (a read empties the log)."""
    return [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]


# The schemes of requests that ask a host over the network.
NETWORK_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})


def check_console_and_network(browser, base: str, allowed_statuses: tuple[int, ...] = (),
                              events: list[dict] | None = None) -> None:
    """No console error or warning (but the network lines Chrome writes for the API's own
    problem answers when a test sends a rejected state); every request went to ``base``
    (``events``: those a test read from the log before)."""
    for entry in browser.get_log("browser"):
        message = entry["message"]
        expected = (entry["source"] == "network" and message.startswith(base)
                    and any(f"status of {status}" in message for status in allowed_statuses))
        assert expected or entry["level"] not in {"SEVERE", "WARNING"}, entry
    urls = [event["params"]["request"]["url"] for event in [*(events or []), *network_events(browser)]
            if event["method"] == "Network.requestWillBeSent"]
    # only what goes over the network counts: the browser's own pages (chrome://, chrome-untrusted://, about:,
    # data: and whatever scheme a newer Chromium adds for its start pages) ask no host
    sent = [u for u in urls if urlsplit(u).scheme in NETWORK_SCHEMES]
    assert any(u.startswith(f"{base}/table") for u in sent), "the performance log recorded the page's requests"
    assert [u for u in sent if not u.startswith(base + "/")] == []
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(name.startswith(base + "/") for name in resources), resources


# ---- a seeded deal -----------------------------------------------------------------------

@pytest.mark.parametrize("decks, cards", [(1, 52), (2, 104)])
def test_a_seeded_deal_shows_every_card_once(browser, live_server, decks, cards):
    open_table(browser, live_server, f"seed=5&decks={decks}")
    dealt = post(live_server, "/deal", {"seed": 5, "rules": {"decks": decks}}).json()
    shown = hand_cards(browser)
    assert len(shown) == cards
    # two decks' copies are told apart: every card has an id of its own
    assert len({card.get_attribute("data-id") for card in shown}) == cards
    assert {card.get_attribute("data-copy") for card in shown} == {str(c) for c in range(1, decks + 1)}
    for seat in range(4):
        names = sorted(card.get_attribute("data-card") for card in hand_cards(browser, seat))
        assert names == sorted(dealt["hands"][seat])
    to_act = browser.find_elements(By.CSS_SELECTOR, ".seat[data-to-act]")
    assert [s.get_attribute("data-seat") for s in to_act] == [str(dealt["leader"])]
    assert [c.get_attribute("data-card") for c in hand_cards(browser, extra="[data-legal=true]")] == ["C2"]
    check_console_and_network(browser, live_server)


# ---- a whole deal by clicks ---------------------------------------------------------------

def test_a_whole_deal_played_by_clicking_legal_cards_scores_as_score_does(browser, live_server, screenshots):
    choose = random.Random(29)
    open_table(browser, live_server, "seed=11")
    for n in range(52):
        state = page_state(browser)
        assert len(state["plays"]) == n == cursor(browser)
        turn = post(live_server, "/legal-moves", state).json()
        shown = legal_shown(browser)
        assert sorted(card for card, _ in shown) == sorted(m[0] for m in turn["moves"])
        assert {seat for _, seat in shown} == {str(turn["seat"])}
        legal = hand_cards(browser, extra="[data-legal=true]")
        assert len(legal) == len(shown)
        if n == 20:
            # a card that is not legal does nothing
            others = hand_cards(browser, turn["seat"], "[data-legal=false]")
            if others:
                click(browser, others[0])
                assert cursor(browser) == n
            screenshot(browser, screenshots / "table-mid-deal-desktop.png", DESKTOP)
        click(browser, choose.choice(legal))
        assert cursor(browser) == n + 1
    state = page_state(browser)
    final = post(live_server, "/legal-moves", state).json()
    assert final["finished"] is True and final["hand_sizes"] == [0, 0, 0, 0]
    for seat in range(4):
        taken = browser.find_elements(By.CSS_SELECTOR, f"[data-role=taken][data-seat='{seat}'] [data-card]")
        assert sorted(c.get_attribute("data-card") for c in taken) == sorted(final["taken"][seat])
        points = browser.find_element(By.CSS_SELECTOR, f".seat[data-seat='{seat}'] [data-role=points]")
        assert int(points.get_attribute("data-points")) == final["points"][seat]
    score = post(live_server, "/score", {"captured": final["taken"]}).json()
    ingots = post(live_server, "/ingots", {"scores": score["raw"]}).json()
    sheet_cells = browser.find_elements(By.CSS_SELECTOR, "[data-role=score-sheet] td[data-value]")
    shown = {(c.get_attribute("data-field"), int(c.get_attribute("data-seat"))): int(c.get_attribute("data-value"))
             for c in sheet_cells}
    expected = {}
    for seat in range(4):
        for field in ["hearts", "pig", "sheep", "transformer_factor", "raw"]:
            expected[field, seat] = score["seats"][seat][field]
        for field in ["normalized", "final"]:
            expected[field, seat] = score[field][seat]
        expected["ingots", seat] = ingots["net"][seat]
        notes = browser.find_element(By.CSS_SELECTOR,
                                     f"[data-role=score-sheet] td[data-field=notes][data-seat='{seat}']")
        assert ("满红" in notes.text) == score["seats"][seat]["all_hearts"]
        assert ("满贯" in notes.text) == score["seats"][seat]["grand_slam"]
    assert shown == expected
    assert browser.find_element(By.CSS_SELECTOR, "[data-role=finished]").is_displayed()
    screenshot(browser, screenshots / "table-score-sheet-desktop.png", DESKTOP)
    screenshot(browser, screenshots / "table-score-sheet-phone.png", PHONE)
    # stepping back and forward walks the history
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=back]"))
    assert cursor(browser) == 51 and not browser.find_elements(By.CSS_SELECTOR, "[data-role=score-sheet]")
    assert len(hand_cards(browser)) == 1
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=start]"))
    assert cursor(browser) == 0 and len(hand_cards(browser)) == 52
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=end]"))
    assert cursor(browser) == 52 and browser.find_elements(By.CSS_SELECTOR, "[data-role=score-sheet]")
    check_console_and_network(browser, live_server)


def click_move(browser, seat: int, move: list[str], moves: list[list[str]]) -> None:
    """Plays ``move`` by clicking its cards in the seat's hand: a card that is also part of a
    legal pair is selected first, so a single play of it is clicked twice."""
    clicks = [move[0], move[0]] if len(move) == 1 and any(len(m) == 2 and move[0] in m for m in moves) else move
    used: list[str] = []
    for card in clicks:
        found = hand_cards(browser, seat, f"[data-card='{card}'][data-legal=true]")
        again = len(move) == 1 and used
        element = next(e for e in found if (e.get_attribute("data-id") in used) == bool(again))
        used.append(element.get_attribute("data-id"))
        click(browser, element)


def test_two_decks_pairs_are_played_by_clicking_both_cards(browser, live_server, screenshots):
    # seed 10 deals both C2 to seat 1, which may lead C2 or the pair C2 C2
    rules = {"decks": 2}
    open_table(browser, live_server, "seed=10&decks=2")
    dealt = post(live_server, "/deal", {"seed": 10, "rules": rules}).json()
    assert dealt["leader"] == 1
    first = hand_cards(browser, 1, "[data-card=C2]")
    assert [c.get_attribute("data-id") for c in first] == ["C2-1", "C2-2"]
    click(browser, first[0])
    assert cursor(browser) == 0 and hand_cards(browser, 1, "[data-selected]")
    click(browser, hand_cards(browser, 1, "[data-id='C2-2']")[0])
    assert cursor(browser) == 1 and page_state(browser)["plays"] == [["C2", "C2"]]
    choose = random.Random(10)
    for n in range(1, 9):
        state = page_state(browser)
        turn = post(live_server, "/legal-moves", state).json()
        move = choose.choice(turn["moves"])
        click_move(browser, turn["seat"], move, turn["moves"])
        assert cursor(browser) == n + 1
        assert sorted(page_state(browser)["plays"][n]) == sorted(move)
    assert len(hand_cards(browser)) == 104 - sum(len(p) for p in page_state(browser)["plays"])
    screenshot(browser, screenshots / "table-two-decks-desktop.png", DESKTOP)
    check_console_and_network(browser, live_server)


# ---- problems -----------------------------------------------------------------------------

def problem_text(browser) -> tuple[str, str, list[str]]:
    box = browser.find_element(By.CSS_SELECTOR, "[data-role=problem]")
    details = [e.text for e in box.find_elements(By.CSS_SELECTOR, "[data-role=error-detail]")]
    return (box.get_attribute("data-problem-code"),
            box.find_element(By.CSS_SELECTOR, "[data-role=problem-detail]").text, details)


def test_an_illegal_play_is_shown_on_its_card_in_english_and_chinese(browser, live_server, screenshots):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    # seat 3 leads C2; seat 0 holds C8 yet plays the pig
    state = {"hands": hands, "plays": [["C2"], ["SQ"], ["CA"], ["C3"]]}
    english = post(live_server, "/legal-moves", state).json()
    chinese = post(live_server, "/legal-moves", state, CHINESE).json()
    assert english["code"] == "must_follow_suit" and english["errors"][0]["pointer"] == "/plays/1"
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    assert problem_text(browser) == ("must_follow_suit", english["detail"], [english["errors"][0]["detail"]])
    # the page stands before the rejected play, with its card marked in seat 0's hand
    assert cursor(browser) == 1
    marked = hand_cards(browser, extra="[data-problem]")
    assert [(c.get_attribute("data-card"), c.get_attribute("data-seat")) for c in marked] == [("SQ", "0")]
    assert marked[0].get_attribute("data-problem") == "must_follow_suit"
    rejected = browser.find_elements(By.CSS_SELECTOR, "[data-role=rejected] [data-card][data-problem]")
    assert [c.get_attribute("data-card") for c in rejected] == ["SQ"]
    pointer = browser.find_element(By.CSS_SELECTOR, "[data-pointer='/plays/1']").text
    assert "plays[1], the deal's 2nd play (trick 1) by seat 0: SQ" in pointer
    screenshot(browser, screenshots / "table-problem-desktop-en.png", DESKTOP)
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=lang][data-lang=zh]"))
    assert problem_text(browser) == ("must_follow_suit", chinese["detail"], [chinese["errors"][0]["detail"]])
    assert "必须跟出梅花" in chinese["detail"]
    assert [c.get_attribute("data-card") for c in hand_cards(browser, extra="[data-problem]")] == ["SQ"]
    pointer = browser.find_element(By.CSS_SELECTOR, "[data-pointer='/plays/1']").text
    assert "plays[1]，即本局第 2 张出牌（第 1 圈），座位 0：SQ" in pointer
    screenshot(browser, screenshots / "table-problem-desktop-zh.png", DESKTOP)
    screenshot(browser, screenshots / "table-problem-phone-zh.png", PHONE)
    # the share link carries the whole state, so it shows the problem again
    assert page_state(browser) == state
    check_console_and_network(browser, live_server, allowed_statuses=(422,))


def test_a_card_the_seat_does_not_hold_and_a_bad_hand(browser, live_server):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    # seat 1 took trick 1 with CA and leads the pig, which seat 0 holds
    state = {"hands": hands, "plays": [["C2"], ["C8"], ["CA"], ["C3"], ["SQ"]]}
    answer = post(live_server, "/legal-moves", state).json()
    assert (answer["code"], answer["errors"][0]["pointer"]) == ("card_not_in_hand", "/plays/4/0")
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    assert problem_text(browser)[:2] == ("card_not_in_hand", answer["detail"])
    assert cursor(browser) == 4 and hand_cards(browser, extra="[data-problem]") == []
    assert [c.get_attribute("data-card") for c in browser.find_elements(
        By.CSS_SELECTOR, "[data-role=rejected] [data-problem]")] == ["SQ"]
    assert "plays[4], the deal's 5th play (trick 2) by seat 1: SQ" in browser.find_element(
        By.CSS_SELECTOR, "[data-pointer='/plays/4/0']").text
    # a hand dealt the pig twice: the copy in seat 1's hand is marked where it was sent
    bad = {"hands": [hands[0], ["SQ", *hands[1][1:]], hands[2], hands[3]]}
    answer = post(live_server, "/legal-moves", bad).json()
    pointers = [e["pointer"] for e in answer["errors"]]
    assert "/hands/1/0" in pointers
    open_table(browser, live_server, f"state={b64url(bad)}&lang=en")
    assert problem_text(browser)[:2] == (answer["code"], answer["detail"])
    marked = {(c.get_attribute("data-seat"), c.get_attribute("data-index"))
              for c in hand_cards(browser, extra="[data-problem]")}
    assert ("1", "0") in marked
    check_console_and_network(browser, live_server, allowed_statuses=(422,))


# ---- suggest, claim, copy as curl ----------------------------------------------------------

def test_suggest_and_claim_answer_as_the_api_does(browser, live_server):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    state = {"hands": hands, "plays": [["C2"], ["C8"], ["CA"], ["C3"]]}
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    moves = post(live_server, "/legal-moves", state).json()["moves"]
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=suggest]"))
    suggestion = browser.find_element(By.CSS_SELECTOR, "[data-role=suggestion]").get_attribute("data-move").split()
    assert suggestion in moves
    assert [c.get_attribute("data-card") for c in hand_cards(browser, 1, "[data-suggested]")] == suggestion
    claim = {"seat": 1, "kind": "all_tricks"}
    verdict = post(live_server, "/claim", {**state, "claim": claim}).json()
    assert verdict["holds"] is False
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=claim]"))
    assert browser.find_element(By.CSS_SELECTOR, "[data-role=verdict]").get_attribute("data-holds") == "false"
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=refutation]"))
    assert cursor(browser) == 4 + len(verdict["refutation"])
    assert page_state(browser)["plays"] == state["plays"] + verdict["refutation"]
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=curl]"))
    curl = browser.find_element(By.CSS_SELECTOR, "[data-role=curl-text]").get_attribute("value")
    assert curl.startswith(f"curl -s '{live_server}/legal-moves' -H 'Content-Type: application/json'")
    body = json.loads(curl.split(" -d '", 1)[1][:-1])
    assert body == page_state(browser)
    check_console_and_network(browser, live_server)


def test_best_play_cards_open_shows_solves_values_and_plays_a_move(browser, live_server):
    # the conformance case solve-1d-seed-10-lead-hk-takes-all-hearts: HK takes all hearts (300), H10 -30
    from gongzhu.conformance import cases

    state = next(c for c in cases.read_file("solve.json")
                 if c["id"] == "solve-1d-seed-10-lead-hk-takes-all-hearts")["request"]["body"]
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=solve]"))
    answer = post(live_server, "/solve", state).json()
    shown = browser.find_element(By.CSS_SELECTOR, "[data-role=solve]")
    assert shown.get_attribute("data-exact") == "true"
    buttons = shown.find_elements(By.CSS_SELECTOR, "[data-action=move]")
    assert [(json.loads(b.get_attribute("data-move")), b.text.split()[-1], b.get_attribute("data-best"))
            for b in buttons] == [(v["move"], str(v["value"]), str(v["move"] in answer["best"]).lower())
                                  for v in answer["values"]] == [(["H10"], "-30", "false"), (["HK"], "300", "true")]
    click(browser, buttons[1])
    assert page_state(browser)["plays"] == state["plays"] + [["HK"]]
    check_console_and_network(browser, live_server)


def test_pasted_json_shows_exposures_and_a_bad_seed_marks_its_field(browser, live_server):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    # three of SQ DJ C10 HA exposed: the fourth (C10, seat 2) is exposed too (rules.md §3)
    state = {"hands": hands, "exposed": [["SQ", "HA"], [], [], ["DJ"]], "plays": []}
    effective = post(live_server, "/exposures", {"hands": hands, "exposed": state["exposed"]}).json()
    open_table(browser, live_server, "lang=en")
    load = browser.find_element(By.CSS_SELECTOR, "[data-role=load]")
    if load.get_attribute("open") is None:
        load.find_element(By.TAG_NAME, "summary").click()
    box = browser.find_element(By.CSS_SELECTOR, "[data-field=paste]")
    box.clear()
    box.send_keys(json.dumps(state))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=load]"))
    exposed = {(c.get_attribute("data-seat"), c.get_attribute("data-card"))
               for c in hand_cards(browser, extra="[data-exposed]")}
    assert exposed == {(str(seat), card) for seat, cards in enumerate(effective["exposed"]) for card in cards}
    assert ("2", "C10") in exposed
    assert page_state(browser) == state
    # the fourth card exposed automatically is named with the three (rules.md §3), each value doubled (§5)
    assert exposure_values(browser) == "Card values, SQ DJ C10 HA exposed: " \
        f"{values_text(effective)}; with C10, the rest ×{effective['transformer_factor']}"
    assert values_text(effective) == "SQ −200 · DJ +200 · C10 +100 · HA −100"
    answer = post(live_server, "/deal", {"seed": "not-a-seed"}).json()
    open_table(browser, live_server, "seed=not-a-seed&lang=en")
    assert problem_text(browser)[:2] == ("schema_violation", answer["detail"])
    assert browser.find_element(By.CSS_SELECTOR, "[data-field=seed]").get_attribute("data-problem") == "true"
    check_console_and_network(browser, live_server, allowed_statuses=(422,))


def exposure_values(browser) -> str:
    return browser.find_element(By.CSS_SELECTOR, "[data-role=exposure-values]").text


def values_text(sheet) -> str:
    """/exposures' values as the page writes numbers: a sign on both sides of 0."""
    return " · ".join(f"{card} {value:+d}".replace("-", "−") for card, value in sheet["values"].items())


@pytest.mark.parametrize("lang, line", [
    ("en", "Card values, none exposed: SQ −100 · DJ +100 · C10 +50 · HA −50; with C10, the rest ×2"),
    ("zh", "分牌分值（无亮牌）：SQ −100 · DJ +100 · C10 +50 · HA −50；得变压器者其余分数 ×2")])
def test_the_card_values_say_none_is_exposed_when_none_is(browser, live_server, lang, line):
    # seed 5: nobody exposes, so each card scores its plain value (rules.md §5) and the transformer doubles
    hands = post(live_server, "/deal", {"seed": 5}).json()["hands"]
    sheet = post(live_server, "/exposures", {"hands": hands}).json()
    assert (sheet["exposed"], sheet["transformer_factor"]) == ([[], [], [], []], 2)
    open_table(browser, live_server, f"seed=5&lang={lang}")
    assert exposure_values(browser) == line
    assert values_text(sheet) in line


# Rejected states of every shape: each is drawn with the service's own problem, never a
# fault of the page. "HANDS" stands for seed 1's hands.
REJECTED = {
    "hands not a list": {"hands": 5},
    "plays not a list": {"hands": "HANDS", "plays": "C2"},
    "a play not a list": {"hands": "HANDS", "plays": [["C2"], "C8"]},
    "an empty play": {"hands": "HANDS", "plays": [["C2"], []]},
    "a card that is no card": {"hands": "HANDS", "plays": [["C2"], ["X1"]]},
    "an exposure not held": {"hands": "HANDS", "exposed": [["DJ"], [], [], []]},
    "three decks": {"hands": "HANDS", "rules": {"decks": 3}},
    "a field the contract lacks": {"hands": "HANDS", "player": 1},
}


@pytest.mark.parametrize("name", list(REJECTED))
def test_rejected_states_of_any_shape_show_the_services_problem(browser, live_server, name):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    state = {key: hands if value == "HANDS" else value for key, value in REJECTED[name].items()}
    answer = post(live_server, "/legal-moves", state)
    assert answer.status_code == 422
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    code, detail, details = problem_text(browser)
    assert (code, detail) == (answer.json()["code"], answer.json()["detail"])
    assert details == [e["detail"] for e in answer.json()["errors"]]
    check_console_and_network(browser, live_server, allowed_statuses=(422,))


@pytest.mark.parametrize("fragment, code", [("state=%%%", "bad_fragment"), ("state=W10", "not_object"),
                                            ("state=bnVsbA", "not_object")])
def test_a_fragment_that_is_no_state_is_said_so(browser, live_server, fragment, code):
    open_table(browser, live_server, f"{fragment}&lang=en")
    assert problem_text(browser)[0] == code
    check_console_and_network(browser, live_server)


def test_a_finished_partnership_deal_with_exposures_scores_as_score_does(browser, live_server):
    rules = {"partnership": True}
    hands = post(live_server, "/deal", {"seed": 3, "rules": rules}).json()["hands"]
    exposed = [[card for card in hand if card in {"SQ", "HA"}] for hand in hands]
    state = {"rules": rules, "hands": hands, "exposed": exposed, "plays": []}
    choose = random.Random(3)
    turn = post(live_server, "/legal-moves", state).json()
    while not turn["finished"]:
        answer = post(live_server, "/play", {**state, "move": choose.choice(turn["moves"])}).json()
        state, turn = answer["state"], answer["next"]
    score = post(live_server, "/score", {"rules": rules, "captured": turn["taken"], "exposed": exposed}).json()
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    cells = browser.find_elements(By.CSS_SELECTOR, "[data-role=score-sheet] td[data-value]")
    shown = {(c.get_attribute("data-field"), int(c.get_attribute("data-seat"))): int(c.get_attribute("data-value"))
             for c in cells}
    for seat in range(4):
        assert [shown[f, seat] for f in ["raw", "normalized", "final"]] == [
            score["raw"][seat], score["normalized"][seat], score["final"][seat]]
    label = browser.find_element(By.CSS_SELECTOR, "[data-role=score-sheet] tr[data-field=normalized] th").text
    assert label == "Partnership"
    # partners share one result
    assert shown["final", 0] == shown["final", 2] == -shown["final", 1] == -shown["final", 3]
    # before the last trick, the seat that takes it may claim every trick: the claim holds
    last = {**state, "plays": state["plays"][:48]}
    verdicts = {seat: post(live_server, "/claim", {**last, "claim": {"seat": seat, "kind": "all_tricks"}}).json()
                for seat in range(4)}
    taker = next(seat for seat, verdict in verdicts.items() if verdict["holds"] is True)
    open_table(browser, live_server, f"state={b64url(state)}&at=48&lang=en")
    assert cursor(browser) == 48
    Select(browser.find_element(By.CSS_SELECTOR, "[data-field=claim-seat]")).select_by_value(str(taker))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=claim]"))
    verdict = browser.find_element(By.CSS_SELECTOR, "[data-role=verdict]")
    assert verdict.get_attribute("data-holds") == "true"
    assert ", ".join(f"{v:+d}".replace("-", "−") if v else "0" for v in verdicts[taker]["score"]["raw"]) in verdict.text
    check_console_and_network(browser, live_server)


# ---- the page's language from its address ----------------------------------------------------

@pytest.mark.parametrize("address, lang", [
    ("/table?lang=zh", "zh"),
    ("/table#lang=zh", "zh"),
    ("/table?lang=zh#seed=1", "zh"),
    ("/table?lang=zh#lang=en", "en"),  # the fragment's choice wins
    ("/table?lang=en", "en"),
])
def test_lang_in_the_query_or_the_fragment_chooses_the_pages_language(browser, live_server, address, lang):
    browser.get("about:blank")
    browser.get(f"{live_server}{address}")
    settle(browser)
    words = {"zh": ("拱猪牌桌", "zh-Hans", "发牌", "载入牌局"),
             "en": ("Gong Zhu deal table", "en", "Deal", "Load a deal")}
    title, html_lang, deal, load = words[lang]
    assert browser.title == title
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == html_lang
    assert browser.find_element(By.CSS_SELECTOR, "[data-action=deal]").get_attribute("textContent") == deal
    assert browser.find_element(By.CSS_SELECTOR, "[data-i18n=load]").get_attribute("textContent") == load
    pressed = browser.find_elements(By.CSS_SELECTOR, "[data-action=lang][aria-pressed=true]")
    assert [b.get_attribute("data-lang") for b in pressed] == [lang]
    check_console_and_network(browser, live_server)


# ---- the review ------------------------------------------------------------------------------

# The page's threshold of a large loss (docs/table.md): the heart ace's 50 raw points.
LARGE_LOSS = 50
REVIEW_WORDS = {"en": ("Review", "Loss", "Largest mistakes", "Accuracy", "Verdicts"),
                "zh": ("复盘", "损失", "最大失误", "准确度", "评级")}
VERDICT_WORDS = {"en": {"best": "best", "good": "good", "inaccuracy": "inaccuracy", "mistake": "mistake",
                        "blunder": "blunder"},
                 "zh": {"best": "最佳", "good": "好棋", "inaccuracy": "欠佳", "mistake": "失误", "blunder": "大错"}}
# seed 27's deal played at random (random.Random(27)) to plays[47], seat 1's, the last play of trick 12
KNOWN_SEED, KNOWN_PLAY = 27, 47


def level(loss: float) -> str:
    return "none" if loss <= 0 else "small" if loss < LARGE_LOSS else "large"


def play_forced_to_the_end(base: str, state: dict) -> tuple[dict, list[int]]:
    """The state with its last, forced plays made, and the raw scores /score gives it."""
    turn = post(base, "/legal-moves", state).json()
    while not turn["finished"]:
        assert len(turn["moves"]) == 1
        answer = post(base, "/play", {**state, "move": turn["moves"][0]}).json()
        state, turn = answer["state"], answer["next"]
    return state, post(base, "/score", {"captured": turn["taken"]}).json()["raw"]


def deal_with_a_known_mistake(base: str) -> tuple[dict, int, dict[str, int]]:
    """Seed 27's deal, finished, with plays[47] the worse of seat 1's two moves, and the value of each:
    after plays[47] every play is forced, so a move's value is seat 1's raw score once the last trick
    is played — /play and /score, no search."""
    state = {"hands": post(base, "/deal", {"seed": KNOWN_SEED}).json()["hands"], "plays": []}
    choose = random.Random(KNOWN_SEED)
    turn = post(base, "/legal-moves", state).json()
    while len(state["plays"]) < KNOWN_PLAY:
        answer = post(base, "/play", {**state, "move": choose.choice(turn["moves"])}).json()
        state, turn = answer["state"], answer["next"]
    ends = {move[0]: play_forced_to_the_end(base, post(base, "/play", {**state, "move": move}).json()["state"])
            for move in turn["moves"]}
    worse = min(ends, key=lambda card: ends[card][1][turn["seat"]])
    return ends[worse][0], turn["seat"], {card: raw[turn["seat"]] for card, (_, raw) in ends.items()}


def answer_of(browser, events: list[dict], url: str) -> dict:
    """The body of the last answer the page got from ``url``, as chromium received it."""
    ids = [e["params"]["requestId"] for e in events
           if e["method"] == "Network.responseReceived" and e["params"]["response"]["url"] == url]
    return json.loads(browser.execute_cdp_cmd("Network.getResponseBody", {"requestId": ids[-1]})["body"])


def datasets(browser, selector: str) -> list[dict]:
    """The data-* attributes and classes of every element the selector finds, in one round trip."""
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => ({...e.dataset, class: e.className,"
        " text: e.textContent}))", selector)


def js_number(value: float) -> str:
    """``value`` as JavaScript writes it (11.0 as 11)."""
    return str(int(value)) if value == int(value) else str(value)


def check_review_shown(browser, answer: dict, lang: str = "en") -> None:
    """One timeline entry a play, in order, four a trick (numbered from 0 as the API numbers them), coloured by
    its loss, with its verdict and lens; the summary is the answer's, accuracy and verdicts included."""
    shown = datasets(browser, "[data-role=review-timeline] [data-role=review-play]")
    assert [(int(e["play"]), int(e["trick"]), int(e["seat"]), e["played"].split(), float(e["loss"]), e["level"],
             e["exact"] == "true", "forced" in e, json.loads(e["best"]), e["verdict"], e["lens"]) for e in shown] == [
        (d["play"], d["trick"], d["seat"], d["played"], d["loss"], level(d["loss"]), d["exact"], "values" not in d,
         d["best"], d["verdict"], d["lens"]) for d in answer["decisions"]]
    for e, d in zip(shown, answer["decisions"]):
        # a loss is written as the API gives it (positive), and a choice's verdict in the page's language
        assert "−" not in e["text"] and (d["loss"] <= 0 or js_number(d["loss"]) in e["text"])
        assert "values" not in d or VERDICT_WORDS[lang][d["verdict"]] in e["text"]
    numbers = browser.execute_script("return [...document.querySelectorAll('[data-role=review-trick] .trick-no')]"
                                     ".map(e => e.textContent)")
    assert numbers == [str(k) for k in range(len(shown) // 4)]
    for e in shown:
        assert {f"loss-{e['level']}", "exact" if e["exact"] == "true" else "estimate"} <= set(e["class"].split())
    rows = browser.execute_script("return [...document.querySelectorAll('[data-role=review-trick]')]"
                                  ".map(row => row.querySelectorAll('[data-role=review-play]').length)")
    assert rows == [4] * (len(shown) // 4)
    cells = {(int(c["seat"]), c["field"]): c for c in datasets(browser, "[data-role=review-summary] td[data-field]")}
    for seat in answer["seats"]:
        mine = [d for d in answer["decisions"] if d["seat"] == seat["seat"]]
        assert float(cells[seat["seat"], "loss"]["value"]) == seat["loss"]
        loss = cells[seat["seat"], "loss"]["text"].split(" ±")
        assert float(loss[0]) == seat["loss"] and [float(e) for e in loss[1:]] == (
            [seat["loss_se"]] if seat.get("loss_se") else [])
        accuracy = cells[seat["seat"], "accuracy"]["value"]
        assert (None if accuracy == "" else float(accuracy)) == seat["accuracy"]
        assert cells[seat["seat"], "accuracy"]["text"] == ("–" if accuracy == "" else js_number(seat["accuracy"]))
        assert json.loads(cells[seat["seat"], "verdicts"]["value"]) == seat["verdicts"]
        assert int(cells[seat["seat"], "exact"]["value"]) == sum(d["exact"] for d in mine)
        assert int(cells[seat["seat"], "exact"]["of"]) == len(seat["decisions"]) == len(mine)
        jumps = datasets(browser, f"[data-role=review-summary] td[data-field=mistakes][data-seat='{seat['seat']}'] "
                                  "[data-role=review-mistake]")
        assert [(int(j["play"]), float(j["loss"])) for j in jumps] == [(m["play"], m["loss"]) for m in seat["mistakes"]]


def test_the_review_colours_every_play_by_its_loss_and_steps_to_its_mistakes(browser, live_server, screenshots):
    state, seat, values = deal_with_a_known_mistake(live_server)
    # seat 1 played DQ and kept SJ: the last trick then went as its raw score says, 100 points short of
    # playing SJ — a large loss, in hindsight (three tricks or fewer left) and in the fair lens alike
    played, best = state["plays"][KNOWN_PLAY][0], max(values, key=values.get)
    assert (seat, played, best, values[best] - values[played]) == (1, "DQ", "SJ", 100)
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    events = network_events(browser)
    button = browser.find_element(By.CSS_SELECTOR, "[data-action=review]")
    button.click()
    # the answer is awaited with a word of it, the button off
    waiting = browser.find_element(By.CSS_SELECTOR, "[data-role=review-waiting]").text
    assert waiting.startswith("Reviewing every play of the deal") and not button.is_enabled()
    settle(browser)
    events += network_events(browser)
    answer = answer_of(browser, events, f"{live_server}/review")
    assert answer["finished"] is True
    assert [d["played"] for d in answer["decisions"]] == state["plays"]
    # no budget sent: the API's default (the test server caps it), the answer curl gets for the same deal and
    # seed, and the budget shown is the answer's
    assert answer == post(live_server, "/review", {**state, "seed": 1}).json()
    shown = datasets(browser, "[data-role=review-budget]")[0]
    assert (int(shown["budgetMs"]), f"budget {answer['budget_ms']} ms" in shown["text"]) == (answer["budget_ms"], True)
    check_review_shown(browser, answer)
    known = datasets(browser, f"[data-role=review-play][data-play='{KNOWN_PLAY}']")[0]
    assert (known["seat"], known["played"], float(known["loss"]), known["level"], known["exact"], known["verdict"],
            known["lens"], known["hindsightVerdict"]) == (
        "1", "DQ", 100, "large", "false", "blunder", "fair", "blunder")
    assert json.loads(known["best"]) == [["SJ"]]
    shown_best = browser.find_element(By.CSS_SELECTOR, f"[data-play='{KNOWN_PLAY}'] [data-role=review-best]")
    assert shown_best.get_attribute("textContent") == "best J♠"
    # the last trick: four forced plays, no loss
    assert [(e["level"], "forced" in e) for e in datasets(browser, "[data-role=review-play][data-trick='12']")] == [
        ("none", True)] * 4
    # a click on the known mistake stands the table before it: seat 1 to act, each move's value shown
    click(browser, browser.find_element(By.CSS_SELECTOR, f"[data-role=review-play][data-play='{KNOWN_PLAY}']"))
    assert cursor(browser) == KNOWN_PLAY
    assert [s.get_attribute("data-seat") for s in browser.find_elements(By.CSS_SELECTOR, ".seat[data-to-act]")] == ["1"]
    assert sorted(card for card, _ in legal_shown(browser)) == sorted(values)
    assert [c.get_attribute("data-card") for c in hand_cards(browser, 1, "[data-review-best]")] == ["SJ"]
    assert {e["move"]: float(e["value"]) for e in datasets(browser, "[data-role=review-value]")} == values
    # the play is judged fair, its hindsight shown beside it
    hindsight = datasets(browser, "[data-role=review-decision] [data-role=review-hindsight]")[0]
    assert (float(hindsight["loss"]), hindsight["verdict"]) == (100, "blunder")
    assert hindsight["text"] == " · hindsight (exact): Loss 100 blunder"
    assert datasets(browser, "[data-role=review-play][data-current]")[0]["play"] == str(KNOWN_PLAY)
    # each seat's largest mistake steps the table to it, at a phone's width in Chinese too
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=lang][data-lang=zh]"))
    assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, "[data-action=review]")] == ["复盘"]
    check_review_shown(browser, answer, "zh")
    for lang, size in [("zh", DESKTOP), ("zh", PHONE), ("en", PHONE), ("en", DESKTOP)]:
        if browser.find_element(By.TAG_NAME, "html").get_attribute("lang") != {"zh": "zh-Hans", "en": "en"}[lang]:
            click(browser, browser.find_element(By.CSS_SELECTOR, f"[data-action=lang][data-lang={lang}]"))
        with viewport(browser, size):
            for play in (s["mistakes"][0]["play"] for s in answer["seats"] if s["mistakes"]):
                click(browser, browser.find_element(By.CSS_SELECTOR, f"[data-role=review-mistake][data-play='{play}']"))
                assert cursor(browser) == play
                decision = browser.find_element(By.CSS_SELECTOR, "[data-role=review-decision]")
                assert decision.get_attribute("data-play") == str(play)
            words = [browser.find_element(By.CSS_SELECTOR, selector).text for selector in (
                "[data-action=review]", "[data-role=review-summary] tr[data-field=loss] th",
                "[data-role=review-summary] tr[data-field=mistakes] th",
                "[data-role=review-summary] tr[data-field=accuracy] th",
                "[data-role=review-summary] tr[data-field=verdicts] th")]
            assert tuple(words) == REVIEW_WORDS[lang]
            assert browser.execute_script("return document.documentElement.scrollWidth") <= size[0]
        screenshot(browser, screenshots / f"table-review-{'phone' if size == PHONE else 'desktop'}-{lang}.png", size)
    check_console_and_network(browser, live_server, events=events)


def test_an_unfinished_deal_is_reviewed_and_a_refused_review_shows_the_problems_words(browser, live_server):
    hands = post(live_server, "/deal", {"seed": 1}).json()["hands"]
    # the first trick, wherever the cursor stands: its four plays reviewed, the deal not over
    state = {"hands": hands, "plays": [["C2"], ["C8"], ["CA"], ["C3"]]}
    open_table(browser, live_server, f"state={b64url(state)}&at=1&lang=en")
    events = network_events(browser)
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=review]"))
    events += network_events(browser)
    answer = answer_of(browser, events, f"{live_server}/review")
    assert answer["finished"] is False and answer["score"] is None
    assert [d["played"] for d in answer["decisions"]] == state["plays"]
    check_review_shown(browser, answer)
    assert cursor(browser) == 1
    assert browser.find_element(By.CSS_SELECTOR, "[data-role=review-decision]").get_attribute("data-play") == "1"
    # a play made drops the review of the plays it replaced
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=end]"))
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-role=moves] [data-action=move]"))
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-role=review-timeline]")
    check_console_and_network(browser, live_server, events=events)
    # seat 0 holds C8 yet plays the pig: the review is refused as /legal-moves refuses the state
    state = {"hands": hands, "plays": [["C2"], ["SQ"], ["CA"], ["C3"]]}
    refused = post(live_server, "/review", {**state, "seed": 1, "budget_ms": 3000}).json()
    assert refused["code"] == "must_follow_suit"
    open_table(browser, live_server, f"state={b64url(state)}&lang=en")
    events = network_events(browser)
    click(browser, browser.find_element(By.CSS_SELECTOR, "[data-action=review]"))
    events += network_events(browser)
    # the problem shown is /review's (the page showed /legal-moves' on loading the state)
    assert answer_of(browser, events, f"{live_server}/review")["errors"] == refused["errors"]
    assert problem_text(browser) == ("must_follow_suit", refused["detail"], [e["detail"] for e in refused["errors"]])
    assert cursor(browser) == 1 and not browser.find_elements(By.CSS_SELECTOR, "[data-role=review-timeline]")
    check_console_and_network(browser, live_server, allowed_statuses=(422,), events=events)
