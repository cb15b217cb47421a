"""`taletable odds ...` and `taletable cheatsheet ...`: exact odds before the dice are thrown."""

from __future__ import annotations

import os
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from taletable.cli.cogent.render import edition_option
from taletable.cli.common import console, emit, json_option, parse_int_list
from taletable.errors import InputError
from taletable.files import atomic_write_text, read_structured
from taletable.prob import fraction_text, probability_rows
from taletable.systems.boons.checks import MAX_BONUS, BoonsCheck
from taletable.systems.boons.dice import check_boons_and_banes
from taletable.systems.boons.odds import check_total, contest_odds, group_challenge_odds
from taletable.systems.cogent.character import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.destiny import parse_before_modes
from taletable.systems.cogent.dice import win_threshold
from taletable.systems.cogent.odds import (
    advise_challenge_level,
    assist_bonus_distribution,
    cheatsheet_floats,
    cheatsheet_text,
    check_odds,
    collaboration_odds,
    conflict_odds,
)
from taletable.systems.cogent.odds import (
    cheatsheet as build_cheatsheet,
)
from taletable.systems.cogent.odds.duel import Duelist, duel_odds, duelist_from_sheet
from taletable.systems.cogent.odds.heatmap import cheatsheet_png
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.statblock import load_statblock
from taletable.systems.labcats.dice import parse_pool
from taletable.systems.labcats.odds import labcats_odds

__all__ = ["cheatsheet", "odds"]


@click.group()
def odds() -> None:
    """Exact odds of any mechanic, before the dice are thrown."""


@odds.group("cogent", invoke_without_command=True)
@click.option("--pool", type=int, help="Dice in the pool.")
@click.option("--cl", "challenge_level", type=int, help="Challenge Level.")
@edition_option
@click.option("--advantage", is_flag=True, help="Narrator's Advantage (tiered).")
@click.option("--disadvantage", is_flag=True, help="Narrator's Disadvantage (tiered).")
@click.option(
    "--destiny-before", default="", metavar="MODE[,MODE]", help="advantage; die, half (tiered)."
)
@click.option("--destiny-after", type=int, default=0, help="Destiny points after the roll.")
@click.option("--destiny-after-cap", is_flag=True, help="Core: cap wins at the dice rolled.")
@click.option("--routine", is_flag=True, help="Routine check: skill specialty may apply.")
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
    as_json: bool,
) -> None:
    """The exact chance a Cogent check passes (subcommands: advise, assist, collaborate, ...)."""
    if context.invoked_subcommand is not None:
        return
    if pool is None or challenge_level is None:
        raise InputError("--pool/--cl", "both are needed", expected="--pool N --cl C")
    rules = Rules(edition=edition, destiny_after_cap=destiny_after_cap)
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

    def render() -> None:
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
    if not 0 <= chance <= 100:
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
    """``FILE[:WEAPON]`` (a core character or statblock) as a duelist."""
    path, _, weapon = text.partition(":")
    data = read_structured(path)
    if isinstance(data, dict) and data.get("kind") == "statblock":
        sheet = load_statblock(path).as_character()
    else:
        loaded = load_character(path)
        if not isinstance(loaded, CoreCharacter):
            raise InputError("--a/--b", f"{path} is not a core sheet", expected="a core sheet")
        sheet = loaded
    chosen = weapon or (sheet.equipment.weapons[0].name if sheet.equipment.weapons else None)
    duelist = duelist_from_sheet(sheet, chosen)
    return duelist, f"{sheet.identity.name} ({chosen or 'unarmed'}, {duelist.pool}D6)"


@odds_cogent.command("duel")
@click.option(
    "--a", "side_a", required=True, metavar="FILE[:WEAPON]", help="Side a's sheet or statblock."
)
@click.option(
    "--b", "side_b", required=True, metavar="FILE[:WEAPON]", help="Side b's sheet or statblock."
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


def _boons_check(bonus: int, boons: int, banes: int, method: str, passive: bool = False) -> Any:
    """A declared boons check, refusing out-of-range values with the rule's limits."""
    if abs(bonus) > MAX_BONUS:
        raise InputError("--bonus", f"{bonus}", expected=f"within ±{MAX_BONUS}")
    check_boons_and_banes(boons, banes)
    return BoonsCheck(bonus=bonus, boons=boons, banes=banes, passive=passive, method=method)


@odds.command("boons")
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
    bonus: int, boon_count: int, banes: int, target: int | None, passive: bool, method: str,
    party: int | None, difficulty: Any, against_bonus: int | None, against_boons: int,
    against_banes: int, defender: Any, stalemate: bool, as_json: bool,
) -> None:  # fmt: skip
    """The exact chance a 3d8 check reaches its target; or a contest; or a group challenge."""
    check = _boons_check(bonus, boon_count, banes, method, passive)
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
        other = _boons_check(against_bonus, against_boons, against_banes, method)
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


@odds.command("labcats")
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


@click.group()
def cheatsheet() -> None:
    """Success-chance tables for setting challenge levels."""


@cheatsheet.command("cogent")
@click.option("--max-pool", type=int, default=40, show_default=True, help="Largest pool.")
@click.option("--max-cl", type=int, default=20, show_default=True, help="Highest CL.")
@click.option(
    "--win-on", type=click.Choice(["3", "4", "5", "all"]), default="all", help="Win threshold(s)."
)
@click.option(
    "--format", "fmt", type=click.Choice(["table", "csv", "json", "md", "png"]), default="table"
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Write to this file (needed for png; a table is written as CSV).",
)
def cheatsheet_cogent(max_pool: int, max_cl: int, win_on: str, fmt: str, out: str | None) -> None:
    """P(pass) for pools 1..max-pool against CL 0..max-cl (000 > Narrator Declares the CL)."""
    thresholds = (3, 4, 5) if win_on == "all" else (int(win_on),)
    if fmt == "png" or (fmt == "table" and not out):  # pictures need floats: the NumPy path
        floats = cheatsheet_floats(max_pool, max_cl, thresholds)
        if fmt == "png":
            if out is None:
                raise InputError("--out", "a PNG needs a file", expected="--out cheatsheet.png")
            _write_bytes_atomically(Path(out), cheatsheet_png(floats))
            return
        for win_on_value, rows in floats.items():
            table = Table("pool", *(f"CL{c}" for c in range(max_cl + 1)))
            table.title = f"wins on {win_on_value}-6 (percent)"
            for pool, row in enumerate(rows, start=1):
                table.add_row(str(pool), *(f"{p * 100:.0f}" for p in row))
            console.print(table)
        return
    text = cheatsheet_text(build_cheatsheet(max_pool, max_cl, thresholds), fmt)
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(text, nl=False)


def _write_bytes_atomically(path: Path, data: bytes) -> None:
    """Write beside the target, then rename over it: a reader never sees half a file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
