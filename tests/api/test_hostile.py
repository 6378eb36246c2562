"""Hostile input (issue 16), one fast test per class: bounded work per request, bounded memory, problem+json
4xx for whatever a client gets wrong (deep JSON, wrong types in any game's state, absurd numbers, malformed
render results), and files (YAML bombs, deep nesting, wrong types, failed writes) refused plainly.

The slow-client tests against the real server are in test_hostile_server.py; the long bounded fuzz is
benchmarks/fuzz_api.py."""

from __future__ import annotations

import errno
import gc
import io
import json
import os
import random
import time
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.catalogue import _shipped_board, load_variant, variant_names
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.legal import legal_orders
from adjudicator.yamlio import load_yaml_text
from api import create_app
from tests.helpers import ROOT, benchmark


FUZZ = benchmark("fuzz_api")
LEGAL = benchmark("legal_orders")
APP = create_app()
CLIENT = APP.test_client()
VARIANTS = FUZZ.VARIANTS


def _is_problem(r, status_range=range(400, 500)) -> None:
    assert r.status_code in status_range, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.headers["Content-Type"].startswith("application/problem+json"), r.headers["Content-Type"]
    body = r.get_json()
    assert body["status"] == r.status_code and body["detail"]


# --- 1. bounded work per request ------------------------------------------------------------------------

def test_legal_orders_of_a_full_board_are_the_reference_lists():
    """The fast listing (routes and reach found once per position) gives exactly the orders, in the same
    order, as offering every candidate to the validator; its speed is measured in benchmarks/legal_orders.py."""
    for name, season in (("arctic", 2), ("standard", 0)):
        board, state = LEGAL.full_state(name, season)
        if name == "standard":  # the reference takes seconds on all 75 units: every fourth one
            state.units = dict(list(state.units.items())[::4])
        for power in board.powers:
            assert legal_orders(board, state, power) == LEGAL.reference_legal_orders(board, state, power), power


def test_a_state_with_more_units_than_spaces_is_refused_before_any_is_read():
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    r = CLIENT.post("/v1/adjudicate", json={"state": {**state, "units": {"France": ["A Par"] * 50_000}}})
    _is_problem(r)
    assert r.status_code == 422 and "50000 units, but the board has 75 spaces" in r.get_json()["detail"]
    assert r.get_json()["pointer"] == "/state/units"


def test_render_width_is_bounded(tmp_path):
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    _is_problem(CLIENT.post("/v1/render", json={"state": state, "width": 100_000}))
    _is_problem(CLIENT.post("/v1/render", json={"state": state, "width": 10 ** 40}))
    game = _game_file(tmp_path, "standard")
    r = CliRunner().invoke(main, ["render", str(game), "-o", str(tmp_path / "b.png"), "--width", "8000"])
    assert r.exit_code == 2 and "4000" in r.output and not (tmp_path / "b.png").exists()


# --- 2. bounded memory ----------------------------------------------------------------------------------

def _spelling(rng: random.Random, names: list[str], i: int) -> str:
    name = names[i % len(names)]
    mask = rng.getrandbits(len(name))
    cased = "".join(c.upper() if mask >> k & 1 else c for k, c in enumerate(name))
    return " " * rng.randrange(12) + cased + rng.choice(("", "\t", " ", "\n")) * rng.randrange(12)


