"""`taletable odds cogent duel` and `... fight`: the odds of fights, on the combat engine,
which `taletable odds cogent` (a check's odds) imports only when one of these is named."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.common import ask, console, emit, json_option, table_for
from taletable.cli.options import request_options
from taletable.play.odds_combat import DuelRequest, FightRequest, odds_duel, odds_fight
from taletable.prob import Estimate

__all__ = ["odds_cogent_duel", "odds_cogent_fight"]


@click.command("duel")
@request_options(DuelRequest)
@json_option
def odds_cogent_duel(as_json: bool, **fields: Any) -> None:
    """Exact duel odds: who is incapacitated or killed first, and when (stated policies;
    --hardcore-armour, --hardcore-weapons: by the hardcore combat rules)."""
    request = ask(DuelRequest, **fields)
    played = odds_duel(request, table_for()).result
    result, label_a, label_b, data = played.odds, played.a, played.b, played.to_data()

    def render() -> None:
        console.print(
            f"a: {escape(label_a)} puts b down: [bold]{float(result.p_a):.2%}[/bold] "
            f"(kills {float(result.p_a_kills):.2%})"
        )
        console.print(
            f"b: {escape(label_b)} puts a down: [bold]{float(result.p_b):.2%}[/bold] "
            f"(kills {float(result.p_b_kills):.2%})"
        )
        console.print(f"undecided after {result.rounds} rounds: {float(result.p_undecided):.2%}")

    emit(data, as_json, render)


@click.command("fight")
@request_options(FightRequest, flags={"fighters": "--fighter"})
@json_option
def odds_cogent_fight(as_json: bool, **fields: Any) -> None:
    """Monte Carlo odds of a group fight on the real engine, with 99.9% error bounds."""
    request = ask(FightRequest, **fields)
    result = odds_fight(request, table_for()).result
    data = result.to_data()

    def render() -> None:
        def figure(estimate: Estimate) -> str:
            return f"{estimate.probability:.1%} ± {estimate.bound:.1%}"

        console.print(
            f"{request.samples} fights (seed {request.seed}), 99.9% bounds; "
            f"{result.mean_rounds:.1f} rounds on average"
        )
        for side, estimate in result.wins.items():
            console.print(
                f"side {escape(side)} is the last standing: [bold]{figure(estimate)}[/bold]"
            )
        console.print(f"undecided after {request.rounds} rounds: {figure(result.undecided)}")
        for fate in result.fates:
            console.print(
                f"  {fate.id} ({fate.side}): down {figure(fate.down)}, dead {figure(fate.dead)}",
                markup=False,
            )

    emit(data, as_json, render)
