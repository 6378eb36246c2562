"""Play links as they are handed out: by the example Discord bot (its command handlers, without Discord, as in
test_hosted_discord_bot.py) and by the README's commands. Each opens its own caller's seat."""

from __future__ import annotations

import asyncio
import re
import subprocess
import threading

import pytest
import requests
from werkzeug.serving import make_server

from api import create_app
from tests.api_helpers import logged_server
from tests.helpers import ROOT

pytest.importorskip("discord", reason="the example bot needs discord.py (the `test` extra installs it)")
from tests.hosted.helpers import Target, load_bot  # noqa: E402 - after the import check


def test_the_bot_dms_each_player_a_play_link_holding_its_own_token(tmp_path):
    server = make_server("127.0.0.1", 0, create_app({"ADJUDICATOR_DATABASE": str(tmp_path / "links.sqlite3")}),
                         threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api_url = f"http://127.0.0.1:{server.server_port}"
    members = {1: Target(1, "ann"), 2: Target(2, "bob")}

    async def scenario():
        relay = load_bot().Relay(api_url, play_url="https://play.example.org/")
        try:
            return await relay.new_game(Target(name="arctic"), "arctic Russia=<@1> Norway=<@2>", members)
        finally:
            await relay.close()

    try:
        assert "Play links sent by DM" in asyncio.run(scenario())
        for uid, power in ((1, "Russia"), (2, "Norway")):
            (dm, _), = members[uid].sent
            link = re.search(r"<https://play\.example\.org/play/([\w-]+)#token=([\w-]+)>", dm)  # <...>: no preview
            assert link, dm
            game_id, token = link.groups()
            assert requests.get(f"{api_url}/play/{game_id}", timeout=10).status_code == 200
            view = requests.get(f"{api_url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"},
                                timeout=10)
            assert view.json()["you"] == power  # the link opens this player's own seat
    finally:
        server.shutdown()


def _you(base: str, game_id: str, token: str) -> str:
    answer = requests.get(f"{base}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return answer.json()["you"]


def test_the_readmes_commands_hand_out_play_links_and_move_the_deadline(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Playing in a browser"):readme.index("## The Arctic variant")]
    (block,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    with logged_server(tmp_path) as (base, _):
        out = subprocess.run(["bash", "-euo", "pipefail", "-c", block.replace("http://localhost:8000", base)],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        links = dict(re.findall(r"^([\w ]+): (http\S+)$", out.stdout, re.M))
        assert set(links) == {"Russia", "Norway", "Canada", "Denmark", "USA", "Game master"}, out.stdout
        for who, link in links.items():
            game_id, token = re.fullmatch(re.escape(base) + r"/play/([\w-]+)#token=([\w-]+)", link).groups()
            assert _you(base, game_id, token) == ("game master" if who == "Game master" else who)
        assert requests.get(f"{base}/play/{game_id}", timeout=10).status_code == 200
        assert re.search(r'"deadline":\s*"\d{4}-', out.stdout.splitlines()[-1]), out.stdout[-300:]
