"""`taletable cogent combat ...`: run an encounter round by round from the command line.

The encounter lives in a JSON file, saved atomically after every step; a refused step leaves
it unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import click
from rich.markup import escape

from taletable.cli.cogent.combat_chase import chase_command
from taletable.cli.cogent.combat_narrator import condition_command, destiny_command
from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    say,
    table_for,
)
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
from taletable.systems.cogent.combat.hardcore import Cover, Range, TargetState
from taletable.systems.cogent.combat.outcomes import legal_outcomes
from taletable.systems.cogent.combat.reading import (
    declared_pool,
    pool_text,
    reading_order,
    round_rolls,
)
from taletable.systems.cogent.combat.state import ACTIONS

__all__ = ["register"]


@click.group("combat")
def combat() -> None:
    """Run a combat encounter: start, declare, resolve, destiny, choose, condition, status,
    replay; chase."""


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
@click.option(
    "--fighter",
    "fighters",
    multiple=True,
    required=True,
    metavar="ID:SIDE:FILE[:WEAPON[:SECONDARY]]",
    help="A combatant (repeatable): FILE is a sheet, a statblock or @NAME of the bestiary; "
    "WEAPON defaults to the first carried (or 'unarmed'); SECONDARY: dual wielding.",
)
@click.option("--name", default="encounter", help="The encounter's name.")
@click.option("--edition", type=click.Choice(["core", "tiered"]), default="core", show_default=True)
@click.option("--hardcore-armour", is_flag=True, help="Armour by pieces (002 > Hardcore Combat).")
@click.option("--hardcore-weapons", is_flag=True, help="The hardcore weapon table.")
@click.option("--hardcore-ranged", is_flag=True, help="Ranged rolls against the hardcore CL table.")
@click.option(
    "--scale",
    "scales",
    multiple=True,
    metavar="ID=N",
    help="A combatant's scale (tiered); a statblock's own scale counts without it.",
)
@click.option(
    "--scale-method",
    type=click.Choice(["table", "difference"]),
    default="difference",
    help="How scale adjusts a result, as for checks (see RULINGS.md).",
)
@click.option(
    "--no-scale-clamp", is_flag=True, help="001's unclamped scale (a success may become a failure)."
)
@click.option(
    "--engaged",
    "engagements",
    multiple=True,
    metavar="A:B:DISTANCE",
    help="A pair that starts adjacent or in close combat (DISTANCE: adjacent or close); "
    "every other pair starts at range.",
)
@click.option(
    "--out", required=True, type=click.Path(dir_okay=False), help="The encounter file to write."
)
@dice_options
@json_option
def start(
    fighters: tuple[str, ...],
    name: str,
    edition: str,
    hardcore_armour: bool,
    hardcore_weapons: bool,
    hardcore_ranged: bool,
    scales: tuple[str, ...],
    scale_method: str,
    no_scale_clamp: bool,
    engagements: tuple[str, ...],
    out: str,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Start an encounter (RFL ties are settled now by a 1D6 roll-off that holds)."""
    if os.path.lexists(out):  # a link counts, even one that leads nowhere or round in a loop
        raise InputError("--out", f"{out} exists", expected="a new encounter file")
    if not Path(os.path.abspath(out)).parent.is_dir():
        raise InputError("--out", f"{out}: no such directory", expected="a file in a directory")
    request = ask(
        CombatStartRequest, out=out, fighters=fighters, name=name, edition=edition,
        hardcore_armour=hardcore_armour, hardcore_weapons=hardcore_weapons,
        hardcore_ranged=hardcore_ranged, scales=scales, scale_method=scale_method,
        no_scale_clamp=no_scale_clamp, engagements=engagements, faces=faces,
    )  # fmt: skip
    encounter = combat_start(request, table_for(seed=seed, faces=faces, sealed=True)).result
    emit(encounter, as_json, lambda: _status(encounter))


