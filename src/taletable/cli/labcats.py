"""`taletable labcats ...`: the Cortex-style pool system (004). A thin shell over the engine."""

from __future__ import annotations

import click
from rich.markup import escape

from taletable.cli.common import console, emit, finish_source, json_option, make_source
from taletable.errors import InputError
from taletable.systems.labcats.building import Trait, build_pool
from taletable.systems.labcats.dice import parse_die, parse_pool
from taletable.systems.labcats.economy import WATCHTOWER, PlotPoints, TroublePool
from taletable.systems.labcats.rolls import roll_pool
from taletable.systems.labcats.rules import LabcatsRules

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
    main_dice = parse_pool(pool)
    side_dice = parse_pool(resources, field="--resources", allow_empty=True)
    if resource_faces is not None and not side_dice:
        raise InputError("--resource-faces", "no --resources to roll", expected="--resources")
    source = make_source(faces, seed)
    side_source = (
        make_source(resource_faces, None, field="--resource-faces") if resource_faces else None
    )
    if faces is not None and side_dice and side_source is None:
        raise InputError("--resource-faces", "faces given for the main pool only", expected="both")
    result = roll_pool(main_dice, source, side_dice, side_source, add=add)
    finish_source(source)
    if side_source is not None:
        finish_source(side_source)

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
            console.print(f"[dim]{escape(rule)}[/dim]")

    emit(result, as_json, render)


def _check_names(names: list[str], picks: dict[str, tuple[str, ...]]) -> None:
    """Trait names are distinct, and every option that picks a trait by name names one."""
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                "--value/--relationship/--trait",
                f"two traits named {name!r}",
                expected="distinct names (--challenge, --paid and the rest pick traits by name)",
            )
    for field, picked in picks.items():
        for name in picked:
            if name not in names:
                raise InputError(field, f"no trait named {name!r}", expected=", ".join(names))


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
    challenged, paid, used_up, bought = (
        tuple(name.strip() for name in names) for names in (challenged, paid, used_up, bought)
    )

    def named(text: str, field: str) -> tuple[str, int]:
        name, _, die = text.rpartition("=")
        if not name.strip():
            raise InputError(field, f"{text!r}", expected="NAME=dN, e.g. Duty=d8")
        return name.strip(), parse_die(die, field=field)

    built: list[Trait] = []
    name, die = named(value, "--value")
    built.append(Trait(kind="value", name=name, die=die, challenging=name in challenged))
    for text in relationships:
        name, die = named(text, "--relationship")
        built.append(Trait(kind="relationship", name=name, die=die, challenging=name in challenged))
    kinds = ("ability", "distinction", "heritage", "stress", "limit", "useful_detail", "resource")
    for text in traits:
        kind, _, rest = text.partition(":")
        if kind not in kinds:
            raise InputError("--trait", f"{kind!r} is not a trait kind", expected=", ".join(kinds))
        name, die = named(rest, "--trait")
        built.append(
            Trait(
                kind=kind,
                name=name,
                die=die,
                challenging=name in challenged,
                opponents=name not in paid,
                on_sheet=name not in paid,
                used_up=name in used_up,
                already_bought=name in bought,
                relevant_heritage=relevant_heritage,
            )
        )
    _check_names(
        [trait.name for trait in built],
        {"--challenge": challenged, "--paid": paid, "--used-up": used_up, "--bought": bought},
    )
    plan = build_pool(built)

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
    if (add_dice is None) == (remove_dice is None):
        raise InputError(
            "--add/--remove", "give exactly one", expected="--add LIST or --remove LIST"
        )
    held_points = {"--watchtower-points": watchtower_points, "--player-points": player_points}
    for field, held in held_points.items():
        if held < 0:
            raise InputError(field, f"{held} Plot Points", expected="0 or more")
    if not player.strip():
        raise InputError("--player", "the name is empty", expected="a player's name")
    if player == WATCHTOWER:
        raise InputError("--player", f"{player!r} is the Watchtower", expected="a player's name")
    rolled = parse_pool(complications, field="--complications", allow_empty=True)
    points = PlotPoints(held={WATCHTOWER: watchtower_points, player: player_points})
    current = TroublePool(dice=parse_pool(pool, field="--pool", allow_empty=True))
    rules = LabcatsRules(watchtower_pays_player=not to_bank)
    if add_dice is not None:
        dice = parse_pool(add_dice, field="--add")
        current, points = current.add_complications(rolled, dice, points, player, rules)
    else:
        assert remove_dice is not None
        dice = parse_pool(remove_dice, field="--remove")
        current, points = current.remove_dice(rolled, dice, points, player)
    data = {"trouble_pool": list(current.dice), "plot_points": points.held, "log": list(points.log)}

    def render() -> None:
        console.print(f"Trouble Pool: {', '.join(f'd{d}' for d in current.dice) or 'empty'}")
        for line in points.log:
            console.print(f"  {line}", markup=False)

    emit(data, as_json, render)
