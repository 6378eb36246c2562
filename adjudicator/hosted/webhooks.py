"""Webhook notifications: an outbox row written in the adjudication's transaction, sent off the request.

Each POST carries `X-Adjudicator-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the game's
secret>` and `X-Adjudicator-Delivery: <game id>.<phase no>` (also `delivery_id` in the signed body). Delivery
is at least once: a receiver that answered but whose answer was lost gets the delivery again, so it drops an
id it has already seen. A delivery is tried at most `Policy.attempts` times with doubling delays; each
attempt's outcome is kept (`hosted_delivery_attempts`), and after the last failure the delivery is given up,
saying so. Where a webhook may go is `egress`'s business.

Claims work across processes and instances on one database: a sender claims due deliveries for the room it
has (`FOR UPDATE SKIP LOCKED` on PostgreSQL, SQLite's write lock), marking each with a claim id and a lease;
only the holder of the claim records the outcome, and a sender that stops (`games tick` interrupted) releases
what it holds. The lease is short, and renewed by its holder while it sends (a name lookup and a slow receiver
may together take longer than one lease): a sender that dies stops renewing, and whichever process runs next
takes the delivery a lease later; that attempt is then known to have no outcome, and is counted.

Receivers cannot delay each other: a process sends up to `Policy.senders` deliveries at once, each in a thread
of its own (a greenlet under gevent), at most `Policy.per_receiver` to one receiver host (one, once half the
senders are busy), and a freed sender goes to the receiver with the fewest in flight, then the one that waited
longest, then the delivery longest due. Nothing queues in the process: what has no sender stays in the outbox.

An attempt's record gives when it began; one without an HTTP answer is retried, and shown to the game master,
a whole timeout after it began however soon it failed, so neither tells a closed port from a silent one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

from sqlalchemy import CursorResult, and_, insert, or_, select, update

from adjudicator.hosted.egress import Answer, Egress, post, receiver
from adjudicator.hosted.models import Delivery, DeliveryAttempt, Game, PhaseRecord, iso
from adjudicator.hosted.storage import Store
from adjudicator.kept import Kept

__all__ = ["Egress", "Policy", "Deliverer", "Sent", "configured_policy", "sign", "verify", "queue", "pending"]

SIGNATURE_HEADER = "X-Adjudicator-Signature"
DELIVERY_HEADER = "X-Adjudicator-Delivery"
NO_OUTCOME = "no outcome: the sender stopped during this attempt (the receiver may have it)"
SHOWN_DELIVERIES = 50  # the latest deliveries a game master reads (a game has one per judged phase)
log = logging.getLogger("adjudicator.webhooks")


@dataclass(frozen=True)
class Policy:
    """How deliveries are retried, and where they may go."""

    attempts: int = 6  # tries in all, then the delivery is given up (every attempt's outcome is kept)
    base_delay: float = 2.0  # seconds before the first retry; doubled each time
    max_delay: float = 300.0
    timeout: float = 10.0  # seconds one attempt may take in all: connecting, sending, the answer's head
    lease: float = 15.0  # a claim not renewed for this long is free again (its holder renews every third of it)
    senders: int = 16  # deliveries one process sends at once (a thread, or a greenlet under gevent, each)
    per_receiver: int = 2  # of which at most this many to one receiver (a host): a silent one holds only these
    egress: Egress = field(default_factory=Egress)  # the operator's allow-list besides the public internet

    def delay(self, attempts: int) -> float:
        """The wait after the given number of failed attempts."""
        return min(self.max_delay, self.base_delay * 2 ** max(0, attempts - 1))


def configured_policy(config: Mapping[str, Any] | None = None) -> Policy:
    """The delivery policy of a server's config (`HOSTED_WEBHOOKS`) or the default, with the operator's
    allow-list `ADJUDICATOR_WEBHOOK_ALLOW` (config first, then the environment) when one is set."""
    config = config or {}
    policy = config.get("HOSTED_WEBHOOKS") or Policy()
    allow = config.get("ADJUDICATOR_WEBHOOK_ALLOW") or os.environ.get("ADJUDICATOR_WEBHOOK_ALLOW")
    return replace(policy, egress=Egress.parse(allow)) if allow else policy


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The signature header's value for a body sent at `timestamp`."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify(secret: str, header: str | None, body: bytes, tolerance: float = 300.0, now: float | None = None) -> bool:
    """Whether a received body carries a valid, recent signature (for receivers such as the Discord bot)."""
    if not header:
        return False
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, body, timestamp), f"t={timestamp},v1={parts.get('v1', '')}")


def delivery_id(game_id: str, phase_no: int, key: str | None = None) -> str:
    """The id a receiver de-duplicates by: one `phase.judged` delivery per judged phase of a game
    (`<game>.<phase>`); another event's own `key` (migration 0007)."""
    return key or f"{game_id}.{phase_no}"


