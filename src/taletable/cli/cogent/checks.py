"""`taletable cogent check|conflict|assist|collaborate|destiny-roll|powerless|challenge-levels`.

A thin shell (DESIGN > Principles 1): parse, call ``taletable.systems.cogent``, render.
"""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.cogent.render import (
    edition_option,
    render_check,
    render_destiny_roll,
    render_levels,
)
from taletable.cli.common import ask, console, dice_options, emit, json_option, table_for
from taletable.cli.options import request_options, rule_options
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


@click.command("check")
@request_options(CheckRequest, skip=("faces",))
@edition_option
@rule_options("destiny_after_cap", "scale_method", "scale_clamp")
@dice_options
@json_option
def check(
    edition: str, destiny_after_cap: bool, scale_method: str, scale_clamp: bool,
    faces: str | None, seed: int | None, as_json: bool, **fields: Any,
) -> None:  # fmt: skip
    """Roll a Cogent dice pool against a Challenge Level, with every rule applied."""
    rules = Rules(
        edition=edition,
        destiny_after_cap=destiny_after_cap,
        scale_method=scale_method,
        scale_clamp=scale_clamp,
    )
    request = ask(CheckRequest, faces=faces, **fields)
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
@request_options(DestinyRollRequest)
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@rule_options("tiered_destiny_criticals", flags={"tiered_destiny_criticals": "--criticals"})
@json_option
def destiny_roll(
    edition: str, seed: int | None, tiered_destiny_criticals: bool, as_json: bool, **fields: Any
) -> None:
    """Roll the d20 destiny roll (core: bands and criticals; tiered: against a CL)."""
    rules = Rules(edition=edition, tiered_destiny_criticals=tiered_destiny_criticals)
    request = ask(DestinyRollRequest, **fields)
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
