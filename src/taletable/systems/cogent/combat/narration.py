"""States the narrator sets or ends during a fight (002 > Combat > Circumstantial Modifiers).

Staggered: "Penalty received if the opponent selects to stagger through a victory level, or if
the Narrator applies it, IE sand is thrown in a character's face, or they slip on oil" (-2D6 for
one round). Prone: -4D6, "Penalty lasts for one round or until the character readies themselves,
unless they are incapacitated/sleeping". Incapacitated: "held in place, tied up, or unconscious
and therefore cannot fight back or defend themselves. armour levels are disregarded and the CL
a character must exceed to obtain ANY victory level against them is CL1".

Each change is a step of the encounter (``Step(kind="condition")``), so a replay makes it
again; it is made between rounds, before anyone declares (RULINGS.md "narrator-set states").
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.explain import note
from taletable.systems.cogent.combat.conditions import (
    CIRCUMSTANTIAL,
    HELPLESS,
    ONE_ROUND,
    condition_name,
)
from taletable.systems.cogent.combat.state import Encounter, Step

__all__ = ["CLEARABLE", "NARRATED", "narrate_condition"]


#: The states a narrator sets during a fight.
NARRATED = ("staggered", "prone", "tied up", "asleep")
#: The states a narrator ends: those, and a disarm once the weapon is recovered (002 > Dual
#: Wielding, Kelvin: "until his rapier is recovered").
CLEARABLE = (*NARRATED, "disarmed")


def _known(text: str, allowed: tuple[str, ...], field: str) -> str:
    name = condition_name(text)
    if name not in allowed:
        raise InputError(field, f"{text!r}", expected=", ".join(allowed))
    return name


def narrate_condition(
    encounter: Encounter,
    fighter_id: str,
    condition: str,
    *,
    clear: bool = False,
    rounds: int | None = None,
) -> Encounter:
    """Set (or with ``clear`` end) a state on ``fighter_id`` before this round's declarations.

    002 > Circumstantial Modifiers. Staggered and prone last this round only unless ``rounds``
    says more; tied up and asleep last until cleared unless ``rounds`` says how long, and a
    prone fighter stays prone while helpless ("unless they are incapacitated/sleeping").
    """
    field = "clear" if clear else "condition"
    name = _known(condition, CLEARABLE if clear else NARRATED, field)
    fighter = encounter.combatant(fighter_id)
    if encounter.phase != "declaration" or encounter.declarations:
        raise RulesError(
            CIRCUMSTANTIAL,
            "the narrator changes a fighter's state between rounds, before anyone declares",
            fix="choose this round's outcomes first; set it before the next declarations",
        )
    if "dead" in fighter.conditions:
        raise RulesError(CIRCUMSTANTIAL, f"{fighter.id} is dead", fix="")
    if clear and rounds is not None:
        raise InputError("rounds", "a cleared state has no rounds", expected="no rounds")
    conditions = [c for c in fighter.conditions if c != name]
    until = {k: v for k, v in fighter.condition_until.items() if k != name}
    if clear:
        if name not in fighter.conditions:
            held = ", ".join(fighter.conditions) or "none"
            raise InputError("clear", f"{fighter.id} is not {name}", expected=held)
        line = note("combat.narrator.cleared", CIRCUMSTANTIAL, fighter=fighter.id, condition=name)
    else:
        conditions.append(name)
        helpless = bool(HELPLESS & set(conditions))
        lasting = rounds or (1 if name in ONE_ROUND else None)
        if lasting is not None and not (name == "prone" and helpless and rounds is None):
            until[name] = encounter.round + lasting - 1
        if name in HELPLESS and "prone" in until and "prone" in conditions:
            del until["prone"]  # prone stays while helpless
        last = until.get(name)
        line = note(
            "combat.narrator.until" if last is not None else "combat.narrator.set",
            CIRCUMSTANTIAL, fighter=fighter.id, condition=name, last=last,
        )  # fmt: skip
    updated = encounter.replace(
        fighter.model_copy(update={"conditions": tuple(conditions), "condition_until": until})
    )
    step = Step(kind="condition", fighter=fighter.id, condition=name, clear=clear, rounds=rounds)
    order = tuple(updated.declaration_order())
    log = (
        *updated.log,
        line.model_copy(update={"values": {"round": encounter.round, **line.values}}),
        note("combat.order", round=encounter.round, order=order),
    )
    return updated.model_copy(update={"steps": (*updated.steps, step), "log": log})