EVENTS = ("phase.judged", "game.ended", "game.paused", "game.resumed", "deadline.reminder", "deadline.extended",
          "seat.disorder", "seat.replaced", "draw.proposed", "message")  # every event a game's webhook names


def queue(session: Any, game: Game, record: PhaseRecord, next_phase: str, status: str, now: float,
          end: dict[str, Any] | None = None) -> None:
    """Add the notification of a judged phase to the outbox (inside the adjudication's transaction)."""
    _add(session, game, record.phase_no, {
        "event": "phase.judged", "delivery_id": delivery_id(game.id, record.phase_no), "game_id": game.id,
        "game": game.name, "phase_no": record.phase_no, "phase": record.name, "next_phase": next_phase,
        "status": status, "end": end, "missed": record.missed or [], "given_by": record.given_by or {},
        "report": record.report}, now)


def queue_event(session: Any, game: Game, event: str, phase_no: int, phase: str, data: dict[str, Any],
                now: float) -> None:
    """Add a game event (one of EVENTS but `phase.judged`) to the outbox, in the transaction that makes it happen;
    its delivery id is unique (the event and a random part: the same event may happen twice in a phase)."""
    assert event in EVENTS, event  # (the names are the contract: a misspelt one is the code's bug)
    key = f"{game.id}.{phase_no}.{event}.{secrets.token_hex(6)}"
    _add(session, game, phase_no, {"event": event, "delivery_id": key, "game_id": game.id, "game": game.name,
                                   "phase_no": phase_no, "phase": phase, **data}, now, key)


def _add(session: Any, game: Game, phase_no: int, message: dict[str, Any], now: float, key: str | None = None) -> None:
    if not game.webhook_url:
        return
    body = json.dumps(message, separators=(",", ":"))
    session.connection().execute(insert(Delivery).values(game_id=game.id, phase_no=phase_no, url=game.webhook_url,
                                                         body=body, attempts=0, next_attempt_at=now, key=key))


@dataclass
class Sent:
    """What a run of the sender did."""

    delivered: int = 0
    retrying: int = 0  # failed, to be tried again
    given_up: int = 0

    def __str__(self) -> str:
        return f"{self.delivered} delivered, {self.retrying} to retry, {self.given_up} given up"


@dataclass(frozen=True)
class _Claim:
    id: int
    claim: str
    number: int  # this attempt's number, from 1
    url: str
    body: str
    secret: str
    game_id: str
    phase_no: int
    started: float  # when the attempt began (the clock's time): what its record says
    receiver: str  # egress.receiver(url): whose share of the senders it takes
    key: str | None = None  # the delivery's id when it is not a judged phase's (`delivery_id`)


class _Flight:
    """The deliveries one run of a sender has in flight, each sent by a thread of its own: at most
    `Policy.senders` in all and `Policy.per_receiver` to one receiver (one, past half the senders). Nothing
    waits in the process: a delivery stays in the outbox until a sender has room for it."""

    def __init__(self, policy: Policy, event: threading.Event):
        self.policy = policy
        self.event = event  # set when there is something to look at: a wake, a send finished
        self.lock = threading.Lock()
        self.held: dict[int, _Claim] = {}
        self.served = Kept(8 * policy.senders)  # receiver -> [when it was last given a sender]: who waited longest
        self.sent = Sent()
        self.failure: BaseException | None = None  # what stopped a send (an interrupt): the run stops with it

    def room(self) -> bool:
        """Whether another delivery may be sent now."""
        with self.lock:
            return len(self.held) < self.policy.senders

    def in_flight(self) -> Counter[str]:
        """How many deliveries each receiver has in flight."""
        with self.lock:
            return Counter(c.receiver for c in self.held.values())

    def limit(self, in_flight: int) -> int:
        """How many deliveries one receiver may have in flight when `in_flight` are: `per_receiver` while half
        the senders are free, then one, so that receivers that never answer, on hosts of their own, hold at
        most half the senders between them until there are as many such hosts as senders."""
        return 1 if in_flight >= self.policy.senders // 2 else self.policy.per_receiver

    def last_served(self, receiver_key: str) -> float:
        """When a receiver was last given a sender (-inf: not lately)."""
        return self.served.get(receiver_key, lambda: [-math.inf])[0]

    def serve(self, receiver_key: str) -> None:
        self.served.get(receiver_key, lambda: [0.0])[0] = time.monotonic()

    def claims(self) -> list[_Claim]:
        """What is in flight."""
        with self.lock:
            return list(self.held.values())

    def add(self, claim: _Claim) -> None:
        with self.lock:
            self.held[claim.id] = claim

    def done(self, claim: _Claim, failure: BaseException | None = None) -> None:
        with self.lock:
            self.held.pop(claim.id, None)
            self.failure = self.failure or failure
        self.event.set()

    def take_failure(self) -> BaseException | None:
        with self.lock:
            failure, self.failure = self.failure, None
        return failure

    def count(self, field_name: str) -> None:
        with self.lock:
            setattr(self.sent, field_name, getattr(self.sent, field_name) + 1)


