"""`taletable verify EXPORT.json`: check a live table's export without the server."""

from __future__ import annotations

from typing import Any

import click

from taletable.errors import InputError
from taletable.files import check_regular_file, shown_path
from taletable.ledger import EXPORT_FORMAT, ExportFile, LimitExceeded
from taletable.ledger.seats import SEAT_SEED_TEXT, is_seat_seed

__all__ = ["verify"]


def _seat_seeds(_context: Any, _parameter: Any, given: tuple[str, ...]) -> tuple[str, ...]:
    for seed in given:
        if not is_seat_seed(seed):
            raise click.BadParameter(SEAT_SEED_TEXT)
    return given


def _export_file(export: str) -> ExportFile:
    """The export, read as a stream (:mod:`taletable.ledger.export_file`), its header checked."""
    expected = f"a JSON file of format {EXPORT_FORMAT} (what a live table exports)"
    check_regular_file(export)
    try:
        document = ExportFile(export)
    except LimitExceeded as limit:
        raise InputError("EXPORT", f"{shown_path(export)}: {limit}") from None
    except OSError as error:
        raise InputError("EXPORT", f"{shown_path(export)}: {error.strerror or error}") from None
    except ValueError as error:
        raise InputError("EXPORT", f"{shown_path(export)} is not a taletable export ({error})",
                         expected=expected) from None  # fmt: skip
    if document.header.get("format") != EXPORT_FORMAT:
        raise InputError("EXPORT", f"{shown_path(export)} is not a taletable export",
                         expected=expected)  # fmt: skip
    return document


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

    document = _export_file(export)
    checked = verify_table(document, own_seeds=seat_seeds)
    if checked.ok:
        click.echo(f"{export}: {checked.summary()}")
        return
    click.echo(f"taletable: verify: {export}: {checked.summary()}", err=True)
    raise click.exceptions.Exit(1)
