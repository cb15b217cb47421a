"""Outcomes of victories and the end of a round (002 > Victory Levels; Armour; Attributes).

The winner (or a named policy: the most severe injury the level allows) chooses the outcome;
the loser (or the policy: spend STR, then armour, to keep the injury lowest) spends reductions.
Injuries go on the sheet and weigh on later pools; staggered and prone last into the next round.
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.explain import note
from taletable.systems.cogent.character.sheet import Injury
from taletable.systems.cogent.combat.hardcore import armour_after_weapon
from taletable.systems.cogent.combat.outcomes import (
    DEATHBLOW_INJURY,
    Reduction,
    legal_outcomes,
    most_severe_injury,
    policy_reductions,
    reduce,
)
from taletable.systems.cogent.combat.situation import hardcore_use
from taletable.systems.cogent.combat.state import Combatant, Encounter, Step, Victory

__all__ = ["choose", "maybe_end_round", "pending"]


def pending(encounter: Encounter) -> list[Victory]:
    """This round's victories still waiting for their outcome."""
    return [v for v in encounter.victories if v.round == encounter.round and v.outcome is None]


def maybe_end_round(encounter: Encounter) -> Encounter:
    """The next round once every outcome is chosen (002 > Combat > Round Order): conditions timed
    to this round end (a stagger or trip lasts one round, 002 > Victory Levels); declarations
    start again from the lowest RFL."""
    if pending(encounter):
        return encounter
    next_round = encounter.round + 1
    fighters = []
    for fighter in encounter.combatants:
        until = {k: v for k, v in fighter.condition_until.items() if v >= next_round}
        expired = set(fighter.condition_until) - set(until)
        conditions = tuple(c for c in fighter.conditions if c not in expired)
        fighters.append(
            fighter.model_copy(update={"conditions": conditions, "condition_until": until})
        )
    updated = encounter.model_copy(
        update={
            "combatants": tuple(fighters),
            "round": next_round,
            "phase": "declaration",
            "declarations": (),
        }
    )
    order = note("combat.order", round=next_round, order=tuple(updated.declaration_order()))
    return updated.model_copy(update={"log": (*updated.log, order)})


def _add_condition(fighter: Combatant, condition: str, until: int | None = None) -> Combatant:
    conditions = (
        fighter.conditions if condition in fighter.conditions else (*fighter.conditions, condition)
    )
    timers = dict(fighter.condition_until)
    if until is not None:
        timers[condition] = until
    return fighter.model_copy(update={"conditions": conditions, "condition_until": timers})


def _reductions(
    encounter: Encounter,
    victory: Victory,
    chosen: str,
    strength: int | None,
    armour: int | None,
) -> Reduction:
    """The loser's STR and armour on ``chosen``: as given, else by the policy (RULINGS.md
    "Default policies"). A loser who cannot act spends nothing (002 > Circumstantial Modifiers,
    Incapacitated: "cannot fight back or defend themselves. armour levels are disregarded")."""
    loser = encounter.combatant(victory.loser)
    hardcore = encounter.rules.hardcore_armour
    if not loser.can_act:
        if strength or armour:
            raise RulesError(
                "002 > Circumstantial Modifiers (Incapacitated)",
                f"{loser.id} cannot act ({', '.join(loser.conditions)}): it spends no STR or "
                "armour",
                fix="give no {strength} or {armour}",
            )
        return reduce(chosen, victory.level, armour_allowed=False)
    if hardcore and armour is not None:
        raise RulesError(
            "002 > Hardcore Armour Rules",
            "hardcore armour reduces every injury by itself",
            fix="give no {armour}",
        )
    if (strength or 0) > loser.strength_left or (
        not hardcore and (armour or 0) > loser.armour_left
    ):
        raise RulesError(
            "002 > Combat > Armour",
            f"{loser.id} has {loser.strength_left} STR and "
            f"{loser.armour_left} armour reductions left",
            fix="spend no more than that",
        )
    if armour and not victory.armour_allowed:
        reduce(chosen, victory.level, armour=armour, armour_allowed=False)  # refuses, says why
    armour_left = loser.armour_left
    if hardcore:
        group = hardcore_use(encounter, encounter.combatant(victory.winner))
        armour_left = armour_after_weapon(loser.armour_level, group)
    return policy_reductions(
        chosen,
        victory.level,
        strength_left=loser.strength_left,
        armour_left=armour_left,
        strength=strength,
        armour=armour,
        armour_allowed=victory.armour_allowed,
        hardcore_armour=hardcore,
    )


