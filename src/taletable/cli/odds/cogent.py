"""`taletable odds cogent ...`: Cogent's checks, conflicts, assists, collaborations and duels."""

from __future__ import annotations

from fractions import Fraction

import click

from taletable.cli.cogent.render import edition_option, pool_breakdown, sheet_options
from taletable.cli.common import console, emit, json_option, parse_int_list
from taletable.errors import InputError
from taletable.prob import Estimate, fraction_text, probability_rows
from taletable.systems.cogent.character import check_pool, load_character
from taletable.systems.cogent.destiny import parse_before_modes
from taletable.systems.cogent.dice import win_threshold
from taletable.systems.cogent.fighters import chosen_weapon, load_fighter_sheet, parse_fighter
from taletable.systems.cogent.odds import (
    advise_challenge_level,
    assist_bonus_distribution,
    check_odds,
    collaboration_odds,
    conflict_odds,
)
from taletable.systems.cogent.odds.duel import Duelist, duel_odds, duelist_from_sheet
from taletable.systems.cogent.odds.fight import fight_odds
from taletable.systems.cogent.pools import Contribution
from taletable.systems.cogent.rules import Rules

__all__ = ["odds_cogent"]


@click.group("cogent", invoke_without_command=True)
@click.option("--pool", type=int, help="Dice in the pool.")
@click.option("--cl", "challenge_level", type=int, help="Challenge Level.")
@edition_option
@click.option("--advantage", is_flag=True, help="Narrator's Advantage (tiered).")
@click.option("--disadvantage", is_flag=True, help="Narrator's Disadvantage (tiered).")
@click.option(
    "--destiny-before", default="", metavar="MODE[,MODE]", help="advantage; die, half (tiered)."
)
@click.option("--destiny-after", type=int, default=0, help="Destiny points after the roll.")
@click.option(
    "--destiny-after-cap", is_flag=True, help="Core: destiny never lifts wins past the dice rolled."
)
@click.option("--routine", is_flag=True, help="Routine check: skill specialty may apply.")
@sheet_options
@json_option
@click.pass_context
def odds_cogent(
    context: click.Context,
    pool: int | None,
    challenge_level: int | None,
    edition: str,
    advantage: bool,
    disadvantage: bool,
    destiny_before: str,
    destiny_after: int,
    destiny_after_cap: bool,
    routine: bool,
    character: str | None,
    skill: str | None,
    situation: str | None,
    as_json: bool,
) -> None:
    """The exact chance a Cogent check passes (subcommands: advise, assist, collaborate, ...)."""
    if context.invoked_subcommand is not None:
        return
    rules = Rules(edition=edition, destiny_after_cap=destiny_after_cap)
    breakdown: tuple[Contribution, ...] = ()
    if character is not None or skill is not None or situation is not None:
        if character is None or skill is None or pool is not None:
            raise InputError(
                "--character/--skill", "give both, and no --pool",
                expected="--character FILE --skill NAME",
            )  # fmt: skip
        sheet = load_character(character)
        rules = rules.model_copy(update={"edition": sheet.edition})
        built = check_pool(sheet, skill, situation=situation)
        pool, breakdown = built.size, built.contributions
    if pool is None or challenge_level is None:
        raise InputError("--pool/--cl", "both are needed", expected="--pool N --cl C")
    if (advantage or disadvantage) and rules.edition == "core":
        raise InputError(
            "--advantage", "narrator Advantage is tiered only", expected="--edition tiered"
        )
    result = check_odds(
        pool,
        challenge_level,
        rules=rules,
        advantage=advantage,
        disadvantage=disadvantage,
        destiny_before=parse_before_modes(destiny_before, rules, field="--destiny-before"),
        destiny_after=destiny_after,
        routine=routine,
    )
    data = result.to_contract()
    if breakdown:
        data["breakdown"] = [part.model_dump() for part in breakdown]

    def render() -> None:
        if breakdown:
            console.print(f"{skill}: {result.pool}D6 = {pool_breakdown(breakdown)}")
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
    if not 0 <= chance <= 100:  # also refuses nan
        raise InputError("--chance", f"{chance}", expected="0 to 100 percent")
    win_on = win_threshold(advantage=advantage, disadvantage=disadvantage)
    wished = Fraction(chance / 100).limit_denominator(10_000)
    advice = advise_challenge_level(pool, wished, win_on=win_on)
    data = {
        "pool": pool,
        "chance": chance,
        "win_on": win_on,
        "cl": advice.challenge_level,
        "p_pass": fraction_text(advice.p_pass),
        "p_pass_float": float(advice.p_pass),
    }
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
    result = conflict_odds(pool_a, pool_b, aware_and_active=not not_aware)
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
    bonus = assist_bonus_distribution(assist_pool, assist_cl, helpers)
    alone = check_odds(pool, challenge_level)
    assisted = check_odds(pool, challenge_level, assist_bonus=bonus)
    data = {
        "p_pass_alone": fraction_text(alone.p_pass),
        "p_pass": fraction_text(assisted.p_pass),
        "p_pass_float": float(assisted.p_pass),
        "bonus": probability_rows(bonus.items(), "bonus"),
        "distribution": probability_rows(assisted.distribution, "wins"),
    }

    def render() -> None:
        console.print(
            f"{pool}D6 vs CL {challenge_level}: {float(alone.p_pass):.2%} alone, "
            f"[bold]{float(assisted.p_pass):.2%}[/bold] assisted ({data['p_pass']})"
        )
        for value, p in bonus.items():
            console.print(f"  bonus {value:+d}  {float(p):7.2%}")

    emit(data, as_json, render)


