"""A table made from its export: checked whole, then written in one transaction.

The export is read as a stream (:class:`~taletable.ledger.ExportFile`) in passes, never held
whole: :func:`~taletable.audit.verify_table` (two passes: chain and seeds, then dice and every
result replayed), one pass that reads each entry and checks what the database will hold, and
the pass that writes, in one transaction, so an export that fails anywhere changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from sqlalchemy import Connection, select

from taletable.audit import verify_table
from taletable.ledger import CHAIN_TEXT, genesis_hash
from taletable.ledger.export_file import ExportSource, LimitExceeded
from taletable.log_entry import LogEntry, MalformedEntry, read_entry, stored_forms
from taletable.server.auth import hash_secret, new_id
from taletable.server.codes import RECOVERY_GROUPS, narrator_token, new_code, normal
from taletable.server.cookies import TABLE_ID_TEXT, is_table_id
from taletable.server.errors import ApiError, Conflict
from taletable.server.fields import NUL_MESSAGE, has_nul
from taletable.server.log import table_write
from taletable.server.routes.tables import MadeTable, unused_join_code
from taletable.server.schema import EVENTS, SCENES, SEATS, TABLES, THINGS
from taletable.server.seeds import open_scene
from taletable.server.table_rules import checked_house_rules, checked_rules
from taletable.server.visibility import VISIBILITIES
from taletable.server.world import World
from taletable.store.base import KINDS, Versioned

__all__ = ["import_export"]

#: Events written at a time.
BATCH = 1000


def import_export(world: World, source: ExportSource) -> MadeTable:
    """Make a table from an export that verifies whole (``taletable verify``: the chain, the
    dice, the settings it opened with, every result replayed), its state rebuilt from the log;
    an :class:`~taletable.server.errors.ApiError` naming the field otherwise, nothing made."""
    try:
        checked = verify_table(source)
    except LimitExceeded as limit:
        raise ApiError("body", f"the export is past a limit: {limit}") from None
    if not checked.ok:
        where = f"events.{checked.failed_seq}" if checked.failed_seq else "table"
        raise ApiError(where, f"the export does not verify: {checked.summary()}")
    if checked.hidden:
        seq = next(entry.seq for _event, entry in _entries(source) if entry.hidden)
        raise ApiError(
            f"events.{seq}",
            f"event {seq} is hidden: a seat's view of a table cannot rebuild it "
            "(import the narrator's export)",
        )
    if checked.waiting:
        seq = checked.waiting[0]
        raise ApiError(
            f"events.{seq}",
            f"event {seq} rolled in a scene still open, whose seed is secret: its dice cannot "
            "be checked yet (close the scene, then export and import)",
        )
    table = _table_of(source.header)
    outline = _outline(source)
    recovery = new_code(RECOVERY_GROUPS)
    token = narrator_token(recovery)
    with world.database.write() as connection:
        if connection.execute(select(TABLES.c.id).where(TABLES.c.id == table["id"])).first():
            raise Conflict("table.id", f"a table {table['id']!r} is here already")
        code = unused_join_code(connection)
        _insert(connection, table, outline, source, hash_secret(normal(code)))
        connection.execute(
            TABLES.update()
            .where(TABLES.c.id == table["id"])
            .values(recovery_hash=hash_secret(normal(recovery)))
        )
        connection.execute(
            SEATS.insert().values(
                id=new_id(),
                table_id=table["id"],
                name="narrator",
                role="narrator",
                token_hash=hash_secret(token),
            )
        )
    with table_write(world.database, world.hub, table["id"]) as writer:
        open_scene(writer, writer.head.scene + 1)
    return MadeTable(id=table["id"], narrator_token=token, join_code=code, recovery_code=recovery)


def _table_of(header: Mapping[str, Any]) -> dict[str, Any]:
    table = dict(header["table"])
    system = table.get("system")
    if system not in ("cogent", "boons", "labcats"):
        raise ApiError("table.system", f"{system!r} is not a system this server plays")
    name = table.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 200 or has_nul(name):
        raise ApiError("table.name", f"a table's name is 1 to 200 characters and {NUL_MESSAGE}")
    if not isinstance(table.get("id"), str) or not is_table_id(table["id"]):
        raise ApiError("table.id", f"a table's id is {TABLE_ID_TEXT}")
    rules, house_rules = table.get("rules") or {}, table.get("house_rules") or {}
    if not isinstance(rules, dict) or not isinstance(house_rules, dict):
        raise ApiError("table.rules", "rule options and house rules are mappings")
    edition = table.get("edition")
    return {**table, "rules": checked_rules(system, edition, rules),
            "house_rules": checked_house_rules(system, house_rules)}  # fmt: skip


@dataclass
class _Outline:
    """What the table's row and scenes need of the whole log: its last entry, its chain, the
    scenes opened and the seeds revealed."""

    last: LogEntry | None = None
    chain: int = CHAIN_TEXT
    opened: dict[int, str] = field(default_factory=dict)
    revealed: dict[int, str] = field(default_factory=dict)


def _entries(source: ExportSource) -> Iterator[tuple[Mapping[str, Any], LogEntry]]:
    """Each event with its entry (422 naming ``events.SEQ`` for one that is not an entry)."""
    for event in source.events():
        try:
            yield event, read_entry(event)
        except MalformedEntry as malformed:
            raise ApiError(f"events.{malformed.seq}", f"not a log entry: {malformed}") from None


def _outline(source: ExportSource) -> _Outline:
    """One pass: each entry checked as the database will hold it, and the log's outline."""
    outline = _Outline()
    for _event, entry in _entries(source):
        _check_entry(entry)
        if outline.last is None:
            outline.chain = entry.chain or CHAIN_TEXT
        if entry.kind == "scene.open" and entry.scene is not None:
            outline.opened[entry.scene] = str(entry.commitment)
        elif entry.kind == "scene.close" and entry.scene is not None:
            outline.revealed[entry.scene] = str(entry.seed)
        outline.last = entry
    return outline


