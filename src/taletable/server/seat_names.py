"""A name already seated: a join under it may be that person coming back (issue 34.6), so the
join page asks rather than making a second seat of the same name by accident."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from taletable.names import fold
from taletable.server.errors import Conflict
from taletable.server.schema import SEATS

__all__ = ["NAME_SEATED", "name_not_seated"]

#: What a join under a name already seated is answered with (nothing is made).
NAME_SEATED = (
    "{name} already has a seat at this table. If you are {name} coming back, take your seat "
    "back with the recovery code you were shown when you joined (the narrator: when the table "
    "was made); if you are someone else, join under another name"
)


def name_not_seated(connection: Any, table_id: str, name: str) -> None:
    """409 ``name`` when a seat of ``table_id`` has ``name`` (folded), with its role."""
    seats = connection.execute(
        select(SEATS.c.name, SEATS.c.role).where(SEATS.c.table_id == table_id)
    ).all()
    for row in seats:
        if fold(row.name) == fold(name):
            raise Conflict("name", NAME_SEATED.format(name=row.name), seated=row.name,
                           role=row.role)  # fmt: skip
