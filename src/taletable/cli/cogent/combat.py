"""`taletable cogent combat ...`: run an encounter round by round from the command line.

The encounter lives in a JSON file, saved atomically after every step; a refused step leaves
it unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from taletable.cli.cogent.combat_chase import chase_command
from taletable.cli.cogent.combat_narrator import (
    condition_command,
    destiny_command,
    end_command,
    take_back_command,
)
from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    say,
    table_for,
)
from taletable.cli.options import request_options
from taletable.errors import InputError
from taletable.play.combat import (
    CombatChooseRequest,
    CombatDeclareRequest,
    CombatRequest,
    CombatResolveRequest,
    CombatStartRequest,
    combat_choose,
    combat_declare,
    combat_replay,
    combat_resolve,
    combat_start,
    combat_status,
)
from taletable.systems.cogent.combat import Encounter
from taletable.systems.cogent.combat.aftermath import pending
from taletable.systems.cogent.combat.outcomes import legal_outcomes
from taletable.systems.cogent.combat.reading import (
    declared_pool,
    pool_text,
    reading_order,
    round_rolls,
)

__all__ = ["register"]


@click.group("combat")
def combat() -> None:
    """Run a combat encounter: start, declare, resolve, destiny, choose, condition, status,
    replay, take-back; chase."""


def _status(encounter: Encounter) -> None:
    console.print(
        f"[bold]{escape(encounter.name)}[/bold] round {encounter.round}, {encounter.phase}"
    )
    for fighter in encounter.combatants:
        injuries = sum(i.level for i in fighter.sheet.injuries)
        console.print(
            f"  {fighter.id} ({fighter.side}) RFL {fighter.reflex} "
            f"weapon {fighter.weapon or 'none'}"
            f"{f' and {fighter.secondary}' if fighter.secondary else ''}; "
            f"injury penalty -{injuries}D6; STR left {fighter.strength_left}, armour left "
            f"{fighter.armour_left}; {', '.join(fighter.conditions) or 'ready'}",
            markup=False,
        )
    for engagement in encounter.engagements:
        where = "in close combat" if engagement.distance == "close" else "adjacent"
        console.print(f"  {engagement.a} and {engagement.b}: {where}", markup=False)
    if encounter.phase == "declaration":
        declared = {d.actor for d in encounter.declarations}
        waiting = [i for i in encounter.declaration_order() if i not in declared]
        console.print(
            f"  to declare, in order: {', '.join(waiting) or 'none: resolve'}", markup=False
        )
        _planned(encounter)
    for victory in pending(encounter):
        options = ", ".join(
            legal_outcomes(victory.level, ranged=victory.ranged, disarm_only=victory.disarm_only)
        )
        console.print(
            f"  #{victory.id} {victory.winner} over {victory.loser}, "
            f"level {victory.level}: {options}",
            markup=False,
        )


def _planned(encounter: Encounter) -> None:
    """Each declared pool as built, and the order a resolve reads the faces."""
    for ident, pool in round_rolls(encounter):
        console.print(escape(f"  {ident} rolls {pool_text(pool)}"))
    if encounter.declarations:
        console.print(escape(f"  faces are read highest RFL first: {reading_order(encounter)}"))


@combat.command("start")
@request_options(CombatStartRequest, skip=("encounter", "faces"))
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="The encounter file to write."
)
@dice_options
@json_option
def start(out: str, faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Start an encounter (RFL ties are settled now by a 1D6 roll-off that holds)."""
    if os.path.lexists(out):  # a link counts, even one that leads nowhere or round in a loop
        raise InputError("--out", f"{out} exists", expected="a new encounter file")
    if not Path(os.path.abspath(out)).parent.is_dir():
        raise InputError("--out", f"{out}: no such directory", expected="a file in a directory")
    request = ask(CombatStartRequest, out=out, faces=faces, **fields)
    encounter = combat_start(request, table_for(seed=seed, faces=faces, sealed=True)).result
    emit(encounter, as_json, lambda: _status(encounter))


@combat.command("declare")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(CombatDeclareRequest, skip=("encounter",))
@json_option
def declare_command(file: str, as_json: bool, **fields: Any) -> None:
    """Declare an action (lowest RFL first; it cannot be changed)."""
    request = ask(CombatDeclareRequest, file=file, **fields)
    actor = request.actor
    encounter = combat_declare(request, table_for(sealed=True)).result

    def render() -> None:
        say(encounter.log[-1:])
        pool = declared_pool(encounter, actor)
        if pool is not None:
            console.print(escape(f"  {actor} will roll {pool_text(pool)}"))
        console.print(escape(f"  faces are read highest RFL first: {reading_order(encounter)}"))

    emit(encounter, as_json, render)


@combat.command("resolve")
@click.argument("file", type=click.Path(dir_okay=False))
@dice_options
@json_option
def resolve_command(file: str, faces: str | None, seed: int | None, as_json: bool) -> None:
    """Roll every combatant's pool (highest RFL first) and find the victories."""
    request = ask(CombatResolveRequest, file=file, faces=faces)
    played = combat_resolve(request, table_for(seed=seed, faces=faces, sealed=True))
    encounter = played.result
    before = played.events[0].data["log_from"]

    def render() -> None:
        say(encounter.log[before:])
        _status(encounter)

    emit(encounter, as_json, render)


@combat.command("choose")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(CombatChooseRequest, skip=("encounter",))
@json_option
def choose_command(file: str, as_json: bool, **fields: Any) -> None:
    """Apply a victory's outcome with the loser's reductions."""
    request = ask(CombatChooseRequest, file=file, **fields)
    played = combat_choose(request, table_for(sealed=True))
    encounter = played.result
    before = played.events[0].data["log_from"]

    def render() -> None:
        say(encounter.log[before:])

    emit(encounter, as_json, render)


@combat.command("status")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def status(file: str, as_json: bool) -> None:
    """Where the encounter stands: combatants, who declares next, victories waiting."""
    encounter = combat_status(ask(CombatRequest, file=file), table_for(sealed=True)).result
    emit(encounter, as_json, lambda: _status(encounter))


@combat.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def replay_command(file: str, as_json: bool) -> None:
    """Replay an encounter from its opening and steps; refuse one that does not match them."""
    encounter = combat_replay(ask(CombatRequest, file=file), table_for(sealed=True)).result

    def render() -> None:
        say(encounter.log)
        console.print(f"[bold]replayed {len(encounter.steps)} step(s): the saved state matches[/]")

    emit(encounter, as_json, render)


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    combat.add_command(chase_command)
    combat.add_command(condition_command)
    combat.add_command(destiny_command)
    combat.add_command(take_back_command)
    combat.add_command(end_command)
    group.add_command(combat)