@odds_cogent.command("collaborate")
@click.option("--pools", required=True, metavar="N,N,...", help="Each character's pool.")
@click.option("--cl", "challenge_level", type=int, required=True, help="The individual CL.")
@json_option
def odds_cogent_collaborate(pools: str, challenge_level: int, as_json: bool) -> None:
    """A tiered collaboration: summed wins against CL x characters (000 > Collaborations)."""
    sizes = parse_int_list(pools, field="--pools")
    p_pass = collaboration_odds(sizes, challenge_level)
    data = {
        "pools": list(sizes),
        "cl": challenge_level * len(sizes),
        "p_pass": fraction_text(p_pass),
        "p_pass_float": float(p_pass),
    }
    emit(
        data,
        as_json,
        lambda: console.print(
            f"{len(sizes)} characters vs CL {data['cl']}: [bold]{float(p_pass):.2%}[/bold] "
            f"({data['p_pass']})"
        ),
    )


def _duelist(text: str) -> tuple[Duelist, str]:
    """``FILE[:WEAPON]`` (a character, a statblock or ``@NAME`` of the bestiary) as a duelist."""
    reference, _, weapon = text.partition(":")
    sheet = load_fighter_sheet(reference)
    chosen = chosen_weapon(sheet, weapon)
    duelist = duelist_from_sheet(sheet, chosen)
    return duelist, f"{sheet.identity.name} ({chosen or 'unarmed'}, {duelist.pool}D6)"


@odds_cogent.command("duel")
@click.option(
    "--a", "side_a", required=True, metavar="FILE[:WEAPON]", help="Side a: sheet, statblock, @NAME."
)
@click.option(
    "--b", "side_b", required=True, metavar="FILE[:WEAPON]", help="Side b: sheet, statblock, @NAME."
)
@click.option("--rounds", type=int, default=30, show_default=True, help="Horizon in rounds.")
@json_option
def odds_cogent_duel(side_a: str, side_b: str, rounds: int, as_json: bool) -> None:
    """Exact duel odds: who is incapacitated or killed first, and when (stated policies)."""
    a, label_a = _duelist(side_a)
    b, label_b = _duelist(side_b)
    result = duel_odds(a, b, horizon=rounds)
    data = {"a": label_a, "b": label_b, **result.to_contract()}

    def render() -> None:
        console.print(
            f"a: {label_a} puts b down: [bold]{float(result.p_a):.2%}[/bold] "
            f"(kills {float(result.p_a_kills):.2%})"
        )
        console.print(
            f"b: {label_b} puts a down: [bold]{float(result.p_b):.2%}[/bold] "
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
    if not 1 <= rounds <= 500:
        raise InputError("--rounds", f"{rounds}", expected="1 to 500")
    parsed = []
    for text in fighters:
        fighter, secondary = parse_fighter(text)
        if secondary is not None:
            raise InputError(
                "--fighter", f"{text!r}: dual wielding is not simulated in fight odds",
                expected="ID:SIDE:FILE[:WEAPON]",
            )  # fmt: skip
        parsed.append(fighter)
    result = fight_odds(
        parsed, samples=samples, seed=seed,
        targeting="most injured" if targeting == "most-injured" else "first", max_rounds=rounds,
    )  # fmt: skip
    data = result.to_contract()

    def render() -> None:
        def figure(estimate: Estimate) -> str:
            return f"{estimate.probability:.1%} ± {estimate.bound:.1%}"

        console.print(f"{samples} fights (seed {seed}), 99.9% bounds; {result.mean_rounds:.1f}"
                      " rounds on average")  # fmt: skip
        for side, estimate in result.wins.items():
            console.print(f"side {side} is the last standing: [bold]{figure(estimate)}[/bold]")
        console.print(f"undecided after {rounds} rounds: {figure(result.undecided)}")
        for fate in result.fates:
            console.print(
                f"  {fate.id} ({fate.side}): down {figure(fate.down)}, dead {figure(fate.dead)}"
            )

    emit(data, as_json, render)
