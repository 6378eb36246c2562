"""Talk: messages between a hosted game's seats (and its game master), to one, several or all, each kept with the
phase it was sent in.

Who reads a message: its sender and its recipients (to all: every seat), a row each in `hosted_message_readers`,
so a seat's inbox is one range of one index, read a page at a time (after an id). The game master reads only what
it sent or was sent, unless the game's `game_master_reads_messages` says it reads every message; once the game has
ended, `messages_visible_after_end` shows every message to everyone. A gunboat game has none: sending is refused.
With `anonymous_seats` a message names its sender's power only, never its label. A message is text in lines,
checked at the door (`text.message`), and always answered as data (JSON), never as markup.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from adjudicator.arrival import GM
from adjudicator.hosted import text
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.models import Game, Message, MessageReader, iso
from adjudicator.hosted.settings import Settings
from adjudicator.refusals import Kind

GAME_MASTER = "game master"  # how a message names the game master (its key is GM, "")
ALL = "ALL"  # a message to every seat (FAIR's recipient of the same name)
MAX_CLIENT_ID = 64


@dataclass(frozen=True)
class Addressed:
    """Whom a message goes to: every seat (`to_all`) or the named recipients (seat keys; GM for the game master),
    and so who may read it (its sender and every recipient)."""

    to_all: bool
    recipients: tuple[str, ...]  # the named ones; () when to all
    readers: tuple[str, ...]

    def receivers(self, sender: str, seats: list[str]) -> list[str]:
        """Who receives it (the sender aside), as the webhook names them."""
        return [shown(k) for k in (seats if self.to_all else self.recipients) if k != sender]


@dataclass(frozen=True)
class ImportedMessage:
    """A recorded message to keep with a game begun from a record: the phase it was sent in (its number in the
    hosted game), its sender (a power), to all or to the named powers, its text and when it was sent."""

    phase_no: int
    sender: str
    to_all: bool
    recipients: tuple[str, ...]
    text: str
    sent_at: float | None  # (None: the record does not say; kept as sent when the game is created)
    pointer: str = "/record"  # where the record holds it (a refusal of its text names it)


def shown(key: str) -> str:
    """A sender's or recipient's key as a message names it: the power, or "game master"."""
    return GAME_MASTER if key == GM else key


def refuse_gunboat(settings: Settings) -> None:
    """Refused (422) in a gunboat game: it has no messages at all."""
    if settings.gunboat:
        raise HostedError(Kind.REFUSED, "Gunboat game", "this game is gunboat (its setting `gunboat`): no messages "
                          "are sent or kept; orders are the only talk", pointer="/text")


def reads_all(settings: Settings, status: str, gm: bool) -> bool:
    """Whether a caller reads every message of the game (not only its own): the game master when the settings say
    so, everyone once the game has ended when they say so."""
    return (gm and settings.game_master_reads_messages) or (status == "ended" and settings.messages_visible_after_end)


def addressed(to: Any, sender: str, seats: list[str]) -> Addressed:
    """Whom `to` names: "ALL", or a list of 1 to 32 different seats and "game master", the sender not among them;
    a 400 naming the entry otherwise."""
    if to == ALL:
        return Addressed(True, (), tuple(dict.fromkeys([*seats, sender])))
    if not isinstance(to, list) or not to:
        raise HostedError(Kind.BAD_INPUT, "Bad request", '`to` is "ALL" or a list of the seats (and "game master") '
                          "the message is for", pointer="/to")
    keys: list[str] = []
    for i, name in enumerate(to):
        where = f"/to/{i}"
        name = text.printable(str(name), f"recipient {i + 1}", where, 100)
        key = name if name in seats else GM if name == GAME_MASTER else None
        if key is None:
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"{name!r} has no seat in this game; send to the seats "
                              f"{', '.join(seats)}, \"game master\", or \"ALL\"", pointer=where)
        if key == sender:
            raise HostedError(Kind.BAD_INPUT, "Bad request", "a message is for others: leave yourself out of `to`",
                              pointer=where)
        if key in keys:
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"{name!r} is named twice in `to`", pointer=where)
        keys.append(key)
    return Addressed(False, tuple(keys), (sender, *keys))


def client_id(value: Any) -> str | None:
    """A client's own id for a send (retried sends with it keep one message): 1 to 64 letters, digits, '_' , '-',
    '.' or ':'."""
    if value is None:
        return None
    if not (isinstance(value, str) and 0 < len(value) <= MAX_CLIENT_ID
            and all(ch.isascii() and (ch.isalnum() or ch in "_-.:") for ch in value)):
        raise HostedError(Kind.BAD_INPUT, "Bad request", f"`client_id` is 1 to {MAX_CLIENT_ID} ASCII letters, "
                          "digits, '_', '-', '.' or ':'", pointer="/client_id")
    return value


def replayed(session: Session, game_id: str, sender: str, client: str | None, addressed_to: Addressed,
             body: str) -> Message | None:
    """The message a sender already sent with this client id (a retry: nothing new is kept), or None; a 409 when
    the id was used for another message."""
    if client is None:
        return None
    kept = session.scalar(select(Message).where(Message.game_id == game_id, Message.sender == sender,
                                                Message.client_id == client))
    if kept is None:
        return None
    if (kept.body, kept.to_all, tuple(kept.recipients)) != (body, addressed_to.to_all, addressed_to.recipients):
        raise HostedError(Kind.CONFLICT, "Client id used", f"`client_id` {client!r} was used for another message "
                          f"(id {kept.id}, phase {kept.phase_no}): a retry sends the same message, a new message "
                          "takes a new id", pointer="/client_id")
    return kept


def rate_key(game_id: str, sender: str) -> str:
    """The rate-limit key of a seat's (or the game master's) sends in a game."""
    return "talk:" + hashlib.sha256(f"{game_id}\x00{sender}".encode()).hexdigest()[:40]


def keep(session: Session, game: Game, rows: list[dict[str, Any]], readers: list[tuple[str, ...]],
         limit: int) -> list[int]:
    """Store messages of a game this transaction holds locked (each row: phase_no, phase, sender, to_all,
    recipients, body, sent_at, client_id) with their readers, counted against the game's cap; their ids."""
    if game.messages + len(rows) > limit:
        raise HostedError(Kind.CONFLICT, "Too many messages", f"this game keeps at most {limit} messages and holds "
                          f"{game.messages}: no more are taken")
    if not rows:
        return []
    conn = session.connection()
    ids = list(conn.execute(insert(Message).returning(Message.id, sort_by_parameter_order=True),
                            [{"game_id": game.id, **row} for row in rows]).scalars())
    conn.execute(insert(MessageReader), [{"game_id": game.id, "reader": reader, "message_id": number}
                                         for number, who in zip(ids, readers) for reader in who])
    game.messages += len(rows)
    return ids


