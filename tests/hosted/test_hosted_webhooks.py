"""Issue 26, findings 2 and 3: webhooks reach the public internet only, and every delivery is accounted for.
Issue 34, findings 3, 6 and 7: a silent receiver delays only its own game's deliveries; a closed port and a silent
one leave the same record; `localhost.`-style names are refused when they are set.

The tests' receivers listen on loopback, which the service refuses unless the operator allows it: each test
allows exactly what it needs (`Egress.parse`), as a LAN deployment would.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from sqlalchemy import insert, select, update
from tests.hosted.helpers import Clock, make_api, own_database, receiver  # noqa: F401 - own_database: the fixture db_url

from adjudicator.cli import main
from adjudicator.hosted import egress, webhooks
from adjudicator.hosted.egress import NO_ANSWER, NO_PUBLIC_ADDRESS, Egress
from adjudicator.hosted.models import Delivery
from adjudicator.hosted.service import HostedError, Service
from adjudicator.hosted.storage import open_store
from api.problems import STATUS

LOOPBACK = Egress.parse("127.0.0.1")
NO_DISORDER = {"disorder_after": 0}  # games judged phase after phase with no orders: no seat falls into disorder


def _service(url: str, attempts: int = 6, allow: Egress = LOOPBACK, clock=None, timeout: float = 1.0,
             base_delay: float = 0.01) -> Service:
    policy = webhooks.Policy(attempts=attempts, base_delay=base_delay, timeout=timeout, egress=allow)
    return Service(open_store(url), policy=policy, clock=clock or time.time, background=False)


def _judged_game(svc: Service, url: str) -> tuple[dict, object]:
    """A game with a webhook whose first phase is judged (its delivery queued, not yet sent)."""
    created = svc.create_game("arctic", webhook_url=url, settings=NO_DISORDER)
    gm = svc.authenticate(created["id"], created["game_master_token"])
    svc.adjudicate(gm, phase_no=1)
    return created, gm


@contextmanager
def _raw_receiver(reply: bytes | None, host: str = "127.0.0.1"):
    """A TCP listener that reads a request and answers `reply` as it is (None: never answers); yields its port and
    how many connections it took."""
    server = socket.create_server((host, 0))
    server.settimeout(0.2)
    taken: list[int] = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            taken.append(1)
            with conn:
                conn.settimeout(2)
                try:
                    conn.recv(65536)
                    if reply is None:
                        stop.wait(3)
                    else:
                        conn.sendall(reply)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], taken
    finally:
        stop.set()
        thread.join(5)
        server.close()


class _Silent:
    """A receiver that takes connections, reads what comes and never answers, until released; counts the
    connections it takes and the most it holds at once (one is let go when the sender closes it)."""

    def __init__(self, host: str):
        self.server = socket.create_server((host, 0))
        self.server.settimeout(0.1)
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        self.held: list[socket.socket] = []
        self.taken = self.open = self.most = 0
        self.accepted: list[float] = []  # when each connection was taken
        self.released = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.released.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            with self.lock:
                self.held.append(conn)
                self.accepted.append(time.monotonic())
                self.taken += 1
                self.open += 1
                self.most = max(self.most, self.open)
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn: socket.socket) -> None:
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass
        with self.lock:
            self.open -= 1

    def release(self) -> None:
        self.released.set()
        self.thread.join(5)
        with self.lock:
            for conn in self.held:
                try:
                    conn.shutdown(socket.SHUT_RDWR)  # wakes its reader, and the sender waiting on it
                except OSError:
                    pass
                conn.close()
        self.server.close()


@contextmanager
def _silent(host: str = "127.0.0.2"):
    silent = _Silent(host)
    try:
        yield silent
    finally:
        silent.release()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once it is closed


def _deliveries(svc: Service, gm) -> list[dict]:
    """The game's deliveries as the game master reads them once every attempt made so far has settled (an
    attempt without an answer is shown a timeout after it began, however soon it failed)."""
    policy = svc.policy
    return webhooks.pending(svc.store, gm.game_id, policy.attempts, policy.timeout, svc.clock() + policy.timeout)


# --- the URL, when it is set -------------------------------------------------------------------------------
REFUSED_URLS = [
    "http://127.0.0.1:abc/", "http://127.0.0.1:0/", "http://127.0.0.1:70000/", "ftp://hooks.example/",
    "http://user:pw@hooks.example/", "http://hooks .example/", "http:///path", "http://127.1/", "http://2130706433/",
    "http://0x7f.1/", "http://0177.0.0.1/", "http://0.0.0.0/", "http://localhost:8080/", "http://app.localhost/",
    "http://10.1.2.3/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data", "http://100.64.0.1/",
    "http://224.0.0.1/", "http://[::1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[fd00::1]/",
    "http://[fe80::1]/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/", "http://" + "a" * 2000 + ".example/",
    "http://[::1", "http://[zz]/", "http://a%00b/", "http://a b/",
    # the same names and addresses spelt with the root's trailing dot, in full width, or as hosts files name them
    "http://localhost./", "http://LocalHost.:8080/", "http://127.0.0.1./", "http://127.1./", "http://2130706433./",
    "http://0x7f.1./", "http://app.localhost./", "http://[::1]./",
    "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/",
    "http://127\u30020\u30020\u30021/", "http://localhost.localdomain/", "http://ip6-localhost/", "http://localhost../",
    "http://.localhost/", "http://hooks.example/\ud800",
]


def test_a_webhook_url_is_checked_when_it_is_set(db_url):  # noqa: F811
    svc = _service(db_url, allow=Egress())
    for url in REFUSED_URLS:
        with pytest.raises(HostedError) as refused:
            svc.create_game("arctic", webhook_url=url)
        assert STATUS[refused.value.kind] == 400 and refused.value.extra["pointer"] == "/webhook_url", url
    created = svc.create_game("arctic", webhook_url="https://hooks.example.com/adjudicator?game=1")
    gm = svc.authenticate(created["id"], created["game_master_token"])
    with pytest.raises(HostedError) as refused:
        svc.set_webhook(gm, "http://127.1:8080/")
    assert refused.value.extra["pointer"] == "/url" and refused.value.detail == NO_PUBLIC_ADDRESS
    api = make_api(db_url)
    answer = api.call("post", "/v1/games", json={"variant": "arctic", "webhook_url": "http://127.0.0.1:abc/"})
    assert answer.status_code == 400 and "port" in answer.get_json()["detail"]
    for url in ("http://localhost./hook", "http://127.0.0.1.:8080/hook"):  # issue 34, finding 7: not only at delivery
        answer = api.call("post", "/v1/games", json={"variant": "arctic", "webhook_url": url})
        assert answer.status_code == 400 and answer.get_json()["detail"] == NO_PUBLIC_ADDRESS, url
        created = api.create(variant="arctic")
        answer = api.call("put", "/v1/games/{game_id}/webhook", created["game_master_token"], json={"url": url},
                          game_id=created["id"])
        assert answer.status_code == 400 and answer.get_json()["detail"] == NO_PUBLIC_ADDRESS, url


def test_a_url_kept_from_before_a_rule_is_refused_at_delivery_by_the_same_check(db_url, resolver):  # noqa: F811
    """`localhost.` resolves to an allowed network's address here; it is still refused, as it is when set."""
    answers, _ = resolver
    answers["localhost."] = answers["localhost"] = [["127.0.0.1"]]  # as a resolver answers for it
    with receiver([(0.0, 200)]) as (url, got):
        svc = _service(db_url, attempts=1, allow=Egress.parse("127.0.0.0/8"))
        created, gm = _judged_game(svc, url)
        with svc.store.transaction() as session:  # as a row written before the rule was
            session.execute(update(Delivery).where(Delivery.game_id == gm.game_id)
                            .values(url=url.replace("127.0.0.1", "localhost.")))
        svc.deliverer.run_due()
        assert got == []
    (delivery,) = _deliveries(svc, gm)
    assert delivery["given_up"] and delivery["attempt_log"][0]["outcome"] == NO_PUBLIC_ADDRESS


