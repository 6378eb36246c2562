"""`adjudicator games tick`: judge every phase past its deadline, send the due webhooks and wait for them.

Several ticks at once (cron on each machine) share the work: each claims one due game at a time, passing over
those another holds, so each phase is judged once and N tickers take about 1/N of the time on free cores
(`Service.tick`).
It says which database it uses and where that setting came from. It never creates a database (a SQLite file
that does not exist is most likely a wrong setting, and a new one has no games to tick): that, and a database
it cannot reach, is one line naming the database, and exit status 2. Interrupted (Ctrl-C, SIGTERM), it releases
the delivery it holds before it exits, so the next run sends it at once; killed, it loses its open judgement
(rolled back, judged by another) and its delivery's lease runs out (15 s).
"""

from __future__ import annotations

import signal
from collections.abc import Callable

from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from adjudicator.hosted.service import Service
from adjudicator.hosted.storage import database, named_database, open_store
from adjudicator.hosted.webhooks import configured_policy
from adjudicator.refusals import Kind

DONE = {"resume": "resumed (its pause's cap)", "remind": "reminder sent", "extend": "deadline extended",
        "nothing": "nothing due"}
UNREACHABLE = Kind.UNAVAILABLE  # what a database that is not there or cannot be reached is (the CLI's exit status 2)


def run(explicit: str | None, say: Callable[[str], None]) -> Kind | None:
    """Tick the database `explicit` names (else the settings `adjudicator serve` uses); None when done, else
    the kind of refusal that stopped it (the CLI's table gives its exit status)."""
    db = named_database(explicit, "--database") if explicit else database()
    try:
        named = f"the database {db.shown} (from {db.source})"
    except (ArgumentError, ValueError):  # not a URL SQLAlchemy reads (a port that is no number: ValueError)
        say(f"error: the database {explicit!r} (from --database) is not a database URL: write one such as "
            "postgresql://user@host/games or sqlite:///games.sqlite3, or a SQLite file's path")
        return Kind.BAD_INPUT
    if db.sqlite_file is not None and not db.sqlite_file.is_file():
        say(f"error: {named} does not exist, and tick creates no database: name the one the server uses "
            "(ADJUDICATOR_DATABASE_URL, ADJUDICATOR_DATABASE or --database)")
        return UNREACHABLE
    try:
        store = open_store(db.url)
    except (SQLAlchemyError, OSError) as exc:
        say(f"error: {named} cannot be used: {_first_line(exc)}")
        return UNREACHABLE
    say(f"database: {db.shown} (from {db.source})")
    previous = signal.signal(signal.SIGTERM, _exit)  # so a stopped tick unwinds and releases its claim
    try:
        judged, sent = Service(store, policy=configured_policy(), background=False).tick()
    except (SQLAlchemyError, OSError) as exc:
        say(f"error: {named} failed during the tick: {_first_line(exc)}")
        return UNREACHABLE
    finally:
        signal.signal(signal.SIGTERM, previous)
    for phase in judged:
        if "refused" in phase:
            say(f"not judged: game {phase['game_id']} phase {phase['phase_no']}: {phase['refused']}")
        elif "did" in phase:  # a pause's cap, a reminder, a grace period or an NMR extension
            say(f"{DONE[phase['did']]}: game {phase['game_id']} phase {phase['phase_no']}"
                + (f", deadline now {phase['deadline']}" if phase.get("deadline") else ""))
        else:
            say(f"judged {phase['phase']} (phase {phase['phase_no']}); next: {phase['next_phase']}")
    say(f"webhooks: {sent}")
    say(f"{sum('next_phase' in p for p in judged)} phase(s) judged")  # the last line, as scripts read it
    return None


def _exit(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def _first_line(exc: BaseException) -> str:
    """The driver's own message, first line (SQLAlchemy's wrapper adds the statement and a link)."""
    inner = getattr(exc, "orig", None) or exc
    lines = str(inner).strip().splitlines()
    return lines[0] if lines else type(inner).__name__
