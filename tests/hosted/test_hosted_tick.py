"""Issue 26, finding 7: `adjudicator games tick` says which database it uses, never creates one, and a database
it cannot find or reach is one clear line and exit status 2 (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tests.hosted.helpers import postgres_url

from adjudicator.cli import main
from adjudicator.hosted.storage import DEFAULT_SQLITE


def _tick(*args: str, env: dict[str, str] | None = None):
    clean = {"ADJUDICATOR_DATABASE_URL": None, "ADJUDICATOR_DATABASE": None, **(env or {})}
    return CliRunner().invoke(main, ["games", "tick", *args], env=clean)


def _one_error(result) -> str:
    """The output is one line, naming the database: no traceback."""
    assert result.exit_code == 2, result.output
    (error,) = result.output.rstrip("\n").split("\n")
    assert error.startswith("error: the database ") and "Traceback" not in result.output
    return error


def test_with_nothing_configured_tick_creates_no_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _tick()
    error = _one_error(result)
    assert f"(from the default ({DEFAULT_SQLITE}))" in error and "does not exist" in error
    assert "ADJUDICATOR_DATABASE_URL" in error and list(tmp_path.iterdir()) == []


def test_a_sqlite_file_that_is_not_there_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "nowhere" / "games.sqlite3"
    result = _tick(env={"ADJUDICATOR_DATABASE": str(missing)})
    assert "does not exist" in _one_error(result) and "(from ADJUDICATOR_DATABASE)" in result.output
    assert not missing.parent.exists()
    unreadable = tmp_path / "not-a-database.sqlite3"
    unreadable.write_text("this is no SQLite file " * 100)
    assert "cannot be used" in _one_error(_tick("--database", f"sqlite:///{unreadable}"))


def test_an_unreachable_postgresql_server_is_one_line_and_exit_2():
    result = _tick(env={"ADJUDICATOR_DATABASE_URL": "postgresql://tick:pa55word@127.0.0.1:1/games"})
    error = _one_error(result)
    assert "cannot be used" in error and "pa55word" not in result.output
    assert error.startswith("error: the database postgresql+psycopg://tick:***@127.0.0.1:1/games (from "
                            "ADJUDICATOR_DATABASE_URL) cannot be used: ")


@pytest.mark.parametrize("which", ["sqlite", "postgresql"])
def test_tick_names_the_database_it_uses(tmp_path, which):
    if which == "sqlite":
        url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
        from adjudicator.hosted.storage import open_store

        open_store(url)  # the server made it
    else:
        url = postgres_url()
    result = _tick("--database", url)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("database: ") and lines[0].endswith("(from --database)")
    assert lines[-2].startswith("webhooks: ") and lines[-1].endswith(" phase(s) judged")


def test_a_database_named_by_its_path_or_not_a_url_is_one_line_and_exit_2(tmp_path):
    missing = tmp_path / "games.sqlite3"
    assert "does not exist" in _one_error(_tick("--database", str(missing)))  # a path, read as ADJUDICATOR_DATABASE
    assert f"sqlite:///{missing}" in _tick("--database", str(missing)).output
    error = _one_error(_tick("--database", "postgresql://user@host:port/games"))
    assert "is not a database URL" in error