def test_the_operator_allows_named_hosts_and_networks():
    allow = Egress.parse("hooks.lan, 10.0.0.0/8 [fd00::5]")
    assert egress.url_problem("http://10.2.3.4:8080/x", 2000, allow) is None
    assert egress.url_problem("http://[::ffff:10.2.3.4]/", 2000, allow) is None
    assert egress.url_problem("http://[fd00::5]/", 2000, allow) is None
    assert egress.url_problem("http://192.168.0.1/", 2000, allow) == NO_PUBLIC_ADDRESS
    inside = egress._address("192.168.0.9")
    assert allow.allows("hooks.lan", inside) and not allow.allows("x.lan", inside)


# --- at delivery: resolved, every address checked, connected to the address checked -----------------------
@pytest.fixture
def resolver(monkeypatch):
    """Names the tests make up resolve to what each test says (`answers[name]`: a list of address lists, one
    per lookup, the last repeated); every lookup of them is counted."""
    real = socket.getaddrinfo
    answers: dict[str, list[list[str]]] = {}
    lookups: list[str] = []

    def fake(host, port, *args, **kwargs):
        if host not in answers:
            return real(host, port, *args, **kwargs)
        if kwargs.get("flags", 0) & socket.AI_NUMERICHOST:
            raise socket.gaierror(socket.EAI_NONAME, "not a numeric host")
        lookups.append(host)
        addresses = answers[host][min(len(lookups), len(answers[host])) - 1]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return answers, lookups


