"""`taletable odds ...` and `taletable cheatsheet ...`: exact odds before the dice are thrown.

One module a family: :mod:`.cogent` (checks, conflicts, assists, collaborations, duels,
fights), :mod:`.systems` (boons, labcats) and :mod:`.cheatsheet`; each is imported when first
named.
"""

from __future__ import annotations

import click

from taletable.cli.lazy import LazyGroup

__all__ = ["COMMANDS", "odds"]

#: Each `taletable odds` command and where it is defined.
COMMANDS = {
    "cogent": "taletable.cli.odds.cogent:odds_cogent",
    "boons": "taletable.cli.odds.systems:odds_boons",
    "labcats": "taletable.cli.odds.systems:odds_labcats",
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
def odds() -> None:
    """Exact odds of any mechanic, before the dice are thrown."""
