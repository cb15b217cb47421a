"""One table session (DESIGN > Principles 12): who is asking, at which table, in which context.

Every route and page that touches a table gets a :class:`TableSession` from below; only it:

* resolves the seat from the request's bearer token or the page's seat cookie (the API:
  :data:`SessionDep` and narrower; the pages: :data:`PageSession`, which answers a seatless
  browser in words, :data:`PageSessionOrJoin`, which sends it to join), with a per-worker
  cache of seats by token hash (a seat never changes its token);
* builds the ``Table`` an action or a read plays at (:func:`table_context`: the table's edition,
  rule options and house rules as a rules library, its store and its dice);
* asks :mod:`taletable.server.permissions` whether this seat may do this, takes the action in
  one write transaction with the scene's dice, and says what this seat may see of the result
  (counted: :mod:`.action_counts`); ``tests/server/test_session.py`` fails if another module
  builds a ``Table`` or reads a token.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import Connection, bindparam, select

from taletable.errors import TaletableError
from taletable.ledger import LedgerDice
from taletable.log_entry import LogEntry, read_entry
from taletable.play import Played, Table, perform
from taletable.server.action_counts import counted
from taletable.server.auth import Seat, hash_secret
from taletable.server.combat_seats import encounter_key
from taletable.server.combat_views import FIGHT_READS, SeenFight, hides_a_secret, seen_fight
from taletable.server.cookies import cookie_token, is_same_origin_or_htmx, seat_cookie_tables
from taletable.server.deletion import missing_table
from taletable.server.errors import ActionError, ApiError, Forbidden, Unauthorized
from taletable.server.fields import has_nul
from taletable.server.followups import FOLLOWS, followed
from taletable.server.log import TableHead, Writer, read_table, table_write
from taletable.server.page_errors import CrossSitePost, NoSeat
from taletable.server.permissions import (  # fmt: skip
    chat_visibility,
    check_action,
    may_take,
    narrator_only,
    taking_part,
)
from taletable.server.retries import RetryKey, Taken, first_answer, page_retry, remember
from taletable.server.schema import SEATS
from taletable.server.seeds import action_dice
from taletable.server.state import RecordingStore
from taletable.server.strikes import strike_visibility
from taletable.server.table_rules import cogent_options, house_library, table_rules
from taletable.server.visibility import Row, seen_by
from taletable.server.world import World, world_of
from taletable.store import Store
from taletable.store.sql import SqlStore

__all__ = [
    "CrossSitePost", "NarratorSession", "NoSeat", "PageSession", "PageSessionOrJoin",
    "PlayerSession", "Reading", "SessionDep", "TableSession", "browser_sessions",
    "page_session_or_none", "request_session", "seat_of_table", "table_context",
]  # fmt: skip

_BEARER = HTTPBearer(auto_error=False, description="The seat's token")
#: Built once: a seat read from its token's hash (on a cache miss only).
_SEAT_BY_TOKEN = select(SEATS).where(SEATS.c.token_hash == bindparam("token_hash"))


def _seat_row(world: World, token_hash: str) -> Seat | None:
    with world.database.read() as connection:
        row = connection.execute(_SEAT_BY_TOKEN, {"token_hash": token_hash}).first()
    if row is None:
        return None
    return Seat(id=row.id, table_id=row.table_id, name=row.name, role=row.role)


async def _seat_by_token(world: World, token: str) -> Seat | None:
    """The seat ``token`` names: from the cache, else read (in a thread) and kept."""
    token_hash = hash_secret(token)
    seat = world.seats.get(token_hash)
    if seat is None:
        seat = await asyncio.to_thread(_seat_row, world, token_hash)
        if seat is not None:
            world.seats.keep(token_hash, seat)
    return seat


async def seat_of_table(world: World, table_id: str | None, token: str) -> Seat | None:
    """The seat ``token`` names at ``table_id`` (None: at any table), or None (no such seat, or
    another table's): what a link or a seat's recovery code is checked by before its token is
    kept in a cookie."""
    if not token or has_nul(token):
        return None
    seat = await _seat_by_token(world, token)
    return seat if seat is not None and table_id in (None, seat.table_id) else None


def _request_token(request: Request, table_id: str, bearer: str) -> str:
    """The token of the request: its bearer header, else the table's seat cookie (a change
    sent with the cookie must pass the CSRF check of :mod:`.cookies`: 403 otherwise)."""
    token = bearer.strip()
    if not token:
        token = cookie_token(request, table_id)
        if token and not is_same_origin_or_htmx(request):
            raise Forbidden(
                "authorization", "a change sent with the seat cookie needs the HX-Request header"
            )
    return token


async def api_session(
    request: Request,
    table_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)],
) -> TableSession:
    """The session of the seat the request's token names at ``table_id`` (401 / 403)."""
    return await _session(request, table_id, credentials.credentials if credentials else "")


