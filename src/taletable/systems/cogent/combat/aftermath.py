"""Outcomes of victories and the end of a round (002 > Victory Levels; Armour; Attributes).

The winner (or a named policy: the most severe injury the level allows) chooses the outcome;
the loser (or the policy: spend STR, then armour, to keep the injury lowest) spends reductions.
Injuries go on the sheet and weigh on later pools; staggered and prone last into the next round.
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.sheet import Injury
from taletable.systems.cogent.combat.hardcore import armour_after_weapon
from taletable.systems.cogent.combat.outcomes import (
    INJURY_OUTCOMES,
    legal_outcomes,
    most_severe_injury,
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
    order = ", ".join(updated.declaration_order())
    return updated.model_copy(
        update={"log": (*updated.log, f"round {next_round}: declaration order {order}")}
    )


def _add_condition(fighter: Combatant, condition: str, until: int | None = None) -> Combatant:
    conditions = (
        fighter.conditions if condition in fighter.conditions else (*fighter.conditions, condition)
    )
    timers = dict(fighter.condition_until)
    if until is not None:
        timers[condition] = until
    return fighter.model_copy(update={"conditions": conditions, "condition_until": timers})


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
    take the defender's policy: spend STR, then armour, to keep the injury lowest.
    """
    given = (strength, armour)
    victory = next((v for v in encounter.victories if v.id == victory_id), None)
    if victory is None or victory.outcome is not None:
        raise InputError(
            "--victory",
            f"no pending victory #{victory_id}",
            expected=", ".join(f"#{v.id}" for v in pending(encounter)) or "none pending",
        )
    legal = legal_outcomes(victory.level, ranged=victory.ranged, disarm_only=victory.disarm_only)
    chosen = outcome or ("disarm" if victory.disarm_only else most_severe_injury(victory.level))
    if chosen not in legal:
        raise RulesError(
            "002 > Combat > Victory Levels",
            f"{chosen!r} is not allowed at level {victory.level}",
            fix=f"choose one of {', '.join(legal)}",
        )
    loser = encounter.combatant(victory.loser)
    injury_like = chosen in INJURY_OUTCOMES
    if strength is None:
        strength = min(loser.strength_left, victory.level) if injury_like else 0
    hardcore = encounter.rules.hardcore_armour
    if hardcore:
        if armour is not None:
            raise RulesError(
                "002 > Hardcore Armour Rules",
                "hardcore armour reduces every injury by itself",
                fix="give no --armour",
            )
        group = hardcore_use(encounter, encounter.combatant(victory.winner))
        armour = armour_after_weapon(loser.armour_level, group) if victory.armour_allowed else 0
    elif armour is None:
        armour = loser.armour_left if injury_like and victory.armour_allowed else 0
    if strength > loser.strength_left or (not hardcore and armour > loser.armour_left):
        raise RulesError(
            "002 > Combat > Armour",
            f"{loser.id} has {loser.strength_left} STR and "
            f"{loser.armour_left} armour reductions left",
            fix="spend no more than that",
        )
    result = reduce(
        chosen,
        victory.level,
        strength=strength,
        armour=armour,
        armour_allowed=victory.armour_allowed,
        hardcore_armour=hardcore,
    )
    # spend only what was needed
    loser = loser.model_copy(
        update={
            "strength_left": loser.strength_left - result.strength_used,
            "armour_left": loser.armour_left - (0 if hardcore else result.armour_used),
        }
    )
    final = result.final
    winner = encounter.combatant(victory.winner)
    updated = encounter
    if final in ("close combat",):
        updated = updated.with_distance(winner.id, loser.id, "close")
    elif final == "stagger":
        loser = _add_condition(loser, "staggered", encounter.round + 1)
    elif final == "trip":
        loser = _add_condition(loser, "prone", encounter.round + 1)
    elif final == "disarm" and loser.secondary is not None and "disarmed" not in loser.conditions:
        # 002 > Dual Wielding (Kelvin): the secondary becomes the primary, with no dual bonus
        loser = loser.model_copy(update={"weapon": loser.secondary, "secondary": None})
    elif final == "disarm":
        loser = _add_condition(loser, "disarmed")
    if result.injury_level:
        if result.injury_level >= 5:
            loser = _add_condition(loser, "dead")
        else:
            sheet = loser.sheet.model_copy(
                update={
                    "injuries": (
                        *loser.sheet.injuries,
                        Injury(
                            level=result.injury_level,
                            description=f"round {encounter.round}, {final}",
                        ),
                    )
                }
            )
            loser = loser.model_copy(update={"sheet": sheet})
            if result.injury_level >= 4:
                loser = _add_condition(loser, "incapacitated")
    if final == "knockout":
        loser = _add_condition(loser, "unconscious")
    if final == "dismember":
        loser = _add_condition(loser, "dismembered")
    updated = updated.replace(loser)
    victories = tuple(
        v.model_copy(update={"outcome": final or "negated"}) if v.id == victory_id else v
        for v in updated.victories
    )
    line = (
        f"round {encounter.round}: #{victory_id} {chosen} on {loser.id}; "
        f"STR {result.strength_used}, "
        f"armour {result.armour_used} -> {final or 'nothing'}"
    )
    step = Step(
        kind="choose", victory=victory_id, outcome=outcome, strength=given[0], armour=given[1]
    )
    updated = updated.model_copy(
        update={
            "victories": victories,
            "log": (*updated.log, line),
            "steps": (*updated.steps, step),
        }
    )
    return maybe_end_round(updated)
