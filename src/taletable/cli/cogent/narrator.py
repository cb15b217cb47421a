"""The narrator's commands of `taletable cogent`.

* ``weather`` and ``encounter``: 002 > Supplementary Content > Random Encounter Tables;
* ``cast`` and ``summon``: 002 > Supplementary Content > Example Magic Systems;
* ``npc new`` and ``npc show``: statblocks for NPCs and monsters (002 > NPCs and Monsters).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taletable._model import Record
from taletable.cli.common import (
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
)
from taletable.cli.tables import render_table_roll
from taletable.errors import InputError
from taletable.systems.cogent.character.pools import check_pool, combat_pool, pool_names
from taletable.systems.cogent.magic import (
    MagicRules,
    cast_hard_spell,
    cast_spell,
    counter_spell,
    flight_challenge_level,
    magic_system,
    movement_challenge_level,
    read_mind,
    spell_pool,
    summon,
)
from taletable.systems.cogent.narrator import (
    SEASONS,
    Encounter,
    WeatherRun,
    bestiary,
    bestiary_statblock,
    narrator_tables,
    roll_encounter,
    roll_weather,
)
from taletable.systems.cogent.pools import DicePool, pool_of
from taletable.systems.cogent.statblock import load_statblock, new_npc, save_statblock

__all__ = ["register"]


@click.group("npc")
def npc() -> None:
    """NPC and monster statblocks: make one by the book's tiers, or show one with its pools."""


@npc.command("new")
@click.option("--name", required=True, help="The NPC's name.")
@click.option("--tier", type=click.Choice(["average", "elite", "exceptional"]), required=True)
@click.option("--vocation", required=True, help="The NPC's vocation (e.g. 'Town Guard').")
@click.option(
    "--attribute", type=click.Choice(["STR", "RFL", "INT"]), default="STR", show_default=True
)
@click.option("--weapon-skill", help="Combat skill category (e.g. 'Medium Weapons').")
@click.option("--weapon", help="Weapon group carried (e.g. 'Medium Weapon').")
@click.option("--skill", "skills", multiple=True, help="A vocational skill (repeatable).")
@click.option("--out", type=click.Path(dir_okay=False), help="Save the statblock here.")
@json_option
def npc_new(
    name: str,
    tier: str,
    vocation: str,
    attribute: str,
    weapon_skill: str | None,
    weapon: str | None,
    skills: tuple[str, ...],
    out: str | None,
    as_json: bool,
) -> None:
    """Make an NPC by the guideline tiers: average 0/2, elite 1/3, exceptional 2/4."""
    if out and Path(out).exists():
        raise InputError("--out", f"{out} exists", expected="a new path")
    block = new_npc(
        name,
        tier,  # type: ignore[arg-type]
        vocation,
        attribute=attribute,  # type: ignore[arg-type]
        weapon_skill=weapon_skill,
        weapon=weapon,
        vocational_skills=skills,
    )
    if out:
        save_statblock(block, out)
    emit(block, as_json, lambda: _render(block.as_character(), block.name))


@npc.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def npc_show(file: str, as_json: bool) -> None:
    """Show a statblock with its check and combat pools."""
    block = load_statblock(file)
    emit(block, as_json, lambda: _render(block.as_character(), block.name))


@npc.command("bestiary")
@click.argument("name", required=False)
@json_option
def npc_bestiary(name: str | None, as_json: bool) -> None:
    """List the bestiary of encounter creatures, or show creature NAME with its pools."""
    if name is None:
        creatures = bestiary()
        rows = {key: {"name": b.name, "tier": b.tier} for key, b in creatures.items()}

        def render() -> None:
            for key, row in rows.items():
                console.print(f"[bold]{key}[/bold]  {row['name']} ({row['tier']})")

        emit({"creatures": rows}, as_json, render)
        return
    block = bestiary_statblock(name)
    emit(block, as_json, lambda: _render(block.as_character(), block.name))


