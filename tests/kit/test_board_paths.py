"""A board from a path, everywhere: the CLI, game files (relative path + content hash), case files, and the API
with an inline board (checked, size-limited, cached by content hash, problems located by JSON pointer)."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml
from click.testing import CliRunner

from adjudicator import catalogue
from adjudicator.catalogue import BoardProblems, board_from_inline, load_board_ref
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError
from api import create_app
from tests.api_helpers import check_response
from tests.helpers import ROOT

BOARD = ROOT / "datc_cases" / "features" / "boards" / "waterways.yaml"
YEAR = [  # a game year on the waterways board: movement (through the canal), movement, retreat, adjustment
    "Red: F aaa - bbb\nRed: A ccc - hil\nBlue: F ddd - sou\nBlue: A riv - low\n",
    "Blue: F sou - bbb\nBlue: A low S F sou - bbb\nRed: F bbb H\nRed: A hil - rap\n",
    "Red: F bbb - aaa\n",  # back through the canal
    "Blue: Build F riv\nBlue: Build A riv\nBlue: Build F upr\n",
]
PHASES = ["Fall 1901 Movement", "Fall 1901 Retreat", "Fall 1901 Adjustment", "Spring 1902 Movement"]
FINAL = {"Red": ["F aaa", "A rap"], "Blue": ["F bbb", "A low", "A riv", "F upr"]}


def _run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A folder with a board that is not installed (boards/waterways.yaml) and a folder for games."""
    (tmp_path / "boards").mkdir()
    (tmp_path / "games").mkdir()
    shutil.copy(BOARD, tmp_path / "boards" / "waterways.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_plays_a_year_on_a_board_file(table):
    r = _run("new", "--variant", "boards/waterways.yaml", "-o", "games/g.yaml")
    assert r.exit_code == 0, r.output
    game = yaml.safe_load((table / "games" / "g.yaml").read_text())
    assert game["variant"] == "../boards/waterways.yaml"  # relative to the game file, not to where we stand
    assert game["board_hash"] == catalogue.content_hash(BOARD.read_bytes())
    phases = []
    for i, sheet in enumerate(YEAR):
        (table / f"s{i}.txt").write_text(sheet)
        r = _run("adjudicate", "games/g.yaml", f"s{i}.txt", "--in-place")
        assert r.exit_code == 0, r.output
        phases.append(yaml.safe_load((table / "games" / "g.yaml").read_text())["phase"])
    assert [f"{p['season']} {p['year']} {p['type']}" for p in phases] == PHASES
    final = yaml.safe_load((table / "games" / "g.yaml").read_text())
    assert final["units"] == FINAL
    assert "river coast" in r.output  # the fleet build on Rivertown was refused, with the reason
    shown = _run("show", "games/g.yaml")
    assert shown.exit_code == 0 and "Waterways (test board): Spring 1902 Movement" in shown.output
    legal = _run("orders", "games/g.yaml", "--power", "Red", "--json")
    assert legal.exit_code == 0
    assert "F aaa - bbb" in json.loads(legal.output)["Red"]["F aaa"]
    pic = _run("render", "games/g.yaml", "-o", "g.svg")
    assert pic.exit_code == 0 and (table / "g.svg").read_text().lstrip().startswith("<")


def test_game_file_written_elsewhere_names_the_board_from_there(table):
    _run("new", "--variant", "boards/waterways.yaml", "-o", "games/g.yaml")
    (table / "s.txt").write_text(YEAR[0])  # Spring: the fleet passes the canal
    (table / "other").mkdir()
    r = _run("adjudicate", "games/g.yaml", "s.txt", "-o", "other/deep.yaml")
    assert r.exit_code == 0, r.output
    assert yaml.safe_load((table / "other" / "deep.yaml").read_text())["variant"] == "../boards/waterways.yaml"
    assert _run("show", "other/deep.yaml").exit_code == 0


def test_a_changed_board_is_reported_not_used(table):
    _run("new", "--variant", "boards/waterways.yaml", "-o", "games/g.yaml")
    board = table / "boards" / "waterways.yaml"
    board.write_text(board.read_text().replace("title: Waterways (test board)", "title: Changed"))
    r = CliRunner().invoke(main, ["show", "games/g.yaml"])
    assert r.exit_code == 2
    assert "has changed since this game file was written" in r.output and "games/g.yaml:2:" in r.output
    game = table / "games" / "g.yaml"  # deleting the recorded hash accepts the new board
    game.write_text("\n".join(line for line in game.read_text().splitlines() if not line.startswith("board_hash")))
    assert "Changed" in _run("show", "games/g.yaml").output


def test_a_board_file_with_problems_is_refused_with_every_problem_located(table):
    bad = (table / "boards" / "waterways.yaml").read_text()
    bad = bad.replace("name: waterways", "name: bad").replace("  - riv - upr : coast", "  - riv - upr : coast\n"
                                                                  "  - riv - qqq : land\n  - upr - zzz : land")
    (table / "boards" / "bad.yaml").write_text(bad)
    r = CliRunner().invoke(main, ["new", "--variant", "boards/bad.yaml"])
    assert r.exit_code == 2
    lines = [i + 1 for i, text in enumerate(bad.splitlines()) if "qqq" in text or "zzz" in text]
    assert "2 problem(s)" in r.output
    for line, name in zip(lines, ("qqq", "zzz")):
        assert f"line {line}: border" in r.output and name in r.output


def test_case_files_name_a_board_file_relative_to_themselves(table):
    (table / "cases").mkdir()
    (table / "cases" / "c.txt").write_text(
        "VARIANT_ALL ../boards/waterways.yaml\nCASE canal\nPRESTATE\n  Red: F aaa\nORDERS\n  Red: F aaa - bbb\n"
        "POSTSTATE\n  Red: F bbb\nEND\n")
    (table / "cases" / "c.yaml").write_text(
        "variant: ../boards/waterways.yaml\ncases:\n  - name: canal\n    prestate: {phase: Spring 1901 Movement, "
        "units: {Red: [F aaa]}}\n    orders: 'Red: F aaa - bbb'\n    poststate: {units: {Red: [F bbb]}}\n")
    r = _run("datc", "cases")
    assert r.output.strip().splitlines()[-1] == "2 passed, 0 failed", r.output


def test_a_request_may_not_name_a_file(table):
    with pytest.raises(AdjudicatorError, match="file path"):
        load_board_ref("boards/waterways.yaml", None)
    client = create_app().test_client()
    r = client.post("/v1/datc", json={"text": "VARIANT_ALL boards/waterways.yaml\nCASE x\nPRESTATE\n  Red: F aaa\n"
                                              "ORDERS\n  Red: F aaa H\nPOSTSTATE_SAME\nEND\n"})
    assert r.status_code == 200 and r.get_json()["failed"] == 1
    assert "file path" in r.get_json()["cases"][0]["problems"][0]
    r = client.post("/v1/adjudicate", json={"state": {"variant": "boards/waterways.yaml", "phase": "Spring 1901 Movement"}})
    assert r.status_code == 404


# ----- the API with an inline board --------------------------------------------------------------------
@pytest.fixture(scope="module")
def inline():
    return yaml.safe_load(BOARD.read_text())


def test_api_plays_a_year_on_an_inline_board(client, inline):
    r = client.post("/v1/start", json={"board": inline})
    check_response("/v1/start", "post", r)
    state = r.get_json()
    assert state["variant"] == "waterways" and state["units"]["Red"] == ["F aaa", "A ccc"]
    phases = []
    for sheet in YEAR:
        r = client.post("/v1/adjudicate", json={"state": {**state, "board": inline}, "orders": sheet})
        assert r.status_code == 200, r.get_json()
        check_response("/v1/adjudicate", "post", r)
        state = r.get_json()["next_state"]
        phases.append(r.get_json()["next_phase"]["name"])
    assert phases == PHASES and state["units"] == FINAL
    r = client.post("/v1/orders/legal", json={"state": {**state, "board": inline}, "power": "Red"})
    assert r.status_code == 200 and "F aaa - bbb" in r.get_json()["powers"]["Red"]["F aaa"]
    r = client.post("/v1/orders/parse", json={"board": inline, "orders": "Red: F aaa - bbb"})
    assert r.status_code == 200 and r.get_json()["orders"][0]["canonical"] == "F aaa - bbb"
    r = client.post("/v1/render", json={"state": {**state, "board": inline}, "format": "svg"})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"


def test_api_board_problems_come_with_json_pointers(client, inline):
    bad = {**inline, "borders": [*inline["borders"], "riv - qqq : land"],
           "provinces": [*inline["provinces"], {"id": "zzz", "home": "Nobody"}]}
    r = client.post("/v1/start", json={"board": bad})
    assert r.status_code == 422
    check_response("/v1/start", "post", r)
    errors = r.get_json()["errors"]
    n_borders, n_provinces = len(inline["borders"]), len(inline["provinces"])
    pointers = {e["pointer"] for e in errors}
    assert f"/board/borders/{n_borders}" in pointers and f"/board/provinces/{n_provinces}" in pointers
    state = {"variant": "waterways", "phase": "Spring 1901 Movement", "board": bad}
    r = client.post("/v1/adjudicate", json={"state": state})
    assert r.status_code == 422 and r.get_json()["pointer"].startswith("/state/board/")


def test_api_inline_board_size_limit(client, inline, monkeypatch):
    monkeypatch.setattr(catalogue, "MAX_INLINE_BOARD_BYTES", 500)
    r = client.post("/v1/start", json={"board": inline})
    assert r.status_code == 413 and r.get_json()["pointer"] == "/board"


def test_api_state_and_inline_board_must_agree(client, inline):
    r = client.post("/v1/adjudicate", json={"state": {"variant": "standard", "phase": "Spring 1901 Movement",
                                                      "board": inline}})
    assert r.status_code == 422 and r.get_json()["pointer"] == "/state/variant"


def test_inline_boards_are_cached_by_content_and_the_cache_is_bounded(inline):
    first = board_from_inline(inline)
    assert board_from_inline(json.loads(json.dumps(inline))) is first  # same content, same board
    for i in range(catalogue.BOARD_CACHE_SIZE + 5):
        board_from_inline({**inline, "title": f"copy {i}"})
    assert len(catalogue._boards) <= catalogue.BOARD_CACHE_SIZE
    assert board_from_inline(inline) is not first  # pushed out, rebuilt


def test_inline_board_that_is_not_a_mapping(inline):
    with pytest.raises(AdjudicatorError, match="JSON object"):
        board_from_inline([inline])
    with pytest.raises(BoardProblems):
        board_from_inline({**inline, "start": {"Red": ["F hil"]}})


def test_api_runs_case_files_on_an_inline_board(client, inline):
    text = ("VARIANT_ALL waterways\nCASE canal\nPRESTATE\n  Red: F aaa\nORDERS\n  Red: F aaa - bbb\n"
            "POSTSTATE\n  Red: F bbb\nEND\n")
    r = client.post("/v1/datc", json={"text": text, "board": inline})
    check_response("/v1/datc", "post", r)
    assert r.status_code == 200 and r.get_json()["passed"] == 1
    r = client.post("/v1/datc", json={"text": text})  # without the board the name is unknown
    assert r.get_json()["failed"] == 1 and "unknown variant" in r.get_json()["cases"][0]["problems"][0]
