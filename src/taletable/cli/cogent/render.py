"""Readable reports of Cogent results for people (the JSON comes from the same records)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.markup import escape

from taletable.cli.common import console, say_outcome
from taletable.explain import Note, render
from taletable.systems.cogent.assists import AssistConversion, AssistResult, CollaborationResult
from taletable.systems.cogent.checks import CheckResult
from taletable.systems.cogent.conflicts import ConflictResult
from taletable.systems.cogent.destiny_roll import DestinyRollResult
from taletable.systems.cogent.dice import WIN_ON
from taletable.systems.cogent.pools import Contribution
from taletable.systems.cogent.tables import ChallengeLevelScale, challenge_level_scale

__all__ = [
    "edition_option",
    "pool_breakdown",
    "render_assist",
    "render_check",
    "render_collaboration",
    "render_conflict",
    "render_destiny_roll",
    "render_levels",
    "sheet_options",
    "show_faces",
]

F = TypeVar("F", bound=Callable[..., Any])


def sheet_options(function: F) -> F:
    """Add ``--character FILE --skill NAME [--situation WORDS]``: a check's pool from a sheet."""
    options = (
        click.option(
            "--character", type=click.Path(dir_okay=False), help="Build the pool from this sheet."
        ),
        click.option(
            "--skill", help="With --character: the skill, vocational skill or specialisation."
        ),
        click.option(
            "--situation",
            help="With --character: the check's situation for a disabling penalty that holds "
            "only in one (environmental, deception, persuasion: Imperceptive, Gullible, "
            "Impressionable).",
        ),
    )
    for option in reversed(options):
        function = option(function)
    return function


def edition_option(function: F) -> F:
    """Add ``--edition core|tiered`` (default core)."""
    return click.option(
        "--edition",
        type=click.Choice(["core", "tiered"]),
        default="core",
        show_default=True,
        help="Cogent edition: core (Core Rule Book v1.3.1) or tiered (Playing the Game).",
    )(function)


def show_faces(faces: tuple[int, ...], win_on: int) -> str:
    """Faces as rich markup, winning dice in bold green."""
    if not faces:
        return "[dim](no dice)[/dim]"
    return " ".join(f"[bold green]{f}[/]" if f >= win_on else f"[dim]{f}[/]" for f in faces)


def pool_breakdown(parts: tuple[Contribution, ...]) -> str:
    """A pool's named parts in one line: ``base 3, RFL +1, Stealth +2`` (as rich markup: a
    name a person typed is escaped, so it prints as typed)."""
    shown = [f"{escape(part.source)} {part.dice:+d}" for part in parts[1:]]
    first = f"{escape(parts[0].source)} {parts[0].dice}" if parts else ""
    return ", ".join([first, *shown]) if parts else "(empty)"


def _rules(applied: tuple[Note, ...]) -> None:
    for line in applied:
        console.print(f"  [dim]· {escape(render(line))}[/dim]")


def render_check(result: CheckResult) -> None:
    """Print a check: the pool, the dice, the wins and the outcome, and the rules applied."""
    level = challenge_level_scale(result.edition).named(result.challenge_level)  # type: ignore[arg-type]
    name = f" ({escape(level.name)})" if level else ""
    scaling = ", scaling check" if result.scaling else ""
    console.print(f"[bold]{result.pool}D6[/bold] = {pool_breakdown(result.breakdown)}")
    console.print(
        f"vs [bold]CL {result.challenge_level}[/bold]{name}{scaling}; dice win on {result.win_on}-6"
    )
    for roll in result.rolls:
        console.print(
            f"  {escape(roll.reason)}: {show_faces(roll.faces, result.win_on)} → {roll.wins} win(s)"
        )
    for part in result.adjustments:
        console.print(f"  {escape(part.source)}: {part.wins:+d} win(s)")
    if result.wins is not None:
        console.print(f"wins {result.wins}, margin {result.margin:+d}")
    say_outcome(result.summary, result.passed)
    if result.injury_level is not None:
        console.print(f"[red]reflex action: level {result.injury_level} injury[/red]")
    if result.capable is False:
        console.print(
            "[yellow]the pool is not greater than the CL: not capable of the task[/yellow]"
        )
    _rules(result.rules_applied)


def render_conflict(result: ConflictResult) -> None:
    """Print a conflict, each exchange and the victory level."""
    for exchange in result.exchanges:
        tie = " [yellow]tie[/yellow]" if exchange.tied else ""
        console.print(
            f"{escape(exchange.a.reason)}: a {show_faces(exchange.a.faces, result.win_on_a)}"
            f" → {exchange.a.wins} | b {show_faces(exchange.b.faces, result.win_on_b)}"
            f" → {exchange.b.wins}{tie}"
        )
    say_outcome(result.summary)
    _rules(result.rules_applied)


def render_assist(result: AssistResult | CheckResult, conversion: AssistConversion | None) -> None:
    """Print an assist: the roll and what it gives the assisted roll."""
    if isinstance(result, AssistResult):
        console.print(
            f"[bold]{result.pool}D6[/bold] = {pool_breakdown(result.breakdown)}"
            f" vs assist CL {result.challenge_level}"
        )
        console.print(f"  {show_faces(result.faces, WIN_ON)} → {result.wins} win(s)")
        say_outcome(result.summary)
        _rules(result.rules_applied)
        return
    render_check(result)
    if conversion is not None:
        say_outcome(conversion.summary)


def render_collaboration(result: CollaborationResult) -> None:
    """Print each character's roll and the group's result."""
    for pool, roll in zip(result.pools, result.rolls, strict=True):
        reason = escape(roll.reason)
        console.print(f"{reason} ({pool}D6): {show_faces(roll.faces, WIN_ON)} → {roll.wins}")
    console.print(f"{result.wins} wins summed vs group CL {result.challenge_level}")
    say_outcome(result.summary, result.passed)
    _rules(result.rules_applied)


def render_destiny_roll(result: DestinyRollResult) -> None:
    """Print a destiny roll."""
    console.print(f"d20: [bold]{result.roll}[/bold]")
    if result.critical:
        console.print(f"[bold]critical {result.critical}[/bold]")
    if result.band:
        console.print(f"band: {result.band} ({result.band_meaning})", markup=False)
    if result.challenge_level is not None:
        outcome = "[green]passed[/]" if result.passed else "[red]failed[/]"
        console.print(
            f"vs CL {result.challenge_level} ({result.chance}%):"
            f" {outcome}, margin {result.margin:+d}"
        )
    _rules(result.rules_applied)


def render_levels(scale: ChallengeLevelScale) -> None:
    """Print a CL scale and its examples."""
    from rich.table import Table  # only here: a check's start-up need not load it

    table = Table("CL", "Name", "Description", title=escape(scale.source))
    for level in scale.levels:
        table.add_row(str(level.challenge_level), escape(level.name), escape(level.description))
    console.print(table)
    for example in scale.examples:
        console.print(f"  CL {example.challenge_level}: {example.task}", markup=False)