def page(session: Session, game_id: str, reader: str | None, after: int, limit: int) -> tuple[list[Message], bool]:
    """The messages after id `after` that `reader` may read (None: every message), oldest first, at most `limit`;
    and whether there are more."""
    if reader is None:
        query = select(Message).where(Message.game_id == game_id, Message.id > after)
    else:
        query = select(Message).join(MessageReader, MessageReader.message_id == Message.id).where(
            MessageReader.game_id == game_id, MessageReader.reader == reader, MessageReader.message_id > after)
    rows = list(session.scalars(query.order_by(Message.id).limit(limit + 1)))
    return rows[:limit], len(rows) > limit


def everything(session: Session, game_id: str) -> list[Message]:
    """Every message of a game, oldest first (at most the game's cap: the record's)."""
    return list(session.scalars(select(Message).where(Message.game_id == game_id).order_by(Message.id)))


def to_json(row: Message, labels: dict[str, str] | None, own: bool) -> dict[str, Any]:
    """A message as the API answers it: always data (its text a JSON string, never markup); the sender's label
    unless the seats are anonymous (`labels` None); its client id to its sender only (`own`)."""
    out: dict[str, Any] = {"id": row.id, "phase_no": row.phase_no, "phase": row.phase, "sender": shown(row.sender),
                           "to": ALL if row.to_all else [shown(k) for k in row.recipients], "text": row.body,
                           "sent_at": iso(row.sent_at)}
    if labels is not None and row.sender in labels:
        out["sender_label"] = labels[row.sender]
    if own and row.client_id is not None:
        out["client_id"] = row.client_id
    return out


def event_json(row: Message, receivers: list[str], with_text: bool) -> dict[str, Any]:
    """The `message` webhook's data: who sent it to whom (the recipients named, for the bot that serves them), its
    phase, id and length; its text only when the game master, whose setting the webhook is, may read it."""
    data: dict[str, Any] = {"id": row.id, "sender": shown(row.sender), "to": ALL if row.to_all else
                            [shown(k) for k in row.recipients], "recipients": receivers, "sent_at": iso(row.sent_at),
                            "length": len(row.body)}
    if with_text:
        data["text"] = row.body
    return {"message": data}
