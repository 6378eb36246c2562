"""The lean install: the command line judges, renders and runs case files with the base dependencies alone; the
server, PostgreSQL and Skia are extras, and a feature whose extra is missing says so in one line (exit status 2),
never a traceback. A missing module is simulated by a None entry in sys.modules (an import of it fails)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.extras import MODULES
from tests.helpers import ROOT

SERVER_PARTS = ("flask", "jsonschema", "gunicorn", "gevent", "sqlalchemy", "alembic", "psycopg", "skia")


def _missing(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> list:
    """`adjudicator serve` records its call instead of serving (should a check let it through)."""
    import api.server

    calls: list = []
    monkeypatch.setattr(api.server, "serve", lambda **kw: calls.append(kw))
    return calls


def _one_line_error(result, extra: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith("error: ")
    assert f'pip install "arctic-adjudicator[{extra}]"' in lines[0]
    return lines[0]


def test_serve_without_the_server_extra_names_it(monkeypatch, no_serving):
    _missing(monkeypatch, "gevent")
    line = _one_line_error(CliRunner().invoke(main, ["serve"]), "server")
    assert "adjudicator serve needs the server extra (gevent cannot be imported" in line
    assert no_serving == []


def test_serve_on_postgresql_without_psycopg_names_the_postgres_extra(monkeypatch, no_serving):
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", "postgresql://postgres@127.0.0.1:1/nowhere")
    _missing(monkeypatch, "psycopg")
    line = _one_line_error(CliRunner().invoke(main, ["serve"]), "postgres")
    assert "a PostgreSQL database (postgresql:// URL) needs the postgres extra" in line
    assert no_serving == []


def test_games_tick_without_the_server_extra_names_it(monkeypatch, tmp_path):
    _missing(monkeypatch, "sqlalchemy")
    line = _one_line_error(CliRunner().invoke(main, ["games", "tick", "--database", str(tmp_path / "g.sqlite3")]),
                           "server")
    assert "adjudicator games tick needs the server extra (sqlalchemy cannot be imported" in line


def test_games_tick_on_postgresql_without_psycopg_names_the_postgres_extra(monkeypatch):
    _missing(monkeypatch, "psycopg")
    result = CliRunner().invoke(main, ["games", "tick", "--database", "postgresql://postgres@127.0.0.1:1/nowhere"])
    assert "needs the postgres extra (psycopg cannot be imported" in _one_line_error(result, "postgres")


def test_games_tick_needs_no_http_part(tmp_path):
    """A cron job's tick loads hosted games' storage only: without Flask, gunicorn or gevent it reaches its
    own check of the database (here: a file that does not exist)."""
    script = ("import sys; sys.modules.update(dict.fromkeys(('flask', 'jsonschema', 'gunicorn', 'gevent'), None)); "
              "from adjudicator.cli import main; main()")
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    done = subprocess.run([sys.executable, "-c", script, "games", "tick", "--database", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "does not exist, and tick creates no database" in done.stdout, done


def test_a_store_on_postgresql_without_psycopg_is_a_missing_extra(monkeypatch):
    from adjudicator.extras import MissingExtra
    from adjudicator.hosted.storage import Store, normalise_url

    _missing(monkeypatch, "psycopg")
    with pytest.raises(MissingExtra, match=r'pip install "arctic-adjudicator\[postgres\]"'):
        Store(normalise_url("postgres://postgres@127.0.0.1:1/nowhere"))


def test_replay_on_a_cluster_without_the_cluster_extra_names_it(monkeypatch):
    _missing(monkeypatch, "distributed")
    result = CliRunner().invoke(main, ["replay", str(ROOT / "tests" / "data" / "package_games.jsonl.gz"),
                                       "--cluster", "local:2"])
    assert "adjudicator replay --cluster needs the cluster extra (distributed cannot be imported" in \
        _one_line_error(result, "cluster")


def test_pictures_render_without_skia_through_resvg(monkeypatch):
    from adjudicator.catalogue import load_variant
    from adjudicator.game import rules_of
    from adjudicator.render import raster

    monkeypatch.setattr(raster, "_SKIA", False)  # not looked for yet: looked for again, and not found
    _missing(monkeypatch, "skia")
    board = load_variant("standard")
    rules = rules_of(board)
    png = rules.render(board, rules.initial_state(board), None, "png", 300)
    assert raster.skia_module() is None
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


def test_the_command_line_needs_no_optional_part(tmp_path):
    """The README's first command, a picture and a case file, with every optional module unimportable."""
    script = (f"import sys; sys.modules.update(dict.fromkeys({SERVER_PARTS!r}, None)); "
              "from adjudicator.cli import main; main()")
    commands = [
        ["adjudicate", "examples/arctic-opening.yaml", "examples/arctic-fall-2010-orders.txt"],
        ["render", "examples/arctic-opening.yaml", "-o", str(tmp_path / "board.png")],
        ["datc", "datc_cases/standard/6F_convoys.txt"],
    ]
    for args in commands:
        done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    assert (tmp_path / "board.png").read_bytes().startswith(b"\x89PNG")


def test_the_optional_parts_are_extras_not_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = " ".join(project["dependencies"]).lower()
    for heavy in ("flask", "jsonschema", "gunicorn", "gevent", "sqlalchemy", "alembic", "psycopg", "skia"):
        assert heavy not in base, heavy
    extras = project["optional-dependencies"]
    assert set(MODULES) <= set(extras)
    for name in MODULES:  # the README's test command installs every extra the tests need
        assert any(f"[{','.join(MODULES)}]" in req and name in req for req in extras["test"]), name
