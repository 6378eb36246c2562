"""How a hosted game ends, pauses and keeps its seats, through the play page in a real browser (headless
Chromium): seats vote a DIAS draw and the page shows the end with its scores; the game master pauses and resumes
the game; civil disorder and missed orders in the seats' table; the game master hands a seat to a new player
(the old link's page says its token no longer works) and declares the end; an ended game's page has no order or
vote controls. One browser and one server serve the module; no board is drawn (pictures are blocked)."""

from __future__ import annotations

import pytest
import requests
from tests.api_helpers import logged_server
from tests.page.chromium_helpers import block_pictures, chromium, require_browser

By = pytest.importorskip("selenium.webdriver.common.by", reason="Selenium is in the `test` extra").By
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402 - after the import check

WAIT = 20  # seconds


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    require_browser()  # before the server starts: a machine without a browser skips at once
    with logged_server(tmp_path_factory.mktemp("endings")) as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser(served):  # started after the server, so closed (with its connections) before the server stops
    with chromium() as driver:
        yield driver


@pytest.fixture
def page(browser):
    block_pictures(browser)
    browser.get_log("browser")  # only this test's errors
    yield browser
    errors = [e["message"] for e in browser.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]
    assert not errors, "the page's script failed or broke its policy"


def new_game(base: str, **body) -> dict:
    answer = requests.post(base + "/v1/games", json={"variant": "standard", **body}, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def api(base: str, method: str, path: str, token: str, **kwargs) -> requests.Response:
    return requests.request(method, base + path, headers={"Authorization": f"Bearer {token}"}, timeout=30, **kwargs)


def view_of(base: str, game: dict, token: str | None = None) -> dict:
    return api(base, "GET", f"/v1/games/{game['id']}", token or game["game_master_token"]).json()


def open_play(driver, base: str, game_id: str, token: str) -> None:
    """Open a play link as a player would, in a page that starts afresh; wait for the game to be shown."""
    driver.get("about:blank")
    driver.get(f"{base}/play/{game_id}#token={token}")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded")
          or d.find_element(By.ID, "login").is_displayed())


