"""The real server (gunicorn via `adjudicator serve`) on a loopback port, called with a real HTTP client:
a bot plays the Arctic game through the API alone, and the README's curl example works as written."""

from __future__ import annotations

import random
import re
import shlex
import subprocess

import pytest
import requests

from tests.api_helpers import check_response, running_server
from tests.helpers import ROOT


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2) as base:
        yield base


def test_health_and_problem_over_http(server):
    r = requests.get(server + "/healthz", timeout=5)
    assert r.status_code == 200 and r.json()["status"] == "ok"
    r = requests.post(server + "/v1/adjudicate", data="nope", headers={"Content-Type": "text/plain"}, timeout=5)
    assert r.status_code == 415 and r.headers["Content-Type"].startswith("application/problem+json")
    r = requests.post(server + "/v1/adjudicate", data=b"x" * (2 * 1024 * 1024),
                      headers={"Content-Type": "application/json"}, timeout=10)
    assert r.status_code == 413


def _choose(legal: dict, due: dict, rng: random.Random) -> dict[str, list[str]]:
    orders: dict[str, list[str]] = {}
    for power, units in legal.items():
        for unit, options in units.items():
            if unit == "builds":
                chosen: dict[str, str] = {}
                for option in rng.sample(options, len(options)):
                    place = option.split()[-1].split("/")[0]
                    if len(chosen) < due[power] and place not in chosen and option != "Waive":
                        chosen[place] = option
                orders.setdefault(power, []).extend(chosen.values())
            elif unit == "removals":
                orders.setdefault(power, []).extend(rng.sample(options, -due[power]))
            elif options:
                orders.setdefault(power, []).append(rng.choice(options))
    return orders


def test_a_bot_plays_the_arctic_game_through_the_api(server):
    rng = random.Random(2010)
    state = requests.get(server + "/v1/variants/arctic/start", timeout=5).json()
    seen = []
    while True:
        phase = state["phase"]
        seen.append(f"{phase['season']} {phase['year']} {phase['type']}")
        if phase["season"] == "Fall" and phase["year"] == 2012:
            break
        r = requests.post(server + "/v1/orders/legal", json={"state": state}, timeout=30)
        assert r.status_code == 200, r.text
        check_response("/v1/orders/legal", "post", r)
        orders = _choose(r.json()["powers"], r.json()["adjustments"], rng)
        r = requests.post(server + "/v1/adjudicate", json={"state": state, "orders": orders}, timeout=30)
        assert r.status_code == 200, r.text
        check_response("/v1/adjudicate", "post", r)
        data = r.json()
        assert not [o for o in data["orders"] if o["status"] in ("illegal", "ignored")], \
            [o for o in data["orders"] if o["status"] in ("illegal", "ignored")]
        state = data["next_state"]
    assert seen[0] == "Fall 2010 Movement" and seen[-1] == "Fall 2012 Movement"
    assert "Winter 2010 Movement" in seen and "Summer 2011 Movement" in seen
    assert len(state["history"]) == len(seen) - 1


def test_readme_curl_example_works_as_written(server):
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(curl [^`]*?)```", readme, re.S)
    assert block, "the README has a curl example"
    port = server.rsplit(":", 1)[1]
    command = block.group(1).replace("\\\n", " ").replace("localhost:8000", f"127.0.0.1:{port}")
    out = subprocess.run(shlex.split(command), capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert out.returncode == 0, out.stderr
    assert '"status": "succeeds"' in out.stdout.replace('":"', '": "') or '"succeeds"' in out.stdout
