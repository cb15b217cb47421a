"""`taletable odds ...` and `taletable cheatsheet ...`: exact odds before the dice are thrown."""

from __future__ import annotations

import click

__all__ = ["cheatsheet", "odds"]


@click.group()
def odds() -> None:
    """Exact odds of any mechanic, before the dice are thrown."""


@click.group()
def cheatsheet() -> None:
    """Success-chance tables for setting challenge levels."""
