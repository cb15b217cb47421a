"""Cogent combat: encounters from declaration to injuries (002 > Combat)."""

from taletable.systems.cogent.combat.aftermath import choose
from taletable.systems.cogent.combat.exchange import resolve
from taletable.systems.cogent.combat.outcomes import legal_outcomes, reduce
from taletable.systems.cogent.combat.rounds import declare, start_encounter
from taletable.systems.cogent.combat.state import Declaration, Encounter

__all__ = [
    "Declaration",
    "Encounter",
    "choose",
    "declare",
    "legal_outcomes",
    "reduce",
    "resolve",
    "start_encounter",
]