def until(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def shown(driver, element_id: str) -> bool:
    return driver.find_element(By.ID, element_id).is_displayed()


def table(driver, table_id: str) -> dict[str, list[str]]:
    """A table's rows by their heading cell, read in one go (the page redraws its tables as the game changes)."""
    return driver.execute_script("""
        const rows = {};
        for (const r of document.querySelectorAll(`#${arguments[0]} tbody tr`)) {
          rows[r.querySelector('th').innerText] = [...r.querySelectorAll('td')].map((c) => c.innerText);
        }
        return rows;""", table_id)


def every_control_is_named(driver) -> None:
    """Every control shown has a name a screen reader reads (its label, legend or text)."""
    for control in driver.find_elements(By.CSS_SELECTOR, "button, select, textarea, input, [tabindex='0']"):
        if control.is_displayed():
            assert control.accessible_name.strip(), control.get_attribute("outerHTML")[:200]


def said(driver, words: str) -> None:
    """Wait until the page's polite live region says `words`."""
    until(driver, lambda d: words in text(d, "messages"))


def test_seats_vote_a_dias_draw_and_the_page_shows_the_end_with_its_scores(page, served):
    base = served
    game = new_game(base, settings={"draws": "named"})
    gid, tokens = game["id"], game["tokens"]
    powers = list(tokens)

    # Austria's page: the choices, a refusal in the service's words, a named draw, then a DIAS vote.
    open_play(page, base, gid, tokens["Austria"])
    assert text(page, "my-vote") == "You have not voted."
    assert "Votes are secret" in text(page, "votes-help")
    expected = api(base, "GET", f"/v1/games/{gid}/scores", tokens["Austria"]).json()
    assert "if the game ended now" in text(page, "scores-caption")
    assert {p: row[-1] for p, row in table(page, "scores").items()} == {
        p: f"{v:g}" for p, v in expected["scores"].items()}  # the service's numbers, as it gave them
    page.find_element(By.ID, "vote-named").click()
    every_control_is_named(page)  # the vote's choices and the named draw's picker
    page.find_element(By.XPATH, "//fieldset[@id='vote-named-powers']//label[text()='England']").click()
    page.find_element(By.ID, "vote-send").click()
    until(page, lambda d: "a draw names at least two different survivors" in text(d, "alerts"))
    page.find_element(By.XPATH, "//fieldset[@id='vote-named-powers']//label[text()='France']").click()
    page.find_element(By.ID, "vote-send").click()
    said(page, "Your vote is a draw of England, France.")
    assert text(page, "my-vote") == "Your vote: a draw of England, France."
    page.find_element(By.ID, "vote-dias").click()
    page.find_element(By.ID, "vote-send").click()
    said(page, "Your vote is a draw of every survivor")
    own_vote = api(base, "GET", f"/v1/games/{gid}", tokens["Austria"]).json()["seats"][0]["vote"]
    assert own_vote == {"draw": powers, "dias": True}

    # Five more seats vote by the API; the game master's page shows who has voted, never what.
    for power in powers[1:6]:
        assert api(base, "PUT", f"/v1/games/{gid}/vote", tokens[power],
                   json={"phase_no": 1, "draw": "dias"}).status_code == 200
    open_play(page, base, gid, game["game_master_token"])
    votes = {p: row[-1] for p, row in table(page, "standing").items()}
    assert votes == {**{p: "voted (secret)" for p in powers[:6]}, "Turkey": "not voted"}

    # Turkey's page: another seat's secret vote is not shown; its own vote ends the game.
    open_play(page, base, gid, tokens["Turkey"])
    austria = page.find_element(By.CSS_SELECTOR, "#standing tbody tr:first-child td:last-child")
    assert austria.find_element(By.CLASS_NAME, "visually-hidden").get_attribute("textContent") == "not shown"
    assert shown(page, "orders-form")
    page.find_element(By.ID, "vote-send").click()  # DIAS is the choice a seat starts with
    until(page, lambda d: shown(d, "end-words"))
    end = view_of(base, game)["end"]
    assert end["kind"] == "draw" and end["by"] == "votes" and end["powers"] == powers
    assert text(page, "end-words").startswith(
        f"The game ended: a draw of {', '.join(powers)} (agreed by the survivors' votes) after 0 judged phases")
    assert text(page, "scores-h") == "How the game ended"
    assert text(page, "scores-caption") == "The final scores (draw-size)"
    scores = table(page, "scores")
    assert {p: row[-1] for p, row in scores.items()} == {p: f"{v:g}" for p, v in end["scores"].items()}
    assert scores["Russia"][0] == "4"  # its centres
    assert "It ended: a draw of" in text(page, "summary")
    # An ended game: no order, vote or ready controls, and no deadline; its end and phases stay readable.
    for control in ("orders", "votes", "deadline-line"):
        assert not shown(page, control), control
    assert not page.find_elements(By.CSS_SELECTOR, "#units select")
    assert page.find_element(By.ID, "skip").get_attribute("href").endswith("#scores-section")
    sections = [s.get_attribute("id") for s in page.find_elements(By.CSS_SELECTOR, "main > section")
                if s.is_displayed()]
    assert sections[0] == "scores-section", sections  # how it ended comes first
    assert not shown(page, "this-phase") and shown(page, "standing")  # no phase to be ready for; the seats stay


def test_the_game_master_pauses_and_resumes_and_the_seats_show_civil_disorder(page, served):
    base = served
    game = new_game(base, settings={"phase_seconds": 3600, "grace_seconds": 600, "disorder_after": 1,
                                    "nmr_extensions": {"count": 2, "seconds": 3600}})
    gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]
    assert api(base, "PUT", f"/v1/games/{gid}/orders", tokens["Austria"],
               json={"orders": ["A Vie H"], "phase_no": 1}).status_code == 200
    assert api(base, "POST", f"/v1/games/{gid}/adjudicate", gm, json={"phase_no": 1}).status_code == 200

    # France missed its orders: in civil disorder, shown to it and to everyone.
    open_play(page, base, gid, tokens["France"])
    assert shown(page, "disorder-note") and "Your seat is in civil disorder" in text(page, "disorder-note")
    standing = table(page, "standing")
    assert standing["France"] == ["a player", "yes", "1", "no vote"] and standing["Austria"][1:3] == ["no", "0"]
    terms = text(page, "deadline-terms")
    assert "a grace period of 10 min for" in terms and "Up to 2 extensions of 1 h while" in terms and "0 used" in terms
    # The deadline passes while Austria has sent nothing: the page asks again, and the service gives the grace.
    api(base, "PUT", f"/v1/games/{gid}/deadline", gm, json={"in_seconds": 2, "phase_no": 2})
    open_play(page, base, gid, tokens["France"])
    until(page, lambda d: "This is the grace period" in text(d, "deadline-terms"))
    assert view_of(base, game)["deadline_extended"] == {"grace": True, "extensions": 0}

    # The game master pauses: the deadline is held, the page says until when, judging and deadlines wait.
    open_play(page, base, gid, gm)
    every_control_is_named(page)  # pause, the declared end, the seat handover
    assert "Pauses used: 0 of 3" in text(page, "pauses-left")
    page.find_element(By.ID, "pause").click()
    said(page, "The game is paused")
    until(page, lambda d: shown(d, "pause-line"))
    paused = view_of(base, game)
    assert paused["status"] == "paused"
    line = text(page, "pause-line")
    assert line.startswith("The game is paused since ") and "resumes by itself at" in line and "left." in line
    for hidden in ("pause", "judge-line", "deadline-form", "deadline-line"):
        assert not shown(page, hidden), hidden
    assert shown(page, "resume") and "Pauses used: 1 of 3" in text(page, "pauses-left")

    # A player's page says so, and still takes orders.
    open_play(page, base, gid, tokens["Italy"])
    assert "paused" in text(page, "summary") and shown(page, "pause-line") and shown(page, "orders-form")

    # The game master resumes it: the deadline is back.
    open_play(page, base, gid, gm)
    page.find_element(By.ID, "resume").click()
    said(page, "The game goes on: the deadline is")
    until(page, lambda d: shown(d, "deadline-line") and not shown(d, "pause-line"))
    resumed = view_of(base, game)
    assert resumed["status"] == "active" and resumed["deadline"]
    assert shown(page, "pause") and shown(page, "judge-line")
    # A refusal is said in the service's words: resuming a game that is not paused (the button is gone, the API
    # is asked as a stale page would).
    page.execute_script("document.getElementById('resume').hidden = false")
    page.find_element(By.ID, "resume").click()
    until(page, lambda d: "Not paused: the game is not paused" in text(d, "alerts"))


