"""`taletable schema ...`: JSON Schemas of the files taletable reads."""

from __future__ import annotations

import click

__all__ = ["schema"]


@click.group()
def schema() -> None:
    """Print the JSON Schema of a file format (for editors and validators)."""
