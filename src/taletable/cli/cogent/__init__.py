"""`taletable cogent ...`: Cogent Roleplay, editions core and tiered.

Each concept registers its own commands from its own module, imported when first named.
"""

from __future__ import annotations

import click

from taletable.cli.lazy import LazyGroup

__all__ = ["COMMAND_MODULES", "cogent"]

_PACKAGE = "taletable.cli.cogent"
_CHECKS = ("check", "destiny-roll", "challenge-levels")
_CONFLICTS = ("conflict", "assist", "collaborate", "powerless")
#: Each command of `taletable cogent` and the module whose ``register`` adds it.
COMMAND_MODULES = {
    **dict.fromkeys(_CHECKS, f"{_PACKAGE}.checks"),
    **dict.fromkeys(_CONFLICTS, f"{_PACKAGE}.conflicts"),
    "character": f"{_PACKAGE}.characters",
    "buy": f"{_PACKAGE}.characters",
    "combat": f"{_PACKAGE}.combat",
    "weather": f"{_PACKAGE}.narrator",
    "encounter": f"{_PACKAGE}.narrator",
    "cast": f"{_PACKAGE}.magic",
    "summon": f"{_PACKAGE}.magic",
    "npc": f"{_PACKAGE}.npc",
}


@click.group(cls=LazyGroup, lazy=COMMAND_MODULES)
def cogent() -> None:
    """Cogent Roleplay: checks, conflicts, characters, combat and the narrator's tools."""
