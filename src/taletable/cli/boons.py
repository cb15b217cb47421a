"""`taletable boons ...`: the 3d8 boons-and-banes system (003). A thin shell over the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

import click

from taletable.cli.common import (
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
    parse_int_list,
)
from taletable.errors import InputError
from taletable.systems.boons.chance import Grid, roll_scatter, roll_twist
from taletable.systems.boons.checks import (
    MAX_BONUS,
    BoonsCheck,
    CheckResult,
    ability_bonus,
    declare_check,
    enchantment_bonus,
    roll_check,
    roll_contest,
)
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import GroupDifficulty, start_group_challenge
from taletable.systems.boons.tables import difficulty_table

__all__ = ["boons"]

F = TypeVar("F", bound=Callable[..., Any])


@click.group()
def boons() -> None:
    """The 3d8 boons-and-banes system: checks, contests, group challenges, random chance."""


def _method_option(function: F) -> F:
    return click.option(
        "--method",
        type=click.Choice(["sequence", "per_die"]),
        default="sequence",
        help="How many boons and banes share a die (see RULINGS.md).",
    )(function)


def _bonus(bonus: int | None, ability: str | None, skill: int, enchantment: str | None) -> int:
    """``--bonus`` as given, or built from ability scores, skill and enchantment sources."""
    parts = ability is not None or skill or enchantment is not None
    if bonus is not None and parts:
        raise InputError("--bonus", "give --bonus or its parts, not both", expected="one way")
    if bonus is not None:
        return bonus
    total = skill
    if ability is not None:
        total += ability_bonus(parse_int_list(ability, field="--ability"))
    if enchantment is not None:
        total += enchantment_bonus(parse_int_list(enchantment, field="--enchantment"))
    return total


def _render_check(result: CheckResult) -> None:
    dice = " + ".join(f"d{sides}" for sides in result.dice) or "passive 12"
    faces = ", ".join(map(str, result.faces))
    console.print(f"{dice} ({faces}) {result.modifier:+d} = [bold]{result.total}[/bold]")
    if result.target is not None:
        colour = "green" if result.passed else "red"
        verdict = "success" if result.passed else "failure"
        console.print(
            f"vs target {result.target} ({result.difficulty}): "
            f"[bold {colour}]{verdict}[/], margin {result.margin:+d}"
        )
    for line in result.rules_applied:
        console.print(f"  [dim]· {line}[/dim]")


@boons.command("check")
@click.option("--bonus", type=int, help="Total bonus (ability + skill + enchantment).")
@click.option(
    "--ability", metavar="S[,S]", help="Ability score(s); several are averaged, rounded up."
)
@click.option("--skill", type=int, default=0, help="Skill bonus.")
@click.option("--enchantment", metavar="E[,E]", help="Enchantment sources (summed, at most +6).")
@click.option("--boons", "boon_count", type=int, default=0, help="Boons (0-6).")
@click.option("--banes", type=int, default=0, help="Banes (0-6).")
@click.option("--target", type=int, help="Target value.")
@click.option("--passive", is_flag=True, help="Passive check: 12 instead of rolling.")
@_method_option
@dice_options
@json_option
def check(
    bonus: int | None, ability: str | None, skill: int, enchantment: str | None, boon_count: int,
    banes: int, target: int | None, passive: bool, method: ResizeMethod, faces: str | None,
    seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Roll a standard check: 3d8 resized by boons and banes, plus bonuses, against a target."""
    parts = "--bonus" if bonus is not None else "--ability + --skill + --enchantment"
    declared = declare_check(
        _bonus(bonus, ability, skill, enchantment), boon_count, banes,
        passive=passive, method=method, fields=(parts, "--boons", "--banes"),
    )  # fmt: skip
    source = make_source(faces, seed)
    result = roll_check(declared, target, source)
    finish_source(source)
    emit(result, as_json, lambda: _render_check(result))


@boons.command("contest")
@click.option("--a-bonus", type=int, default=0, help="Side a's bonus.")
@click.option("--a-boons", type=int, default=0, help="Side a's boons.")
@click.option("--a-banes", type=int, default=0, help="Side a's banes.")
@click.option("--b-bonus", type=int, default=0, help="Side b's bonus.")
@click.option("--b-boons", type=int, default=0, help="Side b's boons.")
@click.option("--b-banes", type=int, default=0, help="Side b's banes.")
@click.option("--defender", type=click.Choice(["a", "b"]), help="The defending side wins ties.")
@click.option("--stalemate", is_flag=True, help="The situation may end in a stalemate.")
@click.option("--faces-a", metavar="LIST", help="Side a's faces (rerolls included).")
@click.option("--faces-b", metavar="LIST", help="Side b's faces (rerolls included).")
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@_method_option
@json_option
def contest(
    a_bonus: int, a_boons: int, a_banes: int, b_bonus: int, b_boons: int, b_banes: int,
    defender: Literal["a", "b"] | None, stalemate: bool, faces_a: str | None, faces_b: str | None,
    seed: int | None, method: ResizeMethod, as_json: bool,
) -> None:  # fmt: skip
    """Roll an opposed contest: the higher total wins; ties by the book's four rules."""
    if (faces_a is None) != (faces_b is None):
        raise InputError(
            "--faces-a/--faces-b", "give both sides' faces", expected="both or neither"
        )
    side_a = declare_check(
        a_bonus, a_boons, a_banes, method=method,
        fields=("--a-bonus", "--a-boons", "--a-banes"),
    )  # fmt: skip
    side_b = declare_check(
        b_bonus, b_boons, b_banes, method=method,
        fields=("--b-bonus", "--b-boons", "--b-banes"),
    )  # fmt: skip
    source_a = make_source(faces_a, seed, field="--faces-a")
    source_b = make_source(faces_b, None, field="--faces-b") if faces_b is not None else None
    result = roll_contest(
        side_a, side_b, source_a, source_b,
        defender=defender, stalemate_possible=stalemate,
    )  # fmt: skip
    finish_source(source_a)
    if source_b is not None:
        finish_source(source_b)

    def render() -> None:
        for index, round_ in enumerate(result.rounds):
            label = "roll" if index == 0 else f"reroll {index}"
            console.print(
                f"{label}: a {round_.a.faces} = {round_.a.total}"
                f" | b {round_.b.faces} = {round_.b.total}"
            )
        winner = f"{result.winner} wins by {result.margin}" if result.winner else "no victor"
        console.print(
            f"[bold]{winner}[/bold]" + (f" (tie rule {result.tie_rule})" if result.tie_rule else "")
        )

    emit(result, as_json, render)