def _render(sheet: object, name: str) -> None:
    from taletable.systems.cogent.character.sheet import CoreCharacter

    assert isinstance(sheet, CoreCharacter)
    console.print(
        f"[bold]{name}[/bold]  STR {sheet.attributes.STR} RFL {sheet.attributes.RFL} "
        f"INT {sheet.attributes.INT}"
    )
    for skill in pool_names(sheet):
        pool = check_pool(sheet, skill)
        if pool.size > 3:
            console.print(f"  {skill}: {pool.size}D6")
    for weapon in sheet.equipment.weapons:
        console.print(
            f"  combat with {weapon.name}: [bold]{combat_pool(sheet, weapon.name).size}D6[/bold]"
        )


_tables_option = click.option(
    "--tables",
    "folder",
    type=click.Path(file_okay=False),
    default=None,
    help="A folder of your own table files; a table there replaces the shipped one.",
)


@click.command("weather")
@click.option("--season", type=click.Choice(SEASONS, case_sensitive=False), required=True)
@click.option(
    "--climate",
    default="mild",
    show_default=True,
    help="mild, hot (+10), cold (-10), or a shift: 0, +10..+20 hotter, -10..-20 colder.",
)
@click.option("--days", type=int, default=1, show_default=True, help="Days of weather to roll.")
@click.option(
    "--check-every",
    type=int,
    default=2,
    show_default=True,
    help="Days a weather check lasts (1 for turbulent weather).",
)
@_tables_option
@dice_options
@json_option
def weather(
    season: str,
    climate: str,
    days: int,
    check_every: int,
    folder: str | None,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Roll the weather: a D100 check by season and climate, a severity roll each day.

    Given faces are used in order: day 1's D100 check and its D6 severity, then each day's D6,
    with a D100 before it on each day a new check is made.
    """
    library = narrator_tables(folder)
    source = make_source(faces, seed)
    run = roll_weather(
        season, source, climate=climate, days=days, check_every=check_every, tables=library
    )
    finish_source(source)
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
            f"  day {day.day}: [bold]{day.weather}[/bold]{rolled}, {day.severity.lower()}{snow}"
        )
        if day.natural_disaster:
            console.print(f"    choose a disaster: {', '.join(run.disaster_kinds)}")
    for rule in run.rules_applied:
        console.print(f"  [dim]{rule}[/dim]")


@click.command("encounter")
@click.option("--where", type=click.Choice(["country", "city"]), required=True)
@click.option("--time", type=click.Choice(["day", "night"]), required=True)
@_tables_option
@dice_options
@json_option
def encounter(
    where: str,
    time: str,
    folder: str | None,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Roll a random encounter (open land every 1-10 km, a city every block) and its severity."""
    library = narrator_tables(folder)
    source = make_source(faces, seed)
    result = roll_encounter(where, time, source, tables=library)
    finish_source(source)
    emit(result, as_json, lambda: _render_encounter(result))


def _render_encounter(result: Encounter) -> None:
    render_table_roll(result.roll)
    if result.statblock:
        console.print(f"  statblock: taletable cogent npc bestiary {result.statblock}")


def _caster_pool(pool: int | None, points: int | None, attribute_points: int) -> DicePool:
    if pool is not None and points is not None:
        raise InputError("--pool/--points", "give one of them", expected="--pool or --points")
    if pool is not None:
        return pool_of(pool)
    if points is None:
        raise InputError("--pool/--points", "no pool given", expected="--pool N or --points P")
    return spell_pool(points, attribute_points=attribute_points)


def _pool_options(function: Any) -> Any:
    for option in (
        click.option("--attribute-points", type=int, default=0, help="With --points."),
        click.option("--points", type=int, default=None, help="Points in the spell (0-2)."),
        click.option("--pool", type=int, default=None, help="The caster's whole pool."),
    ):
        function = option(function)
    return function


@click.command("cast")
@click.argument("spell")
@click.option("--cl", "challenge_level", type=int, default=None, help="The narrator's CL.")
@_pool_options
@click.option("--distance", type=float, default=None, help="Levitation/teleport: metres.")
@click.option("--size", default=None, help="Levitation/teleport: human, car, bus, airplane.")
@click.option("--unseen", is_flag=True, help="Teleport to an unseen place (CL doubled).")
@click.option("--speed", default=None, help="Aeromancy flight: sprint or km/h.")
@click.option("--resist-pool", type=int, default=None, help="Telepathy: the resisting pool.")
@click.option("--against-wins", type=int, default=None, help="Counteraction: the spell's wins.")
@click.option("--skill-points", type=int, default=None, help="Hard spells: required skill.")
@click.option("--has", "have", multiple=True, help="Hard spells: a component at hand.")
@dice_options
@json_option
def cast(
    spell: str,
    challenge_level: int | None,
    pool: int | None,
    points: int | None,
    attribute_points: int,
    distance: float | None,
    size: str | None,
    unseen: bool,
    speed: str | None,
    resist_pool: int | None,
    against_wins: int | None,
    skill_points: int | None,
    have: tuple[str, ...],
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Cast SPELL of the example magic system (or a hard-magic druid spell)."""
    caster = _caster_pool(pool, points, attribute_points)
    source = make_source(faces, seed)
    system = magic_system()
    result: Record
    if system.hard_spell(spell) is not None:
        if skill_points is None:
            raise InputError("--skill-points", "a hard spell needs it", expected="your points")
        result = cast_hard_spell(spell, caster, source, skill_points=skill_points, have=have)
    else:
        name = system.spell(spell).name
        if name == "Telepathy" and challenge_level is None:
            resist = None if resist_pool is None else pool_of(resist_pool, field="--resist-pool")
            result = read_mind(caster, source, resist_pool=resist)
        elif name == "Counteraction" and against_wins is not None:
            result = counter_spell(caster, against_wins, source)
        elif challenge_level is not None:
            result = cast_spell(name, caster, challenge_level, source)
        elif distance is not None and size is not None:
            movement = movement_challenge_level(name, distance, size, unseen=unseen)
            needs = movement.needs_check
            result = (
                cast_spell(name, caster, movement.challenge_level, source) if needs else movement
            )
        elif speed is not None and name == "Aeromancy":
            kmh = system.flight.sprint_kmh if speed == "sprint" else _int(speed, "--speed")
            level = flight_challenge_level(kmh).challenge_level
            result = cast_spell(name, caster, level, source)
        else:
            raise InputError(
                "--cl", "the narrator's CL is needed for this spell",
                expected="--cl C (or --distance/--size, --speed, --resist-pool, --against-wins)",
            )  # fmt: skip
    finish_source(source)
    emit(result, as_json, lambda: _render_magic(result))


def _int(text: str, field: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(field, f"{text!r}", expected="sprint or a whole number") from None


@click.command("summon")
@click.option("--school", required=True, help="The summoning spell or its element (fire...).")
@click.option("--cl", "challenge_level", type=int, required=True, help="1 (sprite) to 8.")
@_pool_options
@click.option(
    "--failure-duration",
    type=click.Choice(["losses", "mirrored"]),
    default="losses",
    show_default=True,
    help="How long a hostile elemental stays (RULINGS.md).",
)
@dice_options
@json_option
def summon_command(
    school: str,
    challenge_level: int,
    pool: int | None,
    points: int | None,
    attribute_points: int,
    failure_duration: str,
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Summon an elemental: the CL picks the creature, the margin how long it stays."""
    caster = _caster_pool(pool, points, attribute_points)
    source = make_source(faces, seed)
    rules = MagicRules.model_validate({"failure_duration": failure_duration})
    result = summon(school, challenge_level, caster, source, magic_rules=rules)
    finish_source(source)
    emit(result, as_json, lambda: _render_magic(result))


def _render_magic(result: Record) -> None:
    data = result.to_data()
    check = data.pop("check", None)
    if isinstance(check, dict):
        console.print(
            f"CL {check['cl']}: pool {check['pool']}D6, faces "
            f"{','.join(str(f) for f in check['faces'])}, {check['wins']} wins "
            f"(margin {check['margin']:+d})"
        )
    for key, value in data.items():
        if key == "rules_applied":
            for rule in value:
                console.print(f"  [dim]{rule}[/dim]")
        elif isinstance(value, dict):
            console.print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in value.items()))
        elif value not in (None, [], ()):
            console.print(f"{key}: [bold]{value}[/bold]")


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (npc, weather, encounter, cast, summon_command):
        group.add_command(command)
