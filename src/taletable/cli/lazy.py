"""Command groups whose subcommands are imported only when they are named.

A table-side CLI should answer at once: ``taletable cogent check`` need not load the combat
engine, the bestiary or the odds tables. Each group maps its command names to the module that
defines them; asking for help lists them all (and so imports them all).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import click

__all__ = ["LazyGroup"]


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module the first time the command is named.

    ``lazy`` maps a command name to ``"module:attribute"`` (the command object itself) or to
    ``"module"`` (a module whose ``register(group)`` adds its commands to the group).
    """

    def __init__(self, *args: Any, lazy: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, loaded or not, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, importing its module on first use."""
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def load(self, name: str) -> None:
        """Import the module behind ``name`` and add its command(s) to this group."""
        module_name, _, attribute = self.lazy[name].partition(":")
        module = importlib.import_module(module_name)
        if attribute:
            command = getattr(module, attribute)
            self.add_command(command, name)
        else:
            module.register(self)
        if name not in self.commands:  # pragma: no cover - a broken map is a programming error
            raise LookupError(f"{self.lazy[name]} does not define the command {name!r}")
