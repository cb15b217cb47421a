"""Cogent combat commands."""

from __future__ import annotations

import click

__all__ = ["register"]


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
