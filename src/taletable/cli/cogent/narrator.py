"""`taletable cogent npc ...`: statblocks for NPCs and monsters (002 > NPCs and Monsters)."""

from __future__ import annotations

from pathlib import Path

import click

from taletable.cli.common import console, emit, json_option
from taletable.errors import InputError
from taletable.systems.cogent.character.pools import check_pool, combat_pool, pool_names
from taletable.systems.cogent.statblock import load_statblock, new_npc, save_statblock

__all__ = ["register"]


@click.group("npc")
def npc() -> None:
    """NPC and monster statblocks: make one by the book's tiers, or show one with its pools."""


@npc.command("new")
@click.option("--name", required=True, help="The NPC's name.")
@click.option("--tier", type=click.Choice(["average", "elite", "exceptional"]), required=True)
@click.option("--vocation", required=True, help="The NPC's vocation (e.g. 'Town Guard').")
@click.option(
    "--attribute", type=click.Choice(["STR", "RFL", "INT"]), default="STR", show_default=True
)
@click.option("--weapon-skill", help="Combat skill category (e.g. 'Medium Weapons').")
@click.option("--weapon", help="Weapon group carried (e.g. 'Medium Weapon').")
@click.option("--skill", "skills", multiple=True, help="A vocational skill (repeatable).")
@click.option("--out", type=click.Path(dir_okay=False), help="Save the statblock here.")
@json_option
def npc_new(
    name: str,
    tier: str,
    vocation: str,
    attribute: str,
    weapon_skill: str | None,
    weapon: str | None,
    skills: tuple[str, ...],
    out: str | None,
    as_json: bool,
) -> None:
    """Make an NPC by the guideline tiers: average 0/2, elite 1/3, exceptional 2/4."""
    if out and Path(out).exists():
        raise InputError("--out", f"{out} exists", expected="a new path")
    block = new_npc(
        name,
        tier,  # type: ignore[arg-type]
        vocation,
        attribute=attribute,  # type: ignore[arg-type]
        weapon_skill=weapon_skill,
        weapon=weapon,
        vocational_skills=skills,
    )
    if out:
        save_statblock(block, out)
    emit(block, as_json, lambda: _render(block.as_character(), block.name))


@npc.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def npc_show(file: str, as_json: bool) -> None:
    """Show a statblock with its check and combat pools."""
    block = load_statblock(file)
    emit(block, as_json, lambda: _render(block.as_character(), block.name))


def _render(sheet: object, name: str) -> None:
    from taletable.systems.cogent.character.sheet import CoreCharacter

    assert isinstance(sheet, CoreCharacter)
    console.print(
        f"[bold]{name}[/bold]  STR {sheet.attributes.STR} RFL {sheet.attributes.RFL} "
        f"INT {sheet.attributes.INT}"
    )
    for skill in pool_names(sheet):
        pool = check_pool(sheet, skill)
        if pool.size > 3:
            console.print(f"  {skill}: {pool.size}D6")
    for weapon in sheet.equipment.weapons:
        console.print(
            f"  combat with {weapon.name}: [bold]{combat_pool(sheet, weapon.name).size}D6[/bold]"
        )


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    group.add_command(npc)