class Deliverer:
    """Sends due deliveries of one store: `wake()` after a commit (a background thread, in a server), or
    `run_due()` to send them now and wait (`games tick`). Deliveries to different receivers go at once, so a
    slow or silent receiver holds only its own share of the senders (`Policy.per_receiver`), never another
    game's delivery."""

    PAGE = 100  # due deliveries read at a time
    SCAN = 5000  # due deliveries looked at, at most, each time there is room (their ids and URLs)

    def __init__(self, store: Store, policy: Policy, clock=time.time, background: bool = True):
        self.store = store
        self.policy = policy
        self.clock = clock
        self.background = background
        self._event = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def wake(self) -> None:
        """Make the background sender look for due deliveries now (starting it on first use)."""
        if not self.background:
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="adjudicator-webhooks", daemon=True)
                self._thread.start()
        self._event.set()

    def _loop(self) -> None:
        self._run(_Flight(self.policy, self._event), until_idle=False)

    def run_due(self) -> Sent:
        """Send every delivery that is due and wait for them; whatever stops the run (an interrupt, a database
        error), the claims held are released first."""
        return self._run(_Flight(self.policy, threading.Event()), until_idle=True)

    def _run(self, flight: _Flight, until_idle: bool) -> Sent:
        """Claim due deliveries while there is room, each sent by a thread; renew the leases of those in flight.
        A background run outlives database hiccups (the rows stay due); a run that waits stops at them."""
        renew_at = time.monotonic() + self.policy.lease / 3
        try:
            while True:
                wait, idle = 30.0, False  # idle: nothing was in flight, and nothing due was found
                try:
                    busy = bool(flight.claims())  # (before the look: a send may finish during it)
                    claimed = self._claim(flight) if flight.room() else []
                    for claim in claimed:
                        flight.add(claim)
                        threading.Thread(target=self._deliver, args=(claim, flight), daemon=True,
                                         name="adjudicator-webhook").start()
                    idle = not busy and not claimed
                    if time.monotonic() >= renew_at:
                        self._renew(flight.claims())
                        renew_at = time.monotonic() + self.policy.lease / 3
                    if not until_idle and flight.room():
                        wait = self._next_due()
                except Exception:
                    if until_idle:
                        raise
                    log.exception("webhook sender: a run failed; retrying in a second")
                    wait = 1.0
                failure = flight.take_failure()
                if failure is not None and (until_idle or not isinstance(failure, Exception)):
                    raise failure  # a background run has logged a send's database error and goes on
                if until_idle and idle:
                    return flight.sent
                if flight.claims():
                    wait = min(wait, renew_at - time.monotonic())
                else:
                    renew_at = time.monotonic() + self.policy.lease / 3  # nothing to renew until a claim
                flight.event.wait(max(0.0, wait))
                flight.event.clear()
        except BaseException:
            for claim in flight.claims():
                self._release(claim)
            raise

    def _next_due(self) -> float:
        """Seconds until the next delivery falls due (those due now wait for room: a send finishing wakes the
        run)."""
        now = self.clock()
        with self.store.sessions() as session:
            due = session.scalar(select(Delivery.next_attempt_at).where(Delivery.next_attempt_at > now)
                                 .order_by(Delivery.next_attempt_at).limit(1))
        return 30.0 if due is None else min(30.0, max(0.01, due - now))

    def _deliver(self, claim: _Claim, flight: _Flight) -> None:
        """One attempt, in a thread of its own: send, record."""
        try:
            self._record(claim, self._send(claim), flight)
        except BaseException as exc:  # an interrupt, or a database error on recording: give the delivery back
            self._release(claim)
            if isinstance(exc, Exception):
                log.exception("webhook %s: the attempt failed", delivery_id(claim.game_id, claim.phase_no, claim.key))
            flight.done(claim, exc)
            return
        flight.done(claim)

    def _claim(self, flight: _Flight) -> list[_Claim]:
        """Claim due deliveries for the room there is, with their games' secrets, fairly between receivers: the
        receiver with the fewest in flight first, then the one that waited longest, then the delivery longest
        due (giving up, on the way, any whose last attempt never finished). Looks at the first `SCAN` due
        deliveries, a page at a time, keeping at most `per_receiver` of each receiver's."""
        now = self.clock()
        counts = flight.in_flight()
        held = sum(counts.values())
        due = (Delivery.next_attempt_at.is_not(None), Delivery.next_attempt_at <= now)
        claims: list[_Claim] = []
        with self.store.transaction() as session:
            candidates: dict[str, list[int]] = {}  # receiver -> its due deliveries, longest due first
            keys: dict[str, str] = {}  # url -> receiver
            enough: set[str] = set()  # URLs whose receiver has its candidates: the next pages pass over them
            after: tuple[float, int] | None = None
            for _ in range(self.SCAN // self.PAGE):
                page = select(Delivery.id, Delivery.url, Delivery.next_attempt_at).where(*due)
                if after is not None:
                    page = page.where(or_(Delivery.next_attempt_at > after[0],
                                          and_(Delivery.next_attempt_at == after[0], Delivery.id > after[1])))
                if enough:
                    page = page.where(Delivery.url.not_in(enough))
                rows = session.execute(page.order_by(Delivery.next_attempt_at, Delivery.id).limit(self.PAGE)).all()
                for row in rows:
                    key = keys.get(row.url) or keys.setdefault(row.url, receiver(row.url))
                    ids = candidates.setdefault(key, [])
                    if len(ids) < self.policy.per_receiver:
                        ids.append(row.id)
                    elif len(enough) < self.PAGE:
                        enough.add(row.url)
                if len(rows) < self.PAGE:
                    break
                after = (rows[-1].next_attempt_at, rows[-1].id)
            while held + len(claims) < self.policy.senders:
                limit = flight.limit(held + len(claims))
                eligible = [r for r, ids in candidates.items() if ids and counts[r] < limit]
                if not eligible:
                    break
                chosen = min(eligible, key=lambda r: (counts[r], flight.last_served(r)))  # ties: longest due
                claim = self._take(session, candidates[chosen].pop(0), now)
                if claim is not None:
                    counts[chosen] += 1
                    flight.serve(chosen)
                    claims.append(claim)
        return claims  # sent once committed

    def _take(self, session: Any, delivery: int, now: float) -> _Claim | None:
        """Claim one delivery if it is still due and no other sender is taking it (None: it is not, or it was
        given up just now)."""
        query = (select(Delivery, Game.webhook_secret).join(Game, Game.id == Delivery.game_id)
                 .where(Delivery.id == delivery, Delivery.next_attempt_at.is_not(None),
                        Delivery.next_attempt_at <= now))
        if not self.store.sqlite:
            query = query.with_for_update(skip_locked=True, of=Delivery)
        row = session.execute(query).first()
        if row is None:
            return None
        d, secret = row
        if d.claim is not None:  # its sender died mid-attempt: that attempt is counted, outcome unknown
            session.add(DeliveryAttempt(delivery_id=d.id, number=d.attempts, at=now, outcome=NO_OUTCOME))
            if d.attempts >= self.policy.attempts:
                d.next_attempt_at, d.claim = None, None
                d.last_error = f"{NO_OUTCOME}; given up after {d.attempts} attempts"
                return None
        d.attempts += 1
        d.next_attempt_at, d.claim = now + self.policy.lease, secrets.token_hex(16)
        return _Claim(d.id, d.claim, d.attempts, d.url, d.body, secret or "", d.game_id, d.phase_no, now,
                      receiver(d.url), d.key)

    def _renew(self, claims: list[_Claim]) -> None:
        """Renew the leases of the deliveries in flight (a name lookup and a slow receiver may together take
        longer than one lease)."""
        if not claims:
            return
        try:
            with self.store.transaction() as session:
                session.execute(update(Delivery).where(Delivery.claim.in_([c.claim for c in claims]))
                                .values(next_attempt_at=self.clock() + self.policy.lease))
        except Exception:  # noqa: BLE001 - a database hiccup: the next renewal may pass
            log.warning("webhooks: the leases of %d deliveries in flight could not be renewed", len(claims))

    def _send(self, claim: _Claim) -> Answer:
        data = claim.body.encode()
        headers = {"Content-Type": "application/json", "User-Agent": "arctic-adjudicator-webhooks",
                   SIGNATURE_HEADER: sign(claim.secret, data, int(self.clock())),
                   DELIVERY_HEADER: delivery_id(claim.game_id, claim.phase_no, claim.key)}
        answer = post(claim.url, data, headers, self.policy.egress, self.policy.timeout)
        if not answer.delivered:
            log.info("webhook %s attempt %d: %s (%s)", delivery_id(claim.game_id, claim.phase_no, claim.key), claim.number,
                     answer.outcome, answer.detail)
        return answer

    def _record(self, claim: _Claim, answer: Answer, flight: _Flight) -> None:
        """Keep the attempt's outcome and move the delivery on, if this sender still holds it (else whoever took
        it after the lease ran out has counted this attempt).

        An attempt without an HTTP answer is settled as if it had taken the whole timeout, however soon it
        failed: its record carries its start, its retry is due a timeout after that start plus the delay, and
        the game master sees it once that timeout has passed (`pending`), so nothing recorded or shown tells a
        closed port from a silent one."""
        now = self.clock()
        last = claim.number >= self.policy.attempts
        if answer.delivered:
            values: dict[str, Any] = {"delivered_at": now, "next_attempt_at": None, "last_error": None}
        else:
            settled = now if answer.status is not None else max(now, claim.started + self.policy.timeout)
            error = answer.outcome + (f"; given up after {claim.number} attempts" if last else "")
            values = {"last_error": error[:500],
                      "next_attempt_at": None if last else settled + self.policy.delay(claim.number)}
        with self.store.transaction() as session:
            moved = cast(CursorResult[Any], session.execute(  # (an UPDATE's result: it counts its rows)
                update(Delivery).where(Delivery.id == claim.id, Delivery.claim == claim.claim).values(claim=None, **values)))
            if moved.rowcount != 1:
                return
            session.add(DeliveryAttempt(delivery_id=claim.id, number=claim.number, at=claim.started,
                                        status=answer.status, outcome=answer.outcome[:300]))
        flight.count("delivered" if answer.delivered else "given_up" if last else "retrying")

    def _release(self, claim: _Claim) -> None:
        """Give a claimed delivery back, as if this attempt had not begun (best effort: the lease is the fallback)."""
        try:
            with self.store.transaction() as session:
                session.execute(update(Delivery).where(Delivery.id == claim.id, Delivery.claim == claim.claim)
                                .values(claim=None, attempts=Delivery.attempts - 1, next_attempt_at=self.clock()))
        except Exception:  # noqa: BLE001 - already stopping; the lease will free it
            log.warning("webhook %s: the claim could not be released; it frees itself in %s s",
                        delivery_id(claim.game_id, claim.phase_no, claim.key), self.policy.lease)


def pending(store: Store, game_id: str, attempts_cap: int, settle: float = 0.0,
            now: float | None = None) -> list[dict[str, Any]]:
    """The latest deliveries of a game, each with every attempt's outcome (for the game master and the tests).

    An attempt that got no HTTP answer is shown once `settle` seconds (the policy's timeout) have passed since
    it began, and the delivery reads as it did before it until then: how soon it failed is not shown."""
    now = time.time() if now is None else now
    with store.sessions() as session:
        rows = list(session.scalars(select(Delivery).where(Delivery.game_id == game_id)
                                    .order_by(Delivery.id.desc()).limit(SHOWN_DELIVERIES)))[::-1]
        tries: dict[int, list[DeliveryAttempt]] = {}
        attempts = (select(DeliveryAttempt).where(DeliveryAttempt.delivery_id.in_([d.id for d in rows]))
                    .order_by(DeliveryAttempt.delivery_id, DeliveryAttempt.number))
        for a in session.scalars(attempts) if rows else ():
            tries.setdefault(a.delivery_id, []).append(a)
    out = []
    for d in rows:
        kept = tries.get(d.id, [])
        shown = kept
        for i, a in enumerate(kept):
            if a.status is None and a.at + settle > now:
                shown = kept[:i]
                break
        settled = len(shown) == len(kept)
        delivered = d.delivered_at is not None
        given_up = settled and d.next_attempt_at is None and not delivered
        last_error = d.last_error if settled else (shown[-1].outcome if shown else None)
        state = "delivered" if delivered else (
            f"given up after {d.attempts} attempts" if given_up else f"{d.attempts} of {attempts_cap} attempts made")
        out.append({"delivery_id": delivery_id(d.game_id, d.phase_no, d.key), "phase_no": d.phase_no,
                    "attempts": d.attempts, "delivered": delivered, "given_up": given_up,
                    "state": state, "last_error": last_error,
                    "attempt_log": [{"attempt": a.number, "at": iso(a.at), "status": a.status, "outcome": a.outcome}
                                    for a in shown]})
    return out