async def request_session(request: Request, table_id: str) -> TableSession:
    """:func:`api_session` called, not solved (the action route's: solving costs ~6% of it)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return await _session(request, table_id, token if scheme.lower() == "bearer" else "")


async def _session(request: Request, table_id: str, bearer: str) -> TableSession:
    world = world_of(request)
    token = _request_token(request, table_id, bearer)
    if not token:
        raise Unauthorized("authorization", "send 'Authorization: Bearer TOKEN' for this table")
    seat = await _seat_by_token(world, token)
    if seat is None or seat.table_id != table_id:  # 404 for a table not there (or deleted)
        await asyncio.to_thread(missing_table, world.database, table_id)
    if seat is None:
        raise Unauthorized("authorization", "this token names no seat; join the table again")
    if seat.table_id != table_id:
        raise Forbidden("authorization", "this token is for another table")
    world.limiter.check(seat.id)
    return TableSession(world, seat)


async def _player_session(session: Annotated[TableSession, Depends(api_session)]) -> TableSession:
    taking_part(session.seat)
    return session


async def _narrator_session(
    session: Annotated[TableSession, Depends(api_session)],
) -> TableSession:
    narrator_only(session.seat)
    return session


async def page_session_or_none(request: Request, table_id: str) -> TableSession | None:
    """The session of this browser's seat cookie at ``table_id``, or None; a change carries
    the key it was sent with (:func:`.retries.page_retry`), so a retry of it is safe."""
    try:
        session = await _session(request, table_id, "")
    except ApiError as error:
        cross_site = cookie_token(request, table_id) and not is_same_origin_or_htmx(request)
        if isinstance(error, Forbidden) and cross_site:
            raise CrossSitePost from None
        if error.status in (404, 429):  # no such table (or deleted); too many requests
            raise
        return None
    return replace(session, retry=await page_retry(request))  # a bad key: 422, the header


async def browser_sessions(request: Request) -> list[TableSession]:
    """The session of every seat this browser's cookies hold (a cookie altered, or naming a
    seat no longer there, is passed over), in the order of the tables' ids."""
    world = world_of(request)
    world.limiter.check(f"address:{request.client.host if request.client else ''}")
    found = []
    for table_id in seat_cookie_tables(request):
        seat = await seat_of_table(world, table_id, cookie_token(request, table_id))
        if seat is not None:
            found.append(TableSession(world, seat))
    return found


async def _page_session(request: Request, table_id: str) -> TableSession:
    session = await page_session_or_none(request, table_id)
    if session is None:
        raise NoSeat(table_id, join=False)
    return session


async def _page_session_or_join(request: Request, table_id: str) -> TableSession:
    session = await page_session_or_none(request, table_id)
    if session is None:
        raise NoSeat(table_id, join=True)
    return session


def table_context(head: TableHead, store: Store, **given: Any) -> Table:
    """The ``Table`` an action of ``head``'s table plays at: its edition, its rule options, its
    house rules, ``store``, and any ``dice`` given."""
    rules = table_rules(head.edition or "core", cogent_options(head.system, head.rules))
    library = house_library(head.house_rules)
    if library is not None:
        given["library"] = library
    return Table(rules=rules, store=store, **given)


def free_table() -> Table:
    """A ``Table`` of no live table (the shipped rules): for what no table's rules change,
    such as the list of random tables."""
    return Table()


@dataclass(frozen=True)
class Reading:
    """A read of one table: its row, the open connection, and the ``Table`` to ask the engine
    (nothing is written: an odds preview or a check of a sheet changes nothing)."""

    connection: Connection
    head: TableHead
    table: Table

    @property
    def store(self) -> Store:
        return self.table.store


