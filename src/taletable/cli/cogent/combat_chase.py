"""`taletable cogent combat chase`: chase rolls from a distance (002 > Combat > Chases)."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.common import ask, console, dice_options, emit, json_option, say, table_for
from taletable.cli.options import request_options
from taletable.play.combat_chase import ChaseRequest, ChaseSide, combat_chase

__all__ = ["chase_command"]


def _side_text(role: str, side: ChaseSide) -> str:
    parts = ", ".join(f"{source} {dice:+d}" for source, dice in side.breakdown)
    assist = f"; assist {side.assist:+d}" if side.assist else ""
    return f"{role}: {side.name}, {side.skill} {side.pool}D6 = {parts}{assist}"


@click.command("chase")
@request_options(ChaseRequest, skip=("faces",))
@dice_options
@json_option
def chase_command(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Chase rolls (002 > Combat > Chases): pursuer's faces first, then the target's, each roll."""
    request = ask(ChaseRequest, faces=faces, **fields)
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
