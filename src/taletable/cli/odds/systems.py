"""`taletable odds boons` and `taletable odds labcats`: exact odds of the other systems."""

from __future__ import annotations

from typing import Literal

import click

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.play.odds_systems import (
    BoonsOddsRequest,
    LabcatsOddsRequest,
)
from taletable.play.odds_systems import (
    odds_boons as play_boons,
)
from taletable.play.odds_systems import (
    odds_labcats as play_labcats,
)
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import GroupDifficulty

__all__ = ["odds_boons", "odds_labcats"]


@click.command("boons")
@click.option("--bonus", type=int, default=0, help="Total bonus.")
@click.option("--boons", "boon_count", type=int, default=0, help="Boons (0-6).")
@click.option("--banes", type=int, default=0, help="Banes (0-6).")
@click.option("--target", type=int, help="Target value (needed unless --against-bonus).")
@click.option("--passive", is_flag=True, help="Passive check (12 instead of rolling).")
@click.option("--method", type=click.Choice(["sequence", "per_die"]), default="sequence")
@click.option("--party", type=int, help="Group challenge: this many members make this check.")
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "moderate", "challenging", "formidable", "impossible"]),
    default="moderate",
    help="Group challenge difficulty (with --party).",
)
@click.option("--against-bonus", type=int, help="Opposed contest: the other side's bonus.")
@click.option("--against-boons", type=int, default=0, help="The other side's boons.")
@click.option("--against-banes", type=int, default=0, help="The other side's banes.")
@click.option("--defender", type=click.Choice(["a", "b"]), help="Tie rule 1: who defends.")
@click.option("--stalemate", is_flag=True, help="Tie rule 3: a stalemate is possible.")
@json_option
def odds_boons(
    bonus: int, boon_count: int, banes: int, target: int | None, passive: bool,
    method: ResizeMethod, party: int | None, difficulty: GroupDifficulty,
    against_bonus: int | None, against_boons: int, against_banes: int,
    defender: Literal["a", "b"] | None, stalemate: bool, as_json: bool,
) -> None:  # fmt: skip
    """The exact chance a 3d8 check reaches its target; or a contest; or a group challenge."""
    request = ask(
        BoonsOddsRequest, bonus=bonus, boons=boon_count, banes=banes, target=target,
        passive=passive, method=method, party=party, difficulty=difficulty,
        against_bonus=against_bonus, against_boons=against_boons, against_banes=against_banes,
        defender=defender, stalemate=stalemate,
    )  # fmt: skip
    result = play_boons(request, table_for()).result
    data = result.to_contract()
    lines = []
    if result.p_pass is not None:
        lines.append(
            f"reaches {target}: [bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"
        )
    if result.p_group is not None:
        lines.append(f"a party of {party}, {difficulty}: {float(result.p_group):.2%}")
    if (contest := result.contest) is not None:
        lines.append(
            f"contest: a {float(contest.p_a):.2%} | b {float(contest.p_b):.2%} | "
            f"stalemate {float(contest.p_stalemate):.2%}"
        )

    def render() -> None:
        for line in lines:
            console.print(line)

    emit(data, as_json, render)


@click.command("labcats")
@click.option("--pool", required=True, metavar="d8,d6,...", help="The main pool.")
@click.option("--resources", default="", metavar="d6,...", help="The side pool.")
@click.option("--add", type=int, default=0, help="Plot Points adding more main dice.")
@click.option("--target", type=int, help="Total to reach.")
@click.option(
    "--against", metavar="d8,d6,...", help="An opposing pool to beat instead of a target."
)
@click.option("--against-resources", default="", metavar="d6,...", help="Its resource dice.")
@json_option
def odds_labcats(
    pool: str,
    resources: str,
    add: int,
    target: int | None,
    against: str | None,
    against_resources: str,
    as_json: bool,
) -> None:
    """The exact chance a pool reaches a target total (or beats an opposing pool's total)."""
    request = ask(
        LabcatsOddsRequest, pool=pool, resources=resources, add=add, target=target,
        against=against, against_resources=against_resources,
    )  # fmt: skip
    result = play_labcats(request, table_for()).result
    data = result.to_contract()
    emit(
        data,
        as_json,
        lambda: console.print(f"[bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"),
    )
