"""`taletable roll NOTATION`: everyday dice rolls in standard notation."""

from __future__ import annotations

import click

__all__ = ["roll"]


@click.command()
@click.argument("notation")
def roll(notation: str) -> None:
    """Roll dice in standard notation: d20, 3d8+5, 4d6kh3, 8d6>=4 (count successes)."""
    raise click.UsageError("dice notation is not built yet")
