"""Every picture in bounded time and memory, whatever the board (issue 34, finding 1): the geometry's work grows
linearly with the board and stops at a cap, a board's drawing is computed once and found by every process and
instance, pictures queue (the overflow refused, 503), are rated by their cost (429), and a picture being drawn
does not hold up the server's other requests."""

from __future__ import annotations

import secrets
import sys
import threading
import time

import pytest
import requests
from sqlalchemy import func, select
from tests.hosted.helpers import UNLIMITED, make_api, postgres_url

from adjudicator import catalogue, pictures
from adjudicator.catalogue import board_from_inline
from adjudicator.gamefile import game_to_data
from adjudicator.game import rules_of
from adjudicator.hosted import storage
from adjudicator.hosted.limits import Limits
from adjudicator.hosted.models import Drawing
from adjudicator.pictures import Busy, Job, Pictures
from adjudicator.games.diplomacy.picture import stored
from adjudicator.render import shelves
from api import create_app
from tests.api_helpers import free_port, stop, wait_until_serving
from tests.helpers import benchmark

GEOMETRY = sys.modules["adjudicator.games.diplomacy.picture.geometry"]


chain_board = benchmark("pictures").chain_board  # the benchmark's board of n spaces in a row (no positions)


@pytest.fixture
def triangulated(monkeypatch) -> list[int]:
    """The number of seeds of every Voronoi diagram the geometry makes (its work, round by round)."""
    sizes: list[int] = []
    made = GEOMETRY.Diagram.__init__

    def counting(self, points, owner, centre, radius):
        sizes.append(len(points))
        made(self, points, owner, centre, radius)

    monkeypatch.setattr(GEOMETRY.Diagram, "__init__", counting)
    return sizes


# ----- the geometry's work -----------------------------------------------------------------------------------
@pytest.mark.parametrize("spaces", [250, 500])
def test_a_chain_board_is_drawn_with_work_linear_in_its_spaces(triangulated, spaces):
    """Before: the rounds of fitting added seeds without end on a chain (130,000 seeds triangulated for 250
    spaces, 22 s by the clock over the API); now at most ROUND_WORK first rounds' worth, and three more."""
    board = board_from_inline(chain_board(spaces, f"Chain {secrets.token_hex(4)}"))
    geo = GEOMETRY._build_geometry(board)
    assert set(geo.anchor) == set(board.provinces) and geo.method == "fitted"
    first = triangulated[0]
    assert first <= GEOMETRY.SEEDS_PER_SPACE * spaces + 200
    assert sum(triangulated) <= (GEOMETRY.ROUND_WORK + 3) * first and sum(triangulated) <= 60 * spaces
    assert geo.work == sum(triangulated)


def test_past_the_cap_the_shapes_are_plain_cells_made_in_one_triangulation(triangulated):
    spaces = GEOMETRY.MAX_FITTED // 2 + 10  # spaces + borders just past the cap
    board = board_from_inline(chain_board(spaces))
    geo = GEOMETRY._build_geometry(board)
    assert geo.method == "plain" and triangulated == [spaces] and set(geo.outlines) == set(board.provinces)
    # still readable: every space has its label, and no two spaces' footprints overlap (laid out in rows)
    xs = sorted(geo.anchor.values(), key=lambda xy: (round(xy[1]), xy[0]))
    assert len({(round(x), round(y)) for x, y in xs}) == spaces


def test_a_very_tall_picture_is_drawn_narrower_not_bigger():
    from adjudicator.render.raster import MAX_PIXELS, fitted_width

    assert fitted_width(4000, 1000, 1100) == 4000  # the shipped boards: as asked
    narrow = fitted_width(4000, 1000, 40000)
    assert narrow < 4000 and narrow * narrow * 40 <= MAX_PIXELS


# ----- drawings kept once per board ------------------------------------------------------------------------------
def _forget_process_caches() -> None:
    """What a second instance (or worker) starts without: this process's boards and drawings."""
    catalogue._boards.clear()
    stored.forget()


def _hosted_picture(api, board: dict) -> tuple[str, bytes]:
    created = api.create(board=board)
    gid, gm = created["id"], created["game_master_token"]
    assert api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid).status_code \
        == 200
    return gid, gm


def _picture(api, gid: str, gm: str):
    return api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                    query="?format=svg")


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_drawing_is_computed_once_and_found_by_another_instance(database, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}" if database == "sqlite" else postgres_url()
    board = chain_board(40, f"Chain {secrets.token_hex(4)}")  # a board no process has drawn yet
    first = make_api(url)  # its pictures drawn by a child process, which asks this one for the drawing
    gid, gm = _hosted_picture(first, board)
    answer = _picture(first, gid, gm)
    assert answer.status_code == 200 and b'id="space-p00"' in answer.data
    key = stored.board_key(board_from_inline(board))
    store = storage.open_store(storage.normalise_url(url))
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Drawing).where(Drawing.key == key)) == 1

    _forget_process_caches()
    monkeypatch.setattr(GEOMETRY, "_build_geometry", lambda *a, **k: pytest.fail("drawing computed again"))
    monkeypatch.setattr(stored, "_build_geometry", lambda *a, **k: pytest.fail("drawing computed again"))
    second = make_api(url, ADJUDICATOR_PICTURE_PROCESSES="0")  # another instance, drawing in its own process
    again = _picture(second, gid, gm)
    assert again.status_code == 200 and again.data == answer.data


