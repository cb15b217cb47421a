"""The pages' seat cookie: the seat's token, signed, HttpOnly, SameSite=Lax, one per table.

A browser keeps one cookie per table it sits at, named ``taletable_<table id>``, holding
``TOKEN.SIGNATURE`` where the signature is the HMAC-SHA256 of the token under the database's
cookie key (``server_keys``, made by migration 0002), so a cookie altered in the browser is
refused before the database is asked, and every worker on the database signs alike.

CSRF: SameSite=Lax keeps the cookie off other sites' POSTs; on top of that, a request that is
authenticated by the cookie (not by an ``Authorization`` header) and changes something
(POST, PUT, PATCH, DELETE) must carry the ``HX-Request`` header that htmx sends, or an
``Origin`` equal to the server's own. A plain HTML form on another site can set neither.
The form posts that set a seat cookie (making a table, joining, recovering the narrator's
seat) are held to the same rule before any work (``pages.common.same_site_only``): another
site's form would otherwise seat the browser as a seat that site made (a login CSRF).
"""

from __future__ import annotations

import hashlib
import hmac
import re

from fastapi import Request, Response
from sqlalchemy import select

from taletable.server.links import link
from taletable.server.schema import SERVER_KEYS
from taletable.server.world import world_of

__all__ = [
    "COOKIE_PREFIX",
    "TABLE_ID_TEXT",
    "cookie_name",
    "cookie_token",
    "forget_seat",
    "is_same_origin_or_htmx",
    "is_table_id",
    "read_seat_code",
    "read_shown_once",
    "seat_cookie_tables",
    "set_seat_cookie",
    "show_once",
    "show_seat_code",
]

COOKIE_PREFIX = "taletable_"
#: How long a browser keeps a seat (seconds): 30 days.
COOKIE_AGE = 30 * 24 * 3600
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


#: What a table's id may be: the server makes 16 hex digits; an imported table keeps its own.
#: The cookie's name holds it, so no ``;``, space, quote, NUL or non-ASCII letter.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
TABLE_ID_TEXT = "1 to 64 letters, digits, '-' or '_'"


def is_table_id(text: str) -> bool:
    """Whether ``text`` can be a table's id (a path holding anything else names no table)."""
    return _TABLE_ID.fullmatch(text) is not None


def cookie_name(table_id: str) -> str:
    """The name of a table's seat cookie (``table_id`` passes :func:`is_table_id`)."""
    return f"{COOKIE_PREFIX}{table_id}"


def _key(request: Request) -> bytes:
    world = world_of(request)
    key = world.cookie_key
    if key is None:
        with world.database.read() as connection:
            value = connection.execute(
                select(SERVER_KEYS.c.value).where(SERVER_KEYS.c.name == "cookie")
            ).scalar_one()
        key = bytes.fromhex(value)
        world.cookie_key = key
    return key


def _signature(key: bytes, token: str) -> str:
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


def set_seat_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    """Seat this browser at ``table_id`` with ``token`` (signed, HttpOnly, SameSite=Lax);
    ``table_id`` is checked (:func:`is_table_id`) before: a cookie cannot be named otherwise."""
    response.set_cookie(
        cookie_name(table_id),
        f"{token}.{_signature(_key(request), token)}",
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path=link("/"),
    )


def cookie_token(request: Request, table_id: str) -> str:
    """The token of this table's seat cookie, or "" when there is none or its signature fails."""
    if not is_table_id(table_id):
        return ""
    value = request.cookies.get(cookie_name(table_id), "")
    token, _, signature = value.rpartition(".")
    if not token or not signature:
        return ""
    expected = _signature(_key(request), token)
    return token if hmac.compare_digest(expected, signature) else ""


def seat_cookie_tables(request: Request) -> list[str]:
    """The ids of the tables this browser holds a seat cookie for (signatures unchecked: the
    session checks each with :func:`cookie_token`), at most 100, sorted."""
    named = (name for name in request.cookies if name.startswith(COOKIE_PREFIX))
    return sorted(t for t in (n[len(COOKIE_PREFIX) :] for n in named) if is_table_id(t))[:100]


def forget_seat(request: Request, response: Response, table_id: str) -> None:
    """This browser leaves ``table_id``: its seat cookie is deleted."""
    response.delete_cookie(
        cookie_name(table_id), path=link("/"), httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )  # fmt: skip


#: The codes shown once after a table is made are kept this long (seconds) for its page.
SHOWN_AGE = 15 * 60
SHOWN_PREFIX = "tt-shown-"


def show_once(request: Request, response: Response, table_id: str, *codes: str) -> None:
    """Keep ``codes`` (the join and recovery codes of a table just made) in a signed, HttpOnly
    cookie that only the page ``/t/ID/made`` receives, for :data:`SHOWN_AGE`: so the page can
    be reloaded (post/redirect/get) while the server keeps only their hashes."""
    value = "~".join(codes)
    response.set_cookie(
        f"{SHOWN_PREFIX}{table_id}", f"{value}.{_signature(_key(request), value)}",
        max_age=SHOWN_AGE, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path=link(f"/t/{table_id}/made"),
    )  # fmt: skip


def read_shown_once(request: Request, table_id: str) -> list[str]:
    """The codes :func:`show_once` kept for ``table_id``, or [] (none, expired or altered)."""
    value, _, signature = request.cookies.get(f"{SHOWN_PREFIX}{table_id}", "").rpartition(".")
    if not value or not hmac.compare_digest(_signature(_key(request), value), signature):
        return []
    return value.split("~")


def is_same_origin_or_htmx(request: Request) -> bool:
    """Whether a cookie-authenticated request may change something (see the module's CSRF)."""
    if request.method in SAFE_METHODS or request.headers.get("hx-request") == "true":
        return True
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.url.netloc}"
    return origin is not None and origin == own


SEAT_CODE_PREFIX = "tt-seat-code-"


def show_seat_code(request: Request, response: Response, table_id: str, code: str) -> None:
    """Keep a player's or observer's recovery code, just made as it joined, in a signed,
    HttpOnly cookie that only the table's pages receive, for :data:`SHOWN_AGE`: the table page
    shows it to that browser (post/redirect/get, as :func:`show_once` for the narrator)."""
    response.set_cookie(
        f"{SEAT_CODE_PREFIX}{table_id}", f"{code}.{_signature(_key(request), code)}",
        max_age=SHOWN_AGE, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path=link(f"/t/{table_id}"),
    )  # fmt: skip


def read_seat_code(request: Request, table_id: str) -> str:
    """The code :func:`show_seat_code` kept for ``table_id``, or "" (none, expired, altered)."""
    value, _, signature = request.cookies.get(f"{SEAT_CODE_PREFIX}{table_id}", "").rpartition(".")
    if not value or not hmac.compare_digest(_signature(_key(request), value), signature):
        return ""
    return value
