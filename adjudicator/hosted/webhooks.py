"""Webhook notifications: an outbox row written in the adjudication's transaction, sent by a background thread.

Each POST carries `X-Adjudicator-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the game's
secret>`. A failed delivery is retried with exponential back-off a bounded number of times; sending never
blocks the request that judged the phase, and a crash loses nothing (the row is still due).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select

from adjudicator.hosted.models import Delivery, Game, PhaseRecord
from adjudicator.hosted.storage import Store

SIGNATURE_HEADER = "X-Adjudicator-Signature"


@dataclass(frozen=True)
class Policy:
    """How deliveries are retried."""

    attempts: int = 6  # tries in all, then the delivery is given up (its last error is kept)
    base_delay: float = 2.0  # seconds before the first retry; doubled each time
    max_delay: float = 300.0
    timeout: float = 5.0  # seconds a receiver may take to answer
    lease: float = 60.0  # a claimed delivery is not claimed again for this long (a process may die sending)

    def delay(self, attempts: int) -> float:
        """The wait after the given number of failed attempts."""
        return min(self.max_delay, self.base_delay * 2 ** max(0, attempts - 1))


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


def queue(session: Any, game: Game, record: PhaseRecord, next_phase: str, status: str, now: float) -> None:
    """Add the notification of a judged phase to the outbox (inside the adjudication's transaction)."""
    if not game.webhook_url:
        return
    body = json.dumps({"event": "phase.adjudicated", "game_id": game.id, "game": game.name,
                       "phase_no": record.phase_no, "phase": record.name, "next_phase": next_phase,
                       "status": status, "report": record.report}, separators=(",", ":"))
    session.add(Delivery(game_id=game.id, phase_no=record.phase_no, url=game.webhook_url, body=body, attempts=0,
                         next_attempt_at=now))


class Deliverer:
    """Sends due deliveries of one store; `wake()` after a commit, `run_due()` from `games tick`."""

    def __init__(self, store: Store, policy: Policy, clock=time.time):
        self.store = store
        self.policy = policy
        self.clock = clock
        self._event = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def wake(self) -> None:
        """Make the background sender look for due deliveries now (starting it on first use)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="adjudicator-webhooks", daemon=True)
                self._thread.start()
        self._event.set()

    def _loop(self) -> None:
        while True:
            self._event.wait(timeout=self._next_wait())
            self._event.clear()
            try:
                self.run_due()
            except Exception:  # noqa: BLE001 - the sender must outlive a database hiccup; rows stay due
                time.sleep(1.0)

    def _next_wait(self) -> float:
        try:
            with self.store.sessions() as session:
                due = session.scalar(select(Delivery.next_attempt_at).where(Delivery.next_attempt_at.is_not(None))
                                     .order_by(Delivery.next_attempt_at).limit(1))
        except Exception:  # noqa: BLE001
            return 5.0
        return 30.0 if due is None else min(30.0, max(0.01, due - self.clock()))

    def run_due(self, limit: int = 20) -> int:
        """Send every delivery that is due (claiming each first, so two processes never both send it)."""
        sent = 0
        while True:
            claimed = self._claim(limit)
            if not claimed:
                return sent
            for delivery_id, url, body, secret, attempts in claimed:
                error = self._send(url, body, secret, delivery_id)
                self._record(delivery_id, attempts, error)
                sent += error is None

    def _claim(self, limit: int) -> list[tuple[int, str, str, str, int]]:
        now = self.clock()
        with self.store.transaction() as session:
            query = (select(Delivery).where(Delivery.next_attempt_at.is_not(None), Delivery.next_attempt_at <= now)
                     .order_by(Delivery.id).limit(limit))
            if not self.store.sqlite:
                query = query.with_for_update(skip_locked=True)
            rows = list(session.scalars(query))
            out = []
            for d in rows:
                d.attempts += 1
                d.next_attempt_at = now + self.policy.lease
                secret = session.scalar(select(Game.webhook_secret).where(Game.id == d.game_id)) or ""
                out.append((d.id, d.url, d.body, secret, d.attempts))
            return out

    def _send(self, url: str, body: str, secret: str, delivery_id: int) -> str | None:
        data = body.encode()
        request = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/json", SIGNATURE_HEADER: sign(secret, data, int(self.clock())),
            "X-Adjudicator-Delivery": str(delivery_id), "User-Agent": "arctic-adjudicator-webhooks"})
        try:
            with urllib.request.urlopen(request, timeout=self.policy.timeout) as response:  # noqa: S310 - http(s) only
                if 200 <= response.status < 300:
                    return None
                return f"HTTP {response.status}"
        except urllib.error.HTTPError as exc:
            return f"HTTP {exc.code}"
        except (urllib.error.URLError, OSError, ValueError) as exc:
            return str(getattr(exc, "reason", exc))[:400]

    def _record(self, delivery_id: int, attempts: int, error: str | None) -> None:
        now = self.clock()
        with self.store.transaction() as session:
            d = session.get(Delivery, delivery_id)
            if d is None:
                return
            if error is None:
                d.delivered_at, d.next_attempt_at, d.last_error = now, None, None
            else:
                d.last_error = error
                d.next_attempt_at = None if attempts >= self.policy.attempts else now + self.policy.delay(attempts)


def pending(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The deliveries of a game (for the game master and the tests)."""
    with store.sessions() as session:
        rows = session.scalars(select(Delivery).where(Delivery.game_id == game_id, or_(
            Delivery.next_attempt_at.is_not(None), Delivery.delivered_at.is_not(None),
            Delivery.last_error.is_not(None))).order_by(Delivery.id))
        return [{"phase_no": d.phase_no, "attempts": d.attempts, "delivered": d.delivered_at is not None,
                 "given_up": d.next_attempt_at is None and d.delivered_at is None, "last_error": d.last_error}
                for d in rows]
