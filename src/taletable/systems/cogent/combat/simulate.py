"""Fights without a person: named policies drive the engine (for odds and Monte Carlo).

Policies: each combatant attacks its opponent every round; the winner of a victory takes the
most severe injury its level allows; the loser spends STR, then armour, to keep its injury
lowest (the issue's stated duel policy). The fight ends when a side cannot act.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.combat.aftermath import choose, pending
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.combat.exchange import resolve
from taletable.systems.cogent.combat.rounds import declare, start_encounter
from taletable.systems.cogent.combat.state import Declaration, Encounter
from taletable.systems.cogent.rules import Rules

__all__ = ["TARGETING", "DuelResult", "FightResult", "simulate_duel", "simulate_fight"]

MAX_DUEL_ROUNDS = 100
#: Named targeting policies for group fights: the first able foe in order of entry, or the
#: foe with the most injury levels (ties: order of entry).
TARGETING = ("first", "most injured")


def _settle(encounter: Encounter) -> Encounter:
    """Every pending victory by the policies (RULINGS.md "Default policies"): the most severe
    injury its level allows; a loser who can act spends STR, then armour; a helpless one
    (incapacitated, unconscious) spends nothing (002 > Circumstantial Modifiers, Incapacitated:
    it "cannot fight back or defend")."""
    for victory in pending(encounter):
        encounter = choose(encounter, victory.id)
    return encounter


class DuelResult(Record):
    """Who was left standing, after how many rounds, and how the loser ended."""

    winner: Literal["a", "b"] | None
    rounds: int
    loser_state: str
    encounter: Encounter


def simulate_duel(
    a: tuple[CoreCharacter | TieredCharacter, str | None],
    b: tuple[CoreCharacter | TieredCharacter, str | None],
    source: DiceSource,
    *,
    max_rounds: int = MAX_DUEL_ROUNDS,
    rules: Rules | None = None,
) -> DuelResult:
    """Run a duel between ``a`` and ``b`` (sheet of either edition, weapon) with the policies,
    by ``rules`` (the standard ones by default; the hardcore rules when switched on).

    Every die comes from ``source`` (a SeededDice for Monte Carlo); at most ``max_rounds``
    rounds, after which ``winner`` is None. The returned encounter holds the whole log.
    """
    first, second = combatant_sheet(a[0]), combatant_sheet(b[0])
    encounter = start_encounter(
        [("a", "a", first, a[1]), ("b", "b", second, b[1])], source, rules=rules
    )
    while len(encounter.sides()) == 2 and encounter.round <= max_rounds:
        for ident in encounter.declaration_order():
            other = "b" if ident == "a" else "a"
            encounter = declare(encounter, Declaration(actor=ident, action="attack", target=other))
        encounter = _settle(resolve(encounter, source))
    sides = encounter.sides()
    winner: Literal["a", "b"] | None = None
    if sides == {"a"}:
        winner = "a"
    elif sides == {"b"}:
        winner = "b"
    state = "standing"
    if winner is not None:
        loser = encounter.combatant("b" if winner == "a" else "a")
        state = ", ".join(loser.conditions) or "standing"
    return DuelResult(
        winner=winner, rounds=encounter.round - 1, loser_state=state, encounter=encounter
    )


class FightResult(Record):
    """The side left standing (None: none, or the round cap came first), after how many rounds."""

    winner: str | None
    rounds: int
    encounter: Encounter


def simulate_fight(
    fighters: Sequence[tuple[str, str, CoreCharacter | TieredCharacter, str | None]],
    source: DiceSource,
    *,
    targeting: Literal["first", "most injured"] = "first",
    max_rounds: int = MAX_DUEL_ROUNDS,
) -> FightResult:
    """Run a group fight of ``(id, side, sheet, weapon)`` entries with the named policies.

    Every able combatant attacks a foe chosen by ``targeting`` each round (002 > Fighting Groups
    decides how many it can face); outcomes and reductions follow the duel policies above.
    """
    if targeting not in TARGETING:
        raise InputError("targeting", f"{targeting!r}", expected=", ".join(TARGETING))
    if not 1 <= max_rounds <= MAX_DUEL_ROUNDS * 5:
        raise InputError("max_rounds", f"{max_rounds}", expected=f"1 to {MAX_DUEL_ROUNDS * 5}")
    entries = [(i, side, combatant_sheet(sheet), weapon) for i, side, sheet, weapon in fighters]
    encounter = start_encounter(entries, source)
    while len(encounter.sides()) > 1 and encounter.round <= max_rounds:
        for ident in encounter.declaration_order():
            me = encounter.combatant(ident)
            foes = [f for f in encounter.combatants if f.side != me.side and f.can_act]
            if targeting == "most injured":
                foes.sort(key=lambda f: -sum(injury.level for injury in f.sheet.injuries))
            declaration = Declaration(actor=ident, action="attack", target=foes[0].id)
            encounter = declare(encounter, declaration)
        encounter = _settle(resolve(encounter, source))
    sides = encounter.sides()
    winner = next(iter(sides)) if len(sides) == 1 else None
    return FightResult(winner=winner, rounds=encounter.round - 1, encounter=encounter)
