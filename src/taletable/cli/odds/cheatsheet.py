"""`taletable cheatsheet cogent`: success-chance tables for setting challenge levels."""

from __future__ import annotations

import click
import numpy as np
from rich.table import Table

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.errors import InputError
from taletable.files import atomic_write_bytes, atomic_write_text
from taletable.play.odds_systems import CheatsheetRequest, odds_cheatsheet
from taletable.systems.cogent.odds import cheatsheet_text
from taletable.systems.cogent.odds.heatmap import cheatsheet_png

__all__ = ["cheatsheet"]


@click.group()
def cheatsheet() -> None:
    """Success-chance tables for setting challenge levels."""


@cheatsheet.command("cogent")
@click.option("--max-pool", type=int, default=40, show_default=True, help="Largest pool.")
@click.option("--max-cl", type=int, default=20, show_default=True, help="Highest CL.")
@click.option(
    "--win-on", type=click.Choice(["3", "4", "5", "all"]), default="all", help="Win threshold(s)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json", "md", "png"]), default="table"
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Write to this file (needed for png; a table is written as CSV).",
)
@json_option
def cheatsheet_cogent(
    max_pool: int, max_cl: int, win_on: str, fmt: str, out: str | None, as_json: bool
) -> None:
    """P(pass) for pools 1..max-pool against CL 0..max-cl (000 > Narrator Declares the CL);
    --json prints the exact record a live table's cheatsheet.cogent gives."""
    if as_json:
        if fmt != "table" or out is not None:
            raise InputError("--json", "prints the record, not a file or a format",
                             expected="--json without --format and --out")  # fmt: skip
        request = ask(CheatsheetRequest, max_pool=max_pool, max_cl=max_cl, win_on=win_on)
        emit(odds_cheatsheet(request, table_for()).result, True, lambda: None)
        return
    pictures = fmt == "png" or (fmt == "table" and not out)  # floats: the NumPy path
    if fmt == "png" and out is None:
        raise InputError("--out", "a PNG needs a file", expected="--out cheatsheet.png")
    request = ask(CheatsheetRequest, max_pool=max_pool, max_cl=max_cl, win_on=win_on,
                  exact=not pictures)  # fmt: skip
    sheet = odds_cheatsheet(request, table_for()).result
    if sheet.floats is not None:
        floats = {win_on: np.array(rows) for win_on, rows in sheet.floats.items()}
        if out is not None:
            atomic_write_bytes(out, cheatsheet_png(floats))
            return
        for win_on_value, rows in floats.items():
            table = Table("pool", *(f"CL{c}" for c in range(max_cl + 1)))
            table.title = f"wins on {win_on_value}-6 (percent)"
            for pool, row in enumerate(rows, start=1):
                table.add_row(str(pool), *(f"{p * 100:.0f}" for p in row))
            console.print(table)
        return
    assert sheet.exact is not None
    exact = {win_on: [list(row) for row in rows] for win_on, rows in sheet.exact.items()}
    text = cheatsheet_text(exact, fmt)
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(text, nl=False)