def _injure(fighter: Combatant, level: int, note: str) -> Combatant:
    """An injury on the sheet: level 4 incapacitates, 5 or more is death (002 > Victory
    Levels)."""
    if level >= DEATHBLOW_INJURY:
        return _add_condition(fighter, "dead")
    sheet = fighter.sheet.model_copy(
        update={"injuries": (*fighter.sheet.injuries, Injury(level=level, description=note))}
    )
    fighter = fighter.model_copy(update={"sheet": sheet})
    return _add_condition(fighter, "incapacitated") if level >= 4 else fighter


def _apply(encounter: Encounter, victory: Victory, result: Reduction) -> Encounter:
    """The outcome's effect on the loser (002 > Victory Levels; Dual Wielding, Kelvin)."""
    final = result.final
    loser = encounter.combatant(victory.loser)
    loser = loser.model_copy(
        update={
            "strength_left": loser.strength_left - result.strength_used,
            "armour_left": loser.armour_left
            - (0 if encounter.rules.hardcore_armour else result.armour_used),
        }
    )
    updated = encounter
    if final == "close combat":
        updated = updated.with_distance(victory.winner, loser.id, "close")
    elif final == "stagger":
        loser = _add_condition(loser, "staggered", encounter.round + 1)
    elif final == "trip":
        loser = _add_condition(loser, "prone", encounter.round + 1)
    elif final == "disarm" and loser.secondary is not None and "disarmed" not in loser.conditions:
        # the secondary becomes the primary, with no dual bonus
        loser = loser.model_copy(update={"weapon": loser.secondary, "secondary": None})
    elif final == "disarm":
        loser = _add_condition(loser, "disarmed")
    if result.injury_level:
        loser = _injure(loser, result.injury_level, f"round {encounter.round}, {final}")
    if final == "knockout":
        loser = _add_condition(loser, "unconscious")
    if final == "dismember":
        loser = _add_condition(loser, "dismembered")
    return updated.replace(loser)


def choose(
    encounter: Encounter,
    victory_id: int,
    outcome: str | None = None,
    *,
    strength: int | None = None,
    armour: int | None = None,
) -> Encounter:
    """Apply a victory's outcome with the defender's STR and armour reductions (002 > Combat >
    Victory Levels; Attributes; Armour; hardcore armour: 002 > Hardcore Armour Rules).

    ``outcome`` None takes the named policy "most severe injury"; ``strength``/``armour`` None
    take the defender's policy (RULINGS.md "Default policies"); a loser who cannot act spends
    nothing.
    """
    victory = next((v for v in encounter.victories if v.id == victory_id), None)
    if victory is None or victory.outcome is not None:
        raise InputError(
            "victory",
            f"no pending victory #{victory_id}",
            expected=", ".join(f"#{v.id}" for v in pending(encounter)) or "none pending",
        )
    legal = legal_outcomes(
        victory.level,
        ranged=victory.ranged,
        disarm_only=victory.disarm_only,
        projectile=victory.dismembering_projectile,
    )
    chosen = outcome or ("disarm" if victory.disarm_only else most_severe_injury(victory.level))
    if chosen not in legal:
        raise RulesError(
            "002 > Combat > Victory Levels",
            f"{chosen!r} is not allowed at level {victory.level}",
            fix=f"choose one of {', '.join(legal)}",
        )
    result = _reductions(encounter, victory, chosen, strength, armour)
    updated = _apply(encounter, victory, result)
    final = result.final
    victories = tuple(
        v.model_copy(update={"outcome": final or "negated"}) if v.id == victory_id else v
        for v in updated.victories
    )
    line = note(
        "combat.outcome" if final else "combat.outcome_negated",
        round=encounter.round, victory=victory_id, chosen=chosen, loser=victory.loser,
        strength=result.strength_used, armour=result.armour_used, result=final,
    )  # fmt: skip
    step = Step(
        kind="choose", victory=victory_id, outcome=outcome, strength=strength, armour=armour
    )
    updated = updated.model_copy(
        update={
            "victories": victories,
            "log": (*updated.log, line),
            "steps": (*updated.steps, step),
        }
    )
    return maybe_end_round(updated)
