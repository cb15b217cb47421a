"""Recovery codes typed at ``/recover``: the narrator's (the table's ``recovery_hash``) or a
player's or observer's (its seat's token is derived from it: :func:`.codes.seat_token`)."""

from __future__ import annotations

from fastapi import Request

from taletable.server.codes import narrator_token, normal, seat_token
from taletable.server.routes.tables import table_by_code
from taletable.server.schema import TABLES
from taletable.server.world import world_of

__all__ = ["recover", "wrong_recovery"]


def _address(request: Request) -> str:
    return f"address:{request.client.host if request.client else ''}"


def recover(request: Request, code: str) -> tuple[str | None, str] | None:
    """What a recovery code (typed in any case, spaces or dashes) stands for: the table whose
    narrator's it is and the narrator's token, else ``(None, token)``, the token of the player's
    or observer's seat it would be (:func:`~taletable.server.codes.seat_token`: the caller finds
    the seat by it, and counts :func:`wrong_recovery` when there is none); None for a code of no
    letters at all. Counted against the address's rate limit and the server's guesses."""
    world = world_of(request)
    world.limiter.check(_address(request))
    world.guesses.check(None)
    if not normal(code):
        wrong_recovery(request)
        return None
    with world.database.read() as connection:
        table_id = table_by_code(connection, TABLES.c.recovery_hash, code)
    if table_id is None:
        return None, seat_token(code)
    return table_id, narrator_token(code)


def wrong_recovery(request: Request) -> None:
    """Count a recovery code that seats no one against the server's guesses."""
    world_of(request).guesses.wrong(None)
