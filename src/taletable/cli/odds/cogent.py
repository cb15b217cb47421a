"""`taletable odds cogent ...`: Cogent's checks, conflicts, assists and collaborations; duels
and group fights (:mod:`.combat`, the combat engine's) are imported when first named."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.cogent.render import edition_option, pool_breakdown
from taletable.cli.common import (
    ask,
    console,
    emit,
    json_option,
    say,
    table_for,
)
from taletable.cli.lazy import LazyGroup
from taletable.cli.options import request_options, rule_options
from taletable.play.odds_cogent import (
    AdviseRequest,
    AssistOddsRequest,
    CheckOddsRequest,
    CollaborateOddsRequest,
    ConflictOddsRequest,
    odds_advise,
    odds_assist,
    odds_check,
    odds_collaborate,
    odds_conflict,
)
from taletable.systems.cogent.rules import Rules

__all__ = ["COMBAT_COMMANDS", "odds_cogent"]

#: The subcommands that run the combat engine, and where they are defined.
COMBAT_COMMANDS = {
    "duel": "taletable.cli.odds.combat:odds_cogent_duel",
    "fight": "taletable.cli.odds.combat:odds_cogent_fight",
}


@click.group("cogent", cls=LazyGroup, lazy=COMBAT_COMMANDS, invoke_without_command=True)
@request_options(CheckOddsRequest)
@edition_option
@rule_options("destiny_after_cap")
@json_option
@click.pass_context
def odds_cogent(
    context: click.Context, /, edition: str, destiny_after_cap: bool, as_json: bool, **fields: Any
) -> None:
    """The exact chance a Cogent check passes (subcommands: advise, assist, collaborate, ...)."""
    if context.invoked_subcommand is not None:
        return
    rules = Rules(edition=edition, destiny_after_cap=destiny_after_cap)
    request = ask(CheckOddsRequest, **fields)
    played = odds_check(request, table_for(rules)).result
    result, breakdown, data = played.odds, played.breakdown, played.to_data()

    def render() -> None:
        if breakdown:
            console.print(
                f"{escape(fields['skill'] or '')}: {result.pool}D6 = {pool_breakdown(breakdown)}"
            )
        say(played.rules_applied)  # why the sheet's pool lost dice: its injuries
        console.print(
            f"{result.pool}D6 vs CL {result.challenge_level} (wins on {result.win_on}-6): "
            f"[bold]{float(result.p_pass):.2%}[/bold] ({data['p_pass']})"
        )
        if result.automatic:
            console.print("  skill specialty: a routine check passes without a roll")
        for wins, p in result.distribution:
            console.print(f"  {wins:>3} wins  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("advise")
@request_options(AdviseRequest)
@json_option
def odds_cogent_advise(as_json: bool, **fields: Any) -> None:
    """The CL whose chance of success is nearest the wished one (000 > Narrator Declares the CL)."""
    request = ask(AdviseRequest, **fields)
    advice = odds_advise(request, table_for()).result
    data = advice.to_data()
    emit(
        data,
        as_json,
        lambda: console.print(
            f"{request.pool}D6 at {request.chance:g}%: [bold]CL {advice.challenge_level}[/bold] "
            f"({float(advice.p_pass):.2%} to pass)"
        ),
    )


@odds_cogent.command("conflict")
@request_options(ConflictOddsRequest)
@json_option
def odds_cogent_conflict(as_json: bool, **fields: Any) -> None:
    """Who wins a conflict and the distribution of victory levels (ties rerolled)."""
    request = ask(ConflictOddsRequest, **fields)
    result = odds_conflict(request, table_for()).result
    data = result.to_data()

    def render() -> None:
        console.print(
            f"a {float(result.p_a):.2%} | b {float(result.p_b):.2%} | tie {float(result.p_tie):.2%}"
        )
        for difference, p in result.difference:
            console.print(f"  a - b = {difference:>3}  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("assist")
@request_options(AssistOddsRequest)
@json_option
def odds_cogent_assist(as_json: bool, **fields: Any) -> None:
    """A core assist: its capped bonus and the assisted check's odds (002 > Assists)."""
    request = ask(AssistOddsRequest, **fields)
    result = odds_assist(request, table_for()).result
    alone, assisted, data = result.alone, result.assisted, result.to_data()

    def render() -> None:
        console.print(
            f"{request.pool}D6 vs CL {request.challenge_level}: {float(alone.p_pass):.2%} alone, "
            f"[bold]{float(assisted.p_pass):.2%}[/bold] assisted ({data['p_pass']})"
        )
        for value, p in result.bonus:
            console.print(f"  bonus {value:+d}  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("collaborate")
@request_options(CollaborateOddsRequest)
@json_option
def odds_cogent_collaborate(as_json: bool, **fields: Any) -> None:
    """A tiered collaboration: summed wins against CL x characters (000 > Collaborations)."""
    request = ask(CollaborateOddsRequest, **fields)
    result = odds_collaborate(request, table_for()).result
    data, p_pass = result.to_data(), result.p_pass
    emit(
        data,
        as_json,
        lambda: console.print(
            f"{len(request.pools)} characters vs CL {data['cl']}: [bold]{float(p_pass):.2%}[/bold] "
            f"({data['p_pass']})"
        ),
    )
