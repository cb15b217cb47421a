"""Random tables as data: list the tables in force, roll on one (and on its follow-ups).

A narrator's own folder of tables is read by a loader (:func:`narrator_tables`) in the shell;
the request carries the loaded :class:`~taletable.tables.TableLibrary`, or none for the
shipped tables (002 > Supplementary Content; Character Creation).
"""

from __future__ import annotations

from pydantic import Field

from taletable._model import Record
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request
from taletable.systems.cogent.narrator import narrator_tables
from taletable.tables import TableLibrary, TableRoll, roll_table
from taletable.tables.odds import entry_chances

__all__ = [
    "EntryOdds",
    "TableListRequest",
    "TableListing",
    "TableOdds",
    "TableOddsRequest",
    "TableRollRequest",
    "TableRow",
    "table_list",
    "table_odds",
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


@action("table.list", TableListRequest, reads=True)
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


class TableOddsRequest(Request):
    """A table to give the odds of, with a modifier added to its roll."""

    name: str
    modifier: int = 0
    tables: TableLibrary | None = None


class EntryOdds(Record):
    """One entry's exact chance, as a fraction (``chance``) and in percent."""

    result: str
    entry_range: str
    numerator: int
    denominator: int
    printed_percent: float | None
    chance: str
    percent: float


class TableOdds(Record):
    """The exact chance of each entry of a table (002 > Supplementary Content)."""

    table: str
    title: str = Field(default="", exclude=True)
    die: str = Field(default="", exclude=True)
    modifier: int
    entries: tuple[EntryOdds, ...]


@action("table.odds", TableOddsRequest, reads=True)
def table_odds(request: TableOddsRequest, table: Table) -> Played[TableOdds]:
    """The exact chance of each entry, natural results and clamps included."""
    chosen = tables_in_force(request.tables).get(request.name)
    entries = tuple(
        EntryOdds(**chance.to_data(), chance=str(chance.chance), percent=chance.percent)
        for chance in entry_chances(chosen, modifier=request.modifier)
    )
    odds = TableOdds(
        table=chosen.name, title=chosen.title, die=str(chosen.die), modifier=request.modifier,
        entries=entries,
    )  # fmt: skip
    return Played(odds, (Event(kind="table.odds", data={"table": chosen.name}),))
