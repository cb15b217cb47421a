"""The example magic system on a sheet: is the magic section legal, and a spell's pool.

002 > Supplementary Content > Example Magic Systems > Classic Fantasy Magic system: "Each spell
is an individual proficiency that a player can spend up to two skill points in"; "a player must
select a school before they choose any spells to know ... once a school is chosen the player
can only select spells from that specific school"; the narrator is "free to mix and match".
core (RULINGS.md "spells on the sheet"): a spell is a proficiency nested under the vocation the
section names (002 > Vocations: up to four skills under a vocation, never more points than the
vocation; 002 > Combat Skills: magic is bought "by spending points on it"), cast with base 3 +
the vocation's attribute + its points. tiered: the school is a specialisation (000 > Dice
Pools: Erin's fireball is "a Sorcery Specialisation check"), whose pool casts its spells.
"""

from __future__ import annotations

from taletable.errors import RulesError
from taletable.systems.cogent.character.pools import attribute_pool, check_pool
from taletable.systems.cogent.character.report import Problem
from taletable.systems.cogent.character.sheet import (
    CoreCharacter,
    CoreVocation,
    Magic,
    Specialisation,
    TieredCharacter,
    TieredVocation,
)
from taletable.systems.cogent.magic.casting import check_spell_choices
from taletable.systems.cogent.magic.system import MAGIC, HardSpell, School, magic_system
from taletable.systems.cogent.pools import DicePool

__all__ = [
    "MAX_SKILLS_PER_VOCATION",
    "hard_spell_pool",
    "magic_problems",
    "school_specialisation",
    "spell_check_pool",
    "spell_vocation",
]

Sheet = CoreCharacter | TieredCharacter
VOCATIONS = "002 > Character Creation > Vocations"
HARD = "002 > Supplementary Content > Metahuman Powers in Cogent"
MAX_SKILLS_PER_VOCATION = 4
TIERED_MAGIC = "000 > Dice Pools (Erin the Mage); RULINGS.md spells on the sheet"


def _key(name: str) -> str:
    return name.strip().lower().replace("-", " ").replace("_", " ")


def _school(name: str) -> School | None:
    return next((s for s in magic_system().schools if _key(s.name) == _key(name)), None)


def spell_vocation(sheet: CoreCharacter) -> CoreVocation | None:
    """The core vocation the magic section's spells nest under, if it is on the sheet."""
    if sheet.magic is None or sheet.magic.vocation is None:
        return None
    wanted = _key(sheet.magic.vocation)
    return next((v for v in sheet.vocations if _key(v.name) == wanted), None)


def school_specialisation(sheet: TieredCharacter) -> tuple[TieredVocation, Specialisation] | None:
    """The tiered specialisation named after the sheet's school, with its vocation."""
    if sheet.magic is None:
        return None
    wanted = _key(sheet.magic.school)
    for vocation in sheet.vocations:
        for special in vocation.specialisations:
            if _key(special.name) == wanted:
                return vocation, special
    return None


def _spell_problems(magic: Magic, school: School | None) -> list[Problem]:
    """Each spell exists, once, from the school (unless mixed), with 0 to 2 points."""
    system = magic_system()
    limit = system.max_spell_points
    known = {_key(spell.name): spell.name for spell in system.spells}
    problems: list[Problem] = []
    seen: set[str] = set()
    for choice in magic.spells:
        name = known.get(_key(choice.name))
        if name is None:
            problems.append(Problem(rule=MAGIC, found=f"{choice.name!r} is not a spell",
                                    fix=f"use one of {system.spell_names()}"))  # fmt: skip
            continue
        if name in seen:
            problems.append(Problem(rule=MAGIC, found=f"{name} twice", fix="list a spell once"))
        seen.add(name)
        if school is not None:
            try:
                check_spell_choices(school.name, [name], mixed=magic.mixed_schools)
            except RulesError as refused:
                problems.append(Problem(rule=refused.rule, found=refused.problem, fix=refused.fix))
        if not 0 <= choice.points <= limit:
            problems.append(Problem(
                rule=MAGIC,
                found=f"{name} has {choice.points} points",
                fix=f"a spell is a proficiency of up to {limit} skill points: 0 to {limit}",
            ))  # fmt: skip
    return problems


def _core_nesting(sheet: CoreCharacter, magic: Magic) -> list[Problem]:
    """The spells nest under a vocation of the sheet, as proficiencies do (002 > Vocations)."""
    if magic.vocation is None:
        return [Problem(rule=VOCATIONS, found="no vocation for the spells",
                        fix="name the vocation whose proficiencies the spells are "
                        "(magic.vocation)")]  # fmt: skip
    vocation = spell_vocation(sheet)
    if vocation is None:
        names = ", ".join(v.name for v in sheet.vocations) or "none on the sheet"
        return [Problem(rule=VOCATIONS, found=f"no vocation {magic.vocation!r}",
                        fix=f"name one of the sheet's vocations: {names}")]  # fmt: skip
    problems: list[Problem] = []
    for choice in magic.spells:
        if choice.points > vocation.points:
            problems.append(Problem(
                rule=VOCATIONS,
                found=f"{choice.name} ({choice.points}) is above its vocation "
                f"{vocation.name} ({vocation.points})",
                fix="never more points in a vocational or combat skill than its vocation",
            ))  # fmt: skip
    others = len(vocation.vocational_skills) + len(vocation.combat_skills)
    total = others + len(magic.spells)
    if others <= MAX_SKILLS_PER_VOCATION < total:
        problems.append(Problem(
            rule=VOCATIONS,
            found=f"{total} skills under {vocation.name}, {len(magic.spells)} of them spells",
            fix=f"at most {MAX_SKILLS_PER_VOCATION} skills under a vocation: each spell is "
            "one (or take another vocation for more spells)",
        ))  # fmt: skip
    return problems


