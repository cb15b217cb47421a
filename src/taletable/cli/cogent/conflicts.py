"""`taletable cogent conflict|assist|collaborate|powerless`: rolls against other rolls.

Conflicts (002 > How to Play > Conflicts), assists and group assists (002 > Assists),
tiered assists and collaborations (000 > Dice Pools > Assists and Collaborations), and the CL
of a target powerless to oppose.
"""

from __future__ import annotations

import click

from taletable.cli.cogent.render import (
    edition_option,
    render_assist,
    render_collaboration,
    render_conflict,
)
from taletable.cli.common import (
    ask,
    dice_options,
    emit,
    json_option,
    parse_int_list,
    table_for,
)
from taletable.errors import InputError
from taletable.play.cogent_checks import (
    AssistRequest,
    AssistRoll,
    CollaborateRequest,
    ConflictRequest,
    PowerlessRequest,
)
from taletable.play.cogent_checks import assist as play_assist
from taletable.play.cogent_checks import collaborate as play_collaborate
from taletable.play.cogent_checks import conflict as play_conflict
from taletable.play.cogent_checks import powerless as play_powerless
from taletable.systems.cogent.rules import Rules

__all__ = ["register"]


@click.command("conflict")
@click.option("--pool-a", type=int, required=True, help="Side a's dice pool.")
@click.option("--pool-b", type=int, required=True, help="Side b's dice pool.")
@click.option("--faces-a", metavar="LIST", help="Side a's faces, in order (tie rerolls included).")
@click.option("--faces-b", metavar="LIST", help="Side b's faces, in order (tie rerolls included).")
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@edition_option
@click.option(
    "--advantage-a", is_flag=True, help="Narrator's Advantage: side a wins on 3-6 (tiered)."
)
@click.option(
    "--disadvantage-a", is_flag=True, help="Narrator's Disadvantage: a wins on 5-6 (tiered)."
)
@click.option(
    "--advantage-b", is_flag=True, help="Narrator's Advantage: side b wins on 3-6 (tiered)."
)
@click.option(
    "--disadvantage-b", is_flag=True, help="Narrator's Disadvantage: b wins on 5-6 (tiered)."
)
@click.option(
    "--destiny-before-a",
    default="",
    metavar="MODE[,MODE]",
    help="Side a spends destiny before: advantage (both); die, disadvantage (to b), half (tiered).",
)
@click.option(
    "--destiny-before-b",
    default="",
    metavar="MODE[,MODE]",
    help="Side b spends destiny before: advantage (both); die, disadvantage (to a), half (tiered).",
)
@click.option("--not-aware", is_flag=True, help="A party is not aware and active: a tie stands.")
@json_option
def conflict(
    pool_a: int, pool_b: int, faces_a: str | None, faces_b: str | None, seed: int | None,
    edition: str, advantage_a: bool, disadvantage_a: bool, advantage_b: bool,
    disadvantage_b: bool, destiny_before_a: str, destiny_before_b: str, not_aware: bool,
    as_json: bool,
) -> None:  # fmt: skip
    """Roll a conflict: most wins wins; the difference is the victory level."""
    if (faces_a is None) != (faces_b is None):
        raise InputError(
            "--faces-a/--faces-b", "give both sides' faces", expected="both or neither"
        )
    request = ask(
        ConflictRequest, pool_a=pool_a, pool_b=pool_b, faces_a=faces_a, faces_b=faces_b,
        advantage_a=advantage_a, disadvantage_a=disadvantage_a, advantage_b=advantage_b,
        disadvantage_b=disadvantage_b, destiny_before_a=destiny_before_a,
        destiny_before_b=destiny_before_b, not_aware=not_aware,
    )  # fmt: skip
    table = table_for(Rules(edition=edition), seed=seed, faces=faces_a)
    result = play_conflict(request, table).result
    emit(result, as_json, lambda: render_conflict(result))


@click.command("assist")
@click.option("--pool", type=int, required=True, help="The assisting roller's dice pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The assist's CL.")
@click.option(
    "--helpers",
    type=int,
    default=0,
    help="Players assisting besides the roller (core): +1 die each.",
)
@edition_option
@click.option(
    "--convert",
    type=click.Choice(["destiny", "cl", "dice"]),
    help="Tiered: how the narrator converts the result.",
)
@click.option(
    "--cl-change",
    "challenge_level_change",
    type=int,
    help="Tiered, --convert cl: the narrator's CL change (default: half the result, against it).",
)
@dice_options
@json_option
def assist(
    pool: int, challenge_level: int, helpers: int, edition: str, convert: str | None,
    challenge_level_change: int | None, faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Roll an assist: core adds wins over the CL (capped at the CL); tiered converts the result."""
    request = ask(
        AssistRequest, pool=pool, challenge_level=challenge_level, helpers=helpers,
        convert=convert, cl_change=challenge_level_change, faces=faces,
    )  # fmt: skip
    result = play_assist(request, table_for(Rules(edition=edition), seed=seed, faces=faces)).result
    if isinstance(result, AssistRoll):
        tiered = result
        emit(tiered, as_json, lambda: render_assist(tiered.check, tiered.conversion))
    else:
        core = result
        emit(core, as_json, lambda: render_assist(core, None))


@click.command("collaborate")
@click.option("--pools", required=True, metavar="N,N,...", help="Each character's dice pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The individual CL.")
@dice_options
@json_option
def collaborate(
    pools: str, challenge_level: int, faces: str | None, seed: int | None, as_json: bool
) -> None:
    """Roll a tiered collaboration: group CL = CL x characters; wins are summed."""
    pool_sizes = parse_int_list(pools, field="--pools")
    request = ask(
        CollaborateRequest, pools=pool_sizes, challenge_level=challenge_level, faces=faces
    )
    result = play_collaborate(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: render_collaboration(result))


@click.command("powerless")
@click.option("--pool", type=int, required=True, help="The powerless target's dice pool.")
@json_option
def powerless(pool: int, as_json: bool) -> None:
    """The CL for a player acting on an NPC powerless to oppose (lower than half its pool)."""
    result = play_powerless(ask(PowerlessRequest, pool=pool), table_for()).result
    emit(result, as_json, lambda: click.echo(f"CL {result.cl} (pool {result.pool})"))


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (conflict, assist, collaborate, powerless):
        group.add_command(command)
