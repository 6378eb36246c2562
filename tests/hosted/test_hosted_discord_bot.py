"""The example Discord bot's command handlers, without a Discord connection: a real API server on loopback, the
bot's webhook receiver on loopback, and plain objects in place of Discord's channels and members."""

from __future__ import annotations

import asyncio
import threading

import pytest
from werkzeug.serving import make_server

from api import create_app

pytest.importorskip("discord", reason="the example bot needs discord.py (the `test` extra installs it)")
from aiohttp import web  # noqa: E402 - discord.py brings aiohttp

from tests.hosted.helpers import Target, load_bot  # noqa: E402

@pytest.fixture
def api_url(tmp_path):
    app = create_app({"ADJUDICATOR_DATABASE": str(tmp_path / "bot.sqlite3"),
                      "ADJUDICATOR_WEBHOOK_ALLOW": "127.0.0.1"})  # the bot's receiver is on this machine
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_the_bot_creates_a_game_relays_orders_and_posts_the_judged_phase(api_url):
    bot = load_bot()
    powers = ["Russia", "Norway", "Canada", "Denmark", "USA"]
    members = {i: Target(i, f"player{i}") for i in range(1, 6)}
    channel = Target(name="arctic")

    async def scenario():
        relay = bot.Relay(api_url, picture_width=200)
        runner = web.AppRunner(relay.webhook_app())
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        relay.hook_url = f"http://127.0.0.1:{port}/hook"
        try:
            text = "arctic " + " ".join(f"{p}=<@{i}>" for i, p in zip(members, powers))
            assert "created" in await relay.new_game(channel, text, members)
            for i, member in members.items():
                (dm, _), = member.sent
                assert powers[i - 1] in dm and "adj_" in dm  # each player got only its own token, by DM
            assert "adj_" not in channel.last  # never in the channel
            answer = await relay.orders(1, members[1], "A Arc - Ura; F Okh - Nowhere")
            assert "A Arc - Ura: ok" in answer and "F Okh - Nowhere: unreadable" in answer
            assert "no seat" in await relay.orders(99, Target(99), "A Arc - Ura")
            assert "withdrawn" in await relay.withdraw(1, members[1])
            await relay.orders(1, members[1], "A Arc - Ura")
            for i in members:
                assert "ready" in await relay.ready(i, members[i])
            for _ in range(400):  # the service calls the bot's webhook, which posts in the channel
                if any("judged" in (c or "") for c, _ in channel.sent):
                    break
                await asyncio.sleep(0.025)
            posted, extra = next((c, k) for c, k in channel.sent if "judged" in (c or ""))
            assert "Fall 2010 Movement" in posted and "Winter 2010 Movement" in posted and "A Arc - Ura" in posted
            assert extra["file"].filename == "board.png"
            (game,) = relay.games.values()
            assert (game.phase_no, game.phase) == (2, "Winter 2010 Movement")  # the webhook moved the bot on
            # A webhook the bot missed: its commands are still for Fall, and the service refuses them (409),
            # never taking Fall's orders for Winter; the player is told the phase the game is at now.
            game.phase_no, game.phase = 1, "Fall 2010 Movement"
            stale = await relay.orders(1, members[1], "A Ura - Arc")
            assert stale.startswith("refused") and "moved on to Winter 2010 Movement" in stale, stale
            assert game.phase_no == 2
            game.phase_no = 1
            assert "refused" in await relay.ready(2, members[2]) and game.phase_no == 2  # Winter not judged
            assert "A Ura - Arc: ok" in await relay.orders(1, members[1], "A Ura - Arc")  # now for Winter
            forged = b'{"game_id": "%s", "phase_no": 1}' % game.game_id.encode()
            assert await relay.webhook(forged, "t=1,v1=00") == 403
            assert await relay.webhook(b"not json", None) == 400
        finally:
            await relay.close()
            await runner.cleanup()

    asyncio.run(scenario())


def test_the_bot_explains_bad_commands(api_url):
    bot = load_bot()
    channel = Target(name="c")

    async def scenario():
        relay = bot.Relay(api_url)
        try:
            assert "usage" in await relay.new_game(channel, "arctic", {})
            assert "cannot see" in await relay.new_game(channel, "arctic Russia=<@7>", {})
            assert "could not be created" in await relay.new_game(channel, "atlantis Russia=<@7>", {7: Target(7)})
        finally:
            await relay.close()

    asyncio.run(scenario())
    bot_module = bot.build_bot(bot.Relay(api_url))
    assert {c.name for c in bot_module.commands} >= {"newgame", "orders", "ready", "withdraw"}
