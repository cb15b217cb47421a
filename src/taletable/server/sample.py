"""``taletable serve --sample``: a sample table ready to play, and the links to sit at it.

The first time, it makes the table "Sample table" (Cogent, core) and adds the sample characters
of both editions (``examples/characters``: a sheet of the other edition rolls by its own
edition's rules). The database keeps only hashes of tokens and join codes, so each run gives
the sample table's narrator seat a fresh token and the table a fresh join code, and prints
them: the links printed last are the ones that work.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from sqlalchemy import select

from taletable.server.auth import Seat, hash_secret, new_secret
from taletable.server.codes import normal
from taletable.server.db import Database
from taletable.server.routes.characters import add_character
from taletable.server.routes.tables import NewTable, new_table, unused_join_code
from taletable.server.schema import SEATS, TABLES
from taletable.server.session import TableSession
from taletable.server.world import make_world

__all__ = ["SAMPLE_NAME", "sample_sheets", "seat_sample"]

SAMPLE_NAME = "Sample table"


def sample_sheets() -> list[Path]:
    """The sample sheets: ``examples/characters`` here, else beside the source checkout."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        folder = root / "examples" / "characters"
        if folder.is_dir():
            return sorted(folder.glob("*.yaml"))
    return []


def _make(database: Database) -> tuple[str, list[str]]:
    made = new_table(database, NewTable(name=SAMPLE_NAME, system="cogent", edition="core"))
    with database.read() as connection:
        narrator = connection.execute(
            select(SEATS.c.id).where((SEATS.c.table_id == made.id) & (SEATS.c.role == "narrator"))
        ).scalar_one()
    seat = Seat(id=narrator, table_id=made.id, name="narrator", role="narrator")
    session = TableSession(make_world(database), seat)
    added = []
    for path in sample_sheets():
        sheet = yaml.safe_load(path.read_text(encoding="utf-8"))
        add_character(session, sheet)
        added.append(str(sheet.get("identity", {}).get("name", path.stem)))
    return made.id, added


def seat_sample(url: str) -> tuple[str, str, str, list[str]]:
    """Make the sample table if there is none; return its id, a fresh narrator token, a fresh
    join code, and the characters added now (empty when the table was already there)."""
    database = Database(url)
    try:
        with database.read() as connection:
            found = connection.execute(
                select(TABLES.c.id).where(TABLES.c.name == SAMPLE_NAME).order_by(TABLES.c.id)
            ).first()
        table_id, added = (found.id, []) if found is not None else _make(database)
        token = new_secret()
        with database.write() as connection:
            code = unused_join_code(connection)
            connection.execute(
                SEATS.update()
                .where((SEATS.c.table_id == table_id) & (SEATS.c.role == "narrator"))
                .values(token_hash=hash_secret(token))
            )
            connection.execute(
                TABLES.update()
                .where(TABLES.c.id == table_id)
                .values(join_code_hash=hash_secret(normal(code)))
            )
        return table_id, token, code, added
    finally:
        database.dispose()
