"""Casting: spells as proficiencies, a check against the narrator's CL, miscasts; hard spells.

002 > Supplementary Content > Example Magic Systems > Classic Fantasy Magic system: each spell
is a proficiency of up to two skill points, chosen from one school. The narrator sets a CL;
failure never means the spell was not cast but that it was miscast, by as much as the wins fell
short. The hard-magic druid spells (002 > Metahuman Powers in Cogent) have a fixed CL, skill
requirements and components, some consumed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.checks import CheckResult, roll_check
from taletable.systems.cogent.magic.system import MAGIC, Component, magic_system
from taletable.systems.cogent.pools import DicePool, base_pool
from taletable.systems.cogent.rules import CORE, Rules
from taletable.systems.cogent.tables import challenge_level_scale

__all__ = [
    "CastResult",
    "HardCastResult",
    "cast_hard_spell",
    "cast_spell",
    "check_spell_choices",
    "difficulty_challenge_level",
    "spell_pool",
]

HARD = "002 > Supplementary Content > Metahuman Powers in Cogent"


class CastResult(Record):
    """A spell cast against the narrator's CL: cast as wished, or miscast by the shortfall."""

    spell: str
    schools: tuple[str, ...]
    check: CheckResult
    miscast: bool
    miscast_level: int
    outcome: str


class HardCastResult(Record):
    """A hard-magic spell: requirements met, components used, the check and its effect."""

    spell: str
    challenge_level: int
    check: CheckResult
    passed: bool
    effect: str
    consumed: tuple[str, ...]
    broken: tuple[str, ...]
    caster_injury: str | None
    #: Armour points the spell gives on a success (Strength of Wood: 2), else None.
    armour_gained: int | None
    rules_applied: tuple[Note, ...]


def spell_pool(points: int, *, attribute_points: int = 0, attribute: str = "attribute") -> DicePool:
    """Base three, the attribute, and the spell's points (at most two; 002 > Classic Fantasy)."""
    limit = magic_system().max_spell_points
    if not 0 <= points <= limit:
        raise RulesError(
            MAGIC,
            f"a spell is a proficiency of up to {limit} skill points, not {points}",
            fix=f"spend 0 to {limit} points on the spell",
        )
    parts = [(f"{attribute} {attribute_points:+d}", attribute_points)] if attribute_points else []
    return base_pool([*parts, ("spell points", points)] if points else parts)


def check_spell_choices(school: str, spells: Iterable[str], *, mixed: bool = False) -> None:
    """Refuse spells outside the caster's one school (unless the narrator ``mixed`` schools).

    002 > Classic Fantasy Magic system: "once a school is chosen the player can only select
    spells from that specific school"; the narrator "free to mix and match".
    """
    system = magic_system()
    chosen = system.school(school)
    for name in spells:
        spell = system.spell(name)
        if spell.name not in chosen.spells and not mixed:
            raise RulesError(
                MAGIC,
                f"{spell.name} is not a {chosen.name} spell",
                fix="once a school is chosen the player can only select spells from that "
                f"specific school: choose from {', '.join(chosen.spells)} (or set "
                "mixed_schools if the narrator mixes them)",
            )


def difficulty_challenge_level(difficulty: str) -> int:
    """The CL of a difficulty word of the core scale (``common`` 1 ... ``inconceivable`` 8).

    002 > Classic Fantasy: "the Narrator will assign a CL (based on the standard Challenge Level
    difficulties, 1 common task, 2 uncommon, 3 specialized, etc)"; the scale is 002 > Assigning
    CL and Skills. "Specialised" and "task" are optional spellings.
    """

    def key(text: str) -> str:
        words = text.strip().lower().replace("-", " ").replace("_", " ").split()
        words = [w.replace("specialised", "specialized") for w in words if w != "task"]
        return " ".join(words)

    scale = challenge_level_scale("core")
    for level in scale.levels:
        if key(level.name) == key(difficulty):
            return level.challenge_level
    expected = ", ".join(f"{key(level.name)} ({level.challenge_level})" for level in scale.levels)
    raise InputError("difficulty", f"{difficulty!r}", expected=expected)


