"""`taletable boons ...`: the 3d8 boons-and-banes system (003). A thin shell over the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

import click
from rich.markup import escape

from taletable.cli.common import ask, console, dice_options, emit, json_option, table_for
from taletable.explain import render
from taletable.play import boons as play
from taletable.systems.boons.chance import Grid
from taletable.systems.boons.checks import CheckResult
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import GroupDifficulty

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
        console.print(f"  [dim]· {escape(render(line))}[/dim]")


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
    request = ask(
        play.BoonsCheckRequest, bonus=bonus, ability=ability, skill=skill,
        enchantment=enchantment, boons=boon_count, banes=banes, target=target, passive=passive,
        method=method, faces=faces,
    )  # fmt: skip
    result = play.boons_check(request, table_for(seed=seed, faces=faces)).result
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
    request = ask(
        play.BoonsContestRequest, a_bonus=a_bonus, a_boons=a_boons, a_banes=a_banes,
        b_bonus=b_bonus, b_boons=b_boons, b_banes=b_banes, defender=defender,
        stalemate=stalemate, method=method, faces_a=faces_a, faces_b=faces_b,
    )  # fmt: skip
    result = play.boons_contest(request, table_for(seed=seed, faces=faces_a)).result

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
    request = ask(
        play.BoonsGroupRequest, difficulty=difficulty, members=members, rerolls=rerolls,
        method=method, faces=faces,
    )  # fmt: skip
    challenge = play.boons_group(request, table_for(seed=seed, faces=faces)).result

    def render() -> None:
        for member, result in zip(challenge.members, challenge.results, strict=True):
            console.print(
                f"{member.name}: {result.total} vs {member.target} (margin {result.margin:+d})",
                markup=False,
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
    face_text = None if face is None else str(face)
    request = ask(play.BoonsTwistRequest, face=face)
    result = play.boons_twist(request, table_for(seed=seed, faces=face_text)).result
    emit(
        result,
        as_json,
        lambda: console.print(
            f"{result.roll}: [bold]{escape(result.name)}.[/bold] {escape(result.text)}"
        ),
    )


@boons.command("scatter")
@click.option(
    "--grid", type=click.Choice(["square", "hex"]), required=True, help="The battle map's grid."
)
@dice_options
@json_option
def scatter(grid: Grid, faces: str | None, seed: int | None, as_json: bool) -> None:
    """Roll scatter dice: a direction die and the d8 distance die."""
    request = ask(play.BoonsScatterRequest, grid=grid, faces=faces)
    result = play.boons_scatter(request, table_for(seed=seed, faces=faces)).result

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
    table = play.boons_difficulty(play.BoonsDifficultyRequest(), table_for()).result

    def render() -> None:
        for tier in table.tiers:
            console.print(f"{tier.name}: {tier.low}" + (f"-{tier.high}" if tier.high else "+"))

    emit(table, as_json, render)
