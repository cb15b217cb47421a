"""Command groups whose subcommands are imported only when they are named.

A table-side CLI should answer at once: ``taletable cogent check`` need not load the combat
engine, the bestiary or the odds tables. Each group maps its command names to the module that
defines them. A group given each command's summary (the first paragraph of its help) lists
them in its help without importing them, as click would word it; otherwise asking for help
imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from gettext import gettext as _
from typing import Any

import click

__all__ = ["LazyGroup"]


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module the first time the command is named.

    ``lazy`` maps a command name to ``"module:attribute"`` (the command object itself) or to
    ``"module"`` (a module whose ``register(group)`` adds its commands to the group).
    ``summaries`` maps a command name to the first paragraph of its help, which the group's
    help shows for a command not loaded yet (``tests/test_lazy_commands.py`` holds them equal).
    """

    def __init__(
        self,
        *args: Any,
        lazy: Mapping[str, str],
        summaries: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)
        self.summaries = dict(summaries or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, loaded or not, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, importing its module on first use."""
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def listed(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command as the group's help lists it: itself when loaded, else a stand-in
        holding its summary when there is one (nothing imported), else the command loaded."""
        if cmd_name not in self.commands and cmd_name in self.summaries:
            return click.Command(cmd_name, help=self.summaries[cmd_name])
        return self.get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, as ``click.Group`` writes them, each read from
        :meth:`listed`."""
        commands = [
            (name, command)
            for name in self.list_commands(ctx)
            if (command := self.listed(ctx, name)) is not None and not command.hidden
        ]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _command in commands)
            rows = [(name, command.get_short_help_str(limit)) for name, command in commands]
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)

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
