"""Destiny points on combat rolls (002 > Character Creation > Destiny Points).

"A character may spend a Destiny Point before any d6-based roll ... each dice that rolls a 3 or
higher will be considered a win"; "A character may spend a Destiny Point after any d6-based roll
to add a single win in addition to what they achieved. They may do this multiple times on any
roll or separate rolls, for as many Destiny Points as they have."

The points come from the fighter's sheet as it is in the encounter (a statblock holds none):
before the roll with the declaration; after it with a step of its own, made right after the
roll, before any outcome is chosen (RULINGS.md "assists and destiny in combat").

This module checks a spend after the roll and compares the round's rolls again from the
encounter as it stood before the roll; ``replay.destiny_after`` finds that encounter by
replaying the steps before it (so replaying a destiny step needs no import back here).
"""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.explain import note
from taletable.systems.cogent.combat.combatant import DESTINY, spend_from_sheet
from taletable.systems.cogent.combat.exchange import resolve
from taletable.systems.cogent.combat.state import Encounter, Step

__all__ = ["DESTINY", "add_wins_after", "check_destiny_after", "spend_from_sheet"]


def _last_resolve(encounter: Encounter) -> int:
    """The index of the round's resolve step, with only destiny steps after it; else refused."""
    for index in range(len(encounter.steps) - 1, -1, -1):
        kind = encounter.steps[index].kind
        if kind == "resolve":
            return index
        if kind != "destiny":
            break
    raise RulesError(
        DESTINY,
        "destiny after a roll is spent right after the roll, before any outcome is chosen "
        "or anything else is done",
        fix="spend it after `resolve`, before `choose`",
    )


def check_destiny_after(encounter: Encounter, fighter_id: str, points: int) -> int:
    """Refuse a spend of ``points`` after ``fighter_id``'s roll that the rules forbid (002 >
    Destiny Points; 000 > Destiny Points > After a Dice Roll); the index of the roll's resolve
    step when it is allowed."""
    if encounter.rules.edition == "tiered":
        raise RulesError(
            "000 > Destiny > Destiny Points > After a Dice Roll",
            "a tiered point after a roll rerolls, raises or lowers a narrative result; it "
            "adds no win to a combat roll",
            fix="spend destiny before the roll (advantage)",
        )
    if not 1 <= points <= 50:
        raise InputError("points", f"{points}", expected="1 to 50 destiny points")
    index = _last_resolve(encounter)
    fighter = encounter.combatant(fighter_id)
    if all(roll.actor != fighter.id for roll in encounter.rolls):
        rolled = ", ".join(roll.actor for roll in encounter.rolls) or "nobody"
        raise InputError("fighter", f"{fighter.id} made no roll this round", expected=rolled)
    if fighter.sheet.destiny.points < points:
        spend_from_sheet(fighter, points, "")  # refused: says what the sheet holds
    return index


def add_wins_after(
    before: Encounter, encounter: Encounter, index: int, fighter_id: str, points: int
) -> Encounter:
    """Add ``points`` wins to ``fighter_id``'s last roll, one per destiny point, and compare the
    round's rolls again (002 > Destiny Points: "add a single win in addition to what they
    achieved"). ``index`` is the roll's resolve step (:func:`check_destiny_after`) and
    ``before`` the encounter as its steps before it make. The faces stay those rolled; the
    victories are found again from them."""
    fighter = encounter.combatant(fighter_id)
    spends = [
        (step.fighter, step.points)
        for step in encounter.steps[index + 1 :]
        if step.fighter is not None and step.points is not None
    ]
    spends.append((fighter.id, points))
    after: dict[str, int] = {}
    for ident, count in spends:
        after[ident] = after.get(ident, 0) + count
    state = resolve(before, GivenFaces(encounter.steps[index].faces), after=after)
    log = list(state.log)
    for ident, count in spends:
        what = f"{count} win(s) after the roll in combat round {before.round}"
        state = state.replace(spend_from_sheet(state.combatant(ident), count, what))
        log.append(
            note("combat.destiny_after", DESTINY, round=before.round, fighter=ident, points=count)
        )
    steps = (
        *encounter.steps,
        Step(kind="destiny", fighter=fighter.id, points=points),
    )
    return state.model_copy(update={"steps": steps, "log": tuple(log)})
