"""`taletable cogent cast` and `taletable cogent summon`: the example magic system.

002 > Supplementary Content > Example Magic Systems (and the hard-magic druid spells of 002 >
Metahuman Powers in Cogent). A thin shell: parse, call ``taletable.play.cogent_magic`` (which
reads each spell's options and refuses the others), render. ``--character FILE`` builds the
caster's pool from a sheet's magic section.
"""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable._model import Record
from taletable.cli.cogent.render import edition_option
from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    table_for,
)
from taletable.cli.options import request_options
from taletable.explain import render_data
from taletable.play.cogent_magic import CastRequest, SummonRequest
from taletable.play.cogent_magic import cast as play_cast
from taletable.play.cogent_magic import summon as play_summon
from taletable.systems.cogent.rules import Rules

__all__ = ["register"]


@click.command("cast")
@click.argument("spell")
@request_options(CastRequest, skip=("spell", "faces"))
@edition_option
@dice_options
@json_option
def cast(
    spell: str, edition: str, faces: str | None, seed: int | None, as_json: bool, **fields: Any
) -> None:
    """Cast SPELL of the example magic system (or a hard-magic druid spell)."""
    request = ask(CastRequest, spell=spell, faces=faces, **fields)
    table = table_for(Rules(edition=edition), seed=seed, faces=faces)
    result = play_cast(request, table).result
    emit(result, as_json, lambda: _render_magic(result))


@click.command("summon")
@request_options(SummonRequest, skip=("faces",))
@dice_options
@json_option
def summon_command(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Summon an elemental: the CL picks the creature, the margin how long it stays."""
    request = ask(SummonRequest, faces=faces, **fields)
    result = play_summon(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: _render_magic(result))


def _render_magic(result: Record) -> None:
    data = result.to_data()
    check = data.pop("check", None)
    if isinstance(check, dict):
        parts = ", ".join(f"{part['source']} {part['dice']:+d}" for part in check["breakdown"][1:])
        console.print(
            f"CL {check['cl']}: pool {check['pool']}D6"
            + (f" (base 3, {escape(parts)})" if parts else "")
            + ", faces "
            f"{','.join(str(f) for f in check['faces'])}, {check['wins']} wins "
            f"(margin {check['margin']:+d})"
        )
    conflict = data.pop("conflict", None)
    if isinstance(conflict, dict):
        for exchange in conflict["exchanges"]:
            a, b = exchange["a"], exchange["b"]
            console.print(
                f"caster {','.join(map(str, a['faces']))} ({a['wins']} wins) against "
                f"{','.join(map(str, b['faces']))} ({b['wins']} wins)"
                + (": tied, rerolled" if exchange["tied"] else "")
            )
        winner = {"a": "the caster", "b": "the target"}.get(conflict["winner"], "no one")
        console.print(f"winner: [bold]{winner}[/bold] (victory level {conflict['victory_level']})")
    for key, value in data.items():
        if key == "rules_applied":
            for rule in value:
                console.print(f"  [dim]{escape(render_data(rule))}[/dim]")
        elif isinstance(value, dict):
            console.print(
                f"{key}: " + ", ".join(f"{k} {v}" for k, v in value.items()), markup=False
            )
        elif value not in (None, [], ()):
            console.print(f"{key}: [bold]{escape(str(value))}[/bold]")


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (cast, summon_command):
        group.add_command(command)
