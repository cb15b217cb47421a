"""`taletable table ...`: random tables as data, and one roller.

The shipped tables are Cogent's (002 > Supplementary Content, Character Creation); ``--tables
DIR`` adds a narrator's own folder of table files (a table there replaces a shipped one of the
same name).
"""

from __future__ import annotations

import click
from rich.markup import escape

from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    say_outcome,
    table_for,
)
from taletable.explain import render
from taletable.play.tables import TableListRequest, TableOddsRequest, TableRollRequest
from taletable.play.tables import table_list as play_table_list
from taletable.play.tables import table_odds as play_table_odds
from taletable.play.tables import table_roll as play_table_roll
from taletable.systems.cogent.narrator import narrator_tables
from taletable.tables import TableLibrary, TableRoll

__all__ = ["loaded_tables", "render_table_roll", "table", "tables_option"]

#: ``--tables DIR``, shared with `cogent weather` and `cogent encounter`.
tables_option = click.option(
    "--tables",
    "folder",
    type=click.Path(file_okay=False),
    default=None,
    help="A folder of your own table files (YAML/JSON); a table there replaces a shipped one.",
)


def loaded_tables(folder: str | None) -> TableLibrary | None:
    """The shipped tables with the ``--tables`` folder's, read by the loader; None without one."""
    return None if folder is None else narrator_tables(folder)


@click.group()
def table() -> None:
    """Random tables: list them, roll on them."""


@table.command("list")
@tables_option
@json_option
def table_list(folder: str | None, as_json: bool) -> None:
    """List the tables there are: name, die, title and where each comes from."""
    request = TableListRequest(tables=loaded_tables(folder))
    listing = play_table_list(request, table_for()).result

    def render() -> None:
        for row in listing.tables:
            console.print(f"[bold]{escape(row.name)}[/bold]  {row.die}  {escape(row.title)}")

    emit(listing, as_json, render)


@table.command("odds")
@click.argument("name")
@click.option("--modifier", type=int, default=0, show_default=True, help="Add to the roll.")
@tables_option
@json_option
def table_odds(name: str, modifier: int, folder: str | None, as_json: bool) -> None:
    """The exact chance of each entry, computed from the table file."""
    request = ask(TableOddsRequest, name=name, modifier=modifier, tables=loaded_tables(folder))
    odds = play_table_odds(request, table_for()).result

    def render() -> None:
        title = escape(odds.title)
        console.print(f"[bold]{title}[/bold] ({odds.die}, modifier {odds.modifier:+d})")
        for entry in odds.entries:
            console.print(
                f"  {entry.entry_range:>7}  {entry.result}: {entry.percent:.4g}%", markup=False
            )

    emit(odds, as_json, render)


@table.command("roll")
@click.argument("name")
@click.option("--modifier", type=int, default=0, show_default=True, help="Add to the roll.")
@tables_option
@dice_options
@json_option
def table_roll(
    name: str,
    modifier: int,
    folder: str | None,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Roll on table NAME, then on its follow-up tables (such as severity)."""
    request = ask(
        TableRollRequest, name=name, modifier=modifier, tables=loaded_tables(folder), faces=faces
    )
    result = play_table_roll(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: render_table_roll(result))


def render_table_roll(roll: TableRoll, indent: str = "", *, summary: bool = True) -> None:
    """Print a table roll and its follow-ups for people, then its summary (as the live
    table's log says it)."""
    faces = "+".join(str(face) for face in roll.faces)
    shown = faces if roll.modifier == 0 else f"{faces} {roll.modifier:+d} -> {roll.total}"
    title, result = escape(roll.title), escape(roll.result)
    console.print(f"{indent}{title} ({roll.die}: {shown}): [bold]{result}[/bold]")
    if roll.detail:
        console.print(f"{indent}  {roll.detail}", markup=False)
    for rule in roll.rules_applied:
        console.print(f"{indent}  [dim]{escape(render(rule))}[/dim]")
    for follow in roll.follow_ups:
        render_table_roll(follow, indent + "  ", summary=False)
    if summary and not indent:
        say_outcome(roll.summary)