@dataclass(frozen=True)
class TableSession:
    """One seat at one table, in this server: everything a route or a page does to the table."""

    world: World
    seat: Seat
    #: The key the request was sent with (a page's change): its actions are safe to retry.
    retry: RetryKey | None = None

    @property
    def table_id(self) -> str:
        return self.seat.table_id

    @property
    def narrator(self) -> bool:
        return self.seat.narrator

    @contextlib.contextmanager
    def reading(self) -> Iterator[Reading]:
        """A read transaction on the table, with its ``Table`` and its rules library in force
        (so what the engine reads outside an action, such as a fight replayed for the tracker,
        uses the table's house rules); 404 if the table is gone."""
        with self.world.database.read() as connection:
            head = read_table(connection, self.table_id)
            table = table_context(head, SqlStore(connection, self.table_id))
            with table.library.in_force():
                yield Reading(connection, head, table)

    def head(self) -> TableHead:
        """The table's row as it is now."""
        with self.world.database.read() as connection:
            return read_table(connection, self.table_id)

    def ask(self, action: str, args: Mapping[str, Any]) -> Played[Any]:
        """The engine's answer to ``action`` asked by this seat on a read of the table: no event,
        no change (played as a read: its store refuses saves, its dice rolls). The whole
        answer: what the seat may see of it is :meth:`answer`'s."""
        return self._ask(action, args)[0]

    def answer(self, action: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """The read ``action`` asked by this seat (the API's ``POST /actions``): the action, and
        its result as this seat may see it (a fight's secret steps only counted, for a player
        or an observer: :mod:`.combat_views`). No event. Call from a thread."""
        try:
            played, seen = self._ask(action, args)
        except TaletableError as error:
            raise ActionError(error, "args") from None
        answer: dict[str, Any] = {"action": action, "result": played.to_data()}
        if seen is not None:
            answer["result"] = seen.encounter
            answer["secret_steps"] = seen.secret_steps
        return answer

    @counted("read")
    def _ask(self, action: str, args: Mapping[str, Any]) -> tuple[Played[Any], SeenFight | None]:
        args = dict(args)
        may_take(self.seat, action)
        with self.reading() as reading:
            check_action(reading.connection, reading.head, self.seat, action, args)
            played = perform(action, args, reading.table, read_only=True)
            if action not in FIGHT_READS:
                return played, None
            key = encounter_key(args)
            seen = seen_fight(reading.connection, self.table_id, self.seat, key, played.to_data())
        if seen.encounter is None:
            raise ApiError(
                "args.file", f"nothing of the fight {key!r} has been shown to the table yet"
            )
        return played, seen

    def act(self, action: str, args: Mapping[str, Any], visibility: str = "public") -> LogEntry:
        """Take ``action`` as this seat with the scene's dice; append and return its whole entry
        (one transaction); a retry under the request's key: the first's. Call from a thread."""
        return read_entry(self._write(action, args, visibility, self.retry, publish=True).event)

    async def act_on_loop(
        self, action: str, args: Mapping[str, Any], visibility: str = "public",
        retry: RetryKey | None = None,
    ) -> Taken:  # fmt: skip
        """:meth:`act` from the event loop: the API's writers of the table take turns on the
        loop, the transaction runs in a thread, and its row goes to this worker's streams from
        the loop; the action taken (under ``retry``'s key, a retry is its first taking)."""
        async with self.world.write_lock(self.table_id):
            taken = await self.world.in_writer(
                self._write, action, args, visibility, retry, publish=False
            )
        if taken.rows:
            self.world.hub.publish(self.table_id, taken.rows)
        return taken

    @counted("taken")
    def _write(
        self, action: str, args: Mapping[str, Any], visibility: str, retry: RetryKey | None,
        *, publish: bool,
    ) -> Taken:  # fmt: skip
        args = dict(args)
        may_take(self.seat, action)
        world, slot = self.world, retry.next_slot() if retry else ""
        with table_write(world.database, world.hub, self.table_id, publish=publish) as writer:
            if retry is not None:  # after the lock: a retry racing the first waits for it
                first = first_answer(writer.connection, self.table_id, self.seat.id, slot, retry)
                if first is not None:
                    return first
            entered = check_action(writer.connection, writer.head, self.seat, action, args)
            visibility, audience = chat_visibility(writer.connection, self.table_id, action,
                                                   args, visibility)  # fmt: skip
            follow = followed(writer.connection, self.table_id, self.seat, action, args)
            shown = self._shown(writer.connection, action, args, follow.visibility or visibility)
            dice, hidden = self._dice(writer, shown != "public")
            store = RecordingStore(SqlStore(writer.connection, self.table_id))
            table = table_context(writer.head, store, dice=dice)
            try:
                played = perform(action, follow.args, table)
            except TaletableError as error:
                raise ActionError(error, "args") from None
            content = {
                "action": action,
                "args": args,
                "result": played.to_data(),
                "dice": dice.rolled,
                **hidden,
                "entered": entered,
                "changes": [change.to_data() for change in played.events],
                "saves": store.saves,
            }
            if follow.seq is not None:
                content[FOLLOWS] = follow.seq
            event = writer.append(
                action, content, actor=self.seat.id, visibility=shown, audience=audience
            )
            taken = Taken(event, writer.rows, self.shown_row(writer.rows[-1]))
            if retry is not None:
                remember(writer.connection, self.table_id, self.seat.id, slot, retry, taken)
        return taken

    def _dice(self, writer: Writer, hidden: bool) -> tuple[LedgerDice, dict[str, Any]]:
        """The dice of the action ``writer`` is about to log (:func:`.seeds.action_dice`)."""
        seed = self.world.scene_seed(writer.connection, self.table_id, writer.head.scene)
        return action_dice(writer.connection, writer.head, seed, self.seat.id, hidden)

    def _shown(
        self, connection: Connection, action: str, args: Mapping[str, Any], visibility: str
    ) -> str:
        """The visibility the event is written with: a strike's is the struck entry's, and a
        public step that would reveal the narrator's secret steps is the narrator's (read
        before the step saves)."""
        shown = strike_visibility(connection, self.table_id, action, args, visibility)
        if shown == "public" and hides_a_secret(connection, self.seat, action, args):
            shown = "narrator"
        return shown

    def shown_row(self, row: Row) -> str:
        """The JSON this seat may see of an event it just caused, as stored: whole for the
        narrator, for a public event and for its own whisper, otherwise its stub."""
        return seen_by(row, self.seat.id, self.narrator) or row.stub


SessionDep = Annotated[TableSession, Depends(api_session)]
PlayerSession = Annotated[TableSession, Depends(_player_session)]
NarratorSession = Annotated[TableSession, Depends(_narrator_session)]
PageSession = Annotated[TableSession, Depends(_page_session)]
PageSessionOrJoin = Annotated[TableSession, Depends(_page_session_or_join)]
