"""`taletable cogent npc ...`: statblocks for NPCs and monsters (002 > NPCs and Monsters).

``npc new`` makes one by the book's guideline tiers, ``npc show`` shows a statblock file with
its pools, ``npc bestiary`` lists or shows the creatures of the encounter tables.
"""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.cogent.character_sheet import pools_footer
from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.cli.options import request_options
from taletable.play.narrator import BestiaryListing, BestiaryRequest
from taletable.play.narrator import npc_bestiary as npc_bestiary_play
from taletable.play.npcs import NpcNewRequest, NpcShowRequest, ShownStatblock
from taletable.play.npcs import npc_new as play_npc_new
from taletable.play.npcs import npc_show as play_npc_show
from taletable.systems.cogent.pools import BASE_DICE

__all__ = ["npc", "register", "render_statblock"]


@click.group("npc")
def npc() -> None:
    """NPC and monster statblocks: make one by the book's tiers, or show one with its pools."""


@npc.command("new")
@request_options(NpcNewRequest, flags={"skills": "--skill"})
@json_option
def npc_new(as_json: bool, **fields: Any) -> None:
    """Make an NPC by the guideline tiers: average 0/2, elite 1/3, exceptional 2/4."""
    request = ask(NpcNewRequest, **fields)
    shown = play_npc_new(request, table_for()).result
    emit(shown, as_json, lambda: render_statblock(shown))


@npc.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(NpcShowRequest, skip=("statblock",))
@json_option
def npc_show(file: str, as_json: bool, **fields: Any) -> None:
    """Show a statblock with every check and combat pool it has (--hardcore-armour and
    --hardcore-weapons: by the hardcore combat rules, 002 > Hardcore Combat)."""
    request = ask(NpcShowRequest, statblock=file, **fields)
    shown = play_npc_show(request, table_for()).result
    emit(shown, as_json, lambda: render_statblock(shown))


@npc.command("bestiary")
@click.argument("name", required=False)
@json_option
def npc_bestiary(name: str | None, as_json: bool) -> None:
    """List the bestiary of encounter creatures, or show creature NAME with its pools."""
    found = npc_bestiary_play(ask(BestiaryRequest, name=name), table_for()).result
    if isinstance(found, BestiaryListing):
        listing = found

        def render() -> None:
            for key, entry in listing.creatures.items():
                console.print(f"[bold]{escape(key)}[/bold]  {escape(entry.name)} ({entry.tier})")

        emit(listing, as_json, render)
        return
    shown = found
    emit(shown, as_json, lambda: render_statblock(shown))


def render_statblock(shown: ShownStatblock) -> None:
    """Print a statblock's attributes, every check pool off the base 3D6, every combat pool
    (each weapon against each target it can be used on, and bare hands), its rough pools, then
    initiative, STR reductions and armour: all from the record ``--json`` prints."""
    block, pools = shown.statblock, shown.pools
    attributes = block.attributes
    console.print(
        f"[bold]{escape(block.name)}[/bold]  STR {attributes.STR} RFL {attributes.RFL} "
        f"INT {attributes.INT}"
    )
    plain = 0
    for name, line in pools.checks.items():
        if line.dice == BASE_DICE:
            plain += 1
        else:
            console.print(f"  {name}: {line.dice}D6", markup=False)
    if plain:
        console.print(f"  every other check ({plain}): {BASE_DICE}D6", markup=False)
    for name, line in pools.combat.items():
        console.print(f"  combat with {escape(name)}: [bold]{line.dice}D6[/bold]")
    for label, size in pools.rough_pools.items():
        console.print(f"  {label} (rough): {size}D6", markup=False)
    console.print(f"  {pools_footer(pools)}", markup=False)


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    group.add_command(npc)
