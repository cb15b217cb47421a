"""Seats and their tokens: ``Authorization: Bearer TOKEN`` names the seat.

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
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import bindparam, select

from taletable.server.cookies import cookie_token, is_same_origin_or_htmx
from taletable.server.errors import Forbidden, Unauthorized
from taletable.server.schema import SEATS

__all__ = [
    "Seat",
    "hash_secret",
    "new_id",
    "new_secret",
    "seat_of",
    "secrets_match",
    "taking_part",
]

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


#: Built once: every request with a token runs it (building it costs more than running it).
_SEAT_BY_TOKEN = select(SEATS).where(SEATS.c.token_hash == bindparam("token_hash"))
_BEARER = HTTPBearer(auto_error=False, description="The seat's token")


def seat_of(
    request: Request,
    table_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)],
) -> Seat:
    """The seat the request's token (header, else seat cookie) names, sitting at ``table_id``."""
    token = credentials.credentials.strip() if credentials else ""
    if not token:
        token = cookie_token(request, table_id)
        if token and not is_same_origin_or_htmx(request):
            raise Forbidden(
                "authorization", "a change sent with the seat cookie needs the HX-Request header"
            )
    if not token:
        raise Unauthorized("authorization", "send 'Authorization: Bearer TOKEN' for this table")
    with request.app.state.database.read() as connection:
        row = connection.execute(_SEAT_BY_TOKEN, {"token_hash": hash_secret(token)}).first()
    if row is None:
        raise Unauthorized("authorization", "this token names no seat; join the table again")
    if row.table_id != table_id:
        raise Forbidden("authorization", "this token is for another table")
    seat = Seat(id=row.id, table_id=row.table_id, name=row.name, role=row.role)
    request.app.state.limiter.check(seat.id)
    return seat


def narrator_of(seat: Annotated[Seat, Depends(seat_of)]) -> Seat:
    """The seat, which must be the table's narrator (403 otherwise)."""
    if not seat.narrator:
        raise Forbidden("authorization", "only the table's narrator may do this")
    return seat


def taking_part(seat: Seat) -> Seat:
    """``seat``, which must play (narrator or player): an observer watches and reads the log,
    and may not roll, act or edit (403)."""
    if seat.role == "observer":
        raise Forbidden(
            "authorization",
            "an observer watches the table: it may not roll, act or edit; join as a player to "
            "take part",
        )
    return seat


def player_of(seat: Annotated[Seat, Depends(seat_of)]) -> Seat:
    """The seat, which must take part in play (narrator or player; 403 for an observer)."""
    return taking_part(seat)


SeatDep = Annotated[Seat, Depends(seat_of)]
PlayerDep = Annotated[Seat, Depends(player_of)]
NarratorDep = Annotated[Seat, Depends(narrator_of)]