def _check_entry(entry: LogEntry) -> None:
    seq = entry.seq
    if entry.visibility not in VISIBILITIES:
        raise ApiError(f"events.{seq}.visibility", f"one of {', '.join(VISIBILITIES)}")
    if not 1 <= len(entry.kind) <= 40 or has_nul(entry.kind):
        raise ApiError(f"events.{seq}.kind", "an event's kind is 1 to 40 characters, no NUL")
    actor = entry.actor
    if actor is not None and (len(actor) > 64 or has_nul(actor)):
        raise ApiError(f"events.{seq}.actor", "an actor is a seat's id, at most 64 characters")
    if entry.kind == "scene.open" and entry.scene is None:
        raise ApiError(f"events.{seq}.scene", "a scene is numbered")
    for save in entry.saves:
        if save.kind not in KINDS:
            raise ApiError(f"events.{seq}.saves", f"each save has a kind: {', '.join(KINDS)}")


def _insert(
    connection: Connection,
    table: dict[str, Any],
    outline: _Outline,
    source: ExportSource,
    code: str,
) -> None:
    last, table_id = outline.last, table["id"]
    connection.execute(
        TABLES.insert().values(
            id=table_id,
            name=table["name"],
            system=table["system"],
            edition=table.get("edition"),
            physical_dice=bool(table.get("physical_dice")),
            join_code_hash=code,
            created_at=str(table.get("created_at", "")),
            head_seq=last.seq if last else 0,
            head_hash=last.hash if last else genesis_hash(table_id),
            scene=max(outline.opened, default=0),
            rules=json.dumps(table["rules"]),
            house_rules=json.dumps(table["house_rules"]),
            chain=outline.chain,
        )
    )
    for scene, promised in outline.opened.items():  # an unrevealed seed stays unknown: that
        connection.execute(  # scene can roll no more
            SCENES.insert().values(
                table_id=table_id,
                number=scene,
                seed=outline.revealed.get(scene) or "00" * 32,
                commitment=promised,
                revealed=scene in outline.revealed,
            )
        )
    state: dict[tuple[str, str], Versioned] = {}
    entries = _entries(source)
    while batch := list(islice(entries, BATCH)):
        connection.execute(EVENTS.insert(), [_row(table_id, outline, *pair) for pair in batch])
        for _event, entry in batch:
            for save in entry.saves:
                state[(save.kind, save.key)] = Versioned(save.key, save.version, save.data)
    for (kind, key), thing in state.items():
        connection.execute(
            THINGS.insert().values(
                scope=table_id,
                kind=kind,
                key=key,
                version=thing.version,
                data=json.dumps(thing.data, sort_keys=True, separators=(",", ":")),
            )
        )


def _row(
    table_id: str, outline: _Outline, event: Mapping[str, Any], entry: LogEntry
) -> dict[str, Any]:
    stored, stub, hashed = stored_forms(dict(event), outline.chain)
    return {
        "table_id": table_id,
        "seq": entry.seq,
        "kind": entry.kind[:40],
        "actor": entry.actor,
        "visibility": entry.visibility,
        "event": stored,
        "stub": stub,
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
        "body_hash": hashed,
    }
