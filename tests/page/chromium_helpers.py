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
