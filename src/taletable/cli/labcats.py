"""`taletable labcats ...`: the Cortex-style pool system (004). A thin shell over the engine."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.common import ask, console, emit, json_option, say_outcome, table_for
from taletable.cli.options import request_options
from taletable.explain import render as english
from taletable.play import labcats as play

__all__ = ["labcats"]


@click.group()
def labcats() -> None:
    """The Cortex-style pool system: build a pool, roll it, and run the Trouble Pool."""


@labcats.command("roll")
@request_options(play.LabcatsRollRequest)
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@json_option
def roll(seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll a pool: 1s are complications; two highest main dice + highest resource die."""
    request = ask(play.LabcatsRollRequest, **fields)
    result = play.labcats_roll(request, table_for(seed=seed, faces=fields["faces"])).result

    def render() -> None:
        shown = ", ".join(f"d{s}:{f}" for s, f in zip(result.pool, result.faces, strict=True))
        console.print(f"main: {shown}")
        if result.resources:
            side = ", ".join(
                f"d{s}:{f}" for s, f in zip(result.resources, result.resource_faces, strict=True)
            )
            console.print(f"resources: {side}")
        if result.complications:
            console.print(
                "[yellow]complications: "
                f"{', '.join(f'd{s}' for s in result.complications)}[/yellow]"
            )
        if not result.failed:
            extra = f" + resource {result.resource}" if result.resource is not None else ""
            console.print(f"kept {' + '.join(map(str, result.kept))}{extra} = {result.total}")
        say_outcome(result.summary, not result.failed)
        for rule in result.rules_applied:
            console.print(f"[dim]{escape(english(rule))}[/dim]")

    emit(result, as_json, render)


@labcats.command("build")
@request_options(play.LabcatsBuildRequest, flags={"relationships": "--relationship",
                 "challenged": "--challenge", "traits": "--trait"})  # fmt: skip
@json_option
def build(as_json: bool, **fields: Any) -> None:
    """Build a pool from traits and say what it costs in Plot Points."""
    request = ask(play.LabcatsBuildRequest, **fields)
    plan = play.labcats_build(request, table_for()).result

    def render() -> None:
        for part in plan.parts:
            dice = ", ".join(f"d{d}" for d in part.dice)
            cost = f" ({part.plot_points} PP)" if part.plot_points else ""
            console.print(f"{part.trait}: {dice}{cost} — {part.why}", markup=False)
        side = f"; side pool {','.join(f'd{d}' for d in plan.resources)}" if plan.resources else ""
        console.print(
            f"pool {','.join(f'd{d}' for d in plan.pool)}{side}; Plot Points {plan.plot_points}"
        )
        if plan.step_down_after:
            console.print(
                f"step down after the conflict: {', '.join(plan.step_down_after)}", markup=False
            )
        if plan.limits_used:
            console.print("a win may Shutdown the opponent's Ability (1 PP, free if Stressed out)")

    emit(plan, as_json, render)


@labcats.command("trouble")
@request_options(play.LabcatsTroubleRequest)
@json_option
def trouble(as_json: bool, **fields: Any) -> None:
    """After a roll with Complications: add them to, or remove dice from, the Trouble Pool."""
    request = ask(play.LabcatsTroubleRequest, **fields)
    result = play.labcats_trouble(request, table_for()).result

    def render() -> None:
        pool_text = ", ".join(f"d{d}" for d in result.trouble_pool) or "empty"
        console.print(f"Trouble Pool: {pool_text}")
        for line in result.log:
            console.print(f"  {english(line)}", markup=False)

    emit(result, as_json, render)