def test_a_name_that_resolves_inside_the_network_is_not_called(db_url, resolver):  # noqa: F811
    answers, _ = resolver
    answers["hooks.example"] = [["127.0.0.1"]]
    answers["mixed.example"] = [["93.184.216.34", "127.0.0.1"]]  # every address is checked, not the first
    with receiver([(0.0, 200)]) as (url, got):
        port = url.split(":")[2].split("/")[0]
        svc = _service(db_url, attempts=1, allow=Egress())
        games = [_judged_game(svc, f"http://{host}:{port}/hook")[1] for host in ("hooks.example", "mixed.example")]
        svc.deliverer.run_due()
        time.sleep(0.1)
        assert got == []  # nothing reached the receiver
    for gm in games:
        (delivery,) = _deliveries(svc, gm)
        assert delivery["given_up"] and delivery["attempt_log"][0]["outcome"] == NO_PUBLIC_ADDRESS


def test_the_connection_goes_to_the_address_that_was_checked(db_url, resolver):  # noqa: F811
    """DNS rebinding: the name resolves to an allowed address, then to a refused one; it is looked up once per
    attempt and the request goes to the address checked."""
    answers, lookups = resolver
    with _raw_receiver(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n") as (port, allowed), \
            _raw_receiver(b"HTTP/1.1 204 No Content\r\n\r\n", host="127.0.0.2") as (_, inside):
        answers["rebind.example"] = [["127.0.0.1"], ["127.0.0.2"]]
        svc = _service(db_url, allow=Egress.parse("127.0.0.1/32"))
        created, gm = _judged_game(svc, f"http://rebind.example:{port}/hook")
        sent = svc.deliverer.run_due()
    assert sent.delivered == 1 and lookups == ["rebind.example"] and len(allowed) == 1 and inside == []


def test_redirects_are_not_followed(db_url):  # noqa: F811
    with receiver([(0.0, 200)]) as (inner, got):
        for target in (inner, "ftp://127.0.0.1/x"):
            reply = f"HTTP/1.1 302 Found\r\nLocation: {target}\r\nContent-Length: 0\r\n\r\n".encode()
            with _raw_receiver(reply) as (port, taken):
                svc = _service(db_url, attempts=1)
                _, gm = _judged_game(svc, f"http://127.0.0.1:{port}/hook")
                svc.deliverer.run_due()
            (delivery,) = _deliveries(svc, gm)
            assert delivery["given_up"] and not delivery["delivered"] and len(taken) == 1
            assert delivery["attempt_log"][0]["status"] == 302
            assert delivery["last_error"].startswith("HTTP 302: redirects are not followed")
        assert got == []


def test_a_closed_port_reads_as_an_open_one(db_url):  # noqa: F811
    """Refused, a banner that is not HTTP, no answer at all, a malformed status line: one message."""
    outcomes = set()
    with _raw_receiver(b"SSH-2.0-OpenSSH_9.2\r\n") as (banner, _), _raw_receiver(None) as (silent, _), \
            _raw_receiver(b"HTTP/1.1 abc\r\n\r\n") as (malformed, _):
        for port in (_closed_port(), banner, silent, malformed):
            svc = _service(db_url, attempts=1)
            _, gm = _judged_game(svc, f"http://127.0.0.1:{port}/hook")
            svc.deliverer.run_due()
            (delivery,) = _deliveries(svc, gm)
            outcomes.add(delivery["attempt_log"][0]["outcome"])
    assert outcomes == {NO_ANSWER}


# --- receivers that cannot delay each other (issue 34, finding 3) -----------------------------------------
def test_a_silent_receiver_delays_only_its_own_games_deliveries(db_url):  # noqa: F811
    """Game A's receiver takes every connection and never answers, with 8 phases waiting; game B's delivery
    arrives while A's first attempts are still held open (they would each hold a sender for a minute)."""
    with _silent() as silent, receiver([(0.0, 200)]) as (honest, got):
        svc = _service(db_url, attempts=2, allow=Egress.parse("127.0.0.0/8"), timeout=60.0)
        a = svc.create_game("arctic", webhook_url=f"http://127.0.0.2:{silent.port}/hook", settings=NO_DISORDER)
        a_gm = svc.authenticate(a["id"], a["game_master_token"])
        for phase_no in range(1, 9):
            svc.adjudicate(a_gm, phase_no=phase_no)
        _, b_gm = _judged_game(svc, honest)
        run = threading.Thread(target=svc.deliverer.run_due, daemon=True)
        run.start()
        deadline = time.monotonic() + 20  # generous: A's attempts last a minute each, so it is order that counts
        while not (got and silent.taken >= svc.policy.per_receiver):
            assert time.monotonic() < deadline, f"B's delivery waited behind A's ({silent.taken} taken)"
            time.sleep(0.02)
        time.sleep(0.2)  # room for a sender that would take more than A's share
        assert silent.taken == silent.most == svc.policy.per_receiver  # A holds its share, and no more
        assert [d["attempt_log"] for d in _deliveries(svc, a_gm)] == [[]] * 8  # none of A's attempts has ended
        silent.release()  # A's attempts now fail at once
        run.join(30)
    assert not run.is_alive()
    (b_delivery,) = _deliveries(svc, b_gm)
    assert b_delivery["delivered"]
    assert sum(d["attempts"] for d in _deliveries(svc, a_gm)) >= svc.policy.per_receiver


def test_silent_receivers_on_hosts_of_their_own_hold_at_most_half_the_senders(db_url):  # noqa: F811
    """Past half the senders, a receiver gets one at a time, and one with nothing in flight goes first."""
    policy = webhooks.Policy(attempts=2, timeout=60.0, senders=4, per_receiver=2, egress=Egress.parse("127.0.0.0/8"))
    svc = Service(open_store(db_url), policy=policy, background=False)
    with _silent("127.0.0.2") as one, _silent("127.0.0.3") as two, receiver([(0.0, 200)]) as (honest, got):
        for silent in (one, two):
            created = svc.create_game("arctic", webhook_url=f"http://{silent.server.getsockname()[0]}:{silent.port}/",
                                      settings=NO_DISORDER)
            gm = svc.authenticate(created["id"], created["game_master_token"])
            for phase_no in range(1, 5):
                svc.adjudicate(gm, phase_no=phase_no)
        _, b_gm = _judged_game(svc, honest)
        run = threading.Thread(target=svc.deliverer.run_due, daemon=True)
        run.start()
        deadline = time.monotonic() + 20
        while not (got and one.taken + two.taken >= 2):
            assert time.monotonic() < deadline, f"B waited ({one.taken} + {two.taken} taken)"
            time.sleep(0.02)
        time.sleep(0.2)
        assert (one.taken, two.taken) == (1, 1)  # two of the four senders: each silent host one
        one.release(), two.release()
        run.join(30)
    assert not run.is_alive() and _deliveries(svc, b_gm)[0]["delivered"]


def test_a_freed_sender_goes_to_the_receiver_that_waited_longest(db_url):  # noqa: F811
    """Two silent hosts hold both senders, with more of their deliveries due before B's: when an attempt ends,
    B's delivery goes next, not the same host's next (by age alone B would wait behind all of them)."""
    policy = webhooks.Policy(attempts=2, timeout=1.0, base_delay=30.0, senders=2, per_receiver=1,
                             egress=Egress.parse("127.0.0.0/8"))
    svc = Service(open_store(db_url), policy=policy, background=False)
    with _silent("127.0.0.2") as one, _silent("127.0.0.3") as two, receiver([(0.0, 200)]) as (honest, got):
        for silent in (one, two):
            created = svc.create_game("arctic", webhook_url=f"http://{silent.server.getsockname()[0]}:{silent.port}/",
                                      settings=NO_DISORDER)
            gm = svc.authenticate(created["id"], created["game_master_token"])
            for phase_no in range(1, 4):
                svc.adjudicate(gm, phase_no=phase_no)
        _, b_gm = _judged_game(svc, honest)
        run = threading.Thread(target=svc.deliverer.run_due, daemon=True)
        run.start()
        run.join(30)  # every silent attempt times out after a second: six of them, two at a time
        assert not run.is_alive() and len(got) == 1 and one.taken + two.taken == 6
    b_began, others = _attempt_starts(svc, b_gm.game_id)
    assert sum(began < b_began for began in others) == 2  # B's began with the first sender freed, not after all


def _attempt_starts(svc: Service, game_id: str) -> tuple[float, list[float]]:
    """When the game's one attempt began, and when every other game's did."""
    from adjudicator.hosted.models import DeliveryAttempt

    with svc.store.sessions() as session:
        rows = session.execute(select(DeliveryAttempt.at, Delivery.game_id)
                               .join(Delivery, Delivery.id == DeliveryAttempt.delivery_id)).all()
    (mine,) = [at for at, game in rows if game == game_id]
    return mine, [at for at, game in rows if game != game_id]


def test_a_run_that_waits_sends_every_due_delivery(db_url):  # noqa: F811
    """`games tick` waits for every due delivery, however fast each is sent (a run that stopped when nothing
    was in flight stopped whenever its sends outpaced its looking)."""
    with receiver([(0.0, 200)]) as (url, got):
        svc = _service(db_url)
        created, gm = _judged_game(svc, url)
        with svc.store.transaction() as session:
            session.connection().execute(insert(Delivery), [
                {"game_id": gm.game_id, "phase_no": n, "url": url, "body": "{}", "attempts": 0,
                 "next_attempt_at": svc.clock()} for n in range(2, 201)])
        sent = svc.deliverer.run_due()
    assert sent.delivered == len(got) == 200 and all(d["delivered"] for d in _deliveries(svc, gm))


def test_a_closed_port_and_a_silent_one_leave_the_same_record(db_url):  # noqa: F811
    """Issue 34, finding 6: while the silent receiver holds its attempt, and after, the game master reads the
    same of both; the record's times and the retry's are the attempt's start, not its end."""
    with _silent() as silent:
        svc = _service(db_url, attempts=2, allow=Egress.parse("127.0.0.0/8"), timeout=2.0, base_delay=30.0)
        _, closed_gm = _judged_game(svc, f"http://127.0.0.1:{_closed_port()}/hook")
        _, silent_gm = _judged_game(svc, f"http://127.0.0.2:{silent.port}/hook")
        run = threading.Thread(target=svc.deliverer.run_due, daemon=True)
        run.start()
        deadline = time.monotonic() + 10
        while not (silent.taken and _attempts_recorded(svc, closed_gm.game_id)):
            assert time.monotonic() < deadline, "the closed port's attempt was not recorded"
            time.sleep(0.01)
        during = [_shape(svc.webhook_status(gm)["deliveries"]) for gm in (closed_gm, silent_gm)]
        run.join(30)  # the silent attempt times out
    assert during[0] == during[1] and during[0][0]["attempt_log"] == []
    time.sleep(max(0.0, _latest_start(svc) + svc.policy.timeout - time.time()))
    after = [svc.webhook_status(gm)["deliveries"] for gm in (closed_gm, silent_gm)]
    assert _shape(after[0]) == _shape(after[1])
    assert [a["outcome"] for a in after[0][0]["attempt_log"]] == [NO_ANSWER]
    (closed_row,), (silent_row,) = _all_of(svc, closed_gm.game_id), _all_of(svc, silent_gm.game_id)
    assert abs(closed_row.next_attempt_at - silent_row.next_attempt_at) < 1.0  # a retry due as soon for both
    at = [time.mktime(time.strptime(d[0]["attempt_log"][0]["at"], "%Y-%m-%dT%H:%M:%SZ")) for d in after]
    assert abs(at[0] - at[1]) <= 1.0  # the second's resolution; the silent attempt ended 2 s after it began


def _attempts_recorded(svc: Service, game_id: str) -> int:
    from adjudicator.hosted.models import DeliveryAttempt

    with svc.store.sessions() as session:
        query = (select(DeliveryAttempt).join(Delivery, Delivery.id == DeliveryAttempt.delivery_id)
                 .where(Delivery.game_id == game_id))
        return len(list(session.scalars(query)))


def _latest_start(svc: Service) -> float:
    from adjudicator.hosted.models import DeliveryAttempt

    with svc.store.sessions() as session:
        return max(session.scalars(select(DeliveryAttempt.at)))


def _shape(deliveries: list[dict]) -> list[dict]:
    """A game's deliveries without what names the game or says the time of day."""
    return [{**d, "delivery_id": None, "attempt_log": [{**a, "at": None} for a in d["attempt_log"]]}
            for d in deliveries]


# --- every delivery accounted for --------------------------------------------------------------------------
def test_a_malformed_answer_is_recorded_and_given_up_after_the_cap(db_url):  # noqa: F811
    clock = Clock(time.time())
    with _raw_receiver(b"HTTP/1.1 abc\r\n\r\n") as (port, taken):
        svc = _service(db_url, attempts=3, clock=clock)
        _, gm = _judged_game(svc, f"http://127.0.0.1:{port}/hook")
        for _ in range(6):  # more runs than attempts, each after the retry delay
            svc.deliverer.run_due()
            clock.now += 1000
    (delivery,) = _deliveries(svc, gm)
    assert len(taken) == 3 and delivery["attempts"] == 3 and delivery["given_up"] and not delivery["delivered"]
    assert delivery["last_error"] == f"{NO_ANSWER}; given up after 3 attempts"
    assert delivery["state"] == "given up after 3 attempts"
    assert [(a["attempt"], a["status"], a["outcome"]) for a in delivery["attempt_log"]] == [
        (n, None, NO_ANSWER) for n in (1, 2, 3)]


def test_each_delivery_carries_its_id_in_a_header_and_in_the_signed_body(db_url):  # noqa: F811
    with receiver([(0.0, 200)]) as (url, got):
        svc = _service(db_url)
        created, gm = _judged_game(svc, url)
        assert svc.deliverer.run_due().delivered == 1
    ((headers, body, _),) = got
    assert headers[webhooks.DELIVERY_HEADER] == f"{created['id']}.1" == json.loads(body)["delivery_id"]
    assert webhooks.verify(created["webhook_secret"], headers[webhooks.SIGNATURE_HEADER], body)
    (delivery,) = _deliveries(svc, gm)
    assert delivery["delivered"] and delivery["delivery_id"] == f"{created['id']}.1"
    assert [a["status"] for a in delivery["attempt_log"]] == [200]


def test_a_sender_that_died_mid_attempt_is_counted_and_its_delivery_given_up(db_url):  # noqa: F811
    svc = _service(db_url, attempts=2)
    _, gm = _judged_game(svc, "http://127.0.0.1:9/hook")
    with svc.store.transaction() as session:  # as a sender killed during its second attempt leaves it
        session.execute(update(Delivery).where(Delivery.game_id == gm.game_id).values(
            attempts=2, claim="dead", next_attempt_at=time.time() - 1))
    svc.deliverer.run_due()
    (delivery,) = _deliveries(svc, gm)
    assert delivery["given_up"] and delivery["attempts"] == 2
    assert delivery["last_error"] == f"{webhooks.NO_OUTCOME}; given up after 2 attempts"
    assert [a["outcome"] for a in delivery["attempt_log"]] == [webhooks.NO_OUTCOME]


def test_an_interrupted_sender_releases_its_claim(db_url, monkeypatch):  # noqa: F811
    svc = _service(db_url)
    _, gm = _judged_game(svc, "http://127.0.0.1:9/hook")

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(webhooks, "post", interrupted)
    with pytest.raises(KeyboardInterrupt):
        svc.deliverer.run_due()
    ((row),) = _all_of(svc, gm.game_id)
    assert row.claim is None and row.attempts == 0 and row.next_attempt_at <= time.time()


def _all_of(svc: Service, game_id: str) -> list[Delivery]:
    with svc.store.sessions() as session:
        return list(session.scalars(select(Delivery).where(Delivery.game_id == game_id)))


# --- games tick: waits for its sender, never crashes on a receiver, says what it did ------------------------
def test_games_tick_survives_a_malformed_receiver_and_says_what_it_did(db_url):  # noqa: F811
    with _raw_receiver(b"HTTP/1.1 abc\r\n\r\n") as (port, taken):
        svc = _service(db_url)
        created = svc.create_game("arctic", webhook_url=f"http://127.0.0.1:{port}/hook",
                                  settings={"phase_seconds": 1})
        with svc.store.transaction() as session:  # its deadline has passed
            from adjudicator.hosted.models import Game

            session.execute(update(Game).where(Game.id == created["id"]).values(deadline_at=time.time() - 1, wake_at=time.time() - 1))
        result = CliRunner().invoke(main, ["games", "tick", "--database", db_url],
                                    env={"ADJUDICATOR_WEBHOOK_ALLOW": "127.0.0.1"})
    assert result.exit_code == 0, result.output
    first, judged, hooks, last = result.output.rstrip().splitlines()
    assert first.startswith("database: ")
    assert judged == "judged Fall 2010 Movement (phase 1); next: Winter 2010 Movement"
    assert (hooks, last) == ("webhooks: 0 delivered, 1 to retry, 0 given up", "1 phase(s) judged")
    gm = svc.authenticate(created["id"], created["game_master_token"])
    (delivery,) = _deliveries(svc, gm)
    assert len(taken) == 1 and [a["outcome"] for a in delivery["attempt_log"]] == [NO_ANSWER]


def test_a_stopped_games_tick_releases_the_delivery_it_holds(db_url):  # noqa: F811
    with _raw_receiver(None) as (port, taken):  # takes the request and never answers
        svc = _service(db_url)
        _, gm = _judged_game(svc, f"http://127.0.0.1:{port}/hook")
        env = {**os.environ, "ADJUDICATOR_WEBHOOK_ALLOW": "127.0.0.1"}
        tick = subprocess.Popen([sys.executable, "-m", "adjudicator", "games", "tick", "--database", db_url],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not taken:  # the tick has claimed the delivery and is waiting for the answer
            assert tick.poll() is None and time.monotonic() < deadline, tick.stderr.read()
            time.sleep(0.05)
        tick.send_signal(signal.SIGTERM)
        tick.wait(30)
    (row,) = _all_of(svc, gm.game_id)
    assert tick.returncode != 0 and row.claim is None and row.attempts == 0 and row.next_attempt_at <= time.time()
