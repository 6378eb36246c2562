"""Fixtures every test may use (helpers to import are in tests/helpers.py)."""

from __future__ import annotations

import pytest

from api import create_app


@pytest.fixture(scope="module")
def client():
    """The API's test client, with the default configuration."""
    return create_app().test_client()
