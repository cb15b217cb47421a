"""`taletable boons ...`: the boons system's commands."""

from __future__ import annotations

import click

__all__ = ["boons"]


@click.group()
def boons() -> None:
    """The 3d8 boons-and-banes system."""
