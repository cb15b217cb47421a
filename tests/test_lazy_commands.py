"""Subcommands load on first use: the maps are complete, the help lists them unloaded as it
would loaded, and a check loads no combat or d20."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click

from taletable.cli.cogent import COMMAND_MODULES
from taletable.cli.lazy import LazyGroup
from taletable.cli.main import COMMANDS, SUMMARIES, cli
from taletable.cli.odds import COMMANDS as ODDS_COMMANDS
from taletable.cli.odds.cogent import COMBAT_COMMANDS


def test_every_cogent_module_registers_exactly_the_mapped_commands() -> None:
    """Registering every module in a fresh group gives the lazy map's names, no more, no less."""
    group = click.Group("cogent")
    for module in sorted(set(COMMAND_MODULES.values())):
        importlib.import_module(module).register(group)
    assert set(group.commands) == set(COMMAND_MODULES)


def test_every_top_level_command_resolves() -> None:
    """Each ``module:attribute`` is a click command (its name as mapped, cheatsheet aside)."""
    for name, target in {**COMMANDS, **{f"odds {k}": v for k, v in ODDS_COMMANDS.items()}}.items():
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), name
        assert command.name in (name.split()[-1], f"odds_{name.split()[-1]}"), name


def test_every_combat_odds_command_resolves() -> None:
    """`odds cogent duel` and `fight`, loaded on first use, are the click commands of those
    names."""
    for name, target in COMBAT_COMMANDS.items():
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command) and command.name == name, name


def _commands_section(group: LazyGroup, width: int) -> str:
    context = click.Context(group, info_name="taletable", terminal_width=width)
    formatter = context.make_formatter()
    group.format_commands(context, formatter)
    return formatter.getvalue()


def test_the_help_lists_unloaded_commands_as_it_lists_them_loaded() -> None:
    """Each summary is its command's help as click shortens it: the commands' section of a
    group that imports nothing is the one of a group that imports them all, at every width."""
    assert set(SUMMARIES) == set(COMMANDS)
    for width in (30, 50, 80, 100, 120, 160, 250):
        unloaded = LazyGroup("taletable", lazy=COMMANDS, summaries=SUMMARIES)
        loaded = LazyGroup("taletable", lazy=COMMANDS)
        assert _commands_section(unloaded, width) == _commands_section(loaded, width), width
        assert unloaded.commands == {}  # listed from the summaries, nothing imported
    assert cli.summaries == SUMMARIES  # type: ignore[attr-defined]


def test_a_check_loads_neither_the_combat_engine_nor_the_notation_grammar() -> None:
    """`taletable cogent check` answers without importing combat, odds or d20 (startup time)."""
    probe = (
        "import sys; from taletable.cli.main import main; "
        "status = main(['cogent', 'check', '--pool', '3', '--cl', '1', '--seed', '1']); "
        "print(status, *(m in sys.modules for m in "
        "('d20', 'taletable.systems.cogent.combat', 'taletable.cli.odds', 'numpy')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "0 False False False False"
