"""The live table's database schema (SQLAlchemy Core); Alembic migrations create it.

* ``tables``  a table: its system, edition, rule options and house rules (JSON), hashed join
  code (indexed: a table is found by its code), the hash of the narrator's recovery code
  (none for a table made before recovery codes), the head of its log
  (``head_seq``, ``head_hash``) and its open scene. Every write locks this row first, so a
  table's events are appended one at a time, gapless, whatever the number of workers.
* ``seats``   who sits at a table: narrator, player or observer, with the SHA-256 of the token.
* ``scenes``  each scene's secret seed and its published commitment.
* ``events``  the log: one row per event; ``event`` is the whole event as canonical JSON (what
  is hashed); ``stub`` is what a seat that may not see the event's result is given;
  ``body_hash`` (chain version 2) the hash of ``event``, given for a hidden entry. Indexed by
  kind too (``events_by_kind``): a page reads a table's fights or strikes by their kind.
* ``recipients``  the seats a whispered event is for (one row per seat; its sender and the
  narrator see it too, by the rule of :mod:`taletable.server.visibility`).
* ``things``  the SQL store's rows (:mod:`taletable.store.sql`): characters, encounters...
* ``server_keys``  keys the server keeps: ``cookie`` signs the pages' seat cookies.
* ``presence``  each open page stream (any worker's): its table, seat and last heartbeat.
* ``idempotency_keys``  each action taken under an ``Idempotency-Key``: the seat, the key, the
  request's fingerprint, the event it wrote and the answer given (:mod:`.retries`; kept 24 h).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, Text

from taletable.store.sql import METADATA, THINGS

__all__ = [
    "EVENTS",
    "METADATA",
    "PRESENCE",
    "RECIPIENTS",
    "RETRIES",
    "SCENES",
    "SEATS",
    "SERVER_KEYS",
    "TABLES",
    "THINGS",
]

TABLES = Table(
    "tables",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("system", String(16), nullable=False),
    Column("edition", String(16), nullable=True),
    Column("physical_dice", Boolean, nullable=False),
    Column("join_code_hash", String(64), nullable=False, index=True),
    Column("created_at", String(40), nullable=False),
    Column("head_seq", Integer, nullable=False),
    Column("head_hash", String(64), nullable=False),
    Column("scene", Integer, nullable=False),
    Column("rules", Text, nullable=False, server_default="{}"),
    Column("house_rules", Text, nullable=False, server_default="{}"),
    Column("recovery_hash", String(64), nullable=True, unique=True, index=True),
    #: The version of its log's chain (``taletable.ledger``): 2 for a table made now.
    Column("chain", Integer, nullable=False, server_default="1"),
)

SEATS = Table(
    "seats",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("table_id", String(64), ForeignKey("tables.id"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    Column("role", String(16), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    #: Chain version 2 (``taletable.ledger.seats``): how many rolls the seat has made (each
    #: action is its next), the scene its seed is fixed for, and that seed ("": none given).
    Column("rolls", Integer, nullable=False, server_default="0"),
    Column("seed_scene", Integer, nullable=True),
    Column("scene_seed", String(64), nullable=True),
)

SCENES = Table(
    "scenes",
    METADATA,
    Column("table_id", String(64), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("revealed", Boolean, nullable=False),
    #: Chain version 2: the scene's hidden seed (hidden rolls' secrets) and its commitment.
    Column("hidden_seed", String(64), nullable=True),
    Column("hidden_commitment", String(64), nullable=True),
)

EVENTS = Table(
    "events",
    METADATA,
    Column("table_id", String(64), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("actor", String(64), nullable=True),
    Column("visibility", String(16), nullable=False),
    Column("event", Text, nullable=False),
    Column("stub", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    #: The hash of ``event`` (chain version 2), which a seat's export gives for an entry it
    #: may not see, so the seat recomputes its link (None in a table of chain version 1).
    Column("body_hash", String(64), nullable=True),
)

#: The pages read the entries of a few kinds (a table's fights, characters, strikes) by it.
EVENTS_BY_KIND = Index("events_by_kind", EVENTS.c.table_id, EVENTS.c.kind, EVENTS.c.seq)

RECIPIENTS = Table(
    "recipients",
    METADATA,
    Column("table_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat_id", String(64), primary_key=True),
)

SERVER_KEYS = Table(
    "server_keys",
    METADATA,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

PRESENCE = Table(
    "presence",
    METADATA,
    Column("stream", String(32), primary_key=True),
    Column("table_id", String(64), nullable=False, index=True),
    Column("seat_id", String(64), nullable=False),
    Column("seen_at", Float, nullable=False),
)

RETRIES = Table(
    "idempotency_keys",
    METADATA,
    Column("table_id", String(64), primary_key=True),
    Column("seat_id", String(64), primary_key=True),
    #: The key as the client sent it (an action after the first of one request: ``KEY#N``).
    Column("key", String(140), primary_key=True),
    #: The SHA-256 of the request taken under the key (another request under it is refused).
    Column("fingerprint", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("status", Integer, nullable=False),
    #: The answer's body, as the seat was first answered (the API's JSON).
    Column("answer", Text, nullable=False),
    #: When the key was first used (seconds since the epoch): kept at least 24 hours.
    Column("made_at", Float, nullable=False, index=True),
)
