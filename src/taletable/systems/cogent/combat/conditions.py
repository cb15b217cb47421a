"""The conditions a fighter can be in, and those it brings into a fight (002 > Combat).

002 > Victory Levels: a fatal injury leaves the fighter "incapacitated"; a knockout
unconscious; a stagger -2D6 "for one round"; a trip prone. 002 > Circumstantial Modifiers
(Incapacitated): "held in place, tied up, or unconscious and therefore cannot fight back or
defend themselves. armour levels are disregarded and the CL a character must exceed to obtain
ANY victory level against them is CL1"; Prone: "Penalty lasts for one round or until the
character readies themselves, unless they are incapacitated/sleeping".

A sheet's own injuries and ``conditions`` come into the encounter with it (RULINGS.md
"conditions brought into a fight").
"""

from __future__ import annotations

from taletable.explain import Note, note
from taletable.systems.cogent.character.sheet import CoreCharacter

CIRCUMSTANTIAL = "002 > Combat > Circumstantial Modifiers"

__all__ = [
    "CONDITIONS",
    "HELPLESS",
    "ONE_ROUND",
    "brought_conditions",
    "condition_name",
]

#: Every condition the engine knows (002 > Combat).
CONDITIONS = (
    "staggered",
    "prone",
    "disarmed",
    "incapacitated",
    "unconscious",
    "dead",
    "dismembered",
    "tied up",
    "asleep",
)
#: Conditions under which a fighter "cannot fight back or defend themselves" (002 >
#: Circumstantial Modifiers, Incapacitated: "held in place, tied up, or unconscious"; Prone
#: names the sleeping too): they cannot act; attacks on them are at CL 1, armour ignored.
HELPLESS = frozenset({"dead", "unconscious", "incapacitated", "tied up", "asleep"})
#: Conditions that last one round (002 > Victory Levels: stagger "for one round"; Prone).
ONE_ROUND = frozenset({"staggered", "prone"})
#: Other words a sheet may use for a known condition.
SYNONYMS = {
    "stagger": "staggered",
    "tripped": "prone",
    "knocked out": "unconscious",
    "sleeping": "asleep",
    "tied": "tied up",
    "bound": "tied up",
    "held": "tied up",
    "held in place": "tied up",
}
#: A fatal injury (level 4) incapacitates (002 > Victory Levels, Level 4).
FATAL = 4


def condition_name(text: str) -> str | None:
    """The known condition ``text`` names (any case, a synonym), or None."""
    word = " ".join(text.strip().lower().replace("_", " ").split())
    word = SYNONYMS.get(word, word)
    return word if word in CONDITIONS else None


def brought_conditions(
    sheet: CoreCharacter,
) -> tuple[tuple[str, ...], dict[str, int], list[Note]]:
    """What a sheet brings into a fight: its conditions, the rounds they last, and notes.

    002 > Victory Levels (Level 4: a fatal injury means "incapacitated"): a sheet carrying a
    fatal injury starts incapacitated. Each known condition written on the sheet holds from the
    first round; staggered and prone last that round only (002 > Circumstantial Modifiers),
    unless the fighter is helpless, when prone stays (Prone: "unless they are
    incapacitated/sleeping"). A condition with no rule in combat is noted, not applied.
    """
    conditions: list[str] = []
    notes: list[Note] = []
    if any(injury.level >= FATAL for injury in sheet.injuries):
        conditions.append("incapacitated")
        notes.append(note("combat.brought.fatal"))
    for text in sheet.conditions:
        name = condition_name(text)
        if name is None:
            notes.append(note("combat.brought.unknown", CIRCUMSTANTIAL, condition=text))
        elif name not in conditions:
            conditions.append(name)
    helpless = bool(HELPLESS & set(conditions))
    until = {
        name: 1 for name in conditions if name in ONE_ROUND and not (name == "prone" and helpless)
    }
    return tuple(conditions), until, notes
