"""The play page in a real browser (headless Chromium): a power's units after the page's script runs, a whole
Arctic phase played by two powers and the game master through their pages, another game's own order syntax,
the keyboard alone at phone width, and no token in the server's log. One browser and one server serve the
module; every game is made through the API, as a game master or bot would. Pictures are drawn only where a
test looks at them (a picture costs the server a second or more)."""

from __future__ import annotations

import time

import pytest
import requests
from tests.api_helpers import logged_server
from tests.page.chromium_helpers import CURRENT_BOARD, PHASE_PICTURES, block_pictures, chromium, require_browser

By = pytest.importorskip("selenium.webdriver.common.by", reason="Selenium is in the `test` extra").By
from selenium.webdriver.common.keys import Keys  # noqa: E402 - after the import check
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WAIT = 30  # seconds: the first picture a server worker draws imports the plotting library


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    require_browser()  # before the server starts: a machine without a browser skips at once
    with logged_server(tmp_path_factory.mktemp("play")) as (base, log):
        yield base, log


@pytest.fixture(scope="module")
def browser(served):  # started after the server, so closed (with its connections) before the server stops
    with chromium() as driver:
        yield driver


@pytest.fixture
def page(browser):
    browser.set_window_size(1000, 1200)
    block_pictures(browser)
    console_errors(browser)  # only this test's count
    yield browser
    assert not console_errors(browser), "the page's script failed or broke its policy"


