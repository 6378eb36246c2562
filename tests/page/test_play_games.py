"""The other three games played through the play page in a real browser (issue 38, item 7): Arctic Race from its
set-up (the game master names the players and the first player; the tiles were shuffled when the game was made)
through a round; a turn of 2019: The ARCTIC and of Arctica, each ended by the game master's step, the phase names
moving on; each page links the game's order syntax; a refused deadline names the page's button, not an API path.
One browser and one server serve the module; no board is drawn (pictures are blocked)."""

from __future__ import annotations

import pytest
import requests
from tests.api_helpers import logged_server
from tests.page.chromium_helpers import block_pictures, chromium, require_browser, viewport

By = pytest.importorskip("selenium.webdriver.common.by", reason="Selenium is in the `test` extra").By
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402 - after the import check

WAIT = 20
RACE_TILES = ("T22 T06 T16 T30 T08 T29 T10 T01 T14 T09 T28 T23 T27 T15 T24 T25 T20 T07 T17 T26 T19 T12 T04 T18 "
              "T03 T02 T21 T13 T05 T11")  # seed 7's order (variants/arctic-race.md, A18)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    require_browser()
    with logged_server(tmp_path_factory.mktemp("games")) as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser(served):
    with chromium() as driver:
        yield driver


@pytest.fixture
def page(browser):
    viewport(browser, 1280, 800)
    block_pictures(browser)
    browser.get_log("browser")
    yield browser
    errors = [e["message"] for e in browser.get_log("browser")
              if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]]
    assert not errors, errors


def until(driver, condition, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def open_play(driver, base: str, game_id: str, token: str, phase_no: int) -> None:
    driver.get("about:blank")
    driver.get(f"{base}/play/{game_id}#token={token}")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == str(phase_no))


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def play_turn(driver, lines: str) -> list[str]:
    """A seat types its turn, sends it and says it is ready; the lines as the service answered them."""
    until(driver, lambda d: d.find_element(By.ID, "statuses").get_attribute("data-answers"))
    before = driver.find_element(By.ID, "statuses").get_attribute("data-answers")
    driver.find_element(By.ID, "typed").send_keys(lines)
    driver.find_element(By.ID, "send").click()
    until(driver, lambda d: d.find_element(By.ID, "statuses").get_attribute("data-answers") != before)
    answers = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#statuses li")]
    driver.find_element(By.ID, "ready").click()
    until(driver, lambda d: "You are ready" in text(d, "messages") or d.find_element(By.TAG_NAME, "body")
          .get_attribute("data-loaded") != before)
    return answers


def game_master_judges(driver, steps: str) -> str:
    """The game master sends the game's own steps and judges the phase; what the page then says."""
    box = driver.find_element(By.ID, "steps")
    box.clear()
    box.send_keys(steps)
    driver.find_element(By.CSS_SELECTOR, "#steps-form button[type=submit]").click()
    until(driver, lambda d: "Steps sent" in text(d, "messages") or text(d, "alerts"))
    steps = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#step-statuses li")]
    assert steps and all(" ok" in li for li in steps), (steps, text(driver, "alerts"))
    driver.find_element(By.ID, "judge").click()
    driver.switch_to.alert.accept()
    until(driver, lambda d: "is judged; next:" in text(d, "messages"))
    return text(driver, "messages")


def guide_linked(driver, base: str, title: str) -> None:
    link = driver.find_element(By.ID, "guide")
    assert link.is_displayed()
    answer = requests.get(link.get_attribute("href"), timeout=10)
    assert answer.status_code == 200 and f"<title>{title}" in answer.text, link.get_attribute("href")


def test_arctic_race_from_its_set_up_through_a_round(page, served):
    base = served
    # (the tiles shuffled by seed 7, as a new game's are by a seed of its own: the turns below fit these tiles)
    seeded = {"variant": "arctic-race", "phase": "setup", "seed": 7, "tiles": RACE_TILES.split()}
    game = requests.post(base + "/v1/games", json={"variant": "arctic-race", "seats": ["Red", "Blue"],
                                                   "state": seeded}, timeout=30).json()
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    open_play(page, base, gid, gm, 1)
    guide_linked(page, base, "Arctic Race order sheets")
    said = game_master_judges(page, "players Red, Blue\nstart Red")
    assert "next: round 1, Red to play (phase 2)" in said, said
    for seat, turn in (("Red", "5 move, roll 3"), ("Blue", "4 move")):
        open_play(page, base, gid, tokens[seat], 2)
        assert " ok" in play_turn(page, turn)[0]
    view = requests.get(f"{base}/v1/games/{gid}", headers={"Authorization": f"Bearer {gm}"}, timeout=10).json()
    assert view["phase_no"] == 3 and view["phase"] == "round 2, Red to play", view["phase"]


def test_a_turn_of_2019_the_arctic_ended_by_the_game_master(page, served):
    base = served
    game = requests.post(base + "/v1/games", json={"variant": "arctic2019"}, timeout=30).json()
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    open_play(page, base, gid, tokens["Russia"], 1)
    guide_linked(page, base, "2019: The ARCTIC — writing an order sheet")
    assert " ok" in play_turn(page, "move 1 ship from KOL to BAR")[0]
    open_play(page, base, gid, gm, 1)
    said = game_master_judges(page, "end of turn")
    assert "turn 1, law A (phase 1) is judged; next: turn 2, law A (phase 2)" in said, said
    until(page, lambda d: "turn 2, law A" in text(d, "summary"))


def test_a_turn_of_arctica_and_a_refused_deadline_in_the_pages_words(page, served):
    base = served
    game = requests.post(base + "/v1/games", json={"variant": "arctica"}, timeout=30).json()
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    for seat, turn in (("Remi", "migrate fish from tile 6 and fish from S6"), ("Joelle", "migrate bird from tile 6")):
        open_play(page, base, gid, tokens[seat], 1)
        assert " ok" in play_turn(page, turn)[0]
    open_play(page, base, gid, gm, 1)
    guide_linked(page, base, "Arctica order sheets")
    page.execute_script("document.getElementById('deadline-at').value = '2001-01-01T12:00'")
    page.find_element(By.CSS_SELECTOR, "#deadline-form button[type=submit]").click()
    until(page, lambda d: text(d, "alerts"))
    refused = text(page, "alerts")
    assert "Judge round 1, turn 1, Remi is the Leader now" in refused and "/v1/" not in refused, refused
    said = game_master_judges(page, "next turn")
    assert "next: round 1, turn 2, Joelle is the Leader (phase 2)" in said, said
    until(page, lambda d: "round 1, turn 2, Joelle is the Leader" in text(d, "summary"))