def cast_spell(
    spell: str,
    pool: DicePool,
    challenge_level: int,
    source: DiceSource,
    *,
    rules: Rules = CORE,
    advantage: bool = False,
    disadvantage: bool = False,
) -> CastResult:
    """Cast ``spell`` against the narrator's ``challenge_level`` (002 > Classic Fantasy).

    ``rules``, ``advantage`` and ``disadvantage``: the check's (000 > Dice Pools: Erin's
    fireball with Advantage, the tiered narrator's).
    """
    system = magic_system()
    known = system.spell(spell)
    check = roll_check(
        pool, challenge_level, source, rules=rules, advantage=advantage, disadvantage=disadvantage
    )
    assert check.margin is not None
    level = 0 if check.passed else -check.margin
    outcome = (
        f"cast as wished ({check.outcome})"
        if check.passed
        else f"miscast by {level}: something other than what was wished happens; "
        "the narrator fills in the rest"
    )
    return CastResult(
        spell=known.name,
        schools=system.schools_of(known.name),
        check=check,
        miscast=not check.passed,
        miscast_level=level,
        outcome=outcome,
    )


def _component_text(components: Sequence[Component]) -> str:
    return "; ".join(f"{c.key} ({c.item})" for c in components)


def cast_hard_spell(
    spell: str,
    pool: DicePool,
    source: DiceSource,
    *,
    skill_points: int,
    have: Iterable[str] = (),
) -> HardCastResult:
    """Cast a hard-magic druid spell (002 > Metahuman Powers in Cogent).

    ``skill_points``: the caster's points in the required skill; ``have``: the keys of the
    components and conditions at hand (``moonlit-grass``, ``moonlight``...). Consumed components
    are used up by the casting whatever its outcome (RULINGS.md "hard spell components").
    """
    hard = magic_system().hard_spell(spell)
    if hard is None:
        names = ", ".join(s.name for s in magic_system().hard_spells.spells)
        raise InputError("spell", f"{spell!r} is not a hard-magic spell", expected=names)
    where = f"{HARD} > {hard.name}"
    need = hard.requires
    if skill_points < need.points:
        raise RulesError(
            where,
            f"{hard.name} requires {need.points} skill points in the {need.skill} "
            f"{need.kind} skill, not {skill_points}",
            fix=f"invest {need.points} points in {need.skill}",
        )
    held = {key.strip().lower() for key in have}
    missing = [c for c in hard.components if c.key not in held]
    if missing:
        raise RulesError(
            where, f"{hard.name} needs {_component_text(missing)}", fix="have it at hand"
        )
    unknown = held - {c.key for c in hard.components}
    if unknown:
        raise InputError(
            "have", f"{', '.join(sorted(unknown))} is not used by {hard.name}",
            expected=_component_text(hard.components) or "nothing",
        )  # fmt: skip
    check = roll_check(pool, hard.challenge_level, source)
    consumed = tuple(c.item for c in hard.components if c.consumed)
    broken = () if check.passed else tuple(c.item for c in hard.components if c.breaks_on_failure)
    applied = [
        note("cogent.spell.hard", where, level=hard.challenge_level, points=need.points,
             skill=need.skill)
    ]  # fmt: skip
    if consumed:
        applied.append(note("cogent.spell.consumes", "RULINGS.md", items=consumed))
    armour = hard.armour if check.passed and hard.armour else None
    if armour:
        applied.append(note("cogent.spell.armour", where, armour=armour))
    if not hard.stacks:
        applied.append(note("cogent.spell.no_stacking", where, spell=hard.name))
    return HardCastResult(
        spell=hard.name,
        challenge_level=hard.challenge_level,
        check=check,
        passed=check.passed,
        effect=hard.effect if check.passed else (hard.failure or "The spell fails."),
        consumed=consumed,
        broken=broken,
        caster_injury=None if check.passed else hard.failure_injury,
        armour_gained=armour,
        rules_applied=tuple(applied),
    )