def test_the_game_master_hands_a_seat_over_and_declares_the_end(page, served):
    base = served
    game = new_game(base)
    gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]
    old = tokens["Germany"]

    open_play(page, base, gid, gm)
    Select(page.find_element(By.ID, "replace-power")).select_by_visible_text("Germany")
    page.find_element(By.ID, "replace-send").click()
    page.switch_to.alert.accept()
    until(page, lambda d: shown(d, "handover"))
    link = page.find_element(By.ID, "handover-link").get_attribute("value")
    assert link.startswith(f"{base}/play/{gid}#token=adj_")
    assert page.switch_to.active_element.get_attribute("id") == "handover-link"  # ready to copy
    assert api(base, "GET", f"/v1/games/{gid}", old).status_code == 403  # at once
    until(page, lambda d: table(d, "standing")["Germany"][0] == "a player (from phase 1)")
    page.find_element(By.ID, "handover-done").click()
    assert not shown(page, "handover") and not page.find_element(By.ID, "handover-link").get_attribute("value")

    # The old link's page says its token no longer works; the new one opens the seat.
    open_play(page, base, gid, old)
    assert shown(page, "login") and "this token is not one of this game's" in text(page, "login-why")
    open_play(page, base, gid, link.split("#token=")[1])
    assert "You play Germany" in text(page, "summary")

    # The game master declares a draw of the survivors picked.
    open_play(page, base, gid, gm)
    for power in ("England", "France"):
        page.find_element(By.XPATH, f"//fieldset[@id='end-powers']//label[text()='{power}']").click()
    page.find_element(By.ID, "end-send").click()
    page.switch_to.alert.accept()
    until(page, lambda d: shown(d, "end-words"))
    end = view_of(base, game)["end"]
    assert end["kind"] == "draw" and end["powers"] == ["England", "France"] and end["by"] == "game master"
    assert "a draw of England, France (declared by the game master)" in text(page, "end-words")
    assert not shown(page, "master")  # nothing left to pause, judge or hand over

    # An ended game's page has no order controls.
    open_play(page, base, gid, tokens["Italy"])
    assert shown(page, "end-words") and table(page, "scores")["Italy"][-1] == "0"
    assert not shown(page, "orders") and not shown(page, "votes")
    assert not page.find_elements(By.CSS_SELECTOR, "#units select")
