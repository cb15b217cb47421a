"""`taletable cogent character raise|...`: changes in play, recorded in the sheet's history.

A thin shell (DESIGN > Principles 1): load the sheet, call the engine, save, print the history
line the engine wrote.
"""

from __future__ import annotations

import click

from taletable.cli.common import console, emit, json_option
from taletable.systems.cogent.character import load_character, save_character
from taletable.systems.cogent.character.awards import gain_commerce, raise_attribute
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter

__all__ = ["register_awards"]

Sheet = CoreCharacter | TieredCharacter


def _save_and_report(updated: Sheet, path: str, as_json: bool) -> None:
    save_character(updated, path)
    last = updated.history[-1]
    emit(last.to_data(), as_json, lambda: console.print(f"{last.event}: {last.detail}"))


@click.command("raise")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--attribute", required=True, help="STR, RFL, INT (tiered: CHA too).")
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def raise_command(file: str, attribute: str, out: str | None, as_json: bool) -> None:
    """Spend an awarded attribute point (an INT point bought so gives no skill points)."""
    updated = raise_attribute(load_character(file), attribute)
    _save_and_report(updated, out or file, as_json)


@click.command("commerce")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--gain", type=int, required=True, help="Commerce points the narrator awards.")
@click.option("--reason", required=True, help="Why: the quest, the treasure, the sale.")
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def commerce_command(file: str, gain: int, reason: str, out: str | None, as_json: bool) -> None:
    """Commerce gained in play (002 > Assigning Commerce Points), recorded in the history."""
    updated = gain_commerce(load_character(file), gain, reason)
    _save_and_report(updated, out or file, as_json)


def register_awards(group: click.Group) -> None:
    """Add the commands of play-time changes to `taletable cogent character`."""
    for command in (raise_command, commerce_command):
        group.add_command(command)
