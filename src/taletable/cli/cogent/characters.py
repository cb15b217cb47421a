"""`taletable cogent character ...` and `taletable cogent buy`: sheets from the command line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from taletable.cli.cogent.character_awards import register_awards
from taletable.cli.cogent.character_prompts import prompted_sheet
from taletable.cli.cogent.character_sheet import render_pools, render_sheet
from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
    table_for,
)
from taletable.cli.options import request_options
from taletable.errors import InputError
from taletable.play.character_creation import NewCharacterRequest, new_character
from taletable.play.characters import AdvanceRequest, BuyRequest, PoolsRequest
from taletable.play.characters import advance as play_advance
from taletable.play.characters import buy as play_buy
from taletable.play.characters import character_pools as play_pools
from taletable.store.sheets import load_character
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter

__all__ = ["register"]

Sheet = CoreCharacter | TieredCharacter


@click.group("character")
def character() -> None:
    """Character sheets: create, validate, show, pools, advance, and changes in play."""


def _report_data(sheet: Sheet, *, cost_increase: int = 1) -> dict[str, Any]:
    report = validate(sheet, cost_increase=cost_increase)
    return {
        "legal": report.legal,
        "problems": [problem.to_data() for problem in report.problems],
        "budget": report.budget.to_data(),
    }


def _render_report(data: dict[str, Any]) -> None:
    budget = data["budget"]
    left = (
        f"attribute points left {budget['attribute_points_left']} of {budget['attribute_points']}; "
        f"skill points left {budget['skill_points_left']} of {budget['skill_points']}"
    )
    if budget["vocation_points"]:
        unused = budget["vocation_points"] - budget["vocation_points_spent"]
        left += f"; vocation points left {unused} of {budget['vocation_points']}"
    console.print(left)
    console.print("  from " + ", ".join(budget["sources"]), style="dim", markup=False)
    if data["legal"]:
        console.print("[bold green]legal[/bold green]")
    for problem in data["problems"]:
        found, rule, fix = (escape(problem[key]) for key in ("found", "rule", "fix"))
        console.print(f"[red]✗[/red] {found} ({rule}); {fix}")


@character.command("new")
@click.option(
    "--from",
    "from_file",
    type=click.Path(dir_okay=False),
    help="Build from this file (non-interactive).",
)
@click.option(
    "--out", type=click.Path(dir_okay=False), required=True, help="Where to save (.yaml or .json)."
)
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@dice_options
@json_option
def new(
    from_file: str | None,
    out: str,
    force: bool,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Create a character: from a file, or by prompts walking every creation step.

    The sheet must be a legal new character (every creation rule of its edition and mode, and
    the identity creation asks for); an illegal one is refused and nothing is saved. The d20
    rolls of the prompts (disabling characteristics, quirks of wealth) use --faces or --seed.
    """
    if Path(out).exists() and not force:
        raise InputError("--out", f"{out} exists", expected="another path, or --force")
    if Path(out).suffix.lower() not in {".yaml", ".yml", ".json"}:
        raise InputError("--out", f"{out}: unknown file type", expected=".yaml, .yml or .json")
    table = table_for()
    if from_file is not None and (faces is not None or seed is not None):
        raise InputError(
            "--faces" if faces is not None else "--seed",
            "a sheet read --from a file rolls no dice",
            expected="--faces and --seed without --from",
        )
    if from_file is not None:
        data = load_character(from_file).model_dump(mode="json")
    else:
        source = make_source(faces, seed)
        data = prompted_sheet(replace(table, dice=source))
        finish_source(source)
    request = NewCharacterRequest(sheet=data, key=out, replace=force)
    created = new_character(request, table).result

    def render() -> None:
        console.print(f"saved {out}", markup=False)
        _render_report(created.to_data())

    emit(created, as_json, render)


@character.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--cost-increase",
    type=click.IntRange(0, 5),
    default=1,
    show_default=True,
    help="Extra skill points per point in a skill marked * (RULINGS.md).",
)
@json_option
def validate_command(file: str, cost_increase: int, as_json: bool) -> None:
    """Check a sheet against every creation rule; exit 2 when it is not legal."""
    data = _report_data(load_character(file), cost_increase=cost_increase)
    emit(data, as_json, lambda: _render_report(data))
    if not data["legal"]:
        raise click.exceptions.Exit(2)


@character.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def show(file: str, as_json: bool) -> None:
    """Print a readable sheet."""
    sheet = load_character(file)

    def render() -> None:
        render_sheet(sheet)
        _render_report(_report_data(sheet))

    emit(sheet.to_data(), as_json, render)


@character.command("pools")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(PoolsRequest, skip=("character",))
@json_option
def pools(file: str, as_json: bool, **fields: Any) -> None:
    """Every check pool and combat pool of a sheet or a statblock, with how each is built
    (--hardcore-armour, --hardcore-weapons: by the hardcore combat rules)."""
    request = ask(PoolsRequest, character=file, **fields)
    summary = play_pools(request, table_for()).result
    emit(summary, as_json, lambda: render_pools(summary))


@character.command("advance")
@click.argument("file", type=click.Path(dir_okay=False))
@request_options(AdvanceRequest, skip=("character", "out"))
@click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
@json_option
def advance(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
    """Apply a campaign event (recorded in the sheet's history) and save."""
    request = ask(AdvanceRequest, character=file, out=out, **fields)
    last = play_advance(request, table_for()).result
    emit(
        last.to_data(),
        as_json,
        lambda: console.print(f"{last.event}: {last.detail}", markup=False),
    )


def buy_command() -> click.Command:
    """`taletable cogent buy`: spend commerce points."""

    @click.command("buy")
    @click.argument("file", type=click.Path(dir_okay=False))
    @request_options(BuyRequest, skip=("character", "out"), flags={"for_other": "--for"})
    @click.option("--out", type=click.Path(dir_okay=False), help="Save here instead of over FILE.")
    @json_option
    def buy(file: str, out: str | None, as_json: bool, **fields: Any) -> None:
        """Buy an item with commerce points (002 > Commerce Points; a tiered sheet too)."""
        request = ask(BuyRequest, character=file, out=out, **fields)
        record = play_buy(request, table_for()).result

        def render() -> None:
            console.print(
                f"{record.item} (value {record.effective_value}) costs {record.cost}: "
                f"commerce {record.points_before} -> {record.points_after}",
                markup=False,
            )
            for note in record.notes:
                console.print(f"  {note}", markup=False)

        emit(record, as_json, render)

    return buy


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    register_awards(character)
    group.add_command(character)
    group.add_command(buy_command())
