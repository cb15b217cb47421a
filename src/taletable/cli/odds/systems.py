"""`taletable odds boons` and `taletable odds labcats`: exact odds of the other systems."""

from __future__ import annotations

from typing import Any, Literal

import click

from taletable.cli.common import console, emit, json_option
from taletable.errors import InputError
from taletable.prob import fraction_text, probability_rows
from taletable.systems.boons.checks import declare_check
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import GroupDifficulty
from taletable.systems.boons.odds import check_total, contest_odds, group_challenge_odds
from taletable.systems.labcats.dice import parse_pool
from taletable.systems.labcats.odds import labcats_odds

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
    check = declare_check(bonus, boon_count, banes, method=method, passive=passive)
    totals = check_total(check)
    data: dict[str, Any] = {"dice": list(check.dice), "modifier": check.modifier}
    lines = []
    if target is None and against_bonus is None:
        raise InputError("--target", "no target and no opponent", expected="--target T")
    if target is not None:
        p_pass = totals.at_least(target)
        data |= {"target": target, "p_pass": fraction_text(p_pass), "p_pass_float": float(p_pass)}
        lines.append(f"reaches {target}: [bold]{float(p_pass):.2%}[/bold] ({data['p_pass']})")
        if party is not None:
            group = group_challenge_odds([(check, target)] * party, difficulty)
            data["group"] = {
                "party": party,
                "difficulty": difficulty,
                "p_pass": fraction_text(group),
            }
            lines.append(f"a party of {party}, {difficulty}: {float(group):.2%}")
    if against_bonus is not None:
        other = declare_check(
            against_bonus, against_boons, against_banes, method=method,
            fields=("--against-bonus", "--against-boons", "--against-banes"),
        )  # fmt: skip
        contest = contest_odds(check, other, defender=defender, stalemate_possible=stalemate)
        data["contest"] = {
            key: fraction_text(getattr(contest, key))
            for key in ("p_a", "p_b", "p_stalemate", "p_tie_roll")
        }
        lines.append(
            f"contest: a {float(contest.p_a):.2%} | b {float(contest.p_b):.2%} | "
            f"stalemate {float(contest.p_stalemate):.2%}"
        )
    data["distribution"] = probability_rows(totals.items(), "total")

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
    opposing = None
    if against:
        opposing = (
            parse_pool(against, field="--against"),
            parse_pool(against_resources, field="--against-resources", allow_empty=True),
        )
    result = labcats_odds(
        parse_pool(pool),
        target,
        parse_pool(resources, field="--resources", allow_empty=True),
        add=add,
        opposing=opposing,
    )
    data = result.to_contract()
    emit(
        data,
        as_json,
        lambda: console.print(f"[bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"),
    )
