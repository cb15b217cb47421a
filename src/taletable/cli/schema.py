"""`taletable schema ...`: JSON Schemas of the files taletable reads."""

from __future__ import annotations

import json

import click

from taletable.systems.cogent.character import character_schema

__all__ = ["schema"]


@click.group()
def schema() -> None:
    """Print the JSON Schema of a file format (for editors and validators)."""


@schema.command("character")
@click.option(
    "--edition",
    type=click.Choice(["core", "tiered"]),
    default=None,
    help="Only this edition's sheet (default: either, chosen by the `edition` field).",
)
def character(edition: str | None) -> None:
    """The JSON Schema of a Cogent character file."""
    click.echo(json.dumps(character_schema(edition), indent=2))
