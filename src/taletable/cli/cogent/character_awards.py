"""`taletable cogent character raise|commerce|quirk|destiny`: changes in play, recorded in the
history.

A thin shell (DESIGN > Principles 1): parse the options into the play request, play it at the
table of files, print the history line the engine wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from taletable.cli.common import ask, console, dice_options, emit, json_option, say, table_for
from taletable.cli.options import request_options
from taletable.play.character_awards import (
    CommerceRequest,
    DestinyRequest,
    QuirkRequest,
    RaiseRequest,
)
from taletable.play.character_awards import commerce as play_commerce
from taletable.play.character_awards import destiny as play_destiny
from taletable.play.character_awards import quirk as play_quirk
from taletable.play.character_awards import raise_attribute_point as play_raise
from taletable.play.context import Table
from taletable.play.events import Played
from taletable.play.healing import RestRequest, TreatRequest
from taletable.play.requests import Request
from taletable.systems.cogent.character.sheet import Award

__all__ = ["register_awards"]

F = TypeVar("F", bound=Callable[..., Any])
Q = TypeVar("Q", bound=Request)


def _sheet_change(name: str, request: type[Request]) -> Callable[[F], click.Command]:
    """A command ``NAME FILE [options of the request] [--out FILE] [--json]``."""

    def make(function: F) -> click.Command:
        function = json_option(function)
        function = click.option(
            "--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE."
        )(function)
        function = request_options(request, skip=("character", "out"))(function)
        function = click.argument("file", type=click.Path(dir_okay=False))(function)
        return click.command(name)(function)

    return make


def _play(request: type[Q], act: Callable[[Q, Table], Played[Award]], file: str,
          out: str | None, as_json: bool, fields: dict[str, Any]) -> None:  # fmt: skip
    _report(act(ask(request, character=file, out=out, **fields), table_for()).result, as_json)


def _report(line: Award, as_json: bool) -> None:
    emit(
        line.to_data(),
        as_json,
        lambda: console.print(f"{line.event}: {line.detail}", markup=False),
    )


@_sheet_change("raise", RaiseRequest)
def raise_command(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
    """Spend an awarded attribute point (an INT point bought so gives no skill points)."""
    _play(RaiseRequest, play_raise, file, out, as_json, fields)


@_sheet_change("commerce", CommerceRequest)
def commerce_command(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
    """Commerce gained in play (002 > Assigning Commerce Points), recorded in the history."""
    _play(CommerceRequest, play_commerce, file, out, as_json, fields)


@_sheet_change("quirk", QuirkRequest)
def quirk_command(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
    """A quirk of wealth's condition came about: Debt's lost income takes 2 levels (tiered: a
    broken quirk loses its +1 CP), recorded in the history."""
    _play(QuirkRequest, play_quirk, file, out, as_json, fields)


@_sheet_change("destiny", DestinyRequest)
def destiny_command(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
    """Award destiny, up to the maximum (002 > Awarding Destiny Points), recorded."""
    _play(DestinyRequest, play_destiny, file, out, as_json, fields)


@click.command("treat")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(TreatRequest, skip=("character", "faces"))
@dice_options
@json_option
def treat_command(
    file: str, faces: str | None, seed: int | None, as_json: bool, **fields: Any
) -> None:
    """Treat an injury: a Survival check at CL of its level; a pass marks it treated (002 >
    Victory Levels; RULINGS.md "healing")."""
    from taletable.play.healing import treat_injury

    request = ask(TreatRequest, character=file, faces=faces, **fields)
    treated = treat_injury(request, table_for(seed=seed, faces=faces)).result
    emit(treated, as_json, lambda: say((*treated.check.rules_applied, treated.summary)))


@click.command("rest")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(RestRequest, skip=("character",))
@json_option
def rest_command(file: str, as_json: bool, **fields: Any) -> None:
    """Rest for days: minor injuries heal in a few, treated ones lose a level every few, an
    untreated serious one waits for treatment (002 > Victory Levels; RULINGS.md "healing")."""
    from taletable.play.healing import rest_character

    rested = rest_character(ask(RestRequest, character=file, **fields), table_for()).result
    emit(rested, as_json, lambda: say((*rested.rules_applied, rested.summary)))


def register_awards(group: click.Group) -> None:
    """Add the commands of play-time changes to `taletable cogent character`."""
    commands = (raise_command, commerce_command, quirk_command, destiny_command)
    for command in (*commands, treat_command, rest_command):
        group.add_command(command)
