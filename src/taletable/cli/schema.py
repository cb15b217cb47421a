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
def character() -> None:
    """The JSON Schema of a Cogent character file (either edition, by its `edition` field)."""
    click.echo(json.dumps(character_schema(), indent=2))
