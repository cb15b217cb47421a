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
from taletable.explain import render_data
from taletable.play.cogent_magic import CastRequest, SummonRequest
from taletable.play.cogent_magic import cast as play_cast
from taletable.play.cogent_magic import summon as play_summon
from taletable.systems.cogent.rules import Rules

__all__ = ["register"]


def _caster_options(function: Any) -> Any:
    for option in (
        click.option(
            "--part",
            "parts",
            multiple=True,
            metavar="NAME=DICE",
            help="Dice added to the caster's pool (repeatable): 'Wand of Power=1'.",
        ),
        click.option(
            "--attribute-points",
            type=click.IntRange(-5, 10),
            default=0,
            help="With --points: the attribute's points (-5 to 10, as on a sheet).",
        ),
        click.option("--points", type=int, default=None, help="Points in the spell (0-2)."),
        click.option("--pool", type=int, default=None, help="The caster's whole pool."),
        click.option(
            "--character",
            default=None,
            metavar="FILE",
            help="A sheet whose magic section holds the spell: the pool is built from it.",
        ),
    ):
        function = option(function)
    return function


@click.command("cast")
@click.argument("spell")
@click.option("--cl", "challenge_level", type=int, default=None, help="The narrator's CL.")
@click.option(
    "--difficulty",
    default=None,
    help="The narrator's CL by the standard scale: common (1), uncommon (2), specialized (3)...",
)
@_caster_options
@click.option("--distance", type=float, default=None, help="Levitation/teleport: metres.")
@click.option("--size", default=None, help="Levitation/teleport: human, car, bus, airplane.")
@click.option("--unseen", is_flag=True, help="Teleport to an unseen place (CL doubled).")
@click.option("--speed", default=None, help="Aeromancy flight: sprint or km/h.")
@click.option(
    "--resist-pool",
    type=int,
    default=None,
    help="Telepathy: the resisting pool; Levitation: a person resisting being held still.",
)
@click.option(
    "--defence-pool",
    type=int,
    default=None,
    help="Aeromancy gust: the target's defence pool, without weapon bonuses.",
)
@click.option("--against-wins", type=int, default=None, help="Counteraction: the spell's wins.")
@click.option("--skill-points", type=int, default=None, help="Hard spells: required skill.")
@click.option("--has", "have", multiple=True, help="Hard spells: a component at hand.")
@click.option("--advantage", is_flag=True, help="Narrator's Advantage: win on 3-6 (tiered).")
@click.option("--disadvantage", is_flag=True, help="Narrator's Disadvantage: win on 5-6 (tiered).")
@edition_option
@dice_options
@json_option
def cast(
    spell: str, challenge_level: int | None, difficulty: str | None, character: str | None,
    pool: int | None, points: int | None, attribute_points: int, parts: tuple[str, ...],
    distance: float | None, size: str | None, unseen: bool, speed: str | None,
    resist_pool: int | None, defence_pool: int | None, against_wins: int | None,
    skill_points: int | None, have: tuple[str, ...], advantage: bool, disadvantage: bool,
    edition: str, faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Cast SPELL of the example magic system (or a hard-magic druid spell)."""
    request = ask(
        CastRequest, spell=spell, challenge_level=challenge_level, difficulty=difficulty,
        character=character, pool=pool, points=points, attribute_points=attribute_points,
        parts=parts, distance=distance, size=size, unseen=unseen, speed=speed,
        resist_pool=resist_pool, defence_pool=defence_pool, against_wins=against_wins,
        skill_points=skill_points, have=have, advantage=advantage, disadvantage=disadvantage,
        faces=faces,
    )  # fmt: skip
    table = table_for(Rules(edition=edition), seed=seed, faces=faces)
    result = play_cast(request, table).result
    emit(result, as_json, lambda: _render_magic(result))


@click.command("summon")
@click.option("--school", required=True, help="The summoning spell or its element (fire...).")
@click.option("--cl", "challenge_level", type=int, required=True, help="1 (sprite) to 8.")
@_caster_options
@click.option(
    "--failure-duration",
    type=click.Choice(["losses", "mirrored"]),
    default="losses",
    show_default=True,
    help="How long a hostile elemental stays (RULINGS.md).",
)
@dice_options
@json_option
def summon_command(
    school: str, challenge_level: int, character: str | None, pool: int | None,
    points: int | None, attribute_points: int, parts: tuple[str, ...], failure_duration: str,
    faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Summon an elemental: the CL picks the creature, the margin how long it stays."""
    request = ask(
        SummonRequest, school=school, challenge_level=challenge_level, character=character,
        pool=pool, points=points, attribute_points=attribute_points, parts=parts,
        failure_duration=failure_duration, faces=faces,
    )  # fmt: skip
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