def console_errors(driver) -> list[str]:
    """Script errors and policy violations since the last call. Answers the API refused (a 422 for a game without
    pictures) are the page's to explain, and the tests check it does."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]


def picture_shown(driver, selector: str) -> bool:
    """Is a picture in `selector` shown (the service's SVG, kept in the page)?"""
    pictures = driver.find_elements(By.CSS_SELECTOR, f"{selector} .frame svg")
    return bool(pictures) and pictures[0].is_displayed() and bool(pictures[0].find_elements(By.CSS_SELECTOR, "[data-layer]"))


def new_game(base: str, **body) -> dict:
    answer = requests.post(base + "/v1/games", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def api(base: str, method: str, path: str, token: str, **kwargs) -> requests.Response:
    return requests.request(method, base + path, headers={"Authorization": f"Bearer {token}"}, timeout=30, **kwargs)


def open_play(driver, base: str, game_id: str, token: str) -> None:
    """Open a play link as a player would, in a page that starts afresh."""
    driver.get("about:blank")
    driver.get(f"{base}/play/{game_id}#token={token}")


def until(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def orders_shown(driver) -> bool:
    """Has the orders panel shown the seat's units and pending orders (the service's first answer)?"""
    return bool(driver.find_element(By.ID, "statuses").get_attribute("data-answers"))


def unit_labels(driver) -> list[str]:
    return [label.text for label in driver.find_elements(By.CSS_SELECTOR, "#units .unit label")]


def pick(driver, unit: str, order: str) -> None:
    """Choose a unit's order from its list."""
    label = driver.find_element(By.XPATH, f"//div[@id='units']//label[normalize-space()='{unit}']")
    Select(driver.find_element(By.ID, label.get_attribute("for"))).select_by_visible_text(order)


def type_orders(driver, text: str) -> None:
    """Type lines at the end of the orders box (which holds every order, however given)."""
    box = driver.find_element(By.ID, "typed")
    box.send_keys(Keys.CONTROL, Keys.END)
    box.send_keys(("\n" if box.get_attribute("value").strip() else "") + text)


def box_lines(driver) -> list[str]:
    return [t.strip() for t in driver.find_element(By.ID, "typed").get_attribute("value").splitlines() if t.strip()]


def listed(driver, unit: str) -> str:
    """The order a unit's list shows."""
    label = driver.find_element(By.XPATH, f"//div[@id='units']//label[normalize-space()='{unit}']")
    return Select(driver.find_element(By.ID, label.get_attribute("for"))).first_selected_option.text


def send_and_read(driver, count: int) -> list[str]:
    """Send the orders; the answered lines as shown, once `count` of them are there."""
    before = driver.find_element(By.ID, "statuses").get_attribute("data-answers") or ""
    driver.find_element(By.ID, "send").click()
    until(driver, lambda d: (d.find_element(By.ID, "statuses").get_attribute("data-answers") or "") != before)
    items = driver.find_elements(By.CSS_SELECTOR, "#statuses li")
    assert len(items) == count, [i.text for i in items]
    return [i.text for i in items]


def alerts(driver) -> str:
    return driver.find_element(By.ID, "alerts").text


def test_the_page_shows_the_powers_units_after_its_script_runs(page, served):
    base, _ = served
    game = new_game(base, variant="arctic")
    token = game["tokens"]["Russia"]
    block_pictures(page, allow=(CURRENT_BOARD,))
    open_play(page, base, game["id"], token)
    until(page, orders_shown)
    view = api(base, "GET", f"/v1/games/{game['id']}", token).json()
    assert unit_labels(page) == view["state"]["units"]["Russia"] == ["A Arc", "F Okh", "A Pev"]
    assert "You play Russia" in page.find_element(By.ID, "summary").text
    assert "#" not in page.current_url  # the token left the address bar (and the history)
    assert page.execute_script(f"return sessionStorage.getItem('adjudicator-token:{game['id']}')") == token
    legal = requests.post(base + "/v1/orders/legal", json={"state": view["state"], "power": "Russia"}, timeout=10)
    offered = [o.text for o in Select(page.find_element(By.ID, "unit-0")).options if o.is_enabled()][1:]
    assert offered == legal.json()["powers"]["Russia"]["A Arc"]  # the service's list, as it gave it
    until(page, lambda d: picture_shown(d, "#board-picture"))  # the current position, drawn by the service
    assert not alerts(page)


def test_two_powers_and_the_game_master_play_a_whole_arctic_phase(page, served):
    base, _ = served
    game = new_game(base, variant="arctic", labels={"Russia": "Ann", "Norway": "Bob"})
    gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]

    # Russia picks two orders from the lists, types the third with a slip, reads the answer and fixes it.
    open_play(page, base, gid, tokens["Russia"])
    until(page, orders_shown)
    pick(page, "A Arc", "A Arc - Ura")
    pick(page, "F Okh", "F Okh - Kam")
    assert box_lines(page) == ["A Arc - Ura", "F Okh - Kam"]  # a picked order is in the box too
    type_orders(page, "A Pev - Yakk")
    first = send_and_read(page, 3)
    assert first[0].startswith("A Arc - Ura ok") and first[1].startswith("F Okh - Kam ok")
    assert "unreadable: unknown place 'Yakk' (column 9)" in first[2] and "Did you mean Yakutsk (Yak)?" in first[2]
    assert page.find_element(By.CSS_SELECTOR, "#statuses li:nth-child(3) mark").text == "Y"  # where it went wrong
    assert page.find_element(By.ID, "unit-0-status").text == "ok"  # beside the unit too
    page.find_element(By.CSS_SELECTOR, "#statuses li:nth-child(3) button.suggestion").click()  # suggestions click
    until(page, lambda d: box_lines(d)[2:] == ["A Pev - Yak"])
    assert listed(page, "A Pev") == "A Pev - Yak"  # the fixed line is one of the unit's listed orders
    fixed = send_and_read(page, 3)
    assert fixed[2] == "A Pev - Yak ok"
    page.find_element(By.ID, "ready").click()
    until(page, lambda d: "You are ready" in d.find_element(By.ID, "messages").text)

    # Norway gives an illegal order and sees why; it is not ready.
    open_play(page, base, gid, tokens["Norway"])
    until(page, orders_shown)
    pick(page, "F Tro", "F Tro - Bar")
    type_orders(page, "F Osl - Ura")
    norway = send_and_read(page, 2)
    assert norway[1].startswith("F Osl - Ura illegal: Ural Mountains is not adjacent to Oslo")

    # The game master sees who has sent orders and who is ready, never the orders; moves the deadline; judges.
    open_play(page, base, gid, gm)
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats tbody tr"))
    rows = {r.find_element(By.TAG_NAME, "th").text: [c.text for c in r.find_elements(By.TAG_NAME, "td")]
            for r in page.find_elements(By.CSS_SELECTOR, "#seats tbody tr")}
    assert rows["Russia"] == ["Ann", "yes", "yes", "yes"] and rows["Norway"] == ["Bob", "yes", "yes", "no"]
    assert rows["Canada"] == ["Canada", "yes", "no", "no"]
    source = page.page_source
    assert not any(order in source for order in ("A Arc - Ura", "F Okh - Kam", "Yakutsk", "F Tro - Bar", "F Osl - Ura"))
    assert page.find_element(By.ID, "orders").get_attribute("hidden") is not None
    page.find_element(By.CSS_SELECTOR, "#deadline-form [data-add='3600']").click()
    until(page, lambda d: "left" in d.find_element(By.ID, "countdown").text)
    deadline = api(base, "GET", f"/v1/games/{gid}", gm).json()["deadline"]
    moved = time.mktime(time.strptime(deadline, "%Y-%m-%dT%H:%M:%SZ")) - time.mktime(time.gmtime())
    assert 3500 < moved <= 3600, deadline
    page.find_element(By.ID, "judge").click()
    page.switch_to.alert.accept()
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#phase-list details[open] pre.report")
          and d.find_element(By.CSS_SELECTOR, "#phase-list details[open] pre.report").get_attribute("textContent"))
    report = api(base, "GET", f"/v1/games/{gid}/phases/1/report", gm).text
    shown = page.find_element(By.CSS_SELECTOR, "#phase-list details[open] pre.report").get_attribute("textContent")
    assert shown == report  # the judge's text, word for word, and the same as a table of each power's orders:
    rows = {tuple(td.text for td in tr.find_elements(By.TAG_NAME, "td")) for tr in
            page.find_elements(By.CSS_SELECTOR, "#phase-list details[open] .report-orders tbody tr")}
    assert ("A Arc - Ura", "succeeds", "moves to Ura") in rows, rows

    # The judged result: the position after the phase, and what each power sees next.
    judged = api(base, "GET", f"/v1/games/{gid}/phases/1", gm).json()
    assert judged["orders"] == {"Russia": ["A Arc - Ura", "F Okh - Kam", "A Pev - Yak"],
                                "Norway": ["F Tro - Bar", "F Osl - Ura"]}
    units = judged["position_after"]["units"]
    assert sorted(units["Russia"]) == ["A Ura", "A Yak", "F Kam"] and sorted(units["Norway"]) == ["A Lyb", "F Bar",
                                                                                                  "F Osl"]
    block_pictures(page, allow=(PHASE_PICTURES,))
    open_play(page, base, gid, tokens["Russia"])
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#phase-list details[open] pre.report")
          and d.find_element(By.CSS_SELECTOR, "#phase-list details[open] pre.report").get_attribute("textContent"))
    assert page.find_element(By.CSS_SELECTOR, "#phase-list pre.report").get_attribute("textContent") == report
    assert judged["phase"] in page.find_element(By.CSS_SELECTOR, "#phase-list summary").text
    until(page, orders_shown)
    after = api(base, "GET", f"/v1/games/{gid}", tokens["Russia"]).json()
    assert unit_labels(page) == after["state"]["units"]["Russia"]
    assert not page.find_elements(By.CSS_SELECTOR, "#statuses li")  # a new phase: nothing sent yet
    until(page, lambda d: picture_shown(d, "#phase-list details[open]"))  # the judged phase, its orders drawn


