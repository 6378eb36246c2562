"""Fixtures every test may use (helpers to import are in tests/helpers.py)."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant


@pytest.fixture(scope="session")
def standard():
    return load_variant("standard")
