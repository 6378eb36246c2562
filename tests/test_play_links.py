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
from api_helpers import logged_server
from conftest import ROOT

pytest.importorskip("discord", reason="the example bot needs discord.py (the `test` extra installs it)")
from test_hosted_discord_bot import Target, _load_bot  # noqa: E402 - after the import check


def test_the_bot_dms_each_player_a_play_link_holding_its_own_token(tmp_path):
    server = make_server("127.0.0.1", 0, create_app({"ADJUDICATOR_DATABASE": str(tmp_path / "links.sqlite3")}),
                         threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api_url = f"http://127.0.0.1:{server.server_port}"
    members = {1: Target(1, "ann"), 2: Target(2, "bob")}

    async def scenario():
        relay = _load_bot().Relay(api_url, play_url="https://play.example.org/")
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
    section = readme[readme.index("## Hosted games"):readme.index("## The Arctic variant")]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)  # a whole turn, then the play links
    assert len(blocks) == 2 and "/play/" in blocks[1]
    with logged_server(tmp_path) as (base, _):
        # As written, but for the PNG picture: drawing it costs seconds, and test_hosted.py fetches one.
        lines = "\n".join(blocks).replace("http://localhost:8000", base).splitlines()
        script = "\n".join(line for line in lines if "/picture" not in line)
        out = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        links = dict(re.findall(r"^(Russia|The game master) plays at (\S+)$", out.stdout, re.M))
        assert set(links) == {"Russia", "The game master"}, out.stdout
        for who, link in links.items():
            game_id, token = re.fullmatch(re.escape(base) + r"/play/([\w-]+)#token=([\w-]+)", link).groups()
            assert requests.get(f"{base}/play/{game_id}", timeout=10).status_code == 200
            assert _you(base, game_id, token) == ("Russia" if who == "Russia" else "game master")
        assert re.search(r'"deadline":\s*"\d{4}-', out.stdout.splitlines()[-1]), out.stdout[-300:]
