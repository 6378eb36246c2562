"""Tokens: long random secrets, shown once, stored only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

PREFIX = "adj_"  # makes a leaked token easy to recognise (and to scan for) in logs and repositories


def new_token() -> str:
    """A new secret token (256 random bits)."""
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The stored form of a token: SHA-256 is enough for a 256-bit random secret (no password stretching)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def matches(token: str, stored_hash: str) -> bool:
    """Whether a presented token is the one whose hash is stored, in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_id() -> str:
    """A game id: random, so ids cannot be enumerated."""
    return secrets.token_urlsafe(12)