def test_typed_picked_and_clicked_orders_stay_in_step_one_order_a_unit(page, served):
    base, _ = served
    game = new_game(base, variant="arctic")
    open_play(page, base, game["id"], game["tokens"]["Russia"])
    until(page, orders_shown)
    type_orders(page, "a arc - ura")  # typed in its own spelling: the service's reader says whose it is
    until(page, lambda d: listed(d, "A Arc") == "Typed: a arc - ura")  # the unit's list says so, not "No order"
    pick(page, "A Arc", "A Arc H")  # picked afterwards: it replaces the typed line, and the page says so
    until(page, lambda d: box_lines(d) == ["A Arc H"])
    assert "A Arc H replaces a arc - ura" in page.find_element(By.ID, "messages").text
    type_orders(page, "A Arc - Ura")  # typed again: the last one counts, the earlier one is named
    until(page, lambda d: listed(d, "A Arc") == "A Arc - Ura")
    note = page.find_element(By.CSS_SELECTOR, "#units .unit[data-key='A Arc'] .unit-note").text
    assert "A Arc H will not be sent" in note
    sent = send_and_read(page, 1)  # one order for the unit, not both
    assert sent[0].startswith("A Arc - Ura ok")
    assert api(base, "GET", f"/v1/games/{game['id']}/orders", game["tokens"]["Russia"]).json()["orders"][0][
        "order"] == "A Arc - Ura"


