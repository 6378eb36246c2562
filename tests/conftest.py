"""Fixtures every test may use (helpers to import are in tests/helpers.py): the standard and Arctic boards, and
the API's test client."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant
from api import create_app


@pytest.fixture(scope="session")
def standard():
    return load_variant("standard")


@pytest.fixture(scope="session")
def arctic():
    return load_variant("arctic")


@pytest.fixture(scope="module")
def client():
    """The API's test client, with the default configuration."""
    return create_app().test_client()
