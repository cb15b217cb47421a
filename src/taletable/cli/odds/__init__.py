"""`taletable odds ...` and `taletable cheatsheet ...`: exact odds before the dice are thrown.

One module a family: :mod:`.cogent` (checks, conflicts, assists, collaborations, duels),
:mod:`.systems` (boons, labcats) and :mod:`.cheatsheet`.
"""

from __future__ import annotations

import click

from taletable.cli.odds.cheatsheet import cheatsheet
from taletable.cli.odds.cogent import odds_cogent
from taletable.cli.odds.systems import odds_boons, odds_labcats

__all__ = ["cheatsheet", "odds"]


@click.group()
def odds() -> None:
    """Exact odds of any mechanic, before the dice are thrown."""


for _command in (odds_cogent, odds_boons, odds_labcats):
    odds.add_command(_command)
