"""`taletable cogent cast` and `taletable cogent summon`: the example magic system.

002 > Supplementary Content > Example Magic Systems (and the hard-magic druid spells of 002 >
Metahuman Powers in Cogent). A soft spell is cast against the CL the narrator sets (``--cl``, or
``--difficulty`` by the standard scale), or against a CL its own table gives (levitation,
teleportation, aeromancy flight); telepathy and counteraction are contests.
"""

from __future__ import annotations

from typing import Any

import click
from rich.markup import escape

from taletable._model import Record
from taletable.cli.common import (
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
)
from taletable.errors import InputError
from taletable.systems.cogent.magic import (
    MagicRules,
    cast_hard_spell,
    cast_spell,
    counter_spell,
    difficulty_challenge_level,
    flight_challenge_level,
    gust_of_wind,
    hold_still,
    magic_system,
    movement_challenge_level,
    read_mind,
    spell_pool,
    summon,
)
from taletable.systems.cogent.pools import DicePool, pool_of

__all__ = ["register"]


def _caster_pool(pool: int | None, points: int | None, attribute_points: int) -> DicePool:
    if pool is not None and points is not None:
        raise InputError("--pool/--points", "give one of them", expected="--pool or --points")
    if pool is not None:
        if attribute_points:
            raise InputError(
                "--attribute-points", "goes with --points",
                expected="--points P --attribute-points A, or the whole --pool N alone",
            )  # fmt: skip
        return pool_of(pool, field="--pool")
    if points is None:
        raise InputError("--pool/--points", "no pool given", expected="--pool N or --points P")
    return spell_pool(points, attribute_points=attribute_points)


def _pool_options(function: Any) -> Any:
    for option in (
        click.option(
            "--attribute-points",
            type=click.IntRange(-5, 10),
            default=0,
            help="With --points: the attribute's points (-5 to 10, as on a sheet).",
        ),
        click.option("--points", type=int, default=None, help="Points in the spell (0-2)."),
        click.option("--pool", type=int, default=None, help="The caster's whole pool."),
    ):
        function = option(function)
    return function


def _narrators_level(challenge_level: int | None, difficulty: str | None) -> int | None:
    if challenge_level is not None and difficulty is not None:
        raise InputError("--cl/--difficulty", "give one of them", expected="--cl or --difficulty")
    return difficulty_challenge_level(difficulty) if difficulty is not None else challenge_level


@click.command("cast")
@click.argument("spell")
@click.option("--cl", "challenge_level", type=int, default=None, help="The narrator's CL.")
@click.option(
    "--difficulty",
    default=None,
    help="The narrator's CL by the standard scale: common (1), uncommon (2), specialized (3)...",
)
@_pool_options
@click.option("--distance", type=float, default=None, help="Levitation/teleport: metres.")
@click.option("--size", default=None, help="Levitation/teleport: human, car, bus, airplane.")
@click.option("--unseen", is_flag=True, help="Teleport to an unseen place (CL doubled).")
@click.option("--speed", default=None, help="Aeromancy flight: sprint or km/h.")
@click.option(
    "--resist-pool",
    type=int,
    default=None,
    help="Telepathy: the resisting pool; Levitation: a person resisting being held still.",
)
@click.option(
    "--defence-pool",
    type=int,
    default=None,
    help="Aeromancy gust: the target's defence pool, without weapon bonuses.",
)
@click.option("--against-wins", type=int, default=None, help="Counteraction: the spell's wins.")
@click.option("--skill-points", type=int, default=None, help="Hard spells: required skill.")
@click.option("--has", "have", multiple=True, help="Hard spells: a component at hand.")
@dice_options
@json_option
def cast(
    spell: str,
    challenge_level: int | None,
    difficulty: str | None,
    pool: int | None,
    points: int | None,
    attribute_points: int,
    distance: float | None,
    size: str | None,
    unseen: bool,
    speed: str | None,
    resist_pool: int | None,
    defence_pool: int | None,
    against_wins: int | None,
    skill_points: int | None,
    have: tuple[str, ...],
    faces: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Cast SPELL of the example magic system (or a hard-magic druid spell)."""
    caster = _caster_pool(pool, points, attribute_points)
    challenge_level = _narrators_level(challenge_level, difficulty)
    source = make_source(faces, seed)
    system = magic_system()
    hard = system.hard_spell(spell)
    soft_options = [
        flag
        for flag, value in (
            ("--cl/--difficulty", challenge_level), ("--distance", distance), ("--size", size),
            ("--unseen", unseen or None), ("--speed", speed), ("--resist-pool", resist_pool),
            ("--defence-pool", defence_pool), ("--against-wins", against_wins),
        )
        if value is not None
    ]  # fmt: skip
    if hard is not None and soft_options:
        raise InputError(
            soft_options[0], f"{hard.name} is a hard spell with a fixed CL {hard.challenge_level}",
            expected="--skill-points and --has only",
        )  # fmt: skip
    if hard is None and (skill_points is not None or have):
        raise InputError(
            "--skill-points/--has", f"{system.spell(spell).name} is not a hard-magic spell",
            expected="them only with " + ", ".join(s.name for s in system.hard_spells.spells),
        )  # fmt: skip
    result: Record
    if hard is not None:
        if skill_points is None:
            raise InputError("--skill-points", "a hard spell needs it", expected="your points")
        result = cast_hard_spell(spell, caster, source, skill_points=skill_points, have=have)
    else:
        name = system.spell(spell).name
        if name == "Telepathy" and challenge_level is None:
            resist = None if resist_pool is None else pool_of(resist_pool, field="--resist-pool")
            result = read_mind(caster, source, resist_pool=resist)
        elif name == "Levitation" and resist_pool is not None:
            result = hold_still(caster, pool_of(resist_pool, field="--resist-pool"), source)
        elif name == "Aeromancy" and defence_pool is not None:
            result = gust_of_wind(caster, pool_of(defence_pool, field="--defence-pool"), source)
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
                "--cl", f"the narrator's CL is needed for {name}",
                expected="--cl C or --difficulty WORD (or --distance/--size, --speed, "
                "--resist-pool, --defence-pool, --against-wins where the spell has them)",
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
    conflict = data.pop("conflict", None)
    if isinstance(conflict, dict):
        for exchange in conflict["exchanges"]:
            a, b = exchange["a"], exchange["b"]
            console.print(
                f"caster {','.join(map(str, a['faces']))} ({a['wins']} wins) against "
                f"{','.join(map(str, b['faces']))} ({b['wins']} wins)"
                + (": tied, rerolled" if exchange["tied"] else "")
            )
        winner = {"a": "the caster", "b": "the target"}.get(conflict["winner"], "no one")
        console.print(f"winner: [bold]{winner}[/bold] (victory level {conflict['victory_level']})")
    for key, value in data.items():
        if key == "rules_applied":
            for rule in value:
                console.print(f"  [dim]{escape(rule)}[/dim]")
        elif isinstance(value, dict):
            console.print(
                f"{key}: " + ", ".join(f"{k} {v}" for k, v in value.items()), markup=False
            )
        elif value not in (None, [], ()):
            console.print(f"{key}: [bold]{escape(str(value))}[/bold]")


def register(group: click.Group) -> None:
    """Add this module's commands to `taletable cogent`."""
    for command in (cast, summon_command):
        group.add_command(command)
