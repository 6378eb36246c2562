"""Tokens: long random secrets, shown once, stored only as hashes. A presented token is found by its hash in
the database (hosted.service): the SHA-256 of a 256-bit random secret, so a lookup's timing tells nothing useful."""

from __future__ import annotations

import hashlib
import secrets

PREFIX = "adj_"  # makes a leaked token easy to recognise (and to scan for) in logs and repositories


def new_token() -> str:
    """A new secret token (256 random bits)."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The stored form of a token: SHA-256 is enough for a 256-bit random secret (no password stretching)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_id() -> str:
    """A game id: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(12)
