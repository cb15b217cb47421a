"""`taletable cogent combat chase`: chase rolls from a distance (002 > Combat > Chases)."""

from __future__ import annotations

import click
from rich.markup import escape

from taletable.cli.common import (
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
)
from taletable.errors import InputError
from taletable.systems.cogent.combat.chases import Chase, chase_round
from taletable.systems.cogent.pools import pool_of

__all__ = ["chase_command"]

MAX_CHASE_ROUNDS = 50


@click.command("chase")
@click.option(
    "--distance",
    type=click.Choice(["close", "medium", "long"]),
    required=True,
    help="The distance the narrator sets (or the chase has reached).",
)
@click.option("--pursuer", type=int, required=True, help="The pursuer's Athletics/Ride pool.")
@click.option("--target", type=int, required=True, help="The fleeing side's pool.")
@click.option(
    "--pursuer-assist",
    type=int,
    default=0,
    help="Wins an assist adds (negative: a backfire's losses; 002 > Assists).",
)
@click.option(
    "--target-assist",
    type=int,
    default=0,
    help="Wins an assist adds to the fleeing side (negative: losses).",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, MAX_CHASE_ROUNDS),
    default=1,
    show_default=True,
    help="Chase rolls to make (stops early when caught or escaped).",
)
@dice_options
@json_option
def chase_command(
    distance: str,
    pursuer: int,
    target: int,
    pursuer_assist: int,
    target_assist: int,
    rounds: int,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Chase rolls (002 > Combat > Chases): pursuer's faces first, then the target's, each roll."""
    for field, value in (("--pursuer-assist", pursuer_assist), ("--target-assist", target_assist)):
        if not -20 <= value <= 20:
            raise InputError(field, f"{value}", expected="-20 to 20 wins (an assist's result)")
    source = make_source(faces, seed)
    chase = Chase.model_validate({"distance": distance})
    for _ in range(rounds):
        chase = chase_round(
            chase,
            pool_of(pursuer, field="--pursuer"),
            pool_of(target, field="--target"),
            source,
            pursuer_assist=pursuer_assist,
            target_assist=target_assist,
        )
        if chase.outcome is not None:
            break
    finish_source(source)

    def render() -> None:
        for line in chase.log:
            console.print(line, markup=False)
        ending = chase.outcome or f"still on at {chase.distance} distance"
        console.print(f"[bold]{escape(ending)}[/bold] after {chase.rounds} roll(s)")

    emit(chase, as_json, render)