def test_the_operators_folder_keeps_a_stateless_pictures_drawing(tmp_path, monkeypatch):
    monkeypatch.setenv(shelves.FOLDER, str(tmp_path / "drawings"))
    board = board_from_inline(chain_board(30, f"Chain {secrets.token_hex(4)}"))
    state = game_to_data(board, rules_of(board).initial_state(board))
    client = create_app({"ADJUDICATOR_PICTURE_PROCESSES": "0"}).test_client()
    body = {"state": {**state, "board": board.raw}, "format": "svg"}
    assert client.post("/v1/render", json=body).status_code == 200
    assert len(list((tmp_path / "drawings").glob("*.json"))) == 1
    _forget_process_caches()
    monkeypatch.setattr(stored, "_build_geometry", lambda *a, **k: pytest.fail("drawing computed again"))
    assert client.post("/v1/render", json=body).status_code == 200


# ----- the queue -----------------------------------------------------------------------------------------------
def test_the_queue_refuses_what_it_cannot_hold_and_what_waits_too_long(monkeypatch):
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow(job):
        started.release()
        release.wait(10)
        return b"picture"

    monkeypatch.setattr(pictures, "draw_job", slow)
    queue = Pictures(processes=0, waiting=1, wait_seconds=0.3)
    job = Job("standard", None, {}, None, "png", 1000)
    results: list = []
    drawing = threading.Thread(target=lambda: results.append(queue.draw(job)))
    drawing.start()
    assert started.acquire(timeout=5)
    t0 = time.monotonic()
    with pytest.raises(Busy):  # the one waiting place taken, then its wait runs out
        queue.draw(job)
    assert time.monotonic() - t0 >= 0.25
    waiting = threading.Thread(target=lambda: results.append(_busy_or(queue, job)))
    waiting.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    with pytest.raises(Busy) as refused:  # one drawing, one waiting: the next is refused at once
        queue.draw(job)
    assert time.monotonic() - t0 < 0.2 and refused.value.retry_after >= 1
    release.set()
    drawing.join(5)
    waiting.join(5)
    assert b"picture" in results


def _busy_or(queue: Pictures, job: Job):
    try:
        return queue.draw(job)
    except Busy:
        return "busy"


def test_a_full_queue_is_a_503_with_retry_after(monkeypatch):
    def busy(self, job, shelves=()):
        raise Busy("2 pictures are being drawn or waiting: try again in a few seconds", 5)

    monkeypatch.setattr(Pictures, "draw", busy)
    client = create_app().test_client()
    state = client.get("/v1/variants/standard/start").get_json()
    answer = client.post("/v1/render", json={"state": state})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert answer.get_json()["title"] == "Busy drawing"


def test_pictures_are_rated_by_their_cost(tmp_path):
    limits = Limits(requests_per_minute=10**6, games_per_hour=10**6, picture_units_per_minute=40)
    api = make_api(f"sqlite:///{tmp_path / 'g.sqlite3'}", HOSTED_LIMITS=limits)
    created = api.create(variant="standard")
    gid, gm = created["id"], created["game_master_token"]
    api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid)
    codes = [api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                      query="?format=svg&width=4000").status_code for _ in range(3)]
    assert codes == [200, 200, 429]  # a 4000 px picture costs 16 of the 40 a minute
    small = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                     query="?format=svg&width=1000")
    assert small.status_code == 200  # 1 of what is left
    assert UNLIMITED.picture_units_per_minute >= 10**6  # (the other tests are not limited)


# ----- the server stays responsive -------------------------------------------------------------------------------
def test_healthz_answers_while_the_largest_pictures_are_drawn(tmp_path):
    """Before: the worker drew in its event loop, and /healthz waited for every picture in front of it (25 s
    silent with two large boards). Now the pictures are drawn by the worker's drawing process."""
    import os
    import subprocess

    port = free_port()
    env = {**os.environ, "ADJUDICATOR_DATABASE": str(tmp_path / "g.sqlite3"), "ADJUDICATOR_PICTURE_WAIT": "60",
           "ADJUDICATOR_PICTURE_SECONDS": "60", "ADJUDICATOR_PICTURE_UNITS_PER_MINUTE": "100000"}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port), "--workers", "1",
                             "--timeout", "120"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, proc, lambda: proc.stderr.read().decode(errors="replace"))
        board = chain_board(900, f"Chain {secrets.token_hex(4)}")
        state = requests.post(base + "/v1/start", json={"board": board}, timeout=30).json()
        body = {"state": {**state, "board": board}, "format": "png", "width": 4000}
        codes: list[int] = []
        senders = [threading.Thread(target=lambda: codes.append(
            requests.post(base + "/v1/render", json=body, timeout=120).status_code)) for _ in range(3)]
        for sender in senders:
            sender.start()
        time.sleep(0.5)
        slowest, asked = 0.0, 0
        while any(s.is_alive() for s in senders) and asked < 40:
            t0 = time.monotonic()
            assert requests.get(base + "/healthz", timeout=10).ok
            slowest, asked = max(slowest, time.monotonic() - t0), asked + 1
            time.sleep(0.1)
        for sender in senders:
            sender.join(120)
        assert codes == [200, 200, 200] and asked >= 3  # (/healthz was asked while the pictures were drawn)
        assert slowest < 1.0, slowest
    finally:
        stop(proc)
