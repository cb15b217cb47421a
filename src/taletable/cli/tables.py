"""`taletable table ...`: random tables as data, and one roller."""

from __future__ import annotations

import click

__all__ = ["table"]


@click.group()
def table() -> None:
    """Random tables: list them, roll on them."""
