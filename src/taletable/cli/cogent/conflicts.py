"""`taletable cogent conflict|assist|collaborate|powerless`: rolls against other rolls.

Conflicts (002 > How to Play > Conflicts), assists and group assists (002 > Assists),
tiered assists and collaborations (000 > Dice Pools > Assists and Collaborations), and the CL
of a target powerless to oppose.
"""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.cogent.render import (
    edition_option,
    render_assist,
    render_collaboration,
    render_conflict,
)
from taletable.cli.common import (
    ask,
    dice_options,
    emit,
    json_option,
    table_for,
)
from taletable.cli.options import request_options
from taletable.play.cogent_checks import (
    AssistRequest,
    AssistRoll,
    CollaborateRequest,
    ConflictRequest,
    PowerlessRequest,
)
from taletable.play.cogent_checks import assist as play_assist
from taletable.play.cogent_checks import collaborate as play_collaborate
from taletable.play.cogent_checks import conflict as play_conflict
from taletable.play.cogent_checks import powerless as play_powerless
from taletable.systems.cogent.rules import Rules

__all__ = ["register"]


@click.command("conflict")
@request_options(ConflictRequest)
@click.option("--seed", type=int, help="Seed for a reproducible roll.")
@edition_option
@json_option
def conflict(seed: int | None, edition: str, as_json: bool, **fields: Any) -> None:
    """Roll a conflict: most wins wins; the difference is the victory level. Give the faces of
    each side that rolls (a side taking half its pool rolls none)."""
    request = ask(ConflictRequest, **fields)
    faces = fields["faces_b"] if fields["faces_a"] is None else fields["faces_a"]
    table = table_for(Rules(edition=edition), seed=seed, faces=faces)
    result = play_conflict(request, table).result
    emit(result, as_json, lambda: render_conflict(result))


@click.command("assist")
@request_options(AssistRequest, skip=("faces",))
@edition_option
@dice_options
@json_option
def assist(edition: str, faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll an assist: core adds wins over the CL (capped at the CL); tiered converts the result."""
    request = ask(AssistRequest, faces=faces, **fields)
    result = play_assist(request, table_for(Rules(edition=edition), seed=seed, faces=faces)).result
    if isinstance(result, AssistRoll):
        tiered = result
        emit(tiered, as_json, lambda: render_assist(tiered.check, tiered.conversion))
    else:
        core = result
        emit(core, as_json, lambda: render_assist(core, None))


@click.command("collaborate")
@request_options(CollaborateRequest, skip=("faces",))
@dice_options
@json_option
def collaborate(faces: str | None, seed: int | None, as_json: bool, **fields: Any) -> None:
    """Roll a tiered collaboration: group CL = CL x characters; wins are summed."""
    request = ask(CollaborateRequest, faces=faces, **fields)
    result = play_collaborate(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: render_collaboration(result))


@click.command("powerless")
@request_options(PowerlessRequest)
@json_option
def powerless(pool: int, as_json: bool) -> None:
    """The CL for a player acting on an NPC powerless to oppose (lower than half its pool)."""
    result = play_powerless(ask(PowerlessRequest, pool=pool), table_for()).result
    emit(result, as_json, lambda: click.echo(f"CL {result.cl} (pool {result.pool})"))


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (conflict, assist, collaborate, powerless):
        group.add_command(command)
