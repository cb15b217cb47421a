"""`taletable cogent character raise|commerce|quirk|destiny`: changes in play, recorded in the
history.

A thin shell (DESIGN > Principles 1): parse the options into the play request, play it at the
table of files, print the history line the engine wrote.
"""

from __future__ import annotations

import click

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.play.character_awards import (
    CommerceRequest,
    DestinyRequest,
    QuirkRequest,
    RaiseRequest,
)
from taletable.play.character_awards import commerce as play_commerce
from taletable.play.character_awards import destiny as play_destiny
from taletable.play.character_awards import quirk as play_quirk
from taletable.play.character_awards import raise_attribute_point as play_raise
from taletable.systems.cogent.character.sheet import Award

__all__ = ["register_awards"]


def _report(line: Award, as_json: bool) -> None:
    emit(
        line.to_data(),
        as_json,
        lambda: console.print(f"{line.event}: {line.detail}", markup=False),
    )


@click.command("raise")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--attribute", required=True, help="STR, RFL, INT (tiered: CHA too).")
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def raise_command(file: str, attribute: str, out: str | None, as_json: bool) -> None:
    """Spend an awarded attribute point (an INT point bought so gives no skill points)."""
    request = ask(RaiseRequest, character=file, attribute=attribute, out=out)
    _report(play_raise(request, table_for()).result, as_json)


@click.command("commerce")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--gain", type=int, required=True, help="Commerce points the narrator awards.")
@click.option("--reason", required=True, help="Why: the quest, the treasure, the sale.")
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def commerce_command(file: str, gain: int, reason: str, out: str | None, as_json: bool) -> None:
    """Commerce gained in play (002 > Assigning Commerce Points), recorded in the history."""
    request = ask(CommerceRequest, character=file, gain=gain, reason=reason, out=out)
    _report(play_commerce(request, table_for()).result, as_json)


@click.command("quirk")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--quirk", "quirk_name", required=True, help="The quirk of wealth (e.g. Debt).")
@click.option("--reason", required=True, help="What happened (the income lost...).")
@click.option(
    "--levels", type=int, help="Commerce levels lost, where the narrator defines them (*)."
)
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def quirk_command(
    file: str, quirk_name: str, reason: str, levels: int | None, out: str | None, as_json: bool
) -> None:
    """A quirk of wealth's condition came about: Debt's lost income takes 2 levels (tiered: a
    broken quirk loses its +1 CP), recorded in the history."""
    request = ask(
        QuirkRequest, character=file, quirk=quirk_name, reason=reason, levels=levels, out=out
    )
    _report(play_quirk(request, table_for()).result, as_json)


@click.command("destiny")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--award", type=int, help="Destiny points the narrator awards for play.")
@click.option("--reason", help="With --award: what the player did to earn it.")
@click.option("--hours", type=float, help="Fast Play: hours played (a point per 3 in all).")
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def destiny_command(
    file: str, award: int | None, reason: str | None, hours: float | None, out: str | None,
    as_json: bool,
) -> None:  # fmt: skip
    """Award destiny, up to the maximum (002 > Awarding Destiny Points), recorded."""
    request = ask(DestinyRequest, character=file, award=award, reason=reason, hours=hours, out=out)
    _report(play_destiny(request, table_for()).result, as_json)


def register_awards(group: click.Group) -> None:
    """Add the commands of play-time changes to `taletable cogent character`."""
    for command in (raise_command, commerce_command, quirk_command, destiny_command):
        group.add_command(command)