def test_another_game_is_played_in_its_own_syntax_with_the_same_answers(page, served):
    base, _ = served
    game = new_game(base, variant="arctic2019")
    gid, token = game["id"], game["tokens"]["Russia"]
    block_pictures(page, allow=(CURRENT_BOARD,))
    open_play(page, base, gid, token)
    until(page, orders_shown)
    assert "not available for 2019: The ARCTIC" in page.find_element(By.ID, "no-lists").text
    type_orders(page, "move 1 ship from KOL to BAR\nmove 1 ship from KOL to BRA\nmove 9 ships from KOL to BAR")
    shown = send_and_read(page, 3)
    kept = api(base, "GET", f"/v1/games/{gid}/orders", token).json()["orders"]
    assert [s["status"] for s in kept] == ["ok", "unreadable", "illegal"]
    for line, answer in zip(shown, kept):  # each line as the service answered it
        assert line.startswith(f"{answer['order']} {answer['status']}") and answer.get("reason", "") in line
    assert "Barents Sea (BAR)" in kept[1]["suggestions"]  # as the service suggests, in its order
    assert f"Did you mean {', '.join(kept[1]['suggestions'])}?" in shown[1]
    # The board: drawn once this game has pictures, said plainly while it has none; the page works either way.
    until(page, lambda d: picture_shown(d, "#board-picture")
          or "No picture of this board" in d.find_element(By.CSS_SELECTOR, "#board-picture .note").text)
    assert not alerts(page)


def test_keyboard_alone_at_phone_width(page, served):
    base, _ = served
    game = new_game(base, variant="arctic")
    page.set_window_size(375, 800)
    open_play(page, base, game["id"], game["tokens"]["Canada"])
    until(page, orders_shown)
    width = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the page is wider than a phone: {width}"
    for control in page.find_elements(By.CSS_SELECTOR, "button, select, textarea, input, [tabindex='0']"):
        if control.is_displayed():
            assert control.accessible_name.strip(), control.get_attribute("outerHTML")[:200]
    body = page.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the first stop is the skip link
    active = page.switch_to.active_element
    assert active.get_attribute("id") == "skip"
    active.send_keys(Keys.ENTER)
    for _ in range(20):  # Tab to the first unit's list, choose with the arrow keys
        page.switch_to.active_element.send_keys(Keys.TAB)
        if page.switch_to.active_element.tag_name == "select":
            break
    chosen = page.switch_to.active_element
    chosen.send_keys(Keys.ARROW_DOWN)
    assert Select(chosen).first_selected_option.text.endswith(" H")
    for _ in range(20):
        page.switch_to.active_element.send_keys(Keys.TAB)
        if page.switch_to.active_element.get_attribute("id") == "send":
            break
    page.switch_to.active_element.send_keys(Keys.ENTER)
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#statuses li"))
    assert " ok" in page.find_element(By.CSS_SELECTOR, "#statuses li").text


def test_the_token_never_reaches_the_servers_log(page, served):
    base, log = served
    game = new_game(base, variant="arctic")
    tokens = [game["game_master_token"], game["tokens"]["USA"]]
    open_play(page, base, game["id"], tokens[1])
    until(page, orders_shown)
    type_orders(page, "A Anc - Nowhere")
    send_and_read(page, 1)
    open_play(page, base, game["id"], tokens[0])
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#seats tbody tr"))
    time.sleep(0.5)  # gunicorn writes each access line after its answer
    text = log.read_text(errors="replace")
    assert f"GET /play/{game['id']} " in text and f"PUT /v1/games/{game['id']}/orders" in text  # it logs requests
    leaked = [t for t in tokens if t in text or t[4:] in text]
    assert not leaked, "a token is in the server's log"


def test_when_the_countdown_runs_out_the_page_shows_the_judged_phase(page, served):
    base, _ = served
    game = new_game(base, variant="arctic")
    gid, token = game["id"], game["tokens"]["Denmark"]
    api(base, "PUT", f"/v1/games/{gid}/deadline", game["game_master_token"], json={"in_seconds": 6, "phase_no": 1})
    open_play(page, base, gid, token)
    until(page, lambda d: orders_shown(d) and d.find_element(By.ID, "countdown").text)
    assert "(phase 1)" in page.find_element(By.ID, "summary").text
    # No one touches the game: the page asks again when its countdown ends, and that request has it judged.
    until(page, lambda d: "at the deadline" in d.find_element(By.ID, "phase-list").text)
    assert "(phase 2)" in page.find_element(By.ID, "summary").text
    assert page.find_element(By.ID, "deadline-line").get_attribute("hidden") is not None  # no phase_seconds
