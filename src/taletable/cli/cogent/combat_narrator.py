"""`taletable cogent combat condition`, `destiny` and `take-back`: the narrator's states between
rounds, destiny spent after a roll (002 > Circumstantial Modifiers; Destiny Points), and a
fight's last step taken back (RULINGS.md "undoing at the table")."""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.common import ask, console, emit, json_option, say, table_for
from taletable.cli.options import request_options
from taletable.explain import Note
from taletable.play.combat import (
    CombatConditionRequest,
    CombatDestinyRequest,
    CombatRequest,
    combat_condition,
    combat_destiny,
)
from taletable.play.undo import combat_take_back

__all__ = ["condition_command", "destiny_command", "end_command", "take_back_command"]


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


@click.command("take-back")
@click.argument("encounter", metavar="FILE", type=click.Path(dir_okay=False))
@json_option
def take_back_command(encounter: str, as_json: bool) -> None:
    """Take back the fight's last step: the encounter as its opening and the steps before it
    make it (destiny the step spent is given back to the sheet file it came off)."""
    played = combat_take_back(ask(CombatRequest, encounter=encounter), table_for(sealed=True))
    taken_back, taken = played.result, played.events[0].data

    def render() -> None:
        console.print(
            f"took back the last step ({taken['step']}): round {taken_back.round}, "
            f"{taken_back.phase}; {taken['steps']} step(s) left",
            markup=False,
        )

    emit(taken_back, as_json, render)


@click.command("end")
@click.argument("encounter", metavar="FILE", type=click.Path(dir_okay=False))
@json_option
def end_command(encounter: str, as_json: bool) -> None:
    """End the fight: each character's injuries and lasting states written onto its sheet file
    as a new revision; creatures and statblocks only reported (RULINGS.md "a fight's end")."""
    from taletable.play.combat_end import combat_end
    from taletable.systems.cogent.character.healing import INJURY_NAMES

    ended = combat_end(ask(CombatRequest, encounter=encounter), table_for(sealed=True)).result

    def render() -> None:
        say((ended.summary,))
        for fighter in ended.fighters:
            taken = [f"{INJURY_NAMES[i.level]} injury" for i in fighter.injuries]
            what = ", ".join([*taken, *fighter.conditions]) or "nothing lasting"
            where = f"written to {fighter.character}" if fighter.character else "reported only"
            if fighter.character and fighter.version is None:
                where = f"{fighter.character} unchanged"
            console.print(f"{fighter.name}: {what} ({where})", markup=False)

    emit(ended, as_json, render)
