"""`taletable cogent combat condition` and `destiny`: the narrator's states between rounds, and
destiny spent after a roll (002 > Circumstantial Modifiers; Destiny Points)."""

from __future__ import annotations

import click

from taletable.cli.common import ask, emit, json_option, say, table_for
from taletable.explain import Note
from taletable.play.combat import (
    CombatConditionRequest,
    CombatDestinyRequest,
    combat_condition,
    combat_destiny,
)
from taletable.systems.cogent.combat.narration import CLEARABLE, NARRATED

__all__ = ["condition_command", "destiny_command"]


def _print_from(lines: tuple[Note, ...], start: int) -> None:
    say(lines[start:])


@click.command("condition")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--fighter", required=True, help="The fighter's id.")
@click.option(
    "--set", "condition", help=f"A state to set: {', '.join(NARRATED)} (002 > Circumstantial "
    "Modifiers; sand in the face staggers)."
)  # fmt: skip
@click.option("--clear", help=f"A state to end: {', '.join(CLEARABLE)}.")
@click.option(
    "--rounds",
    type=click.IntRange(1, 500),
    help="Rounds it lasts, this one included (default: staggered and prone one round, tied up "
    "and asleep until cleared).",
)
@json_option
def condition_command(
    file: str,
    fighter: str,
    condition: str | None,
    clear: str | None,
    rounds: int | None,
    as_json: bool,
) -> None:
    """Set or end a fighter's state between rounds, before anyone declares."""
    request = ask(
        CombatConditionRequest, file=file, fighter=fighter, condition=condition, clear=clear,
        rounds=rounds,
    )  # fmt: skip
    played = combat_condition(request, table_for(sealed=True))
    encounter = played.result
    emit(encounter, as_json, lambda: _print_from(encounter.log, played.events[0].data["log_from"]))


@click.command("destiny")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--fighter", required=True, help="The fighter who spends.")
@click.option(
    "--points", type=click.IntRange(1, 50), default=1, show_default=True,
    help="Destiny points from its sheet, a win each.",
)  # fmt: skip
@json_option
def destiny_command(file: str, fighter: str, points: int, as_json: bool) -> None:
    """Spend destiny right after a roll, before any outcome: a win each (002 > Destiny Points)."""
    request = ask(CombatDestinyRequest, file=file, fighter=fighter, points=points)
    played = combat_destiny(request, table_for(sealed=True))
    encounter = played.result
    emit(encounter, as_json, lambda: _print_from(encounter.log, played.events[0].data["log_from"]))
