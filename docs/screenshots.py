"""The play page's screenshots in docs/: a Diplomacy game at desktop size (1280 x 800) and at phone size (390 x 844),
with orders picked on the board and drawn as pending, and a judged phase's report. Run from the repository:

    python docs/screenshots.py            # writes docs/play-desktop.png and docs/play-phone.png

It starts `adjudicator serve` on a free loopback port with a throw-away database, drives Debian's headless Chromium
(the page tests' own helpers: nothing is downloaded) and stops both."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.api_helpers import logged_server  # noqa: E402 - after the path
from tests.page.chromium_helpers import chromium, click_board, viewport  # noqa: E402

SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait(driver, condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition(driver):
        if time.monotonic() > end:
            raise TimeoutError("the page did not get there in time")
        time.sleep(0.2)


def _shown(driver) -> bool:
    return bool(driver.execute_script(
        "return document.body.dataset.loaded && document.querySelector('#board-picture svg [id^=space-]') "
        "&& document.getElementById('statuses').dataset.answers"))


def _pending(driver) -> bool:
    return bool(driver.execute_script("return document.querySelector('#board-picture svg.pending')"))


def main(out: Path = ROOT / "docs") -> list[Path]:
    """Take the screenshots; the files written."""
    written = []
    with tempfile.TemporaryDirectory() as folder, logged_server(Path(folder)) as (base, _):
        game = requests.post(base + "/v1/games", json={"variant": "standard", "name": "Spring in Europe",
                                                       "settings": {"public_readiness": True}}, timeout=30).json()
        gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]
        opening = {"France": ["A par - bur", "A mar S A par - bur", "F bre - mid"],
                   "Germany": ["A mun - ruh", "F kie - den", "A ber - kie"],
                   "England": ["F lon - nth", "F edi - nrg", "A lvp - yor"]}
        for power, orders in opening.items():
            requests.put(f"{base}/v1/games/{gid}/orders", headers=_auth(tokens[power]),
                         json={"orders": orders, "ready": True, "phase_no": 1}, timeout=30)
        requests.post(f"{base}/v1/games/{gid}/adjudicate", headers=_auth(gm), json={"phase_no": 1}, timeout=60)
        requests.put(f"{base}/v1/games/{gid}/orders", headers=_auth(tokens["France"]),
                     json={"orders": ["A bur - bel"], "ready": True, "phase_no": 2}, timeout=30)
        with chromium() as driver:
            for name, (width, height, mobile) in SIZES.items():
                viewport(driver, width, height, mobile)
                driver.get("about:blank")
                driver.get(f"{base}/play/{gid}#token={tokens['England']}")
                _wait(driver, _shown)
                driver.execute_script("window.scrollTo(0, 0)")
                for element in ("unit-England-F-nth", "space-nwy", "unit-England-A-yor", "space-edi"):
                    click_board(driver, element)
                _wait(driver, _pending)
                time.sleep(1.0)  # (the pending orders' picture in place, the symbols of the legend measured)
                driver.execute_script("document.getElementById('messages').replaceChildren()")  # (a passing note)
                if mobile:
                    driver.execute_script("window.scrollTo(0, 0)")
                path = out / f"play-{name}.png"
                driver.save_screenshot(str(path))
                written.append(path)
    return written


if __name__ == "__main__":
    for path in main():
        print(path)
