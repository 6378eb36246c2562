"""Fixtures of the Diplomacy tests: the standard board and the Arctic board."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant


@pytest.fixture(scope="session")
def standard():
    return load_variant("standard")


@pytest.fixture(scope="session")
def arctic():
    return load_variant("arctic")
