"""`taletable cogent combat condition` and `destiny`: the narrator's states between rounds, and
destiny spent after a roll (002 > Circumstantial Modifiers; Destiny Points)."""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.common import ask, emit, json_option, say, table_for
from taletable.cli.options import request_options
from taletable.explain import Note
from taletable.play.combat import (
    CombatConditionRequest,
    CombatDestinyRequest,
    combat_condition,
    combat_destiny,
)

__all__ = ["condition_command", "destiny_command"]


def _print_from(lines: tuple[Note, ...], start: int) -> None:
    say(lines[start:])


@click.command("condition")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(CombatConditionRequest, skip=("encounter",), flags={"condition": "--set"})
@json_option
def condition_command(file: str, as_json: bool, **fields: Any) -> None:
    """Set or end a fighter's state between rounds, before anyone declares."""
    request = ask(CombatConditionRequest, file=file, **fields)
    played = combat_condition(request, table_for(sealed=True))
    encounter = played.result
    emit(encounter, as_json, lambda: _print_from(encounter.log, played.events[0].data["log_from"]))


@click.command("destiny")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(CombatDestinyRequest, skip=("encounter",))
@json_option
def destiny_command(file: str, as_json: bool, **fields: Any) -> None:
    """Spend destiny right after a roll, before any outcome: a win each (002 > Destiny Points)."""
    request = ask(CombatDestinyRequest, file=file, **fields)
    played = combat_destiny(request, table_for(sealed=True))
    encounter = played.result
    emit(encounter, as_json, lambda: _print_from(encounter.log, played.events[0].data["log_from"]))
