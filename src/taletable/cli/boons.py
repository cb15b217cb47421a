"""`taletable boons ...`: the 3d8 boons-and-banes system (003). A thin shell over the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.markup import escape

from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    say,
    say_outcome,
    table_for,
)
from taletable.cli.options import request_options
from taletable.explain import render as english
from taletable.play import boons as play
from taletable.play import boons_tracks as tracks
from taletable.systems.boons.chance import Grid
from taletable.systems.boons.checks import CheckResult

__all__ = ["boons"]

F = TypeVar("F", bound=Callable[..., Any])


@click.group()
def boons() -> None:
    """The 3d8 boons-and-banes system: checks, contests, group challenges, random chance."""


def _render_check(result: CheckResult) -> None:
    dice = " + ".join(f"d{sides}" for sides in result.dice) or "passive 12"
    faces = ", ".join(map(str, result.faces))
    console.print(f"{dice} ({faces}) {result.modifier:+d} = [bold]{result.total}[/bold]")
    if result.target is not None:
        console.print(f"target {result.target} ({result.difficulty}), margin {result.margin:+d}")
    say_outcome(result.summary, result.passed)
    for line in result.rules_applied:
        console.print(f"  [dim]· {escape(english(line))}[/dim]")


@boons.command("check")
@request_options(play.BoonsCheckRequest, skip=("faces",))
@dice_options
@json_option
def check(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll a standard check: 3d8 resized by boons and banes, plus bonuses, against a target."""
    request = ask(play.BoonsCheckRequest, faces=faces, **fields)
    result = play.boons_check(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: _render_check(result))


@boons.command("contest")
@request_options(play.BoonsContestRequest)
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@json_option
def contest(seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll an opposed contest: the higher total wins; ties by the book's four rules."""
    request = ask(play.BoonsContestRequest, **fields)
    result = play.boons_contest(request, table_for(seed=seed, faces=fields["faces_a"])).result

    def render() -> None:
        for index, round_ in enumerate(result.rounds):
            label = "roll" if index == 0 else f"reroll {index}"
            console.print(
                f"{label}: a {round_.a.faces} = {round_.a.total}"
                f" | b {round_.b.faces} = {round_.b.total}"
            )
        say_outcome(result.summary)
        if result.tie_rule:
            console.print(f"tie: {escape(result.tie_rule)}")

    emit(result, as_json, render)


@boons.command("group")
@request_options(play.BoonsGroupRequest, skip=("faces",), flags={"members": "--member",
                 "rerolls": "--reroll"})  # fmt: skip
@dice_options
@json_option
def group(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Run a group challenge: each member's successes against the party's requirement."""
    request = ask(play.BoonsGroupRequest, faces=faces, **fields)
    challenge = play.boons_group(request, table_for(seed=seed, faces=faces)).result

    def render() -> None:
        rows = zip(challenge.members, challenge.results, challenge.counts(), strict=True)
        for member, result, counts in rows:
            console.print(
                f"{member.name}: {result.total} vs {member.target} (margin {result.margin:+d}):"
                f" {counts:+d}",
                markup=False,
            )
        verdict = "[green]success[/]" if challenge.passed else "[red]failure[/]"
        console.print(
            f"{challenge.successes} successes of {challenge.required} needed"
            f" (misses: {challenge.failures}): {verdict}"
        )
        for advice in challenge.advice:
            console.print(english(advice), markup=False)

    emit(challenge, as_json, render)


@boons.command("twist")
@request_options(play.BoonsTwistRequest)
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
@request_options(play.BoonsScatterRequest, skip=("faces",))
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


@boons.command("track")
@request_options(tracks.TrackRequest)
@json_option
def track(as_json: bool, **fields: Any) -> None:
    """Set up or set a tracked value on a character, and the bounds the narrator sets."""
    request = ask(tracks.TrackRequest, **fields)
    result = tracks.boons_track(request, table_for()).result
    low = "-" if result.low is None else result.low
    high = "-" if result.high is None else result.high
    emit(result, as_json, lambda: console.print(
        f"{escape(result.track)}: [bold]{result.value}[/bold] (bounds {low} to {high}, "
        f"{result.at_bounds} at them)"
    ))  # fmt: skip


@boons.command("accumulate")
@request_options(tracks.AccumulateRequest, skip=("faces",))
@dice_options
@json_option
def accumulate(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll an accumulation check: a formula added to (or taken from) a tracked value."""
    request = ask(tracks.AccumulateRequest, faces=faces, **fields)
    result = tracks.boons_accumulate(request, table_for(seed=seed, faces=faces)).result

    def render() -> None:
        step = result.step
        sign = "-" if step.subtract else "+"
        console.print(f"{step.formula} ({', '.join(map(str, step.faces))}) = {step.rolled}")
        console.print(f"{escape(result.track)}: {step.before} {sign} {step.rolled}"
                      f" -> [bold]{step.after}[/bold]")  # fmt: skip
        say(result.rules_applied)

    emit(result, as_json, render)
