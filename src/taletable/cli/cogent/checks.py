"""`taletable cogent check|conflict|assist|collaborate|destiny-roll|powerless|challenge-levels`.

A thin shell (DESIGN > Principles 1): parse, call ``taletable.systems.cogent``, render.
"""

from __future__ import annotations

from contextlib import suppress

import click

from taletable.cli.cogent.render import (
    edition_option,
    render_check,
    render_destiny_roll,
    render_levels,
    sheet_options,
)
from taletable.cli.common import ask, console, dice_options, emit, json_option, table_for
from taletable.errors import InputError
from taletable.play.cogent_checks import (
    ChallengeLevelsRequest,
    CheckRequest,
    DestinyRollRequest,
)
from taletable.play.cogent_checks import challenge_levels as play_challenge_levels
from taletable.play.cogent_checks import check as play_check
from taletable.play.cogent_checks import destiny_roll as play_destiny_roll
from taletable.systems.cogent.rules import Rules

__all__ = ["register"]


def _parse_part(text: str) -> tuple[str, int]:
    name, separator, dice = text.rpartition("=")
    try:
        if not separator or not name.strip():
            raise ValueError
        return name.strip(), int(dice)
    except ValueError:
        raise InputError(
            "--part", f"{text!r} is not NAME=DICE", expected="e.g. --part STR=1 --part Athletics=2"
        ) from None


def _scale(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    roller, colon, target = text.replace(",", ":").partition(":")
    with suppress(ValueError):
        if colon:
            return int(roller), int(target)
    raise InputError("--scale", f"{text!r}", expected="ROLLER:TARGET, e.g. --scale 1:-1")


@click.command("check")
@click.option("--pool", type=int, help="Dice in the pool (base 3 included).")
@sheet_options
@click.option(
    "--part",
    "parts",
    multiple=True,
    metavar="NAME=DICE",
    help="A named part of the pool (repeatable): STR=1, Athletics=2, 'medium injury=-2'.",
)
@click.option(
    "--cl", "challenge_level", type=int, help="Challenge Level; none: a scaling check at CL 1."
)
@edition_option
@click.option("--advantage", is_flag=True, help="Narrator's Advantage: win on 3-6 (tiered).")
@click.option("--disadvantage", is_flag=True, help="Narrator's Disadvantage: win on 5-6 (tiered).")
@click.option(
    "--destiny-before",
    default="",
    metavar="MODE[,MODE]",
    help="Spend destiny before: advantage (both); die, half (tiered). One mode per point.",
)
@click.option(
    "--destiny-after",
    default="0",
    metavar="K|MODES",
    help=(
        "Spend destiny after: a number of points (core: +1 win each; tiered: reroll a "
        "failure, raise a success) or tiered modes reroll,raise,lower."
    ),
)
@click.option(
    "--destiny-points",
    type=int,
    help="Destiny points held (checked against the spends); with --character the sheet's are "
    "spent and debited instead.",
)
@click.option(
    "--temporary-destiny",
    type=int,
    default=0,
    help="Temporary destiny from an assist (tiered; may be negative).",
)
@click.option(
    "--npc", is_flag=True, help="The pool was not initiated by a player (no destiny, tiered)."
)
@click.option(
    "--routine", is_flag=True, help="Not under duress and not contested: skill specialty may apply."
)
@click.option(
    "--reflex", is_flag=True, help="A reflex action: a failed margin becomes the injury level."
)
@click.option("--assist-bonus", type=int, default=0, help="Wins added (or taken) by an assist.")
@click.option(
    "--scale",
    "scale_text",
    metavar="ROLLER:TARGET",
    help="Scales of roller and target (tiered), e.g. 1:-1.",
)
@click.option(
    "--destiny-after-cap",
    is_flag=True,
    help="Core option: destiny after the roll lifts wins no higher than the dice rolled.",
)
@click.option(
    "--scale-method",
    type=click.Choice(["table", "difference"]),
    default="difference",
    help="How scale adjusts a result (see RULINGS.md).",
)
@click.option(
    "--no-scale-clamp", is_flag=True, help="001's unclamped scale (a success may become a failure)."
)
@dice_options
@json_option
def check(
    pool: int | None, character: str | None, skill: str | None, situation: str | None,
    parts: tuple[str, ...],
    challenge_level: int | None, edition: str,
    advantage: bool, disadvantage: bool, destiny_before: str, destiny_after: str,
    destiny_points: int | None, temporary_destiny: int, npc: bool, routine: bool, reflex: bool,
    assist_bonus: int, scale_text: str | None, destiny_after_cap: bool, scale_method: str,
    no_scale_clamp: bool, faces: str | None, seed: int | None, as_json: bool,
) -> None:  # fmt: skip
    """Roll a Cogent dice pool against a Challenge Level, with every rule applied."""
    rules = Rules(
        edition=edition,
        destiny_after_cap=destiny_after_cap,
        scale_method=scale_method,
        scale_clamp=not no_scale_clamp,
    )
    request = ask(
        CheckRequest, pool=pool, character=character, skill=skill, situation=situation,
        parts=tuple(_parse_part(part) for part in parts), challenge_level=challenge_level,
        advantage=advantage, disadvantage=disadvantage, destiny_before=destiny_before,
        destiny_after=destiny_after, destiny_points=destiny_points,
        temporary_destiny=temporary_destiny, npc=npc, routine=routine, reflex=reflex,
        assist_bonus=assist_bonus, scale=_scale(scale_text), faces=faces,
    )  # fmt: skip
    played = play_check(request, table_for(rules, seed=seed, faces=faces))
    result = played.result

    def render() -> None:
        render_check(result)
        for event in played.events:
            if "destiny_spent" in event.data:
                console.print(
                    f"destiny: {event.data['destiny_spent']} spent from {event.subject}, "
                    f"{event.data['destiny']} left (saved)"
                )

    emit(result, as_json, render)


@click.command("destiny-roll")
@edition_option
@click.option("--chance", type=int, help="Tiered: the chance of success in percent (sets the CL).")
@click.option("--cl", "challenge_level", type=int, help="Tiered: the CL directly (1-20).")
@click.option("--face", type=int, help="The d20's face, rolled at the table.")
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@click.option(
    "--criticals", is_flag=True, help="Tiered: 1 and 20 are criticals, as in core (RULINGS.md)."
)
@json_option
def destiny_roll(
    edition: str, chance: int | None, challenge_level: int | None, face: int | None,
    seed: int | None, criticals: bool, as_json: bool,
) -> None:  # fmt: skip
    """Roll the d20 destiny roll (core: bands and criticals; tiered: against a CL)."""
    rules = Rules(edition=edition, tiered_destiny_criticals=criticals)
    request = ask(DestinyRollRequest, chance=chance, challenge_level=challenge_level, face=face)
    result = play_destiny_roll(request, table_for(rules, seed=seed)).result
    emit(result, as_json, lambda: render_destiny_roll(result))


@click.command("challenge-levels")
@edition_option
@json_option
def challenge_levels(edition: str, as_json: bool) -> None:
    """The edition's scale of Challenge Levels."""
    table = table_for(Rules(edition=edition))
    scale = play_challenge_levels(ChallengeLevelsRequest(), table).result
    emit(scale, as_json, lambda: render_levels(scale))


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (check, destiny_roll, challenge_levels):
        group.add_command(command)
