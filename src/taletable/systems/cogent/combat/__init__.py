"""Cogent combat: encounters from declaration to injuries (002 > Combat)."""

from taletable.systems.cogent.combat.aftermath import choose
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.combat.exchange import resolve
from taletable.systems.cogent.combat.outcomes import legal_outcomes, reduce
from taletable.systems.cogent.combat.pool import combat_pool
from taletable.systems.cogent.combat.rounds import declare, start_encounter
from taletable.systems.cogent.combat.simulate import (
    DuelResult,
    FightResult,
    simulate_duel,
    simulate_fight,
)
from taletable.systems.cogent.combat.state import Declaration, Encounter

__all__ = [
    "Declaration",
    "DuelResult",
    "Encounter",
    "FightResult",
    "choose",
    "combat_pool",
    "combatant_sheet",
    "declare",
    "legal_outcomes",
    "reduce",
    "resolve",
    "simulate_duel",
    "simulate_fight",
    "start_encounter",
]
