"""Random tables as data: list the tables in force, roll on one (and on its follow-ups).

A narrator's own folder of tables is read by a loader (:func:`narrator_tables`) in the shell;
the request carries the loaded :class:`~taletable.tables.TableLibrary`, or none for the
shipped tables (002 > Supplementary Content; Character Creation).
"""

from __future__ import annotations

from taletable._model import Record
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request
from taletable.systems.cogent.narrator import narrator_tables
from taletable.tables import TableLibrary, TableRoll, roll_table

__all__ = [
    "TableListRequest",
    "TableListing",
    "TableRollRequest",
    "TableRow",
    "table_list",
    "table_roll",
    "tables_in_force",
]


def tables_in_force(tables: TableLibrary | None) -> TableLibrary:
    """The tables a request brings, or the shipped ones."""
    return tables if tables is not None else narrator_tables()


class TableListRequest(Request):
    """The tables to list: a narrator's loaded library, or none for the shipped tables."""

    tables: TableLibrary | None = None


class TableRow(Record):
    """One table of a library: its name, die, title and where it comes from."""

    name: str
    die: str
    title: str
    origin: str


class TableListing(Record):
    """Every table there is, by name."""

    tables: tuple[TableRow, ...]


@action("table.list", TableListRequest)
def table_list(request: TableListRequest, table: Table) -> Played[TableListing]:
    """List the tables there are: name, die, title and where each comes from."""
    library = tables_in_force(request.tables)
    rows = tuple(
        TableRow(
            name=name,
            die=str(library.tables[name].die),
            title=library.tables[name].title,
            origin=library.origins[name],
        )
        for name in sorted(library.tables)
    )
    return Played(TableListing(tables=rows), ())


class TableRollRequest(Request):
    """A roll on the table called ``name``, with a modifier added to the roll."""

    name: str
    modifier: int = 0
    tables: TableLibrary | None = None
    faces: Faces = None


@action("table.roll", TableRollRequest)
def table_roll(request: TableRollRequest, table: Table) -> Played[TableRoll]:
    """Roll on a table, then on its follow-up tables (such as severity)."""
    library = tables_in_force(request.tables)
    chosen = library.get(request.name)
    source = dice_for(table, request.faces)
    result = roll_table(chosen, source, modifier=request.modifier, tables=library.tables)
    finish(source)
    return Played(result, (Event(kind="table.roll", data={"table": chosen.name}),))
