"""Casting spells and summoning elementals of Cogent's example magic system.

002 > Supplementary Content > Example Magic Systems (and the hard-magic druid spells of 002 >
Metahuman Powers in Cogent). A soft spell is cast against the CL the narrator sets
(``challenge_level``, or ``difficulty`` by the standard scale), or against a CL its own table
gives (levitation and teleportation by ``distance`` and ``size``, aeromancy flight by
``speed``); holding a person still, a gust of wind, reading a resisting mind and counteraction
are contests. Each spell reads only its own fields: any other given is refused by name. With
``character`` (a store key) the caster's pool is built from the sheet, which must hold the spell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import AliasChoices

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces, Parts
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import read_character
from taletable.systems.cogent.character.spells import hard_spell_pool, spell_check_pool
from taletable.systems.cogent.magic import (
    MagicRules,
    SummonResult,
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
)
from taletable.systems.cogent.magic import summon as summon_elemental
from taletable.systems.cogent.magic.system import HardSpell
from taletable.systems.cogent.pools import DicePool, pool_of

__all__ = ["CastRequest", "SummonRequest", "cast", "summon"]

CL = AliasChoices("challenge_level", "cl")
#: The fields only soft spells read, in the order an error names them.
SPELL_FIELDS = (
    "challenge_level", "difficulty", "distance", "size", "unseen", "speed", "resist_pool",
    "defence_pool", "against_wins",
)  # fmt: skip
HARD_FIELDS = ("skill_points", "have")
NARRATOR = ("challenge_level", "difficulty")
#: The ways to cast a spell besides against the narrator's CL, and the fields each reads.
CASTINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "Levitation": {"move": ("distance", "size"), "hold": ("resist_pool",)},
    "Self teleportation": {"move": ("distance", "size", "unseen")},
    "Other teleportation": {"move": ("distance", "size", "unseen")},
    "Aeromancy": {"flight": ("speed",), "gust": ("defence_pool",)},
    "Telepathy": {"contest": ("resist_pool",)},
    "Counteraction": {"counter": ("against_wins",)},
}
#: Castings that roll a check against a CL, where the narrator's Advantage applies.
CHECKED = ("narrator", "move", "flight")


class CasterRequest(Request):
    """Who casts: a sheet (``character``), a whole ``pool``, or a spell's ``points`` and the
    attribute's ``attribute_points``; ``parts`` add named dice (a wand's +1: 002 > A Few Words
    on Magic and Weapons)."""

    character: str | None = described(
        None, "A sheet whose magic section holds the spell: the pool is built from it.",
        form="FILE",
    )  # fmt: skip
    pool: int | None = described(None, "The caster's whole pool.")
    points: int | None = described(None, "Points in the spell (0-2).")
    attribute_points: int = described(
        0, "With {points}: the attribute's points (-5 to 10, as on a sheet).", ge=-5, le=10
    )
    parts: Parts = described(
        (), "Dice added to the caster's pool (repeatable): 'Wand of Power=1'.", form="NAME=DICE",
        repeated=True, validation_alias=AliasChoices("parts", "part"),
    )  # fmt: skip
    faces: Faces = None


class CastRequest(CasterRequest):
    """Cast ``spell`` with the fields that spell reads (see the module's docstring)."""

    spell: str
    challenge_level: int | None = described(None, "The narrator's CL.", validation_alias=CL)
    difficulty: str | None = described(
        None, "The narrator's CL by the standard scale: common (1), uncommon (2), "
        "specialized (3)...",
    )  # fmt: skip
    distance: float | None = described(None, "Levitation/teleport: metres.")
    size: str | None = described(None, "Levitation/teleport: human, car, bus, airplane.")
    unseen: bool = described(False, "Teleport to an unseen place (CL doubled).")
    speed: str | None = described(None, "Aeromancy flight: sprint or km/h.")
    resist_pool: int | None = described(
        None, "Telepathy: the resisting pool; Levitation: a person resisting being held still."
    )
    defence_pool: int | None = described(
        None, "Aeromancy gust: the target's defence pool, without weapon bonuses."
    )
    against_wins: int | None = described(None, "Counteraction: the spell's wins.")
    skill_points: int | None = described(None, "Hard spells: required skill.")
    have: tuple[str, ...] = described(
        (), "Hard spells: a component at hand.", repeated=True,
        validation_alias=AliasChoices("have", "has"),
    )  # fmt: skip
    advantage: bool = described(False, "Narrator's Advantage: win on 3-6 (tiered).")
    disadvantage: bool = described(False, "Narrator's Disadvantage: win on 5-6 (tiered).")


class SummonRequest(CasterRequest):
    """Summon an elemental with ``school`` (a summoning spell or its element) at a CL of 1-8."""

    school: str = described(text="The summoning spell or its element (fire...).")
    challenge_level: int = described(text="1 (sprite) to 8.", validation_alias=CL)
    failure_duration: Literal["losses", "mirrored"] = described(
        "losses", "How long a hostile elemental stays (RULINGS.md)."
    )


def _given(request: Request, fields: tuple[str, ...]) -> list[str]:
    return [field for field in fields if getattr(request, field) not in (None, False, ())]


def _caster_pool(
    request: CasterRequest, table: Table, spell: str, *, hard: HardSpell | None = None
) -> tuple[DicePool, Table]:
    """The caster's pool, and the table in the sheet's edition when a sheet casts."""
    if request.character is not None:
        given = _given(request, ("pool", "points", "attribute_points"))
        if given:
            raise InputError(
                given[0], "{character} builds the pool from the sheet",
                expected="no {pool}, {points} or {attribute_points} beside {character}",
            )  # fmt: skip
        sheet = read_character(table, request.character).sheet
        if sheet.edition != table.rules.edition:
            table = table.with_rules(table.rules.model_copy(update={"edition": sheet.edition}))
        built = spell_check_pool(sheet, spell) if hard is None else hard_spell_pool(sheet, hard)[0]
    elif request.pool is not None and request.points is not None:
        raise InputError("pool/points", "give one of them", expected="{pool} or {points}")
    elif request.pool is not None:
        if request.attribute_points:
            raise InputError(
                "attribute_points", "goes with {points}",
                expected="{points} P {attribute_points} A, or the whole {pool} N alone",
            )  # fmt: skip
        built = pool_of(request.pool)
    elif request.points is None:
        raise InputError(
            "pool/points", "no pool given", expected="{pool} N, {points} P or {character}"
        )
    else:
        built = spell_pool(request.points, attribute_points=request.attribute_points)
    for name, dice in request.parts:
        built = built.plus(name, dice)
    return built, table


def _hard_options(request: CastRequest, hard: HardSpell) -> None:
    """A hard spell reads its skill points (or the sheet's) and components, nothing else."""
    soft = _given(request, (*SPELL_FIELDS, "advantage", "disadvantage"))
    if soft:
        raise InputError(
            "challenge_level/difficulty" if soft[0] in NARRATOR else soft[0],
            f"{hard.name} is a hard spell with a fixed CL {hard.challenge_level}",
            expected="{skill_points} and {have} only",
        )
    if request.character is not None and request.skill_points is not None:
        raise InputError(
            "skill_points", "{character} holds the points in " + hard.requires.skill,
            expected="no {skill_points} beside {character}",
        )  # fmt: skip
    if request.character is None and request.skill_points is None:
        raise InputError(
            "skill_points", "a hard spell needs it",
            expected=f"your points in {hard.requires.skill}, or {{character}}",
        )  # fmt: skip


def _casting(request: CastRequest, name: str) -> str | None:
    """The way ``name`` is cast from the fields given; a field it does not read is refused."""
    if _given(request, HARD_FIELDS):
        hard = ", ".join(spell.name for spell in magic_system().hard_spells.spells)
        raise InputError("skill_points/have", f"{name} is not a hard-magic spell",
                         expected=f"them only with {hard}")  # fmt: skip
    castings = {"narrator": NARRATOR, **CASTINGS.get(name, {})}
    readable = [field for fields in castings.values() for field in fields]
    given = _given(request, SPELL_FIELDS)
    for field in given:
        if field not in readable:
            reads = ", ".join(f"{{{f}}}" for f in readable)
            raise InputError(field, f"{name} does not read {{{field}}}",
                             expected=f"with {name}: {reads}")  # fmt: skip
    used = [way for way, fields in castings.items() if set(fields) & set(given)]
    if len(used) > 1:
        first, second = (next(f for f in castings[way] if f in given) for way in used[:2])
        raise InputError(second, f"{{{first}}} and {{{second}}} are two ways to cast {name}",
                         expected="one of them")  # fmt: skip
    way = used[0] if used else None
    if (request.advantage or request.disadvantage) and way not in CHECKED:
        field = "advantage" if request.advantage else "disadvantage"
        raise InputError(field, f"{{{field}}} is for a check against a CL, not a contest",
                         expected="it with {challenge_level}, {distance} or {speed}")  # fmt: skip
    return way


def _checked_level(request: CastRequest, name: str, way: str | None) -> int | Record:
    """The CL a checked casting rolls against (or the movement that needs no check)."""
    if way == "move":
        if request.distance is None or request.size is None:
            missing = "distance" if request.distance is None else "size"
            raise InputError(missing, f"the {name} table reads {{distance}} and {{size}}",
                             expected="both")  # fmt: skip
        movement = movement_challenge_level(
            name, request.distance, request.size, unseen=request.unseen
        )
        return movement.challenge_level if movement.needs_check else movement
    if way == "flight":
        assert request.speed is not None
        speed = request.speed.strip().lower()
        if speed != "sprint" and not speed.isdigit():
            raise InputError("speed", f"{request.speed!r}", expected="sprint or a whole number")
        kmh = magic_system().flight.sprint_kmh if speed == "sprint" else int(speed)
        return flight_challenge_level(kmh).challenge_level
    if request.challenge_level is not None and request.difficulty is not None:
        raise InputError("challenge_level/difficulty", "give one of them",
                         expected="{challenge_level} or {difficulty}")  # fmt: skip
    if request.difficulty is not None:
        return difficulty_challenge_level(request.difficulty)
    if request.challenge_level is None:
        raise InputError(
            "challenge_level", f"the narrator's CL is needed for {name}",
            expected="{challenge_level} C or {difficulty} WORD (or the spell's own: {distance} "
            "and {size}, {speed}, {resist_pool}, {defence_pool}, {against_wins})",
        )  # fmt: skip
    return request.challenge_level


Contest = Callable[[CastRequest, DicePool, DiceSource], Record]
CONTESTS: dict[str, Contest] = {
    "hold": lambda r, pool, source: hold_still(
        pool, pool_of(r.resist_pool or 0, field="resist_pool"), source
    ),
    "gust": lambda r, pool, source: gust_of_wind(
        pool, pool_of(r.defence_pool or 0, field="defence_pool"), source
    ),
    "contest": lambda r, pool, source: read_mind(
        pool, source, resist_pool=pool_of(r.resist_pool or 0, field="resist_pool")
    ),
    "counter": lambda r, pool, source: counter_spell(pool, r.against_wins or 0, source),
}


def _cast(request: CastRequest, table: Table, source: DiceSource) -> Record:
    """Check every field and build the pool (a sheet must hold the spell), then roll."""
    system = magic_system()
    hard = system.hard_spell(request.spell)
    if hard is not None:
        _hard_options(request, hard)
        pool, table = _caster_pool(request, table, hard.name, hard=hard)
        points = request.skill_points
        if points is None:  # the sheet's points in the skill the spell requires
            assert request.character is not None
            points = hard_spell_pool(read_character(table, request.character).sheet, hard)[1]
        return cast_hard_spell(hard.name, pool, source, skill_points=points, have=request.have)
    name = system.spell(request.spell).name
    way = _casting(request, name)
    pool, table = _caster_pool(request, table, name)
    if way in CONTESTS:
        return CONTESTS[way](request, pool, source)
    if way is None and name == "Telepathy":
        return read_mind(pool, source)  # a non-resisting mind: no roll
    level = _checked_level(request, name, way)
    if isinstance(level, Record):
        return level  # a movement that needs no check
    return cast_spell(name, pool, level, source, rules=table.rules,
                      advantage=request.advantage, disadvantage=request.disadvantage)  # fmt: skip


@action("cogent.cast", CastRequest)
def cast(request: CastRequest, table: Table) -> Played[Any]:
    """Cast a spell of the example magic system, or a hard-magic druid spell (002 > Example
    Magic Systems; Metahuman Powers in Cogent); from a sheet, only a spell it holds."""
    source = dice_for(table, request.faces)
    result = _cast(request, table, source)
    finish(source)
    event = Event(kind="cogent.cast", subject=request.character, data={"spell": request.spell})
    return Played(result, (event,))


@action("cogent.summon", SummonRequest)
def summon(request: SummonRequest, table: Table) -> Played[SummonResult]:
    """Summon an elemental: the CL picks the creature, the margin how long it stays (002 >
    Example Magic Systems > Pyromancy, Hydromancy, Aeromancy, Terramancy, Naturmancy)."""
    element = magic_system().element(request.school)
    pool, table = _caster_pool(request, table, element.spell)
    source = dice_for(table, request.faces)
    rules = MagicRules(failure_duration=request.failure_duration)
    result = summon_elemental(
        element.spell, request.challenge_level, pool, source, magic_rules=rules, rules=table.rules
    )
    finish(source)
    event = Event(kind="cogent.summon", subject=request.character, data={"spell": element.spell})
    return Played(result, (event,))
