"""A real browser for the page tests: Debian's headless Chromium driven by Selenium through chromedriver, both
from the distribution: nothing is downloaded."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

# Chromium as root in a container: no sandbox, no GPU, and nothing that calls out to another site.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def require_browser() -> tuple[str, str]:
    """Chromium and chromedriver (`CHROMIUM`, `CHROMEDRIVER` name others); skipped without them, except in CI."""
    browser = shutil.which(os.environ.get("CHROMIUM", "chromium"))
    driver = shutil.which(os.environ.get("CHROMEDRIVER", "chromedriver"))
    if browser and driver:
        return browser, driver
    why = "no Chromium and chromedriver here: `apt-get install chromium chromium-driver` (.ci/run does) to run this"
    if os.environ.get("CI") == "true":
        pytest.fail("CI must run the browser tests: " + why)
    pytest.skip(why)


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium with a fresh profile, driven by Selenium."""
    browser, driver_path = require_browser()
    webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is in the `test` extra")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="adjudicator-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_window_size(1000, 1200)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


CURRENT_BOARD, PHASE_PICTURES = "*/v1/render", "*/picture?*"  # the endpoints that draw the board


def block_pictures(driver, allow: tuple[str, ...] = ()) -> None:
    """Have the browser refuse the board pictures but those of `allow`: drawing one costs the server a second of
    CPU, which tests of orders and reports need not wait behind. The page says the picture could not be had."""
    driver.execute_cdp_cmd("Network.enable", {})
    blocked = [url for url in (CURRENT_BOARD, PHASE_PICTURES) if url not in allow]
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": blocked})


def viewport(driver, width: int, height: int, mobile: bool = False) -> None:
    """The page's viewport exactly `width` x `height` CSS pixels (a window's size includes its frame), as a phone's
    (touch, a coarse pointer) when `mobile`."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                  "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})


def axe_violations(driver) -> list[dict]:
    """axe-core's violations of the page as it stands (WCAG 2.x A and AA, and best practices). axe-core is the
    copy the `selenium-axe-python` package ships (nothing is fetched); it runs as the test's own script, which the
    page's policy does not govern (DevTools' evaluation)."""
    axe = pytest.importorskip("selenium_axe_python", reason="selenium-axe-python (the `test` extra) ships axe-core")
    from pathlib import Path

    source = (Path(axe.__file__).parent / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    driver.execute_cdp_cmd("Runtime.evaluate", {"expression": source})
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations), (e) => done([{id: 'axe-error', "
        "description: String(e), nodes: []}]));")
    return [{"id": v["id"], "description": v["description"], "nodes": [n.get("html", "")[:160] for n in v["nodes"][:3]]}
            for v in result]


# Controls a finger taps (and the board's frame is panned, not tapped): each must be at least 44 x 44 CSS px.
TAPPABLE = "button, select, textarea, input:not([type=hidden]), a[href], summary, [tabindex='0']:not(.frame)"


def small_tap_targets(driver, least: float = 44.0) -> list[str]:
    """The visible controls smaller than `least` CSS pixels either way (their start tags)."""
    return driver.execute_script("""
        const least = arguments[1];
        return [...document.querySelectorAll(arguments[0])].filter((e) => {
          const r = e.getBoundingClientRect();
          const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'
            && r.right > 0 && r.left < innerWidth;  // (a skip link waits off screen until it has the focus)
          return shown && (r.width < least - 0.5 || r.height < least - 0.5);
        }).map((e) => e.outerHTML.slice(0, 120) + ` (${Math.round(e.getBoundingClientRect().width)} x `
          + `${Math.round(e.getBoundingClientRect().height)})`);""", TAPPABLE, least)


def horizontal_overflow(driver) -> list[int]:
    """[scroll width, client width] of the page, when it scrolls sideways; [] when it does not."""
    widths = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    return widths if widths[0] > widths[1] else []


def click_board(driver, element_id: str) -> None:
    """Click a board element (a unit or a space) by its id, at a point inside it (a space's point that no other
    element covers: the label and unit layers let clicks through, but another space may lie in its box)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element("id", element_id))
    point = driver.execute_script("""
        const el = document.getElementById(arguments[0]);
        const own = el.getBoundingClientRect();
        const frame = el.closest('.frame') ? el.closest('.frame').getBoundingClientRect() : own;
        const left = Math.max(own.left, frame.left), top = Math.max(own.top, frame.top);
        const box = {left, top, width: Math.min(own.right, frame.right) - left,
                     height: Math.min(own.bottom, frame.bottom) - top};  // (the part the board shows)
        for (let i = 0; i <= 20; i++) for (let j = 0; j <= 20; j++) {
          const x = box.left + box.width * (0.5 + (i % 2 ? 1 : -1) * Math.floor(i / 2) / 20);
          const y = box.top + box.height * (0.5 + (j % 2 ? 1 : -1) * Math.floor(j / 2) / 20);
          const hit = document.elementFromPoint(x, y);
          if (hit && (hit === el || el.contains(hit))) return [x, y];
        }
        return null;""", element_id)
    assert point, f"no point of {element_id} can be clicked"
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(point[0]), int(point[1])).click()
    actions.perform()
