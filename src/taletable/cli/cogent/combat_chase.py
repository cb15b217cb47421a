"""`taletable cogent combat chase`: chase rolls from a distance (002 > Combat > Chases)."""

from __future__ import annotations

import click
from rich.markup import escape

from taletable.cli.common import ask, console, dice_options, emit, json_option, say, table_for
from taletable.play.combat_chase import MAX_CHASE_ROUNDS, ChaseRequest, ChaseSide, combat_chase

__all__ = ["chase_command"]

ON = click.Choice(["foot", "vehicle"])


def _side_text(role: str, side: ChaseSide) -> str:
    parts = ", ".join(f"{source} {dice:+d}" for source, dice in side.breakdown)
    assist = f"; assist {side.assist:+d}" if side.assist else ""
    return f"{role}: {side.name}, {side.skill} {side.pool}D6 = {parts}{assist}"


@click.command("chase")
@click.option(
    "--distance",
    type=click.Choice(["close", "medium", "long"]),
    required=True,
    help="The distance the narrator sets (or the chase has reached).",
)
@click.option(
    "--pursuer",
    required=True,
    metavar="N|REF",
    help="The pursuer: a pool of N dice, or a sheet (FILE, statblock, @NAME) whose Athletics "
    "(on foot) or Ride/Pilot (--pursuer-on vehicle) is rolled.",
)
@click.option("--target", required=True, metavar="N|REF", help="The fleeing side, likewise.")
@click.option("--pursuer-on", type=ON, default="foot", show_default=True,
              help="foot: Athletics; vehicle (a mount too): Ride/Pilot.")  # fmt: skip
@click.option("--target-on", type=ON, default="foot", show_default=True,
              help="foot: Athletics; vehicle (a mount too): Ride/Pilot.")  # fmt: skip
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
    pursuer: str,
    target: str,
    pursuer_on: str,
    target_on: str,
    pursuer_assist: int,
    target_assist: int,
    rounds: int,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Chase rolls (002 > Combat > Chases): pursuer's faces first, then the target's, each roll."""
    request = ask(
        ChaseRequest, distance=distance, pursuer=pursuer, target=target, pursuer_on=pursuer_on,
        target_on=target_on, pursuer_assist=pursuer_assist, target_assist=target_assist,
        rounds=rounds, faces=faces,
    )  # fmt: skip
    result = combat_chase(request, table_for(seed=seed, faces=faces)).result

    def render() -> None:
        console.print(_side_text("pursuer", result.pursuer), markup=False)
        console.print(_side_text("target", result.target), markup=False)
        say(result.log)
        console.print(f"[bold]{escape(result.summary)}[/bold] after {result.rounds} roll(s)")
        if result.caught:
            console.print(
                f"the last roll was lost by {result.last_margin}: how badly the target is "
                "stopped follows it (002 > Chases)",
                markup=False,
            )

    emit(result, as_json, render)
