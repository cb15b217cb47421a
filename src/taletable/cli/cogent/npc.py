"""`taletable cogent npc ...`: statblocks for NPCs and monsters (002 > NPCs and Monsters).

``npc new`` makes one by the book's guideline tiers, ``npc show`` shows a statblock file with
its pools, ``npc bestiary`` lists or shows the creatures of the encounter tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from taletable.cli.common import console, emit, json_option, table_for
from taletable.errors import InputError
from taletable.play.narrator import BestiaryListing, BestiaryRequest
from taletable.play.narrator import npc_bestiary as npc_bestiary_play
from taletable.play.sheets import create_statblock
from taletable.systems.cogent.character.pool_summary import sheet_pools
from taletable.systems.cogent.character.pools import check_pool, combat_pool, pool_names
from taletable.systems.cogent.statblock import (
    Statblock,
    check_statblock_path,
    load_statblock,
    new_npc,
)

__all__ = ["npc", "register", "render_statblock", "statblock_data"]


@click.group("npc")
def npc() -> None:
    """NPC and monster statblocks: make one by the book's tiers, or show one with its pools."""


def _rough(values: tuple[str, ...]) -> dict[str, int]:
    """``"Intelligence skills=5"`` pairs as rough pools (002 > NPCs: "rough dice pools")."""
    pools: dict[str, int] = {}
    for text in values:
        label, sep, size = text.rpartition("=")
        try:
            dice = int(size.strip().upper().removesuffix("D6"))
        except ValueError:
            dice = -1
        if not sep or not label.strip() or dice < 0:
            raise InputError("--rough", f"{text!r}", expected="NAME=DICE, e.g. 'Intelligence=5'")
        if label.strip() in pools:
            raise InputError("--rough", f"{label.strip()!r} given twice", expected="each once")
        pools[label.strip()] = dice
    return pools


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
@click.option(
    "--rough",
    "rough",
    multiple=True,
    metavar="NAME=DICE",
    help="A rough dice pool, e.g. 'Intelligence skills=5' (repeatable).",
)
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
    rough: tuple[str, ...],
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
        rough_pools=_rough(rough),
    )
    if out:
        check_statblock_path(out)
        create_statblock(table_for(), out, block)
    emit(statblock_data(block), as_json, lambda: render_statblock(block))


@npc.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def npc_show(file: str, as_json: bool) -> None:
    """Show a statblock with its check and combat pools."""
    block = load_statblock(file)
    emit(statblock_data(block), as_json, lambda: render_statblock(block))


@npc.command("bestiary")
@click.argument("name", required=False)
@json_option
def npc_bestiary(name: str | None, as_json: bool) -> None:
    """List the bestiary of encounter creatures, or show creature NAME with its pools."""
    found = npc_bestiary_play(BestiaryRequest(name=name), table_for()).result
    if isinstance(found, BestiaryListing):
        listing = found

        def render() -> None:
            for key, entry in listing.creatures.items():
                console.print(f"[bold]{escape(key)}[/bold]  {escape(entry.name)} ({entry.tier})")

        emit(listing, as_json, render)
        return
    block = found
    emit(statblock_data(block), as_json, lambda: render_statblock(block))


def statblock_data(block: Statblock) -> dict[str, Any]:
    """The statblock as written, and under ``pools`` every pool of it (the pools view)."""
    pools = sheet_pools(block.as_character(), rough_pools=block.rough_pools)
    return {**block.to_data(), "pools": pools.to_data()}


def render_statblock(block: Statblock) -> None:
    """Print a statblock's attributes, pools above the base three, weapons and rough pools."""
    sheet = block.as_character()
    console.print(
        f"[bold]{escape(block.name)}[/bold]  STR {sheet.attributes.STR} RFL {sheet.attributes.RFL} "
        f"INT {sheet.attributes.INT}"
    )
    for skill in pool_names(sheet):
        pool = check_pool(sheet, skill)
        if pool.size > 3:
            console.print(f"  {skill}: {pool.size}D6", markup=False)
    for weapon in sheet.equipment.weapons:
        console.print(
            f"  combat with {escape(weapon.name)}: "
            f"[bold]{combat_pool(sheet, weapon.name).size}D6[/bold]"
        )
    for label, size in block.rough_pools.items():
        console.print(f"  {label} (rough): {size}D6", markup=False)


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    group.add_command(npc)