def _tiered_school(sheet: TieredCharacter, magic: Magic) -> list[Problem]:
    """The school is a specialisation of the sheet; spells hold no points of their own."""
    problems: list[Problem] = []
    if school_specialisation(sheet) is None:
        problems.append(Problem(
            rule=TIERED_MAGIC,
            found=f"no specialisation {magic.school!r}",
            fix="record the school as a specialisation under the vocation that casts "
            "(Erin the Mage: Sorcery under Mage)",
        ))  # fmt: skip
    if magic.vocation is not None:
        problems.append(
            Problem(
                rule=TIERED_MAGIC,
                found=f"magic.vocation {magic.vocation!r}",
                fix="leave it out: the school specialisation's vocation casts",
            )
        )
    for choice in magic.spells:
        if choice.points:
            problems.append(Problem(
                rule=TIERED_MAGIC,
                found=f"{choice.name} has {choice.points} points",
                fix="a tiered spell is cast with its school's specialisation: put the points "
                "on the specialisation and give the spell 0",
            ))  # fmt: skip
    return problems


def magic_problems(sheet: Sheet) -> list[Problem]:
    """Every problem of the sheet's magic section (none without one)."""
    magic = sheet.magic
    if magic is None:
        return []
    school = _school(magic.school)
    problems: list[Problem] = []
    if school is None:
        names = ", ".join(s.name for s in magic_system().schools)
        problems.append(Problem(rule=MAGIC, found=f"{magic.school!r} is not a school of magic",
                                fix=f"choose one of {names}"))  # fmt: skip
    problems += _spell_problems(magic, school)
    if isinstance(sheet, CoreCharacter):
        problems += _core_nesting(sheet, magic)
    else:
        problems += _tiered_school(sheet, magic)
    return problems


def spell_check_pool(sheet: Sheet, spell: str) -> DicePool:
    """The pool ``sheet`` casts ``spell`` with; a spell the sheet does not hold is refused.

    core: base 3 + the spells' vocation's attribute + the spell's points; tiered: the school
    specialisation's pool, base 3 + its attribute + its vocation's rank + its points.
    """
    name = magic_system().spell(spell).name
    who = sheet.identity.name
    if sheet.magic is None:
        raise RulesError(MAGIC, f"{who}'s sheet records no school of magic",
                         fix="a player must select a school before they choose any spells to "
                         "know: add a magic section (school and spells) to the sheet")  # fmt: skip
    held = next((c for c in sheet.magic.spells if _key(c.name) == _key(name)), None)
    if held is None:
        knows = ", ".join(c.name for c in sheet.magic.spells) or "none yet"
        raise RulesError(
            MAGIC,
            f"{who} does not know {name}: each spell is an individual proficiency chosen from "
            "the caster's school",
            fix=f"cast a spell the sheet holds ({knows}), or add {name} to it",
        )
    if isinstance(sheet, TieredCharacter):
        found = school_specialisation(sheet)
        if found is None:
            raise RulesError(TIERED_MAGIC, f"{who} has no {sheet.magic.school} specialisation",
                             fix="record the school as a specialisation")  # fmt: skip
        return check_pool(sheet, found[1].name)
    vocation = spell_vocation(sheet)
    if vocation is None:
        raise RulesError(VOCATIONS, f"{who}'s spells nest under no vocation of the sheet",
                         fix="name the vocation in magic.vocation")  # fmt: skip
    attribute = vocation.attribute
    return attribute_pool(sheet, name, attribute, [(name, held.points)])


def hard_spell_pool(sheet: Sheet, hard: HardSpell) -> tuple[DicePool, int]:
    """The pool ``sheet`` casts a hard-magic spell with, and its points in the skill the spell
    requires (002 > Metahuman Powers in Cogent: "Requires 2 skill points invested in 'Druidic'
    Combat Skill"). RULINGS.md "hard spells from a sheet": core, base 3 + the attribute of the
    vocation the skill nests under + its points (as a spell's pool); tiered, the pool of the
    specialisation of that name. A sheet without the skill is refused."""
    need, who = hard.requires, sheet.identity.name
    wanted = need.skill.strip().lower()
    if isinstance(sheet, TieredCharacter):
        for tiered in sheet.vocations:
            for special in tiered.specialisations:
                if special.name.lower() == wanted:
                    return check_pool(sheet, special.name), special.points
    else:
        for vocation in sheet.vocations:
            skills = vocation.combat_skills if need.kind == "combat" else vocation.vocational_skills
            for skill in skills:
                if skill.name.lower() == wanted:
                    pool = attribute_pool(
                        sheet, skill.name, vocation.attribute, [(skill.name, skill.points)]
                    )
                    return pool, skill.points
    raise RulesError(
        f"{HARD} > {hard.name}",
        f"{hard.name} requires {need.points} skill points in the {need.skill} {need.kind} "
        f"skill, and {who}'s sheet has no such skill",
        fix=f"add {need.skill} to a vocation of the sheet with at least {need.points} points",
    )
