"""A small Discord bot over hosted games: a bot to copy. It keeps no game itself; the service does.

    pip install "arctic-adjudicator[discord]"
    DISCORD_TOKEN=... ADJUDICATOR_URL=http://localhost:8000 HOOK_PORT=8090 \
    HOOK_URL=http://this-machine:8090/hook python examples/discord_bot.py

In a channel:  `!newgame arctic Russia=@ann Norway=@bob Canada=@cy Denmark=@dee USA=@eve`
    creates a hosted game whose webhook is this bot (with GAME_SETTINGS, a JSON object, as its settings), and DMs
    each player its play link: the service's page `/play/<game id>#token=...` (PLAY_URL, the service's address as
    players' browsers reach it; ADJUDICATOR_URL by default), with the power's token, shown once, in the link's
    fragment, which browsers never send. `!scores` posts the scores if the game ended now (or its end's).
In a DM:       `!orders A Arc - Ura; F Okh - Kam` (or one order a line) sends that player's orders and answers
    with each order's status; `!ready` marks them ready; `!withdraw` takes them back; `!draw` votes for a draw of
    every survivor (DIAS), `!draw England France` for a named draw (when the game allows them), `!concede France`
    concedes, `!novote` withdraws the vote. Each is sent for the phase the bot last announced (`phase_no`): one the
    service has judged since is refused (409), never taken for the next phase, and the player is told which phase
    the game is at now.
The service calls the webhook (signed with the game's secret) on each of the game's events: the bot checks the
signature and posts in the game's channel the judged phase (the judge's report, the board picture, who sent no
orders), the end with its scores, deadline reminders (mentioning the players who have sent nothing), and a line
for a seat in civil disorder or replaced, a pause, a resume, an extended deadline, a draw proposed (never naming
who, when votes are secret). Other events are logged and ignored; a delivery that comes twice is posted once.

The command handlers (`Relay`) take plain objects with an async `send`, so they are tested without Discord.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from adjudicator.hosted.ending import described
from adjudicator.hosted.webhooks import SIGNATURE_HEADER, verify

_ASSIGNMENT = re.compile(r"([^=\s]{1,60})=<@!?(\d{1,25})>")  # Power=<@123>: no two unbounded quantifiers meet
_REMEMBERED = 1000  # deliveries the bot remembers having posted (each comes at least once)
log = logging.getLogger("discord_bot")


class Sendable(Protocol):
    """A Discord channel, user or member: something the bot can send to, with its id."""

    id: int

    async def send(self, content: str | None = None, **kwargs: Any) -> Any: ...


@dataclass
class Seat:
    """A player's seat as the bot remembers it (the token lives only here and in that player's DMs)."""

    game_id: str
    power: str
    token: str


@dataclass
class Game:
    """A game the bot relays: its channel, its game master's token and webhook secret, and the phase the bot
    last announced (the one its players' commands are for)."""

    game_id: str
    channel: Any
    gm_token: str
    secret: str
    phase_no: int = 1
    phase: str = ""

    def moved_on(self, answer: Any) -> bool:
        """Note the current phase a 409 names (the game moved on): whether it did."""
        current = answer.get("current_phase_no") if isinstance(answer, dict) else None
        if not isinstance(current, int):
            return False
        self.phase_no, self.phase = current, str(answer.get("current_phase", ""))
        return True


@dataclass
class Relay:
    """The bot's commands, over the hosted-games API."""

    api_url: str
    hook_url: str | None = None
    session: aiohttp.ClientSession | None = None
    seats: dict[int, Seat] = field(default_factory=dict)  # Discord user id -> seat (one game at a time each)
    games: dict[str, Game] = field(default_factory=dict)
    picture_width: int = 800
    play_url: str | None = None  # the service as players' browsers reach it (default: api_url)
    game_settings: dict[str, Any] | None = None  # the settings of the games it creates (the service checks them)
    posted: OrderedDict[str, None] = field(default_factory=OrderedDict)  # the last deliveries posted, by id

    async def _call(self, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
        if self.session is None:
            self.session = aiohttp.ClientSession()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(method, self.api_url + path, json=body, headers=headers) as response:
            if response.content_type.endswith("json"):
                return response.status, await response.json(content_type=None)
            return response.status, await response.read()

    async def close(self) -> None:
        """Close the HTTP session."""
        if self.session is not None:
            await self.session.close()

    # --- !newgame ----------------------------------------------------------------------------------------
    async def new_game(self, channel: Sendable, text: str, members: dict[int, Sendable]) -> str:
        """`!newgame VARIANT Power=@member ...`: create the game, DM every player its token."""
        variant, _, rest = text.strip().partition(" ")
        pairs = [(power, int(uid)) for power, uid in _ASSIGNMENT.findall(rest)]
        if not variant or not pairs:
            return await _say(channel, "usage: !newgame VARIANT Power=@player ... (one per power)")
        missing = [uid for _, uid in pairs if uid not in members]
        if missing:
            return await _say(channel, "I cannot see every mentioned player in this channel")
        body: dict[str, Any] = {"variant": variant, "name": f"Discord game in #{getattr(channel, 'name', 'channel')}",
                                "labels": {p: getattr(members[uid], "display_name", str(uid)) for p, uid in pairs}}
        if self.hook_url:
            body["webhook_url"] = self.hook_url
        if self.game_settings:
            body["settings"] = self.game_settings
        status, created = await self._call("POST", "/v1/games", body=body)
        if status != 201:
            return await _say(channel, f"the game could not be created: {created.get('detail', status)}")
        game = Game(created["id"], channel, created["game_master_token"], created["webhook_secret"],
                    created["phase_no"], created["phase"])
        self.games[game.game_id] = game
        for power, uid in pairs:
            if power not in created["tokens"]:
                await _say(channel, f"{power} is not a power of {variant}: it has no seat")
                continue
            self.seats[uid] = Seat(game.game_id, power, created["tokens"][power])
            await members[uid].send(f"You play {power} in game {game.game_id} ({created['phase']}). Play in your "
                                    f"browser: <{self.play_link(game.game_id, created['tokens'][power])}> (the link "
                                    f"holds your token: keep it secret)\nOr send orders here: !orders ...")
        return await _say(channel, f"Game {game.game_id} ({variant}) created: {created['phase']}. Play links sent "
                                   "by DM.")

    async def scores(self, channel: Sendable) -> str:
        """`!scores` in a game's channel: its scores if it ended now (a draw of every survivor), or its end's."""
        game = next((g for g in reversed(self.games.values()) if g.channel.id == channel.id), None)
        if game is None:
            return await _say(channel, "no game of mine is played in this channel")
        status, answer = await self._call("GET", f"/v1/games/{game.game_id}/scores", game.gm_token)
        if status != 200:
            return await _say(channel, f"no scores: {answer.get('detail', status)}")
        heading = (f"The game has ended: {described(answer['end'])}." if answer["ended"]
                   else "If the game ended now (a draw of every survivor):")
        return await _say(channel, f"{heading}\n{_table(answer['scores'], answer['system'])}")

    def play_link(self, game_id: str, token: str) -> str:
        """A player's link to the game's page; the token rides in the fragment, never sent to any server."""
        return f"{(self.play_url or self.api_url).rstrip('/')}/play/{game_id}#token={token}"

    # --- DMs ---------------------------------------------------------------------------------------------
    async def orders(self, user_id: int, dm: Sendable, text: str) -> str:
        """`!orders ...`: send this player's orders; answer each order's status."""
        seat = self.seats.get(user_id)
        if seat is None:
            return await _say(dm, "you have no seat in a game I relay")
        lines = [part.strip() for part in re.split(r"[;\n]", text) if part.strip()]
        game = self.games[seat.game_id]
        status, answer = await self._call("PUT", f"/v1/games/{seat.game_id}/orders", seat.token,
                                          {"orders": lines, "phase_no": game.phase_no})
        if status != 200:
            return await self._refused(dm, game, status, answer)
        rows = [f"{o['order']}: {o['status']}" + (f" ({o['reason']})" if o.get("reason") else "")
                for o in answer["orders"]]
        return await _say(dm, f"{seat.power}, {answer['phase']}:\n" + "\n".join(rows or ["(no orders)"]))

    async def ready(self, user_id: int, dm: Sendable, ready: bool = True) -> str:
        """`!ready`: mark this player's orders ready."""
        seat = self.seats.get(user_id)
        if seat is None:
            return await _say(dm, "you have no seat in a game I relay")
        game = self.games[seat.game_id]
        status, answer = await self._call("PUT", f"/v1/games/{seat.game_id}/ready", seat.token,
                                          {"ready": ready, "phase_no": game.phase_no})
        if status != 200:
            return await self._refused(dm, game, status, answer)
        return await _say(dm, f"{seat.power} is {'ready' if ready else 'not ready'} for {answer['phase']}")

    async def withdraw(self, user_id: int, dm: Sendable) -> str:
        """`!withdraw`: take this player's orders back."""
        seat = self.seats.get(user_id)
        if seat is None:
            return await _say(dm, "you have no seat in a game I relay")
        game = self.games[seat.game_id]
        status, answer = await self._call("DELETE", f"/v1/games/{seat.game_id}/orders?phase_no={game.phase_no}",
                                          seat.token)
        return await _say(dm, "orders withdrawn") if status == 200 else await self._refused(dm, game, status, answer)

    async def draw(self, user_id: int, dm: Sendable, text: str) -> str:
        """`!draw` (a draw of every survivor, DIAS) or `!draw England France` (a named draw): this player's vote."""
        powers = text.replace(",", " ").split()
        return await self._vote(user_id, dm, {"draw": powers or "dias"})

    async def concede(self, user_id: int, dm: Sendable, text: str) -> str:
        """`!concede France`: this player concedes the game to that power."""
        if not text.strip():
            return await _say(dm, "usage: !concede POWER (the power you concede the game to)")
        return await self._vote(user_id, dm, {"concede_to": text.strip()})

    async def novote(self, user_id: int, dm: Sendable) -> str:
        """`!novote`: withdraw this player's draw vote or concession."""
        return await self._vote(user_id, dm, {})

    async def _vote(self, user_id: int, dm: Sendable, vote: dict[str, Any]) -> str:
        seat = self.seats.get(user_id)
        if seat is None:
            return await _say(dm, "you have no seat in a game I relay")
        game = self.games[seat.game_id]
        status, answer = await self._call("PUT", f"/v1/games/{seat.game_id}/vote", seat.token,
                                          {**vote, "phase_no": game.phase_no})
        if status != 200:
            return await self._refused(dm, game, status, answer)
        if answer["ended"]:
            return await _say(dm, f"Your vote ended the game: {described(answer['end'])}")
        return await _say(dm, f"{seat.power} {_voted(answer['vote'])} ({answer['phase']})")

    async def _refused(self, dm: Sendable, game: Game, status: int, answer: Any) -> str:
        """A refused command; when the phase it was for has been judged, say so and which phase is current now
        (the command is not sent again for it: what was meant for one phase never acts on the next)."""
        detail = answer.get("detail", status) if isinstance(answer, dict) else status
        if status == 409 and game.moved_on(answer):
            return await _say(dm, f"refused: {detail}. The game has moved on to {game.phase}: look at the board "
                                  "and send your orders for it")
        return await _say(dm, f"refused: {detail}")

    # --- the webhook -------------------------------------------------------------------------------------
    async def webhook(self, body: bytes, signature: str | None) -> int:
        """A game's event: check the signature, post it in the game's channel (once, however often it comes)."""
        try:
            event = json.loads(body)
        except ValueError:
            return 400
        game = self.games.get(str(event.get("game_id"))) if isinstance(event, dict) else None
        if game is None or not verify(game.secret, signature, body):
            return 403  # not a game of ours, or not signed by the service
        delivery = str(event.get("delivery_id") or "")
        if delivery and delivery in self.posted:
            return 200
        if event.get("event") == "phase.judged":
            await self._judged(game, event)
        else:
            line = self._line(game, event)
            if line is None:
                log.info("ignored the webhook event %r of game %s", event.get("event"), game.game_id)
                return 200
            await game.channel.send(line)
        if delivery:
            self.posted[delivery] = None
        if len(self.posted) > _REMEMBERED:
            self.posted.popitem(last=False)
        return 200

    async def _judged(self, game: Game, event: dict[str, Any]) -> None:
        """A judged phase: the judge's report, the board picture, and who sent no orders; the bot moves on."""
        n = event["phase_no"]
        _, report = await self._call("GET", f"/v1/games/{game.game_id}/phases/{n}/report", game.gm_token)
        text = report.decode() if isinstance(report, bytes) else str(report)
        status, picture = await self._call("GET", f"/v1/games/{game.game_id}/phases/{n}/picture?format=png&width="
                                           f"{self.picture_width}", game.gm_token)
        extra: dict[str, Any] = {}
        if status == 200 and isinstance(picture, bytes):
            extra["file"] = _file(picture)
        if isinstance(n, int) and n + 1 > game.phase_no:  # (deliveries come at least once, maybe late)
            game.phase_no, game.phase = n + 1, str(event.get("next_phase", ""))
        missed = f"\nNo orders from: {', '.join(event['missed'])}" if event.get("missed") else ""
        await game.channel.send(f"**{event['phase']}** judged; next: {event['next_phase']}{missed}\n"
                                f"```\n{text[:1800]}\n```", **extra)

    def _line(self, game: Game, event: dict[str, Any]) -> str | None:
        """Any other event of the game in a line or two for its channel; None: an event this bot does not know."""
        name, power = event.get("event"), event.get("power")
        if name == "game.ended":
            end = event["end"]
            return f"**The game has ended**: {described(end)}.\n{_table(end.get('scores') or {}, end.get('scoring'))}"
        if name == "deadline.reminder":
            return f"Deadline {_when(event.get('deadline'))} for {event['phase']}: {self._waiting(game, event)}"
        if name == "deadline.extended":
            return (f"The deadline for {event['phase']} is extended to {_when(event.get('deadline'))}: "
                    f"{self._waiting(game, event)}")
        if name == "seat.disorder":
            return (f"{power} is in civil disorder (no orders for {event.get('missed_in_row')} movement phases in a "
                    "row): its units follow the rules' defaults until it sends orders again")
        if name == "seat.replaced":
            for uid in [u for u, seat in self.seats.items() if (seat.game_id, seat.power) == (game.game_id, power)]:
                del self.seats[uid]  # (its token is refused from now on)
            holder = "bot" if event.get("kind") == "bot" else "player"
            return f"{power} has a new {holder} from phase {event.get('from_phase')}"
        if name == "game.paused":
            return f"The game is paused (until {_when(event.get('resumes_at'))} at the latest)"
        if name == "game.resumed":
            return f"The game is resumed (by {event.get('by')}); deadline: {_when(event.get('deadline'))}"
        if name == "draw.proposed":
            if event.get("secret"):  # never who, nor what (the service sends neither)
                return ("A vote to end the game has been cast (votes are secret): !draw, !concede POWER or !novote "
                        "in a DM to vote")
            return f"{event.get('by')} {_voted(event.get('vote'))}"
        return None

    def _waiting(self, game: Game, event: dict[str, Any]) -> str:
        """Who has not sent orders, as mentions of the members the bot knows (else the powers' names)."""
        powers = event.get("waiting_for") or []
        if not powers:
            return "every power has sent orders"
        members = {seat.power: uid for uid, seat in self.seats.items() if seat.game_id == game.game_id}
        return "no orders yet from " + ", ".join(f"<@{members[p]}> ({p})" if p in members else p for p in powers)

    def webhook_app(self) -> web.Application:
        """The aiohttp application the service's webhook calls (POST /hook)."""
        async def handle(request: web.Request) -> web.Response:
            return web.Response(status=await self.webhook(await request.read(), request.headers.get(SIGNATURE_HEADER)))

        app = web.Application(client_max_size=1024 * 1024)
        app.router.add_post("/hook", handle)
        return app


async def _say(target: Sendable, text: str) -> str:
    await target.send(text)
    return text


def _when(iso: str | None) -> str:
    """A time the service gives (ISO 8601) as a Discord timestamp, which each reader sees in their own time zone."""
    if not iso:
        return "none"
    try:
        return f"<t:{int(datetime.fromisoformat(iso.replace('Z', '+00:00')).timestamp())}:f>"  # (3.10 reads no Z)
    except ValueError:
        return iso


def _voted(vote: dict[str, Any] | None) -> str:
    """A seat's vote in words, after its power's name."""
    if vote and vote.get("concede_to"):
        return f"concedes the game to {vote['concede_to']}"
    if vote and vote.get("draw"):
        return f"votes for a draw of {', '.join(vote['draw'])}"
    return "has no vote now"


def _table(scores: dict[str, float], system: str | None) -> str:
    """Scores as a table, highest first."""
    rows = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    width = max((len(power) for power in scores), default=0)
    lines = [f"{power:<{width}}  {score:>6g}" for power, score in rows]
    return f"Scores ({system}):\n```\n" + "\n".join(lines or ["(none)"]) + "\n```"


def _file(png: bytes) -> Any:
    import discord

    return discord.File(io.BytesIO(png), filename="board.png")


def build_bot(relay: Relay) -> Any:
    """The discord.py bot: each command hands its text to the Relay."""
    import discord
    from discord.ext import commands

    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True
    bot = commands.Bot(command_prefix="!", intents=intents)

    @bot.command(name="newgame")
    async def newgame(ctx: commands.Context, *, text: str = "") -> None:
        await relay.new_game(ctx.channel, text, {m.id: m for m in ctx.message.mentions})

    @bot.command(name="orders")
    @commands.dm_only()
    async def orders(ctx: commands.Context, *, text: str = "") -> None:
        await relay.orders(ctx.author.id, ctx.channel, text)

    @bot.command(name="ready")
    @commands.dm_only()
    async def ready(ctx: commands.Context) -> None:
        await relay.ready(ctx.author.id, ctx.channel)

    @bot.command(name="withdraw")
    @commands.dm_only()
    async def withdraw(ctx: commands.Context) -> None:
        await relay.withdraw(ctx.author.id, ctx.channel)

    @bot.command(name="draw")
    @commands.dm_only()
    async def draw(ctx: commands.Context, *, text: str = "") -> None:
        await relay.draw(ctx.author.id, ctx.channel, text)

    @bot.command(name="concede")
    @commands.dm_only()
    async def concede(ctx: commands.Context, *, text: str = "") -> None:
        await relay.concede(ctx.author.id, ctx.channel, text)

    @bot.command(name="novote")
    @commands.dm_only()
    async def novote(ctx: commands.Context) -> None:
        await relay.novote(ctx.author.id, ctx.channel)

    @bot.command(name="scores")
    @commands.guild_only()
    async def scores(ctx: commands.Context) -> None:
        await relay.scores(ctx.channel)

    @bot.event
    async def setup_hook() -> None:  # the webhook receiver runs on the bot's own event loop
        runner = web.AppRunner(relay.webhook_app())
        await runner.setup()
        await web.TCPSite(runner, os.environ.get("HOOK_HOST", "0.0.0.0"), int(os.environ.get("HOOK_PORT", "8090"))).start()

    return bot


# What the bot reads from its environment: (name, required, what it is).
SETTINGS = (
    ("DISCORD_TOKEN", True, "the bot's token, from the Discord developer portal (Bot -> Reset Token)"),
    ("ADJUDICATOR_URL", False, "the adjudicator service (default http://localhost:8000; `adjudicator serve`)"),
    ("HOOK_URL", False, "where the service reaches this bot's webhook, e.g. http://this-machine:8090/hook "
                        "(without it, judged phases are not posted in the channel)"),
    ("HOOK_PORT", False, "the webhook's port on this machine (default 8090)"),
    ("PLAY_URL", False, "the service's address as players' browsers reach it, for their play links "
                        "(default ADJUDICATOR_URL)"),
    ("GAME_SETTINGS", False, 'the settings of the games it creates, a JSON object, e.g. {"phase_seconds": 86400, '
                             '"reminder_seconds": 3600, "draws": "named"} (README, "Hosted games")'),
)


def missing_settings(environ: dict[str, str]) -> str | None:
    """What the bot needs and was not given, in words (None when it can start)."""
    missing = [name for name, required, _ in SETTINGS if required and not environ.get(name)]
    if not missing:
        return None
    lines = [f"examples/discord_bot.py needs {', '.join(missing)} in its environment:"]
    lines += [f"  {name}{'' if required else ' (optional)'}: {what}" for name, required, what in SETTINGS]
    lines.append("e.g. DISCORD_TOKEN=... ADJUDICATOR_URL=http://localhost:8000 HOOK_URL=http://this-machine:8090/hook "
                 "python examples/discord_bot.py")
    return "\n".join(lines)


def game_settings(environ: dict[str, str]) -> dict[str, Any]:
    """GAME_SETTINGS, the settings of the games the bot creates ({} when not given); SystemExit if not a JSON object."""
    try:
        settings = json.loads(environ.get("GAME_SETTINGS") or "{}")
    except ValueError as exc:
        raise SystemExit(f"GAME_SETTINGS must be a JSON object, like {{\"phase_seconds\": 86400}}: {exc}") from None
    if not isinstance(settings, dict):
        raise SystemExit(f"GAME_SETTINGS must be a JSON object, like {{\"phase_seconds\": 86400}}, not {settings!r}")
    return settings


def main() -> None:  # pragma: no cover - needs a Discord connection
    """Run the bot (DISCORD_TOKEN, ADJUDICATOR_URL, HOOK_URL, HOOK_PORT, PLAY_URL, GAME_SETTINGS); without its token
    it says what it needs."""
    problem = missing_settings(dict(os.environ))
    if problem:
        raise SystemExit(problem)
    relay = Relay(os.environ.get("ADJUDICATOR_URL", "http://localhost:8000"), os.environ.get("HOOK_URL"),
                  play_url=os.environ.get("PLAY_URL"), game_settings=game_settings(dict(os.environ)))
    build_bot(relay).run(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    main()
