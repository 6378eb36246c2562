"""Fixtures of the hosted-games tests: a database on SQLite and on PostgreSQL, and the API on it."""

from __future__ import annotations

import pytest

from tests.hosted.helpers import Api, make_api, postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """A database URL: a fresh SQLite file, or the test PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return postgres_url()


@pytest.fixture
def api(db_url) -> Api:
    return make_api(db_url)
