"""A real browser for the page tests: Debian's headless Chromium driven by Selenium through chromedriver (both
from the distribution: nothing is downloaded), and `adjudicator serve` with its access log kept in a file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from api_helpers import free_port

# Chromium as root in a container: no sandbox, no GPU, and nothing that calls out to another site.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def _executables() -> tuple[str, str]:
    """Chromium and chromedriver (`CHROMIUM`, `CHROMEDRIVER` name others); skipped without them, except in CI."""
    browser = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    why = "no Chromium and chromedriver here: `apt-get install chromium chromium-driver` (.ci/run does) to run this"
    if os.environ.get("CI") == "true":
        pytest.fail("CI must run the browser tests: " + why)
    pytest.skip(why)


@contextmanager
def chromium() -> Iterator[object]:
    """A headless Chromium with a fresh profile, driven by Selenium."""
    browser, driver_path = _executables()
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


@contextmanager
def logged_server(folder: Path) -> Iterator[tuple[str, Path]]:
    """`adjudicator serve` on a free loopback port with games in `folder`; yields its URL and its log file
    (gunicorn's access log and error log, as an operator would keep them)."""
    port = free_port()
    log = folder / "server.log"
    env = {**os.environ, "ADJUDICATOR_DATABASE": str(folder / "games.sqlite3")}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--workers", "2"], stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(base + "/healthz", timeout=1).ok:
                    break
            except (requests.ConnectionError, requests.Timeout):  # still starting
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start: " + log.read_text(errors="replace")[-2000:])
            time.sleep(0.1)
        yield base, log
    finally:
        proc.terminate()  # graceful: gunicorn waits (5 s at most) for open connections, so close browsers first
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


CURRENT_BOARD, PHASE_PICTURES = "*/v1/render", "*/picture?*"  # the endpoints that draw the board


def block_pictures(driver, allow: tuple[str, ...] = ()) -> None:
    """Have the browser refuse the board pictures but those of `allow`: drawing one costs the server a second of
    CPU, which tests of orders and reports need not wait behind. The page says the picture could not be had."""
    driver.execute_cdp_cmd("Network.enable", {})
    blocked = [url for url in (CURRENT_BOARD, PHASE_PICTURES) if url not in allow]
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": blocked})
