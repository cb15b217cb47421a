"""A fight's end: what each fighter takes away from it (002 > Combat).

What lasts past a fight is the injuries taken in it (002 > Victory Levels: each "-ND6 to all
physical-based dice checks" until it heals) and the states that do not end with the round: a
knockout's unconsciousness, death, a dismembered limb, being tied up or asleep, and being
incapacitated other than by a fatal injury (which incapacitates by itself wherever the injury
is). A stagger or a trip lasts "one round"; a disarm, the strength and armour reductions spent
("once per Combat Encounter", 002 > Attributes; Armour: "reset" when "another fight begins")
end with the fight. Destiny spent in the fight came off the character's sheet as it was spent
(RULINGS.md "destiny on the sheet"): the end reports it.
"""

from __future__ import annotations

from pydantic import Field

from taletable._model import Record
from taletable.errors import RulesError
from taletable.systems.cogent.character.sheet import (
    Award,
    CoreCharacter,
    Injury,
    TieredCharacter,
)
from taletable.systems.cogent.combat.aftermath import pending
from taletable.systems.cogent.combat.conditions import FATAL, condition_name
from taletable.systems.cogent.combat.state import Combatant, Encounter

__all__ = ["FIGHT_END", "LASTING", "FighterEnd", "check_can_end", "fighter_ends", "written"]

Sheet = CoreCharacter | TieredCharacter

#: Where the rules of what outlasts a fight are.
FIGHT_END = '002 > Combat > Victory Levels; RULINGS.md "a fight\'s end"'
#: States that outlast the fight (002 > Victory Levels; Circumstantial Modifiers).
LASTING = ("unconscious", "dead", "dismembered", "tied up", "asleep", "incapacitated")


class FighterEnd(Record):
    """One fighter at a fight's end: the injuries it took in the fight, the states it keeps,
    the destiny it spent; and the stored character written (None: a statblock or a creature,
    only reported) with the sheet version the end saved."""

    id: str
    name: str
    injuries: tuple[Injury, ...] = ()
    conditions: tuple[str, ...] = ()
    destiny_spent: int = Field(default=0, ge=0)
    character: str | None = None
    version: int | None = None


def check_can_end(encounter: Encounter) -> None:
    """Refuse to end a fight whose victories still wait for their outcome: the injury a
    victory gives is not known until it is chosen (002 > Victory Levels)."""
    waiting = pending(encounter)
    if waiting:
        numbers = ", ".join(f"#{victory.id}" for victory in waiting)
        raise RulesError(
            "002 > Combat > Victory Levels",
            f"victory {numbers} of round {encounter.round} waits for its outcome",
            fix="choose it (or take the round back), then end the fight",
        )


def _lasting(fighter: Combatant) -> tuple[str, ...]:
    fatal = any(injury.level >= FATAL for injury in fighter.sheet.injuries)
    return tuple(
        condition
        for condition in LASTING
        if condition in fighter.conditions and not (condition == "incapacitated" and fatal)
    )


def _end_of(opening: Combatant, fighter: Combatant) -> FighterEnd:
    taken = fighter.sheet.injuries[len(opening.sheet.injuries) :]
    spent = max(0, opening.sheet.destiny.points - fighter.sheet.destiny.points)
    return FighterEnd(
        id=fighter.id,
        name=fighter.sheet.identity.name,
        injuries=taken,
        conditions=_lasting(fighter),
        destiny_spent=spent,
    )


def fighter_ends(encounter: Encounter) -> tuple[FighterEnd, ...]:
    """What each fighter takes away from ``encounter`` (as its opening line-up began it)."""
    check_can_end(encounter)
    openings = {fighter.id: fighter for fighter in encounter.opening}
    return tuple(
        _end_of(openings.get(fighter.id, fighter), fighter) for fighter in encounter.combatants
    )


def written(sheet: Sheet, end: FighterEnd, fight: str) -> Sheet:
    """``sheet`` with what ``end`` takes away from the fight ``fight``: the injuries added, the
    lasting states in place of the known states it had (a state the combat chapter has no rule
    for, "poisoned", is kept as written), and a line of history."""
    unknown = tuple(c for c in sheet.conditions if condition_name(c) is None)
    known = tuple(c for c in end.conditions if c not in unknown)
    history = sheet.history
    if end.injuries or end.conditions:
        words = [f"level {injury.level} injury ({injury.description})" for injury in end.injuries]
        words += list(end.conditions)
        history = (*history, Award(event="fight", detail=f"{fight}: {', '.join(words)}"))
    return sheet.model_copy(
        update={
            "injuries": (*sheet.injuries, *end.injuries),
            "conditions": (*unknown, *known),
            "history": history,
        }
    )
