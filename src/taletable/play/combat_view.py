"""An encounter as a tracker shows it (002 > Combat): the line-up with sides, each declared
pool as built, injuries, conditions, STR and armour left; who declares next in RFL order; the
victories waiting with the outcomes each allows; the log. Plain data for a page to render:
every value here is the engine's, nothing is decided by whoever shows it.
"""

from __future__ import annotations

from typing import Any

from taletable.play.context import Table
from taletable.play.encounters import read_encounter
from taletable.systems.cogent.combat import Encounter
from taletable.systems.cogent.combat.aftermath import pending
from taletable.systems.cogent.combat.outcomes import legal_outcomes
from taletable.systems.cogent.combat.reading import declared_pool, pool_text, reading_order
from taletable.systems.cogent.combat.rounds import expected_next
from taletable.systems.cogent.combat.state import ACTIONS, CONDITIONS

__all__ = ["ACTIONS", "bestiary_names", "combat_view", "encounter_view"]


def _fighters(encounter: Encounter) -> list[dict[str, Any]]:
    order = encounter.declaration_order()
    declared = {d.actor: d for d in encounter.declarations}
    shown = []
    for fighter in sorted(encounter.combatants, key=lambda f: (f.side, f.id)):
        pool = declared_pool(encounter, fighter.id)
        declaration = declared.get(fighter.id)
        shown.append(
            {
                "id": fighter.id,
                "name": fighter.sheet.identity.name,
                "side": fighter.side,
                "reflex": fighter.reflex,
                "place": order.index(fighter.id) + 1 if fighter.id in order else None,
                "weapon": fighter.weapon,
                "injuries": [(i.level, i.description) for i in fighter.sheet.injuries],
                "conditions": list(fighter.conditions),
                "strength_left": fighter.strength_left,
                "armour_left": fighter.armour_left,
                "able": fighter.can_act,
                "declared": declaration.action if declaration else None,
                "target": declaration.target if declaration else None,
                "pool": pool_text(pool) if pool is not None else None,
            }
        )
    return shown


def encounter_view(encounter: Encounter) -> dict[str, Any]:
    """The tracker's data for ``encounter`` (002 > Combat > Round Order; > Victory Levels)."""
    declaring = encounter.phase == "declaration"
    declared = {d.actor for d in encounter.declarations}
    victories = [
        {
            "id": victory.id,
            "winner": victory.winner,
            "loser": victory.loser,
            "level": victory.level,
            "outcomes": legal_outcomes(
                victory.level, ranged=victory.ranged, disarm_only=victory.disarm_only
            ),
        }
        for victory in pending(encounter)
    ]
    return {
        "name": encounter.name,
        "round": encounter.round,
        "phase": encounter.phase,
        "fighters": _fighters(encounter),
        "order": encounter.declaration_order(),
        "waiting": [i for i in encounter.declaration_order() if i not in declared]
        if declaring
        else [],
        "next": expected_next(encounter) if declaring else None,
        "reading": reading_order(encounter, _names(encounter))
        if declaring and encounter.declarations
        else "",
        "victories": victories,
        "sides": sorted(encounter.sides()),
        "log": [line.to_data() for line in encounter.log],
        "actions": list(ACTIONS),
        "conditions": list(CONDITIONS),
        "rolled": [roll.actor for roll in encounter.rolls] if not declaring else [],
        "steps": len(encounter.steps),
    }


def _names(encounter: Encounter) -> dict[str, str]:
    """Each fighter's id -> its name, with the id after it where two share a name."""
    named = [(f.id, f.sheet.identity.name) for f in encounter.combatants]
    shared = [name for _id, name in named]
    return {i: name if name and shared.count(name) == 1 else f"{name} ({i})" for i, name in named}


def combat_view(table: Table, key: str) -> dict[str, Any]:
    """The tracker's data for the encounter stored under ``key`` (read and verified)."""
    return encounter_view(read_encounter(table, key).encounter)


def bestiary_names() -> list[str]:
    """The bestiary's creatures a fight may take (``@NAME``; 002 > NPCs and Monsters)."""
    from taletable.systems.cogent.narrator.bestiary import bestiary

    return sorted(bestiary())