def _member(text: str, method: ResizeMethod) -> tuple[str, BoonsCheck, int]:
    parts = text.split(":")
    try:
        if len(parts) not in (3, 5):
            raise ValueError
        name = parts[0].strip()
        bonus, target = int(parts[1]), int(parts[2])
        extra = (int(parts[3]), int(parts[4])) if len(parts) == 5 else (0, 0)
        if not name:
            raise ValueError
    except ValueError:
        raise InputError(
            "--member", f"{text!r}", expected="NAME:BONUS:TARGET[:BOONS:BANES], e.g. Irzi:9:25"
        ) from None
    if abs(target) > MAX_BONUS:
        raise InputError(
            "--member TARGET", f"{target} is out of range", expected=f"within ±{MAX_BONUS}"
        )
    check = declare_check(
        bonus, extra[0], extra[1], method=method,
        fields=("--member BONUS", "--member BOONS", "--member BANES"),
    )  # fmt: skip
    return name, check, target


@boons.command("group")
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "moderate", "challenging", "formidable", "impossible"]),
    required=True,
    help="The challenge's overall difficulty.",
)
@click.option(
    "--member",
    "members",
    multiple=True,
    required=True,
    metavar="NAME:BONUS:TARGET[:BOONS:BANES]",
    help="One party member's check and secret target (repeatable).",
)
@click.option(
    "--reroll",
    "rerolls",
    multiple=True,
    metavar="NAME",
    help="A member's ability forces a reroll before the outcome is fixed (repeatable).",
)
@_method_option
@dice_options
@json_option
def group(
    difficulty: GroupDifficulty, members: tuple[str, ...], rerolls: tuple[str, ...],
    method: ResizeMethod, faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Run a group challenge: each member's successes against the party's requirement."""
    source = make_source(faces, seed)
    challenge = start_group_challenge(
        difficulty,
        [_member(text, method) for text in members],
        source,
    )
    for name in rerolls:
        challenge = challenge.reroll(name, source)
    challenge = challenge.fix()
    finish_source(source)

    def render() -> None:
        for member, result in zip(challenge.members, challenge.results, strict=True):
            console.print(
                f"{member.name}: {result.total} vs {member.target} (margin {result.margin:+d})"
            )
        verdict = "[green]success[/]" if challenge.passed else "[red]failure[/]"
        console.print(f"{challenge.successes} successes of {challenge.required} needed: {verdict}")

    emit(challenge, as_json, render)


@boons.command("twist")
@click.option("--face", type=int, help="The d100 rolled at the table.")
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@json_option
def twist(face: int | None, seed: int | None, as_json: bool) -> None:
    """Roll a twist of fate (1d100)."""
    source = make_source(None if face is None else str(face), seed, field="--face")
    result = roll_twist(source)
    finish_source(source)
    emit(
        result,
        as_json,
        lambda: console.print(f"{result.roll}: [bold]{result.name}.[/bold] {result.text}"),
    )


@boons.command("scatter")
@click.option(
    "--grid", type=click.Choice(["square", "hex"]), required=True, help="The battle map's grid."
)
@dice_options
@json_option
def scatter(grid: Grid, faces: str | None, seed: int | None, as_json: bool) -> None:
    """Roll scatter dice: a direction die and the d8 distance die."""
    source = make_source(faces, seed)
    result = roll_scatter(grid, source)
    finish_source(source)

    def render() -> None:
        if result.direct_hit:
            console.print(
                f"{result.direction_roll}, {result.distance_roll}: [bold]direct hit[/bold]"
            )
        else:
            console.print(
                f"{result.direction_roll}, {result.distance_roll}: "
                f"[bold]{result.distance} space(s) {result.direction}[/bold]"
            )

    emit(result, as_json, render)


@boons.command("difficulty")
@json_option
def difficulty(as_json: bool) -> None:
    """The recommended target values by difficulty tier."""
    table = difficulty_table()

    def render() -> None:
        for tier in table.tiers:
            console.print(f"{tier.name}: {tier.low}" + (f"-{tier.high}" if tier.high else "+"))

    emit(table, as_json, render)
