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
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
    parse_int_list,
)
from taletable.errors import InputError
from taletable.systems.cogent.assists import convert_assist, roll_assist, roll_collaboration
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.conflicts import powerless_challenge_level, roll_conflict
from taletable.systems.cogent.destiny import parse_before_modes
from taletable.systems.cogent.pools import pool_of
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
    rules = Rules(edition=edition)
    source_a = make_source(faces_a, seed, field="--faces-a")
    source_b = make_source(faces_b, None, field="--faces-b") if faces_b is not None else None
    result = roll_conflict(
        pool_of(pool_a, field="--pool-a"),
        pool_of(pool_b, field="--pool-b"),
        source_a,
        source_b,
        advantage_a=advantage_a,
        disadvantage_a=disadvantage_a,
        advantage_b=advantage_b,
        disadvantage_b=disadvantage_b,
        aware_and_active=not not_aware,
        rules=rules,
        destiny_before_a=parse_before_modes(destiny_before_a, rules, field="--destiny-before-a"),
        destiny_before_b=parse_before_modes(destiny_before_b, rules, field="--destiny-before-b"),
    )
    finish_source(source_a)
    if source_b is not None:
        finish_source(source_b)
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
    type=int,
    help="Tiered, --convert cl: the narrator's CL change (default: half the result, against it).",
)
@dice_options
@json_option
def assist(
    pool: int, challenge_level: int, helpers: int, edition: str, convert: str | None,
    cl_change: int | None, faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Roll an assist: core adds wins over the CL (capped at the CL); tiered converts the result."""
    source = make_source(faces, seed)
    if edition == "core":
        if convert or cl_change is not None:
            raise InputError(
                "--convert", "conversions are the tiered edition's", expected="--edition tiered"
            )
        result = roll_assist(pool_of(pool), challenge_level, source, helpers=helpers)
        finish_source(source)
        emit(result, as_json, lambda: render_assist(result, None))
        return
    if helpers:
        raise InputError(
            "--helpers", "group assists are the core edition's", expected="--edition core"
        )
    check_result = roll_check(pool_of(pool), challenge_level, source, rules=Rules(edition="tiered"))
    finish_source(source)
    assert check_result.margin is not None
    conversion = (
        convert_assist(check_result.margin, convert, challenge_level_change=cl_change)  # type: ignore[arg-type]
        if convert
        else None
    )
    data = {
        "wins": check_result.wins,
        "margin": check_result.margin,
        "check": check_result.to_data(),
    }
    data["conversion"] = conversion.to_data() if conversion else None
    emit(data, as_json, lambda: render_assist(check_result, conversion))


@click.command("collaborate")
@click.option("--pools", required=True, metavar="N,N,...", help="Each character's dice pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The individual CL.")
@dice_options
@json_option
def collaborate(
    pools: str, challenge_level: int, faces: str | None, seed: int | None, as_json: bool
) -> None:
    """Roll a tiered collaboration: group CL = CL x characters; wins are summed."""
    source = make_source(faces, seed)
    result = roll_collaboration(parse_int_list(pools, field="--pools"), challenge_level, source)
    finish_source(source)
    emit(result, as_json, lambda: render_collaboration(result))


@click.command("powerless")
@click.option("--pool", type=int, required=True, help="The powerless target's dice pool.")
@json_option
def powerless(pool: int, as_json: bool) -> None:
    """The CL for a player acting on an NPC powerless to oppose (lower than half its pool)."""
    level = powerless_challenge_level(pool)
    emit({"pool": pool, "cl": level}, as_json, lambda: click.echo(f"CL {level} (pool {pool})"))


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (conflict, assist, collaborate, powerless):
        group.add_command(command)
