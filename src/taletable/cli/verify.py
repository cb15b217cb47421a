"""`taletable verify EXPORT.json`: check a live table's export without the server."""

from __future__ import annotations

import json

import click

from taletable.errors import InputError
from taletable.ledger import verify_export

__all__ = ["verify"]


@click.command("verify")
@click.argument("export", type=click.Path(dir_okay=False))
def verify(export: str) -> None:
    """Check an export: the hash chain, each revealed seed against its commitment, and every
    die of every closed scene re-derived from its seed. Exit 0 when all hold, 1 naming the
    first sequence number that fails."""
    try:
        with open(export, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as error:
        raise InputError("EXPORT", f"{export}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputError("EXPORT", f"{export} is not JSON: {error}") from None
    if not isinstance(document, dict):
        raise InputError("EXPORT", f"{export} holds no export (a JSON object)")
    checked = verify_export(document)
    if checked.ok:
        click.echo(f"{export}: {checked.summary()}")
        return
    click.echo(f"taletable: verify: {export}: {checked.summary()}", err=True)
    raise click.exceptions.Exit(1)
