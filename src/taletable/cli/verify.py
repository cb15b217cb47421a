"""`taletable verify EXPORT.json`: check a live table's export without the server."""

from __future__ import annotations

import re
from typing import Any

import click

from taletable.errors import InputError
from taletable.files import read_json, shown_path
from taletable.ledger import EXPORT_FORMAT

__all__ = ["verify"]


_SEED = re.compile(r"^[0-9a-f]{64}$")


def _seat_seeds(_context: Any, _parameter: Any, given: tuple[str, ...]) -> tuple[str, ...]:
    for seed in given:
        if not _SEED.match(seed):
            raise click.BadParameter(
                "a seat's seed is 64 lower-case hex digits, as the seat's client made it"
            )
    return given


@click.command("verify")
@click.argument("export", type=click.Path(dir_okay=False))
@click.option(
    "--seat-seed",
    "seat_seeds",
    multiple=True,
    callback=_seat_seeds,
    help="A seed your client gave for a scene (64 hex digits; repeat for each scene): the "
    "log must have committed to and revealed it, so no one drew your dice with another.",
)
def verify(export: str, seat_seeds: tuple[str, ...] = ()) -> None:
    """Check an export: the hash chain, each revealed seed against its commitment, every die
    of every closed scene re-derived from its seed (a hidden roll's from its own secret too),
    the table's settings against those it opened with, and every action replayed from its
    request and dice to the result recorded. Exit 0 when all hold, 1 naming the first
    sequence number that fails."""
    from taletable.audit import verify_table

    document = read_json(export)
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InputError(
            "EXPORT",
            f"{shown_path(export)} is not a taletable export",
            expected=f"a JSON file of format {EXPORT_FORMAT} (what a live table exports)",
        )
    checked = verify_table(document, own_seeds=seat_seeds)
    if checked.ok:
        click.echo(f"{export}: {checked.summary()}")
        return
    click.echo(f"taletable: verify: {export}: {checked.summary()}", err=True)
    raise click.exceptions.Exit(1)
