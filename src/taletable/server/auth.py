"""Seats and their tokens: ``Authorization: Bearer TOKEN`` names the seat (resolved by the
table session, :mod:`taletable.server.session`).

A token is 32 random bytes (URL-safe text), given once, when the table is made or the seat
joins. The database keeps only its SHA-256, so a copy of the database lets no one sit at a
table. The join code is kept hashed the same way. A token of another table is refused (403);
no token, or one that names no seat, is 401.

The pages send the same token in a signed seat cookie instead (:mod:`.cookies`); a header, when
present, wins. A cookie-authenticated change must pass the CSRF check of :mod:`.cookies`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

__all__ = ["Seat", "hash_secret", "new_id", "new_secret", "secrets_match"]

ROLES = ("narrator", "player", "observer")


def new_secret() -> str:
    """A fresh token or join code: 32 random bytes as URL-safe text."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A fresh id for a table, seat or character: 16 hex digits."""
    return secrets.token_hex(8)


def hash_secret(secret: str) -> str:
    """The SHA-256 of a token or join code, as hex: all the database keeps of it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secrets_match(secret: str, digest: str) -> bool:
    """Whether ``secret`` hashes to ``digest`` (compared in constant time)."""
    return hmac.compare_digest(hash_secret(secret), digest)


@dataclass(frozen=True)
class Seat:
    """Who is asking: a seat at one table."""

    id: str
    table_id: str
    name: str
    role: str

    @property
    def narrator(self) -> bool:
        return self.role == "narrator"