def test_a_hundred_thousand_spellings_of_variant_names_leave_memory_flat():
    names = variant_names()
    for name in names:
        load_variant(name)
    rng = random.Random(16)
    spellings = [_spelling(rng, names, i) for i in range(100_000)]  # made before measuring
    assert len(set(spellings)) > 5_000
    # Only what this test's own calls allocate is counted (a frame of this file on the stack): threads other
    # tests left running (a webhook sender, a database pool) allocate meanwhile, and made the total flaky.
    own = [tracemalloc.Filter(True, __file__, all_frames=True)]
    tracemalloc.start(16)
    try:
        for text in spellings[:10_000]:
            load_variant(text)
        gc.collect()
        before = sum(t.size for t in tracemalloc.take_snapshot().filter_traces(own).traces)
        for text in spellings[10_000:]:
            load_variant(text)
        gc.collect()
        after = sum(t.size for t in tracemalloc.take_snapshot().filter_traces(own).traces)
    finally:
        tracemalloc.stop()
    assert after - before < 64 * 1024, f"memory grew by {after - before} bytes over 90,000 lookups"
    assert _shipped_board.cache_info().currsize <= len(names)
    for i in range(200):  # and through the API: one board per variant, whatever the spelling
        assert CLIENT.get(f"/v1/variants/{_spelling(rng, names, i).strip()}/start").status_code == 200
    assert _shipped_board.cache_info().currsize <= len(names)


# --- 3. bodies: nesting, chunked size -------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/v1/adjudicate", "/v1/orders/parse", "/v1/orders/legal", "/v1/render", "/v1/datc"])
def test_json_nested_to_any_depth_is_a_400(path):
    for depth in (65, 5_000, 400_000):
        _is_problem(CLIENT.post(path, data=b"[" * depth + b"]" * depth, content_type="application/json"))
    state = CLIENT.get("/v1/variants/arctic/start").get_json()
    deep: object = "x"
    for _ in range(100):
        deep = {"history": [deep]}
    _is_problem(CLIENT.post(path, data=json.dumps({"state": {**state, "history": [deep]}}),
                            content_type="application/json"))


