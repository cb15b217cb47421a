"""`taletable labcats ...`: the Cortex-style pool system (004). A thin shell over the engine."""

from __future__ import annotations

import click
from rich.markup import escape

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.explain import render as english
from taletable.play import labcats as play

__all__ = ["labcats"]


@click.group()
def labcats() -> None:
    """The Cortex-style pool system: build a pool, roll it, and run the Trouble Pool."""


@labcats.command("roll")
@click.option("--pool", required=True, metavar="d8,d6,...", help="The main dice pool.")
@click.option("--resources", default="", metavar="d6,...", help="The side pool of Resources.")
@click.option("--add", type=int, default=0, help="Plot Points spent to add more main dice.")
@click.option("--faces", metavar="LIST", help="Main pool faces, in pool order.")
@click.option("--resource-faces", metavar="LIST", help="Side pool faces, in order.")
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@json_option
def roll(
    pool: str, resources: str, add: int, faces: str | None, resource_faces: str | None,
    seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Roll a pool: 1s are complications; two highest main dice + highest resource die."""
    request = ask(
        play.LabcatsRollRequest, pool=pool, resources=resources, add=add, faces=faces,
        resource_faces=resource_faces,
    )  # fmt: skip
    result = play.labcats_roll(request, table_for(seed=seed, faces=faces)).result

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
        if result.failed:
            console.print("[bold red]all 1s: the roll fails[/bold red]")
        else:
            extra = f" + resource {result.resource}" if result.resource is not None else ""
            console.print(
                f"kept {' + '.join(map(str, result.kept))}{extra} = [bold]{result.total}[/bold]"
            )
        for rule in result.rules_applied:
            console.print(f"[dim]{escape(english(rule))}[/dim]")

    emit(result, as_json, render)


@labcats.command("build")
@click.option("--value", required=True, metavar="NAME=dN", help="The Value in the conflict.")
@click.option(
    "--relationship",
    "relationships",
    multiple=True,
    required=True,
    metavar="NAME=dN",
    help="A Relationship (the first is free, more cost 1 PP each).",
)
@click.option(
    "--challenge",
    "challenged",
    multiple=True,
    metavar="NAME",
    help="A Value or Relationship challenged: three dice, stepped down after.",
)
@click.option(
    "--trait",
    "traits",
    multiple=True,
    metavar="KIND:NAME=dN",
    help="ability, distinction, heritage, stress, limit, useful_detail or resource.",
)
@click.option(
    "--paid",
    "paid",
    multiple=True,
    metavar="NAME",
    help="A Stress that is not the opponent's fitting one, or a Resource not on the sheet.",
)
@click.option("--used-up", "used_up", multiple=True, metavar="NAME", help="A used-up Resource.")
@click.option(
    "--bought", multiple=True, metavar="NAME", help="A Useful Detail already bought this scene."
)
@click.option("--relevant-heritage", is_flag=True, help="The Heritage is relevant to this roll.")
@json_option
def build(
    value: str, relationships: tuple[str, ...], challenged: tuple[str, ...],
    traits: tuple[str, ...], paid: tuple[str, ...], used_up: tuple[str, ...],
    bought: tuple[str, ...], relevant_heritage: bool, as_json: bool,
) -> None:  # fmt: skip
    """Build a pool from traits and say what it costs in Plot Points."""
    request = ask(
        play.LabcatsBuildRequest, value=value, relationships=relationships, traits=traits,
        challenged=challenged, paid=paid, used_up=used_up, bought=bought,
        relevant_heritage=relevant_heritage,
    )  # fmt: skip
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
@click.option("--pool", default="", metavar="d6,...", help="The Trouble Pool now.")
@click.option(
    "--complications",
    required=True,
    metavar="d8,...",
    help="Sides of the 1s in the roll (a roll's `complications`).",
)
@click.option("--add", "add_dice", metavar="d8,...", help="Complications the Watchtower adds.")
@click.option("--remove", "remove_dice", metavar="d6,...", help="Trouble dice the player removes.")
@click.option("--player", default="player", help="The player rolling or rolled against.")
@click.option("--watchtower-points", type=int, default=0, help="The Watchtower's Plot Points.")
@click.option("--player-points", type=int, default=0, help="The player's Plot Points.")
@click.option(
    "--to-bank", is_flag=True, help="The Watchtower's Plot Points go to the bank, not the player."
)
@json_option
def trouble(
    pool: str, complications: str, add_dice: str | None, remove_dice: str | None, player: str,
    watchtower_points: int, player_points: int, to_bank: bool, as_json: bool,
) -> None:  # fmt: skip
    """After a roll with Complications: add them to, or remove dice from, the Trouble Pool."""
    request = ask(
        play.LabcatsTroubleRequest, pool=pool, complications=complications, add=add_dice,
        remove=remove_dice, player=player, watchtower_points=watchtower_points,
        player_points=player_points, to_bank=to_bank,
    )  # fmt: skip
    result = play.labcats_trouble(request, table_for()).result

    def render() -> None:
        pool_text = ", ".join(f"d{d}" for d in result.trouble_pool) or "empty"
        console.print(f"Trouble Pool: {pool_text}")
        for line in result.log:
            console.print(f"  {line}", markup=False)

    emit(result, as_json, render)
