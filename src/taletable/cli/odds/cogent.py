"""`taletable odds cogent ...`: Cogent's checks, conflicts, assists, collaborations and duels."""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.cogent.render import edition_option, pool_breakdown
from taletable.cli.common import (
    ask,
    console,
    emit,
    hardcore_options,
    json_option,
    parse_int_list,
    table_for,
)
from taletable.cli.options import request_options
from taletable.play.odds_cogent import (
    AdviseRequest,
    AssistOddsRequest,
    CheckOddsRequest,
    CollaborateOddsRequest,
    ConflictOddsRequest,
    DuelRequest,
    FightRequest,
    odds_advise,
    odds_assist,
    odds_check,
    odds_collaborate,
    odds_conflict,
    odds_duel,
    odds_fight,
)
from taletable.prob import Estimate
from taletable.systems.cogent.rules import Rules

__all__ = ["odds_cogent"]


@click.group("cogent", invoke_without_command=True)
@request_options(CheckOddsRequest)
@edition_option
@click.option(
    "--destiny-after-cap", is_flag=True, help="Core: destiny never lifts wins past the dice rolled."
)
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
    result, breakdown, data = played.odds, played.breakdown, played.to_contract()

    def render() -> None:
        if breakdown:
            console.print(
                f"{escape(fields['skill'] or '')}: {result.pool}D6 = {pool_breakdown(breakdown)}"
            )
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
@click.option("--pool", type=int, required=True, help="A typical pool for the task.")
@click.option("--chance", type=float, required=True, help="Wished chance of success, in percent.")
@click.option("--advantage", is_flag=True, help="The typical roll has Advantage (wins on 3-6).")
@click.option("--disadvantage", is_flag=True, help="The typical roll has Disadvantage (5-6).")
@json_option
def odds_cogent_advise(
    pool: int, chance: float, advantage: bool, disadvantage: bool, as_json: bool
) -> None:
    """The CL whose chance of success is nearest the wished one (000 > Narrator Declares the CL)."""
    request = ask(
        AdviseRequest, pool=pool, chance=chance, advantage=advantage, disadvantage=disadvantage
    )
    advice = odds_advise(request, table_for()).result
    data = advice.to_contract()
    emit(
        data,
        as_json,
        lambda: console.print(
            f"{pool}D6 at {chance:g}%: [bold]CL {advice.challenge_level}[/bold] "
            f"({float(advice.p_pass):.2%} to pass)"
        ),
    )