def test_a_chunked_body_over_the_limit_is_refused_whole():
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    body = json.dumps({"state": state, "orders": "France: A Par - Bur\n" + "# padding\n" * 120_000}).encode()
    assert len(body) > APP.config["MAX_CONTENT_LENGTH"]
    chunked = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    r = CLIENT.post("/v1/adjudicate", input_stream=io.BytesIO(body), headers=chunked,
                    environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 413 and "chunked" in r.get_json()["detail"]
    small = json.dumps({"state": state, "orders": "France: A Par - Bur"}).encode()
    r = CLIENT.post("/v1/adjudicate", input_stream=io.BytesIO(small), headers=chunked,
                    environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 200 and r.get_json()["orders"][0]["status"] == "succeeds"


# --- 4. every error is problem+json, 4xx where the client is at fault -------------------------------------

def test_wrong_types_anywhere_in_every_games_state_are_4xx():
    """Each place of each game's state (openings and played positions) set to each hostile value in turn."""
    rng = random.Random(4)
    values = [None, 7, -1, 1e308, "", "x" * 5000, [], {}, [None], {"a": []}, True, FUZZ._RAW + FUZZ.BIG_INT,
              FUZZ._RAW + "Infinity", FUZZ._RAW + "NaN", FUZZ._RAW + "-1e999"]
    seen = set()
    for state in FUZZ._states(CLIENT):
        seen.add(state["variant"])
        places = [p for p in FUZZ._paths(state) if p]
        for i, where in enumerate(places[::max(1, len(places) // 16)]):  # about 16 places of each state
            body = {"state": FUZZ._replace(state, where, values[(i + rng.randrange(3)) % len(values)])}
            endpoint = ("/v1/adjudicate", "/v1/orders/legal")[i % 2]
            r = CLIENT.post(endpoint, data=FUZZ._dumps(body), content_type="application/json")
            assert r.status_code < 500, (endpoint, where, r.get_data(as_text=True)[:300])
            if r.status_code >= 400:
                _is_problem(r)
    assert seen == set(VARIANTS)


def test_absurd_numbers_are_4xx():
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    for year in (FUZZ.BIG_INT, "1e999", "-1e999", "Infinity", "NaN", "1e308", "-5", "0.5", "true", '"2e9"',
                 "99999999999999999999"):
        text = json.dumps({"state": {**state, "phase": {**state["phase"], "year": "@"}}}).replace('"@"', year)
        for path in ("/v1/adjudicate", "/v1/orders/legal"):
            r = CLIENT.post(path, data=text, content_type="application/json")
            assert r.status_code in (400, 422), (year, r.status_code, r.get_data(as_text=True)[:200])
            _is_problem(r)


def test_malformed_render_results_are_4xx():
    state = CLIENT.get("/v1/variants/standard/start").get_json()
    for results in ({"orders": "x"}, [1, {"order": 5}, {"order": "A Par - Bur", "status": [], "reason": {},
                                                    "unit": {"type": 3, "location": None}}]):
        r = CLIENT.post("/v1/render", json={"state": state, "results": results, "format": "svg"})
        assert r.status_code < 500, (results, r.get_data(as_text=True)[:300])
        if r.status_code >= 400:
            _is_problem(r)


def test_a_short_schema_and_mutation_fuzz_finds_no_5xx():
    stats = FUZZ.run(250, seed=16, draw=False)  # pictures: test_malformed_render_results_are_4xx
    assert not stats.server_errors, stats.server_errors[:3]
    assert stats.tracebacks == 0


# --- 5. files -------------------------------------------------------------------------------------------

def _bomb(levels: int = 9) -> str:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_yaml_alias_bombs_self_references_and_deep_nesting_are_refused_at_once():
    start = time.process_time()
    for text, words in ((_bomb(), "expands to more than"), ("a: &a [*a]", "inside itself"),
                        ("a: &a {b: {c: *a}}", "inside itself"), ("a: " + "[" * 100_000, "nest"),
                        ("- " * 50_000 + "x", "nest"), ("k: " + "{a: " * 70 + "1" + "}" * 70, "deeper than")):
        with pytest.raises(AdjudicatorError) as info:
            load_yaml_text(text, "g.yaml")
        assert words in info.value.message and info.value.file == "g.yaml"
    assert time.process_time() - start < 5  # a generous bound; the bomb alone would need gigabytes


def _game_file(tmp_path: Path, variant: str) -> Path:
    path = tmp_path / f"{variant}.yaml"
    assert CliRunner().invoke(main, ["new", "--variant", variant, "-o", str(path)]).exit_code == 0
    return path


def test_malformed_game_files_of_every_game_are_located_errors_with_status_2(tmp_path):
    import yaml

    runner = CliRunner()
    values = [None, 7, "", [], {}, [[]], {"a": 1}, True, 1e308, "x" * 300]
    for variant in VARIANTS:
        good = _game_file(tmp_path, variant)
        data = yaml.safe_load(good.read_text())
        places = [p for p in FUZZ._paths(data) if p]
        for i, where in enumerate(places[::max(1, len(places) // 12)]):  # about 12 places of each game
            bad = tmp_path / "bad.yaml"
            bad.write_text(yaml.safe_dump(FUZZ._replace(data, where, values[i % len(values)])))
            r = runner.invoke(main, ["show", str(bad)])
            assert r.exception is None or isinstance(r.exception, SystemExit), (variant, where, r.exc_info)
            assert r.exit_code in (0, 2), (variant, where, r.output)
            if r.exit_code == 2:
                assert r.output.startswith("error: ") and str(bad) in r.output, r.output
        for text in (_bomb(), "variant: " + "[" * 10_000, "\x00\x01", "variant: standard\nphase: [", ": : :"):
            bad = tmp_path / "bad.yaml"
            bad.write_text(text)
            r = runner.invoke(main, ["show", str(bad)])
            assert r.exit_code == 2 and r.output.startswith("error: "), (text[:20], r.output)


def test_a_failed_write_is_a_clear_error_and_leaves_the_game_file_untouched(tmp_path, monkeypatch):
    game = _game_file(tmp_path, "standard")
    before = game.read_bytes()
    sheet = tmp_path / "orders.txt"
    sheet.write_text("France: A Par - Bur\n")
    runner = CliRunner()
    r = runner.invoke(main, ["adjudicate", str(game), str(sheet), "-o", str(tmp_path / "missing" / "next.yaml")])
    assert r.exit_code == 2 and "cannot write" in r.output and "nothing was written" in r.output, r.output
    for code in (errno.ENOSPC, errno.EROFS):
        def refuse(fd, code=code):
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(os, "fsync", refuse)
        r = runner.invoke(main, ["adjudicate", str(game), str(sheet), "--in-place"])
        monkeypatch.undo()
        assert r.exit_code == 2 and os.strerror(code) in r.output, r.output
        assert game.read_bytes() == before
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_game_file_cut_short_is_detected_and_files_without_the_marks_still_load(tmp_path):
    runner = CliRunner()
    for variant in ("arctic", "arctica"):
        game = _game_file(tmp_path, variant)
        lines = game.read_text().splitlines(keepends=True)
        assert "written by adjudicator" in lines[0] and lines[-1] == "# end of game file\n"
        for keep in (len(lines) - 1, len(lines) // 2, 2):
            game.write_text("".join(lines[:keep]))
            r = runner.invoke(main, ["show", str(game)])
            assert r.exit_code == 2 and "cut short" in r.output and str(game) in r.output, r.output
        old = lines[0].split("  #")[0] + "\n" + "".join(lines[1:-1])  # as written before the marks
        game.write_text(old)
        assert runner.invoke(main, ["show", str(game)]).exit_code == 0


def test_malformed_board_files_and_inline_boards_are_refused_plainly(tmp_path):
    import yaml

    data = yaml.safe_load((ROOT / "variants" / "standard.yaml").read_text())
    places = [p for p in FUZZ._paths(data) if p]
    values = [None, 7, "", [], {}, [[]], {"a": 1}, True, -1, "x" * 50]
    runner = CliRunner()
    (tmp_path / "g.yaml").write_text("variant: standard.yaml\nphase: Spring 1901 Movement\n")
    for i, where in enumerate(places[::max(1, len(places) // 12)]):  # each one builds a board: a dozen
        bad = FUZZ._replace(data, where, values[i % len(values)])
        (tmp_path / "standard.yaml").write_text(yaml.safe_dump(bad))
        r = runner.invoke(main, ["show", str(tmp_path / "g.yaml")])
        assert r.exception is None or isinstance(r.exception, SystemExit), (where, r.exc_info)
        assert r.exit_code in (0, 2), (where, r.output)
        r = CLIENT.post("/v1/start", json={"board": bad})
        assert r.status_code < 500, (where, r.get_data(as_text=True)[:300])
        if r.status_code >= 400:
            _is_problem(r)


@pytest.mark.parametrize("text", [
    "name: bad\nprovinces: 5\npowers: 3\nterrain: x\ncalendar: 1\n",
    "name: bad\npowers: {Red: {home: 5}}\nterrain: {}\ncalendar: []\nprovinces: {a: 3, b: [1, 2]}\nborders: [1, {x: 2}]\n",
    "name: bad\nrules: arctica\nboard: 7\n",
    "name: bad\nrules: arctic2019\ncountries: [1, 2]\n",
    "name: bad\nrules: arctic-race\ntrack: {a: b}\n",
    "- just\n- a list\n",
])
def test_variant_check_of_a_malformed_board_is_a_located_report_never_a_traceback(tmp_path, text):
    from click.testing import CliRunner

    from adjudicator.cli import main

    board = tmp_path / "bad.yaml"
    board.write_text(text)
    r = CliRunner().invoke(main, ["variant", "check", str(board)])
    assert r.exit_code == 1 and "problem(s) found" in r.output and r.exception is None or \
        isinstance(r.exception, SystemExit), r.output
    assert "Traceback" not in r.output and "bad.yaml" in r.output