@combat.command("declare")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--actor", required=True, help="Who declares.")
@click.option(
    "--action",
    required=True,
    type=click.Choice(ACTIONS),
)
@click.option("--target", help="The target's id.")
@click.option(
    "--circumstance",
    "circumstances",
    multiple=True,
    type=click.Choice(["high ground", "flank", "defence", "narrow"]),
    help="A circumstantial bonus; defence makes a brace a defence roll (+2D6, no victory); "
    "narrow confines (an alleyway, a hallway) negate a reach weapon's bonus.",
)
@click.option(
    "--modifier",
    "modifiers",
    multiple=True,
    metavar="NAME=DICE",
    help="A narrator's modifier (distance, unequal equipment...).",
)
@click.option(
    "--pool", type=click.IntRange(0, 200), help="For other/check actions: the narrator's pool."
)
@click.option(
    "--cl",
    "challenge_level",
    type=click.IntRange(0, 100),
    help="Off guard: the CL (wins over it are victory levels); check: its CL.",
)
@click.option("--against", help="For a check: the opponent whose wins are the CL.")
@click.option("--prepared", is_flag=True, help="Brace prepared a full round before.")
@click.option(
    "--range",
    "hardcore_range",
    type=click.Choice(get_args(Range)),
    help="Hardcore ranged: the range.",
)
@click.option(
    "--target-state",
    type=click.Choice(get_args(TargetState)),
    default="stationary",
    help="Hardcore ranged: the target's state.",
)
@click.option(
    "--cover",
    type=click.Choice(get_args(Cover)),
    default="none",
    help="Hardcore ranged: cover of a moving target.",
)
@click.option("--unsteady", is_flag=True, help="Hardcore ranged: not kneeling or lying down.")
@click.option("--use", help="Hardcore weapons: the group a weapon of several heads is used as.")
@click.option(
    "--assist-wins",
    type=int,
    default=0,
    help="An assist rolled before this roll: its wins over the CL, or negative for a backfire's "
    "losses (002 > Assists).",
)
@click.option(
    "--destiny-before",
    is_flag=True,
    help="Spend a destiny point from the fighter's sheet: 3-6 win (002 > Destiny Points).",
)
@json_option
def declare_command(
    file: str,
    actor: str,
    action: str,
    target: str | None,
    circumstances: tuple[str, ...],
    modifiers: tuple[str, ...],
    pool: int | None,
    challenge_level: int | None,
    against: str | None,
    prepared: bool,
    hardcore_range: str | None,
    target_state: str,
    cover: str,
    unsteady: bool,
    use: str | None,
    assist_wins: int,
    destiny_before: bool,
    as_json: bool,
) -> None:
    """Declare an action (lowest RFL first; it cannot be changed)."""
    request = ask(
        CombatDeclareRequest, file=file, actor=actor, action=action, target=target,
        circumstances=circumstances, modifiers=modifiers, pool=pool,
        challenge_level=challenge_level, against=against, prepared=prepared,
        hardcore_range=hardcore_range, target_state=target_state, cover=cover,
        unsteady=unsteady, use=use, assist_wins=assist_wins, destiny_before=destiny_before,
    )  # fmt: skip
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
@click.option("--victory", type=int, required=True, help="The victory's number (#N).")
@click.option("--outcome", help="The outcome; default: the most severe injury the level allows.")
@click.option(
    "--strength", type=click.IntRange(0, 100), help="STR points the loser spends (default: policy)."
)
@click.option(
    "--armour",
    type=click.IntRange(0, 100),
    help="Armour levels the loser spends (default: policy)",
)
@json_option
def choose_command(
    file: str,
    victory: int,
    outcome: str | None,
    strength: int | None,
    armour: int | None,
    as_json: bool,
) -> None:
    """Apply a victory's outcome with the loser's reductions."""
    request = ask(
        CombatChooseRequest, file=file, victory=victory, outcome=outcome,
        strength=strength, armour=armour,
    )  # fmt: skip
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
    group.add_command(combat)