@odds_cogent.command("conflict")
@click.option("--pool-a", type=int, required=True, help="Side a's pool.")
@click.option("--pool-b", type=int, required=True, help="Side b's pool.")
@click.option(
    "--not-aware",
    is_flag=True,
    help="A tie stands as VL 0 instead of being rerolled (as in one combat exchange).",
)
@json_option
def odds_cogent_conflict(pool_a: int, pool_b: int, not_aware: bool, as_json: bool) -> None:
    """Who wins a conflict and the distribution of victory levels (ties rerolled)."""
    request = ask(ConflictOddsRequest, pool_a=pool_a, pool_b=pool_b, not_aware=not_aware)
    result = odds_conflict(request, table_for()).result
    data = result.to_contract()

    def render() -> None:
        console.print(
            f"a {float(result.p_a):.2%} | b {float(result.p_b):.2%} | tie {float(result.p_tie):.2%}"
        )
        for difference, p in result.difference:
            console.print(f"  a - b = {difference:>3}  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("assist")
@click.option("--pool", type=int, required=True, help="The assisted check's pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The assisted CL.")
@click.option("--assist-pool", type=int, required=True, help="The assisting roller's pool.")
@click.option("--assist-cl", type=int, default=3, show_default=True, help="The assist's CL.")
@click.option("--helpers", type=int, default=0, help="Players assisting besides the roller.")
@json_option
def odds_cogent_assist(
    pool: int, challenge_level: int, assist_pool: int, assist_cl: int, helpers: int, as_json: bool
) -> None:
    """A core assist: its capped bonus and the assisted check's odds (002 > Assists)."""
    request = ask(
        AssistOddsRequest, pool=pool, challenge_level=challenge_level, assist_pool=assist_pool,
        assist_cl=assist_cl, helpers=helpers,
    )  # fmt: skip
    result = odds_assist(request, table_for()).result
    alone, assisted, data = result.alone, result.assisted, result.to_contract()

    def render() -> None:
        console.print(
            f"{pool}D6 vs CL {challenge_level}: {float(alone.p_pass):.2%} alone, "
            f"[bold]{float(assisted.p_pass):.2%}[/bold] assisted ({data['p_pass']})"
        )
        for value, p in result.bonus:
            console.print(f"  bonus {value:+d}  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("collaborate")
@click.option("--pools", required=True, metavar="N,N,...", help="Each character's pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The individual CL.")
@json_option
def odds_cogent_collaborate(pools: str, challenge_level: int, as_json: bool) -> None:
    """A tiered collaboration: summed wins against CL x characters (000 > Collaborations)."""
    sizes = parse_int_list(pools, field="--pools")
    request = ask(CollaborateOddsRequest, pools=sizes, challenge_level=challenge_level)
    result = odds_collaborate(request, table_for()).result
    data, p_pass = result.to_contract(), result.p_pass
    emit(
        data,
        as_json,
        lambda: console.print(
            f"{len(sizes)} characters vs CL {data['cl']}: [bold]{float(p_pass):.2%}[/bold] "
            f"({data['p_pass']})"
        ),
    )


@odds_cogent.command("duel")
@click.option(
    "--a", "side_a", required=True, metavar="FILE[:WEAPON]", help="Side a: sheet, statblock, @NAME."
)
@click.option(
    "--b", "side_b", required=True, metavar="FILE[:WEAPON]", help="Side b: sheet, statblock, @NAME."
)
@click.option("--rounds", type=int, default=30, show_default=True, help="Horizon in rounds.")
@hardcore_options
@json_option
def odds_cogent_duel(
    side_a: str,
    side_b: str,
    rounds: int,
    hardcore_armour: bool,
    hardcore_weapons: bool,
    as_json: bool,
) -> None:
    """Exact duel odds: who is incapacitated or killed first, and when (stated policies;
    --hardcore-armour, --hardcore-weapons: by the hardcore combat rules)."""
    request = ask(
        DuelRequest, a=side_a, b=side_b, rounds=rounds, hardcore_armour=hardcore_armour,
        hardcore_weapons=hardcore_weapons,
    )  # fmt: skip
    played = odds_duel(request, table_for()).result
    result, label_a, label_b, data = played.odds, played.a, played.b, played.to_contract()

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


@odds_cogent.command("fight")
@click.option(
    "--fighter", "fighters", multiple=True, required=True, metavar="ID:SIDE:FILE[:WEAPON]",
    help="A combatant (repeatable); FILE is a sheet, a statblock or @NAME of the bestiary.",
)  # fmt: skip
@click.option("--samples", type=int, default=500, show_default=True, help="Fights to run.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the fights.")
@click.option(
    "--targeting", type=click.Choice(["first", "most-injured"]), default="first",
    show_default=True, help="Whom each fighter attacks: the first able foe, or the most injured.",
)  # fmt: skip
@click.option("--rounds", type=int, default=100, show_default=True, help="Horizon in rounds.")
@json_option
def odds_cogent_fight(
    fighters: tuple[str, ...], samples: int, seed: int, targeting: str, rounds: int,
    as_json: bool,
) -> None:  # fmt: skip
    """Monte Carlo odds of a group fight on the real engine, with 99.9% error bounds."""
    request = ask(
        FightRequest, fighters=fighters, samples=samples, seed=seed, targeting=targeting,
        rounds=rounds,
    )  # fmt: skip
    result = odds_fight(request, table_for()).result
    data = result.to_contract()

    def render() -> None:
        def figure(estimate: Estimate) -> str:
            return f"{estimate.probability:.1%} ± {estimate.bound:.1%}"

        console.print(f"{samples} fights (seed {seed}), 99.9% bounds; {result.mean_rounds:.1f}"
                      " rounds on average")  # fmt: skip
        for side, estimate in result.wins.items():
            console.print(
                f"side {escape(side)} is the last standing: [bold]{figure(estimate)}[/bold]"
            )
        console.print(f"undecided after {rounds} rounds: {figure(result.undecided)}")
        for fate in result.fates:
            console.print(
                f"  {fate.id} ({fate.side}): down {figure(fate.down)}, dead {figure(fate.dead)}",
                markup=False,
            )

    emit(data, as_json, render)
