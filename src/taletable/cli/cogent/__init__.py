"""`taletable cogent ...`: Cogent Roleplay, editions core and tiered.

Each concept registers its own commands from its own module.
"""

from __future__ import annotations

import click

from taletable.cli.cogent import characters, checks, combat, magic, narrator, npc

__all__ = ["cogent"]


@click.group()
def cogent() -> None:
    """Cogent Roleplay: checks, conflicts, characters, combat and the narrator's tools."""


for module in (checks, characters, combat, narrator, magic, npc):
    module.register(cogent)
