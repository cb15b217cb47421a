"""`taletable odds boons` and `taletable odds labcats`: exact odds of the other systems."""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.cli.options import request_options
from taletable.play.boons_tracks import AccumulationOddsRequest
from taletable.play.boons_tracks import odds_accumulate as play_accumulate
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

__all__ = ["odds_boons", "odds_labcats"]


@click.group("boons", invoke_without_command=True)
@request_options(BoonsOddsRequest)
@json_option
@click.pass_context
def odds_boons(context: click.Context, /, as_json: bool, **fields: Any) -> None:
    """The exact chance a 3d8 check reaches its target; or a contest; or a group challenge
    (subcommand: accumulate)."""
    if context.invoked_subcommand is not None:
        return
    request = ask(BoonsOddsRequest, **fields)
    result = play_boons(request, table_for()).result
    data = result.to_data()
    lines = []
    if result.p_pass is not None:
        lines.append(
            f"reaches {request.target}: [bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"
        )
    if result.p_group is not None:
        lines.append(
            f"a party of {request.party}, {request.difficulty} (misses: {result.failures}):"
            f" {float(result.p_group):.2%} ({data['group']['p_pass']})"
        )
    if (contest := result.contest) is not None:
        lines.append(
            f"contest: a {float(contest.p_a):.2%} | b {float(contest.p_b):.2%} | "
            f"stalemate {float(contest.p_stalemate):.2%}"
        )

    def render() -> None:
        for line in lines:
            console.print(line)

    emit(data, as_json, render)


@odds_boons.command("accumulate")
@request_options(AccumulationOddsRequest)
@json_option
def odds_accumulate(as_json: bool, **fields: Any) -> None:
    """The exact distribution of a tracked value after an accumulation check."""
    request = ask(AccumulationOddsRequest, **fields)
    result = play_accumulate(request, table_for()).result

    def render() -> None:
        console.print(f"{result.before} {'-' if result.subtract else '+'} {result.formula}: "
                      f"mean {float(result.mean):.2f}")  # fmt: skip
        for value, chance in result.distribution:
            console.print(f"  {value}: {float(chance):.2%} ({chance})")

    emit(result, as_json, render)


@click.command("labcats")
@request_options(LabcatsOddsRequest)
@json_option
def odds_labcats(as_json: bool, **fields: Any) -> None:
    """The exact chance a pool reaches a target total (or beats an opposing pool's total)."""
    request = ask(LabcatsOddsRequest, **fields)
    result = play_labcats(request, table_for()).result
    data = result.to_data()
    emit(
        data,
        as_json,
        lambda: console.print(f"[bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"),
    )
