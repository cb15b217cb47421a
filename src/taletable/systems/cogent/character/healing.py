"""What heals, when and how much: injuries treated and rested (002 > Combat > Victory Levels).

The rulebook's words are all there is: a minor injury "will naturally heal over the next few
days, or faster if treated actively"; a medium one "must be treated relatively soon, otherwise
further penalties may apply (infection etc.)"; a serious one means "the character will die in
time if the wound is untreated"; a fatal one "will die very soon if untreated". First aid is
Survival's (002 > Core Skills > Survival: "basic first aid", "Splinting an injured limb").
How long and how much are rulings (RULINGS.md "healing"):

* **Treating** an injury is a check of the skill of first aid (Survival) at a CL equal to the
  injury's level (the narrator may set another); a pass marks it treated, which lifts the threat
  (no infection, no death from it) but not the dice it takes; a failure changes nothing.
* **Resting** heals: an untreated minor injury after ``heal_days`` days (3 by default: "a few
  days"); a treated minor injury after one day ("faster if treated actively"); a treated injury
  above minor loses a level every ``heal_days`` days and stays treated; an untreated injury
  above minor does not heal ("must be treated"), and is named. Days of rest add up across
  rests (kept on the injury as ``rested``). A rest wakes the unconscious and the asleep.
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.character.sheet import (
    Award,
    CoreCharacter,
    Injury,
    TieredCharacter,
)

__all__ = [
    "HEALING",
    "HEAL_DAYS",
    "INJURY_NAMES",
    "MAX_REST_DAYS",
    "injury_name",
    "rest",
    "treat",
    "treatment_level",
]

Sheet = CoreCharacter | TieredCharacter

#: Where the words on healing are (002) and where the ruling on them is.
HEALING = '002 > Combat > Victory Levels; RULINGS.md "healing"'
#: Each injury level's name (002 > Victory Levels).
INJURY_NAMES = {1: "minor", 2: "medium", 3: "serious", 4: "fatal"}
#: Days of rest an untreated minor injury takes to heal, and a treated one a level ("a few").
HEAL_DAYS = 3
#: The longest rest one action takes (a year), and the most days a level may take.
MAX_REST_DAYS = 365
#: Conditions a rest ends: the knocked out wake (002 > Victory Levels, Knockout Blow).
WAKING = ("unconscious", "asleep")


def injury_name(injury: Injury) -> str:
    """``minor injury``, ``treated medium injury``: the injury in the book's words."""
    treated = "treated " if injury.treated else ""
    return f"{treated}{INJURY_NAMES[injury.level]} injury"


def _numbered(sheet: Sheet, number: int | None) -> tuple[int, Injury]:
    """The injury ``number`` (1 is the first listed), or the most severe untreated one."""
    name = sheet.identity.name
    if not sheet.injuries:
        raise InputError("injury", f"{name} has no injury", expected="a character with one")
    if number is None:
        untreated = [(i, injury) for i, injury in enumerate(sheet.injuries) if not injury.treated]
        if not untreated:
            raise RulesError(HEALING, f"every injury of {name} is treated", fix="rest instead")
        return max(untreated, key=lambda pair: pair[1].level)
    if not 1 <= number <= len(sheet.injuries):
        raise InputError(
            "injury", f"{name} has no injury #{number}", expected=f"1 to {len(sheet.injuries)}"
        )
    return number - 1, sheet.injuries[number - 1]


def treatment_level(sheet: Sheet, number: int | None) -> tuple[int, Injury]:
    """The injury a treatment is for (its index and itself), refused before any die is rolled
    when it is treated already (RULINGS.md "healing")."""
    index, injury = _numbered(sheet, number)
    if injury.treated:
        raise RulesError(
            HEALING,
            f"{sheet.identity.name}'s injury #{index + 1} ({injury_name(injury)}) is treated "
            "already",
            fix="rest to heal it",
        )
    return index, injury


def treat(sheet: Sheet, index: int, passed: bool, by: str) -> tuple[Sheet, Note]:
    """The sheet after first aid on its injury ``index`` by ``by``: treated on a pass, as it was
    on a failure (002 > Victory Levels; 002 > Core Skills > Survival; RULINGS.md "healing")."""
    injury = sheet.injuries[index]
    if not passed:
        line = note("cogent.heal.untreated", HEALING, injury=injury_name(injury), by=by)
        return sheet, line
    done = injury.model_copy(update={"treated": True})
    injuries = (*sheet.injuries[:index], done, *sheet.injuries[index + 1 :])
    award = Award(event="injury treated", detail=f"{injury_name(injury)}, by {by}")
    updated = sheet.model_copy(update={"injuries": injuries, "history": (*sheet.history, award)})
    return updated, note("cogent.heal.treated", HEALING, injury=injury_name(injury), by=by)


def _rested(injury: Injury, days: int, heal_days: int) -> tuple[Injury | None, Note]:
    """One injury after ``days`` more of rest (its earlier days counted): healed (None),
    lowered, or as it was, and why."""
    name = injury_name(injury)
    if injury.level > 1 and not injury.treated:
        return injury, note("cogent.heal.needs_treatment", HEALING, injury=name)
    total = injury.rested + days
    needed = 1 if injury.treated and injury.level == 1 else heal_days
    if injury.level > 1:
        needed = (injury.level - 1) * heal_days + 1
    if total >= needed:
        return None, note("cogent.heal.healed", HEALING, injury=name, days=needed)
    level = injury.level - total // heal_days
    left = injury.model_copy(
        update={"level": level, "rested": total - (injury.level - level) * heal_days}
    )
    if level < injury.level:
        return left, note("cogent.heal.lowered", HEALING, injury=name, now=injury_name(left))
    to_go = (needed if level == 1 else heal_days) - left.rested
    return left, note("cogent.heal.healing", HEALING, injury=name, days=to_go, rested=total)


def rest(sheet: Sheet, days: int, heal_days: int = HEAL_DAYS) -> tuple[Sheet, tuple[Note, ...]]:
    """The sheet after ``days`` of rest: each injury healed, lowered or kept by the rules of
    healing, and the unconscious or asleep awake (RULINGS.md "healing")."""
    if not 1 <= days <= MAX_REST_DAYS:
        raise InputError("days", f"{days}", expected=f"1 to {MAX_REST_DAYS} days of rest")
    if not 1 <= heal_days <= MAX_REST_DAYS:
        raise InputError("heal_days", f"{heal_days}", expected=f"1 to {MAX_REST_DAYS} days")
    kept: list[Injury] = []
    notes: list[Note] = []
    for injury in sheet.injuries:
        after, line = _rested(injury, days, heal_days)
        if after is not None:
            kept.append(after)
        notes.append(line)
    awake = tuple(c for c in sheet.conditions if c.strip().lower() not in WAKING)
    for condition in sheet.conditions:
        if condition not in awake:
            notes.append(note("cogent.heal.woke", HEALING, condition=condition))
    award = Award(event="rest", detail=f"{days} days")
    updated = sheet.model_copy(
        update={
            "injuries": tuple(kept),
            "conditions": awake,
            "history": (*sheet.history, award),
        }
    )
    return updated, tuple(notes)
