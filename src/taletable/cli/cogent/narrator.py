"""The narrator's random tables of `taletable cogent`: ``weather`` and ``encounter``.

002 > Supplementary Content > Random Encounter Tables for Classic Medieval Fantasy. The magic
commands are in ``magic.py``, the NPC statblocks in ``npc.py``.
"""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable.cli.common import (
    ask,
    console,
    dice_options,
    emit,
    json_option,
    say_outcome,
    table_for,
)
from taletable.cli.options import request_options
from taletable.cli.tables import loaded_tables, render_table_roll, tables_option
from taletable.explain import render
from taletable.play import narrator as play
from taletable.systems.cogent.narrator import SEASONS, Encounter, WeatherRun

__all__ = ["register"]


@click.command("weather")
@click.option("--season", type=click.Choice(SEASONS, case_sensitive=False), required=True)
@request_options(play.WeatherRequest, skip=("season", "tables", "faces"))
@tables_option
@dice_options
@json_option
def weather(
    season: str, folder: str | None, faces: str | None, seed: int | None, as_json: bool,
    **fields: Any,
) -> None:  # fmt: skip
    """Roll the weather: a D100 check by season and climate, a severity roll each day.

    Given faces are used in order: day 1's D100 check and its D6 severity, then each day's D6,
    with a D100 before it on each day a new check is made.
    """
    request = ask(
        play.WeatherRequest, season=season, tables=loaded_tables(folder), faces=faces, **fields
    )
    run = play.weather(request, table_for(seed=seed, faces=faces)).result
    emit(run, as_json, lambda: _render_weather(run))


def _render_weather(run: WeatherRun) -> None:
    console.print(f"[bold]{run.season.title()}[/bold], climate shift {run.climate_shift:+d}")
    for day in run.days:
        check = day.check
        rolled = ""
        if check is not None:
            shown = str(check.natural)
            if check.total != check.natural or check.modifier:
                shown += f" {check.modifier:+d} -> {check.total}"
            rolled = f" (d100: {shown})"
        snow = "; snow on the ground" if day.snow_on_ground else ""
        console.print(
            f"  day {day.day}: [bold]{escape(day.weather)}[/bold]{rolled}, "
            f"{escape(day.severity.lower())}{snow}"
        )
        if day.natural_disaster:
            console.print(f"    choose a disaster: {', '.join(run.disaster_kinds)}", markup=False)
    for rule in run.rules_applied:
        console.print(f"  [dim]{escape(render(rule))}[/dim]")
    say_outcome(run.summary)


@click.command("encounter")
@request_options(play.EncounterRequest, skip=("tables", "faces"))
@tables_option
@dice_options
@json_option
def encounter(
    folder: str | None, faces: str | None, seed: int | None, as_json: bool, **fields: Any
) -> None:
    """Roll a random encounter (open land every 1-10 km, a city every block) and its severity."""
    request = ask(play.EncounterRequest, tables=loaded_tables(folder), faces=faces, **fields)
    result = play.encounter(request, table_for(seed=seed, faces=faces)).result
    emit(result, as_json, lambda: _render_encounter(result))


def _render_encounter(result: Encounter) -> None:
    render_table_roll(result.roll, summary=False)
    say_outcome(result.summary)
    if result.statblock:
        console.print(
            f"  statblock: taletable cogent npc bestiary {result.statblock}", markup=False
        )


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (weather, encounter):
        group.add_command(command)
