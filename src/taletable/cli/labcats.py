"""`taletable labcats ...`: the labcats system's commands."""

from __future__ import annotations

import click

__all__ = ["labcats"]


@click.group()
def labcats() -> None:
    """The Cortex-style pool system (labcats)."""
