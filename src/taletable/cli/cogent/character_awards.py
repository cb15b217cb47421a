"""`taletable cogent character raise|commerce|quirk|destiny`: changes in play, recorded in the
history.

A thin shell (DESIGN > Principles 1): parse the options into the play request, play it at the
table of files, print the history line the engine wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from taletable.cli.common import ask, console, emit, json_option, table_for
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


def register_awards(group: click.Group) -> None:
    """Add the commands of play-time changes to `taletable cogent character`."""
    for command in (raise_command, commerce_command, quirk_command, destiny_command):
        group.add_command(command)
