"""Orders clicked on the board in a real browser (headless Chromium): a Diplomacy game played by clicking only
(a move, a support, a convoy and the convoyed move with its path, a coast asked, a retreat, a build), each clicked order in the
box and its unit's list, and drawn on the board as pending; at phone size every control is a finger's size and
nothing scrolls sideways, the board zooms and takes taps; axe-core finds nothing at either size. One browser
and one server serve the module."""

from __future__ import annotations

import pytest
import requests
from tests.api_helpers import logged_server
from tests.page.chromium_helpers import (axe_violations, chromium, click_board, horizontal_overflow, require_browser,
                                         small_tap_targets, viewport)

By = pytest.importorskip("selenium.webdriver.common.by", reason="Selenium is in the `test` extra").By
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402 - after the import check

WAIT = 30  # seconds: the first picture a server worker draws imports the plotting library


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    require_browser()
    with logged_server(tmp_path_factory.mktemp("map")) as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser(served):
    with chromium() as driver:
        yield driver


@pytest.fixture
def page(browser):
    viewport(browser, 1280, 800)
    browser.get_log("browser")
    yield browser
    errors = [e["message"] for e in browser.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]
    assert not errors, errors


def until(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def api(base: str, method: str, path: str, token: str, **kwargs) -> requests.Response:
    return requests.request(method, base + path, headers={"Authorization": f"Bearer {token}"}, timeout=30, **kwargs)


def open_play(driver, base: str, game_id: str, token: str) -> None:
    driver.get("about:blank")
    driver.get(f"{base}/play/{game_id}#token={token}")
    until(driver, board_ready)


def board_ready(driver) -> bool:
    """The page shows its phase, the board is drawn, and the orders panel has the service's first answer."""
    return bool(driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded")
                and driver.find_elements(By.CSS_SELECTOR, "#board-picture svg [id^='space-']")
                and driver.find_element(By.ID, "statuses").get_attribute("data-answers"))


def box(driver) -> list[str]:
    return [line.strip() for line in driver.find_element(By.ID, "typed").get_attribute("value").splitlines()
            if line.strip()]


def listed(driver, unit: str) -> str:
    label = driver.find_element(By.XPATH, f"//div[@id='units']//label[normalize-space()='{unit}']")
    return Select(driver.find_element(By.ID, label.get_attribute("for"))).first_selected_option.text


def choose(driver, order: str) -> None:
    """Pick one of the orders the board asks about (a button under the board)."""
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#picker button[data-order='{order}']"))
    driver.find_element(By.CSS_SELECTOR, f"#picker button[data-order='{order}']").click()


def send(driver) -> list[str]:
    before = driver.find_element(By.ID, "statuses").get_attribute("data-answers")
    driver.find_element(By.ID, "send").click()
    until(driver, lambda d: d.find_element(By.ID, "statuses").get_attribute("data-answers") != before)
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#statuses li")]


def pending_drawn(driver, count: int) -> bool:
    """The board is drawn again with the seat's pending orders (`count` of them), marked as pending."""
    svg = driver.find_elements(By.CSS_SELECTOR, "#board-picture svg.pending")
    return bool(svg) and len(svg[0].find_elements(By.CSS_SELECTOR, "[id^='order-']:not([id$='-failed'])")) >= count


def pan_to(driver, element_id: str) -> None:
    """Pan the zoomed board with the arrow keys (as a keyboard user would) until the element's centre is in view."""
    from selenium.webdriver.common.keys import Keys

    frame = driver.find_element(By.CSS_SELECTOR, "#board-picture .frame")
    for _ in range(40):
        f = frame.rect
        e = driver.find_element(By.ID, element_id).rect
        seen_x = min(e["x"] + e["width"], f["x"] + f["width"]) - max(e["x"], f["x"])
        seen_y = min(e["y"] + e["height"], f["y"] + f["height"]) - max(e["y"], f["y"])
        if seen_x >= 30 and seen_y >= 30:  # enough of it shows to tap it
            return
        x, y = e["x"] + e["width"] / 2, e["y"] + e["height"] / 2
        keys = ([Keys.ARROW_LEFT] if x < f["x"] + 20 else [Keys.ARROW_RIGHT] if x > f["x"] + f["width"] - 20 else []) + (
            [Keys.ARROW_UP] if y < f["y"] + 20 else [Keys.ARROW_DOWN] if y > f["y"] + f["height"] - 20 else [])
        if not keys:
            return
        for key in keys:
            frame.send_keys(key)
    raise AssertionError(f"{element_id} cannot be panned into view: {frame.rect}, "
                         f"{driver.find_element(By.ID, element_id).rect}")


def loaded(driver, phase_no: int) -> bool:
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == str(phase_no) and board_ready(driver)


# Fall 1901: England convoys its army to Norway along the North Sea, supports the fleet that convoys, moves a
# fleet; Germany dislodges England's army in Holland (which retreats), and England builds with Norway.
POSITION = {"variant": "standard", "phase": {"season": "Fall", "year": 1901, "type": "Movement"},
            "centres": {"England": ["lon", "edi", "lvp", "spa", "por"], "Germany": ["ber", "kie", "mun"]},
            "units": {"England": ["F nth", "A yor", "A hol", "F lon", "F eng", "F por"], "Germany": ["A kie", "A ruh"]}}


def test_a_diplomacy_game_played_by_clicking_only(page, served):
    base = served
    game = requests.post(base + "/v1/games", json={"variant": "standard", "state": POSITION,
                                                   "rules": "4.A.6: required"}, timeout=30).json()
    gid, gm, england = game["id"], game["game_master_token"], game["tokens"]["England"]
    api(base, "PUT", f"/v1/games/{gid}/orders", game["tokens"]["Germany"],
        json={"orders": ["A kie - hol", "A ruh S A kie - hol"], "phase_no": 1})
    open_play(page, base, gid, england)

    click_board(page, "unit-England-F-eng")  # a move: the unit, then where it goes
    click_board(page, "space-mid")
    until(page, lambda d: "F eng - mid" in box(d))
    assert listed(page, "F eng") == "F eng - mid"

    click_board(page, "unit-England-F-lon")  # a support of a hold: the unit, the unit it supports, that unit again
    click_board(page, "unit-England-F-nth")
    click_board(page, "unit-England-F-nth")
    until(page, lambda d: "F lon S F nth" in box(d))

    click_board(page, "unit-England-F-nth")  # a convoy: the fleet, the army, where the army goes
    click_board(page, "unit-England-A-yor")
    click_board(page, "space-nwy")
    until(page, lambda d: "F nth C A yor - nwy" in box(d))

    click_board(page, "unit-England-A-yor")  # by land or by convoy: both are legal, so the page asks which
    click_board(page, "space-edi")
    choose(page, "A yor - edi")
    until(page, lambda d: "A yor - edi" in box(d))
    click_board(page, "unit-England-A-yor")  # the convoyed move, through the sea it names (4.A.6: required)
    click_board(page, "space-nth")
    click_board(page, "space-nwy")
    until(page, lambda d: "A yor - nth - nwy via convoy" in box(d))
    assert listed(page, "A yor") == "A yor - nth - nwy via convoy"

    click_board(page, "unit-England-F-por")  # a coast: Spain has two, both in reach, so the page asks which
    click_board(page, "space-spa")
    choose(page, "F por - spa/nc")
    until(page, lambda d: "F por - spa/nc" in box(d))

    click_board(page, "unit-England-F-eng")  # a second order for a unit replaces the first, and the page says so
    click_board(page, "space-wal")
    until(page, lambda d: "F eng - wal replaces F eng - mid" in d.find_element(By.ID, "messages").text)
    click_board(page, "unit-England-F-eng")
    click_board(page, "space-mid")
    until(page, lambda d: "F eng - mid" in box(d))
    assert box(page) == ["F eng - mid", "F lon S F nth", "F nth C A yor - nwy", "A yor - nth - nwy via convoy",
                         "F por - spa/nc"]
    until(page, lambda d: pending_drawn(d, 5))  # drawn by the picture code as the phase's orders, marked pending
    assert page.find_element(By.ID, "board-pending").is_displayed()
    answers = send(page)
    assert len(answers) == 5 and all(" ok" in a for a in answers), answers
    assert api(base, "POST", f"/v1/games/{gid}/adjudicate", gm, json={"phase_no": 1}).status_code == 200

    until(page, lambda d: loaded(d, 2), timeout=10)  # the open page hears of the judgement and shows the retreat
    click_board(page, "dislodged-England-A-hol")
    click_board(page, "space-bel")
    until(page, lambda d: box(d) == ["A hol R bel"] or box(d) == ["A hol - bel"])
    retreat = box(page)[0]
    assert " ok" in send(page)[0]
    assert api(base, "POST", f"/v1/games/{gid}/adjudicate", gm, json={"phase_no": 2}).status_code == 200

    until(page, lambda d: loaded(d, 3), timeout=10)  # the adjustments: a build in an empty home centre
    click_board(page, "space-edi")
    choose(page, "Build F edi")
    until(page, lambda d: box(d) == ["Build F edi"])
    labels = [label.text for label in page.find_elements(By.CSS_SELECTOR, "#units .unit label")]
    assert listed(page, labels[0]) == "Build F edi", labels
    assert " ok" in send(page)[0]
    assert api(base, "POST", f"/v1/games/{gid}/adjudicate", gm, json={"phase_no": 3}).status_code == 200

    judged = [api(base, "GET", f"/v1/games/{gid}/phases/{n}", gm).json() for n in (1, 2, 3)]
    assert judged[0]["orders"]["England"] == ["F eng - mid", "F lon S F nth", "F nth C A yor - nwy",
                                              "A yor - nth - nwy via convoy", "F por - spa/nc"]
    assert judged[1]["orders"]["England"] == [retreat] and judged[2]["orders"]["England"] == ["Build F edi"]
    units = judged[2]["position_after"]["units"]["England"]
    assert sorted(units) == ["A bel", "A nwy", "F edi", "F lon", "F mid", "F nth", "F spa/nc"]


def test_at_phone_size_the_board_zooms_takes_taps_and_every_control_is_a_fingers_size(page, served):
    base = served
    game = requests.post(base + "/v1/games", json={"variant": "arctic"}, timeout=30).json()
    viewport(page, 390, 844, mobile=True)
    open_play(page, base, game["id"], game["tokens"]["Russia"])
    assert not horizontal_overflow(page), "the page scrolls sideways at phone width"
    assert not small_tap_targets(page), small_tap_targets(page)
    frame = page.find_element(By.CSS_SELECTOR, "#board-picture .frame")
    assert frame.rect["width"] >= 360  # the board, full width
    assert not page.find_elements(By.CSS_SELECTOR, "#board-picture svg #legend")  # the legend is page text instead
    legend = [li.text for li in page.find_elements(By.CSS_SELECTOR, "#board-picture .legend li")]
    assert any(entry.startswith("Russia") for entry in legend), legend
    page.find_element(By.XPATH, "//div[@id='board-picture']//button[normalize-space()='Zoom in']").click()
    page.find_element(By.XPATH, "//div[@id='board-picture']//button[normalize-space()='Zoom in']").click()
    assert "zoomed" in frame.get_attribute("class")
    pan_to(page, "unit-Russia-A-Arc")
    click_board(page, "unit-Russia-A-Arc")  # the example of issue 38, tapped on a zoomed board
    pan_to(page, "space-Ura")
    click_board(page, "space-Ura")
    until(page, lambda d: box(d) == ["A Arc - Ura"])
    assert listed(page, "A Arc") == "A Arc - Ura"
    assert not horizontal_overflow(page)
    answers = send(page)
    assert answers and " ok" in answers[0]
    violations = axe_violations(page)
    assert not violations, violations


def test_axe_core_finds_nothing_on_the_desktop_page_with_orders_and_a_judged_phase(page, served):
    base = served
    game = requests.post(base + "/v1/games", json={"variant": "arctic"}, timeout=30).json()
    api(base, "PUT", f"/v1/games/{game['id']}/orders", game["tokens"]["Norway"],
        json={"orders": ["F Osl - Nwg", "F Tro - Bar"], "phase_no": 1})
    api(base, "POST", f"/v1/games/{game['id']}/adjudicate", game["game_master_token"], json={"phase_no": 1})
    open_play(page, base, game["id"], game["tokens"]["Norway"])
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#phase-list details[open] .report-orders tbody tr"))
    board = page.find_element(By.ID, "board").rect
    orders = page.find_element(By.ID, "orders").rect
    assert orders["x"] >= board["x"] + board["width"] - 1 and orders["y"] < 200  # side by side, at the top
    legend = page.find_element(By.CSS_SELECTOR, "#board-picture .legend-box").rect
    assert legend["y"] + min(legend["height"], 60) <= 800  # the board fits the screen, its legend begins on it
    violations = axe_violations(page)
    assert not violations, violations
