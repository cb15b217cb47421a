"""Pieces every command shares: dice options, JSON output, and parsing helpers.

Nothing here decides a rule (DESIGN > Principles 1): commands parse, call the engine, render.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from taletable._model import Record
from taletable.cli.keys import encounter_key
from taletable.dice import DiceSource, GivenFaces, SeededDice, SystemDice, parse_faces
from taletable.errors import InputError
from taletable.explain import Note, render
from taletable.library import rules_library
from taletable.play.context import Table
from taletable.play.requests import Request, input_error
from taletable.store import FileStore
from taletable.systems.cogent.rules import CORE, Rules

__all__ = [
    "ask",
    "console",
    "dice_options",
    "emit",
    "finish_source",
    "json_option",
    "make_source",
    "parse_int_list",
    "say_outcome",
    "table_for",
]

F = TypeVar("F", bound=Callable[..., Any])
Q = TypeVar("Q", bound=Request)


class _Console(Console):
    """Rich's console, but a reader that stops early (``| head``) ends the command quietly."""

    def on_broken_pipe(self) -> None:
        """Raise BrokenPipeError for ``main`` to end with status 0 (rich would exit 1)."""
        self.quiet = True
        raise BrokenPipeError


console = _Console(highlight=False, soft_wrap=True)


def make_source(faces: str | None, seed: int | None, *, field: str = "--faces") -> DiceSource:
    """The dice source a command asked for: given faces, a seed, or system randomness."""
    if faces is not None and seed is not None:
        raise InputError(
            f"{field}/--seed", "give either faces or a seed, not both", expected="one of them"
        )
    if faces is not None:
        return parse_faces(faces, field=field)
    if seed is not None:
        return SeededDice(seed)
    return SystemDice()


def table_for(
    rules: Rules = CORE, *, seed: int | None = None, faces: str | None = None, sealed: bool = False
) -> Table:
    """The table a command plays at: its rules, the house rules in force, files as the store,
    and dice from ``--seed`` or the machine (``--faces`` go in the request, not here);
    ``sealed``: encounters are sealed with the user's key (combat commands)."""
    if faces is not None and seed is not None:
        raise InputError("--faces/--seed", "give either faces or a seed, not both",
                         expected="one of them")  # fmt: skip
    dice = SeededDice(seed) if seed is not None else SystemDice()
    key = encounter_key() if sealed else None
    return Table(rules=rules, library=rules_library(), dice=dice, store=FileStore(), seal_key=key)


def ask(request: type[Q], **fields: Any) -> Q:
    """The request of a command, from its options; a bad value names the option's field."""
    try:
        return request(**fields)
    except ValidationError as error:
        raise input_error(error) from None


def finish_source(source: DiceSource) -> None:
    """After a roll: faces given by a person must all have been used."""
    if isinstance(source, GivenFaces):
        source.ensure_all_used()


def dice_options(function: F) -> F:
    """Add ``--faces LIST`` and ``--seed S`` to a command."""
    function = click.option("--seed", type=int, default=None, help="Seed for a reproducible roll.")(
        function
    )
    function = click.option(
        "--faces",
        default=None,
        metavar="LIST",
        help="Faces rolled on physical dice, in order, e.g. 1,3,3,4 (rerolls included).",
    )(function)
    return function


def json_option(function: F) -> F:
    """Add ``--json``: print the result record as JSON instead of the readable report."""
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(
        function
    )


def say(lines: Iterable[Note]) -> None:
    """Print each note (a rule applied, a line of a fight's log) in English."""
    for line in lines:
        console.print(render(line), markup=False)


def say_outcome(summary: Note, passed: bool | None = None) -> None:
    """Print a result's one-line summary in bold, in the words the live table's log shows it
    in (green for a pass, red for a failure)."""
    colour = "" if passed is None else " green" if passed else " red"
    console.print(f"[bold{colour}]{escape(render(summary))}[/]")


def emit(result: Record | dict[str, Any], as_json: bool, render: Callable[[], None]) -> None:
    """Print a result: as JSON for programs, or through ``render`` for people."""
    if as_json:
        data = result.to_data() if isinstance(result, Record) else result
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        render()


def parse_int_list(text: str, *, field: str) -> tuple[int, ...]:
    """Read ``"1,2,3"`` into integers, or fail naming ``field``."""
    values: list[int] = []
    for part in text.replace(",", " ").split():
        try:
            values.append(int(part))
        except ValueError:
            raise InputError(
                field, f"{part!r} is not a whole number", expected="e.g. 1,2,3"
            ) from None
    if not values:
        raise InputError(field, "the list is empty", expected="e.g. 1,2,3")
    return tuple(values)
