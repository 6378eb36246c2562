"""An open play page hears of the game live, behind a balancer (issue 38, item 4): two `adjudicator serve`
instances behind haproxy on one PostgreSQL database, as benchmarks/cluster.py starts them. Another seat's
readiness, sent to one instance, and a judgement, sent to the other, appear on a page open through the balancer
within 2 s, with no reload; then the page shows the new phase, and its old phase's orders cannot be sent."""

from __future__ import annotations

import time

import pytest
import requests
from tests.helpers import benchmark
from tests.hosted.helpers import own_postgres_schema, postgres_url
from tests.page.chromium_helpers import chromium, require_browser, viewport

By = pytest.importorskip("selenium.webdriver.common.by", reason="Selenium is in the `test` extra").By
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402 - after the import check

cluster = benchmark("cluster")
LIVE = 2.0  # seconds: the most an open page may take to show a change


@pytest.fixture(scope="module")
def deployment():
    require_browser()
    postgres_url()
    if cluster.haproxy_path() is None:
        import os

        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the multi-instance test: .ci/run installs haproxy")
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    with own_postgres_schema("live") as url, cluster.deployment(url, instances=2, workers=1) as dep:
        yield dep


@pytest.fixture(scope="module")
def browser(deployment):
    with chromium() as driver:
        yield driver


def seen_within(driver, condition, seconds: float) -> float:
    """How long the page took to meet `condition` (fails past `seconds`, with a margin for the test's own polls)."""
    started = time.monotonic()
    WebDriverWait(driver, seconds + 3, poll_frequency=0.05).until(lambda d: condition(d))
    return time.monotonic() - started


def seat_row(driver, power: str) -> list[str]:
    return driver.execute_script("""
        for (const r of document.querySelectorAll('#seats tbody tr')) {
          if (r.querySelector('th').innerText === arguments[0]) return [...r.querySelectorAll('td')].map((c) => c.innerText);
        }
        return [];""", power)


def test_another_seats_readiness_and_a_judgement_appear_on_an_open_page_within_two_seconds(deployment, browser):
    lb, (one, two) = deployment.base, deployment.instances
    game = requests.post(lb + "/v1/games", json={"variant": "arctic", "settings": {"public_readiness": True}},
                         timeout=30).json()
    gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]
    viewport(browser, 1280, 800)
    browser.get(f"{lb}/play/{gid}#token={tokens['Russia']}")
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "1"
                                     and d.find_element(By.ID, "statuses").get_attribute("data-answers"))
    assert seat_row(browser, "Norway")[2:] == ["no", "no"]
    time.sleep(1.0)  # (the page's long poll is waiting now)
    browser.find_element(By.ID, "typed").send_keys("A Arc - Ura")  # typed, not sent: the judgement comes first

    answer = requests.put(f"{one.base}/v1/games/{gid}/orders", headers={"Authorization": f"Bearer {tokens['Norway']}"},
                          json={"orders": ["F Osl H"], "ready": True, "phase_no": 1}, timeout=30)
    assert answer.status_code == 200
    took = seen_within(browser, lambda d: seat_row(d, "Norway")[2:] == ["yes", "yes"], LIVE)
    assert took < LIVE, f"the readiness took {took:.2f} s to appear"
    print(f"readiness seen after {took:.2f} s")

    judged = requests.post(f"{two.base}/v1/games/{gid}/adjudicate", headers={"Authorization": f"Bearer {gm}"},
                           json={"phase_no": 1}, timeout=30)
    assert judged.status_code == 200
    took = seen_within(browser, lambda d: "(phase 2)" in d.find_element(By.ID, "summary").text, LIVE)
    assert took < LIVE, f"the judgement took {took:.2f} s to appear"
    print(f"judgement seen after {took:.2f} s")
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == "2")
    alert = browser.find_element(By.ID, "alerts").text
    assert "was judged before these orders were sent" in alert and "A Arc - Ura" in alert  # told, not sent
    assert not browser.find_elements(By.CSS_SELECTOR, "#statuses li")  # the new phase: nothing sent for it
    served = {requests.get(f"{lb}/healthz", timeout=10).headers.get("X-Served-By") for _ in range(6)}
    assert served == {"instance1", "instance2"}  # (both instances behind the balancer answer)
