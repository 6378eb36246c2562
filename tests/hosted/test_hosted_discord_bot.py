"""The example Discord bot's command handlers, without a Discord connection: a real API server on loopback, the
bot's webhook receiver on loopback, and plain objects in place of Discord's channels and members."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from contextlib import asynccontextmanager

import pytest
from werkzeug.serving import make_server

from adjudicator.hosted.webhooks import sign
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
            assert "No orders from: Norway, Canada, Denmark, USA\n" in posted  # only Russia sent orders
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


DIPLOMACY = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


@asynccontextmanager
async def hooked_relay(bot, api_url, **options):
    """A Relay whose webhook receiver listens on loopback (the games it creates call it)."""
    relay = bot.Relay(api_url, **options)
    runner = web.AppRunner(relay.webhook_app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    relay.hook_url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/hook"
    try:
        yield relay
    finally:
        await relay.close()
        await runner.cleanup()


async def posts(channel, text: str, count: int = 1) -> list[str]:
    """The channel's posts containing `text`, once there are `count` of them (the service's deliveries are sent
    in the background)."""
    for _ in range(400):
        found = [c for c, _ in channel.sent if text in (c or "")]
        if len(found) >= count:
            return found
        await asyncio.sleep(0.025)
    raise AssertionError(f"{count} posts with {text!r} expected: {channel.sent}")


def table(post: str) -> list[tuple[str, float]]:
    """The scores table of a post: its rows, in order."""
    rows = post.split("```\n")[1].split("\n```")[0].splitlines()
    return [(power, float(score)) for power, score in (row.split() for row in rows)]


def test_a_dias_draw_voted_in_dms_ends_the_game_and_the_channel_gets_the_scores(api_url):
    bot = load_bot()
    members = {i: Target(i, f"player{i}") for i in range(1, 8)}
    channel = Target(50, "diplomacy")

    async def scenario():
        async with hooked_relay(bot, api_url, game_settings={"scoring": "sum-of-squares"}) as relay:
            text = "standard " + " ".join(f"{p}=<@{i}>" for i, p in zip(members, DIPLOMACY))
            assert "created" in await relay.new_game(channel, text, members)
            now = await relay.scores(channel)  # Russia has 4 centres, every other power 3
            assert now.startswith("If the game ended now (a draw of every survivor):") and "sum-of-squares" in now
            assert table(now) == [("Russia", 22.86)] + [(p, 12.86) for p in DIPLOMACY if p != "Russia"]
            assert "no game of mine" in await relay.scores(Target(51, "elsewhere"))

            named = await relay.draw(1, members[1], "England, France")  # a DIAS game: refused, in words
            assert named.startswith("refused: this game's draws include all survivors (DIAS)"), named
            conceded = await relay.concede(2, members[2], "France")
            assert conceded == "England concedes the game to France (Spring 1901 Movement)"
            assert "usage" in await relay.concede(2, members[2], " ")
            assert await relay.novote(2, members[2]) == "England has no vote now (Spring 1901 Movement)"
            assert "no seat" in await relay.draw(99, Target(99), "")
            for i in range(1, 7):
                assert await relay.draw(i, members[i], "") == (f"{DIPLOMACY[i - 1]} votes for a draw of "
                                                               f"{', '.join(DIPLOMACY)} (Spring 1901 Movement)")
            last = await relay.draw(7, members[7], "")
            assert last == f"Your vote ended the game: a draw of {', '.join(DIPLOMACY)} (by votes, after 0 phases)"

            (ended,) = await posts(channel, "The game has ended")
            assert f"a draw of {', '.join(DIPLOMACY)}" in ended and "Scores (sum-of-squares)" in ended
            assert table(ended) == table(now)  # highest first
            # The concession and six draw votes were proposed in secret: the channel names no one.
            proposed = await posts(channel, "A vote to end the game has been cast", count=7)
            assert not [line for line in proposed for name in DIPLOMACY + ["<@"] if name in line]
            assert "refused: the game has ended: a draw" in await relay.draw(1, members[1], "")
            assert (await relay.scores(channel)).startswith("The game has ended: a draw of Austria")

    asyncio.run(scenario())


def test_the_deadline_reminder_mentions_the_members_who_have_sent_nothing(api_url):
    bot = load_bot()
    members = {i: Target(i, f"player{i}") for i in range(1, 5)}  # USA has no member in this channel
    channel = Target(60, "arctic")

    async def scenario():
        settings = {"phase_seconds": 3600, "reminder_seconds": 3599}  # the reminder is due a second after the start
        async with hooked_relay(bot, api_url, game_settings=settings) as relay:
            text = "arctic " + " ".join(f"{p}=<@{i}>" for i, p in zip(members, ["Russia", "Norway", "Canada",
                                                                                  "Denmark"]))
            assert "created" in await relay.new_game(channel, text, members)
            created = time.monotonic()  # (the game was made before: its reminder is due by created + 1 s)
            assert "A Arc - Ura: ok" in await relay.orders(1, members[1], "A Arc - Ura")
            await asyncio.sleep(max(0.0, created + 1.1 - time.monotonic()))
            await relay.scores(channel)  # the first request after the reminder is due sends it
            (reminder,) = await posts(channel, "Deadline")
            assert reminder.startswith("Deadline <t:"), reminder  # a Discord timestamp
            assert reminder.endswith("for Fall 2010 Movement: no orders yet from <@2> (Norway), <@3> (Canada), "
                                     "<@4> (Denmark), USA"), reminder
            assert "<@1>" not in reminder

    asyncio.run(scenario())


def test_the_channel_gets_a_line_for_each_event_and_ignores_the_unknown_ones(caplog):
    bot = load_bot()
    channel = Target(70, "c")
    relay = bot.Relay("http://127.0.0.1:9")  # (these events need nothing from the service)
    relay.games["g1"] = bot.Game("g1", channel, "gm", "s3cret", 3, "Fall 1901 Movement")
    relay.seats[5] = bot.Seat("g1", "France", "old-token")
    sent = iter(range(1000))

    async def hook(event: str, **data) -> int:
        body = json.dumps({"event": event, "delivery_id": data.pop("delivery_id", f"g1.3.{next(sent)}"),
                           "game_id": "g1", "phase_no": 3, "phase": "Fall 1901 Movement", **data}).encode()
        return await relay.webhook(body, sign("s3cret", body, int(time.time())))

    async def scenario():
        assert await hook("draw.proposed", secret=True, by="France", vote={"draw": ["France", "Italy"]}) == 200
        assert channel.last.startswith("A vote to end the game has been cast") and "France" not in channel.last
        await hook("draw.proposed", secret=False, by="France", vote={"draw": ["France", "Italy"]})
        assert channel.last == "France votes for a draw of France, Italy"
        await hook("draw.proposed", secret=False, by="Italy", vote={"concede_to": "France"})
        assert channel.last == "Italy concedes the game to France"
        await hook("seat.disorder", power="Italy", missed_in_row=2)
        assert channel.last.startswith("Italy is in civil disorder (no orders for 2 movement phases in a row)")
        await hook("seat.replaced", power="France", kind="player", from_phase=4)
        assert channel.last == "France has a new player from phase 4" and 5 not in relay.seats  # its token is dead
        await hook("game.paused", resumes_at="2026-12-05T10:00:00Z")  # times as Discord timestamps
        assert channel.last == "The game is paused (until <t:1796464800:f> at the latest)"
        await hook("game.resumed", by="game master", deadline=None)
        assert channel.last == "The game is resumed (by game master); deadline: none"
        await hook("deadline.extended", deadline="2026-12-06T10:00:00Z", grace=True, waiting_for=[])
        assert channel.last.endswith("extended to <t:1796551200:f>: every power has sent orders")
        end = {"kind": "concession", "powers": ["France"], "scores": {"France": 100, "Italy": 0}, "phase_no": 3,
               "by": "votes", "scoring": "draw-size"}
        for _ in range(2):  # a delivery that comes twice is posted once
            assert await hook("game.ended", delivery_id="g1.3.game.ended.1", end=end) == 200
        assert [c for c, _ in channel.sent].count(channel.last) == 1
        assert channel.last.startswith("**The game has ended**: a concession to France (by votes, after 3 phases)")
        assert table(channel.last) == [("France", 100.0), ("Italy", 0.0)]
        before = len(channel.sent)
        with caplog.at_level(logging.INFO, logger="discord_bot"):
            assert await hook("game.renamed", name="x") == 200
        assert len(channel.sent) == before and "ignored the webhook event 'game.renamed'" in caplog.text

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
    assert {c.name for c in bot_module.commands} >= {"newgame", "orders", "ready", "withdraw", "draw", "concede",
                                                     "novote", "scores"}
    assert bot.game_settings({}) == {} and bot.game_settings({"GAME_SETTINGS": '{"draws": "named"}'}) == {
        "draws": "named"}
    with pytest.raises(SystemExit, match="GAME_SETTINGS must be a JSON object"):
        bot.game_settings({"GAME_SETTINGS": "[1]"})
