"""The performance phase: every combatant rolls once; engaged pairs compare wins.

002 > Combat: each win over the opponent is a victory level. A melee roll can beat every
engaged opponent (a combatant faces at most half its pool, rounded down); a ranged roll wins
only against its declared target but defends against all, and against an adjacent melee
attacker it counts only the dice left after the melee-target penalty (RULINGS.md). A defence
roll (+2D6) wins nothing. A brace adds +2 wins against a charge. An off-guard attack or an
incapacitated target is rolled against a CL (CL 1 for the incapacitated, armour ignored); wins
over it are victory levels. A check's CL is an opponent's wins (Leon and Dartain). A melee
attacker closing on a faster shooter cannot strike in that round (002 > Melee vs Ranged).
"""

from __future__ import annotations

from taletable.dice import DiceSource
from taletable.errors import RulesError
from taletable.systems.cogent.combat.aftermath import maybe_end_round
from taletable.systems.cogent.combat.hardcore import hardcore_weapon, ranged_challenge_level
from taletable.systems.cogent.combat.outcomes import OUTCOME_LEVELS
from taletable.systems.cogent.combat.rounds import OFFENSIVE, ROUND_ORDER, expected_next
from taletable.systems.cogent.combat.situation import (
    hardcore_shot,
    hardcore_use,
    melee_dice,
    roll_pool,
)
from taletable.systems.cogent.combat.state import (
    Combatant,
    Encounter,
    RollRecord,
    Step,
    Victory,
)
from taletable.systems.cogent.dice import count_wins
from taletable.systems.cogent.scale import adjust_for_scale

__all__ = ["BRACE_WINS", "resolve"]

BRACE_WINS = 2
#: An unarmed disarm attempt wins only a disarm, a level 2 outcome (002 > Victory Levels).
DISARM_LEVEL = OUTCOME_LEVELS["disarm"]


def _has_sniper(fighter: Combatant) -> bool:
    """A sniper proficiency: a combat or vocational skill named Sniper (RULINGS.md)."""
    for vocation in fighter.sheet.vocations:
        names = [(s.name, s.points) for s in vocation.combat_skills]
        names += [(s.name, s.points) for s in vocation.vocational_skills]
        if any(name.lower() == "sniper" and points > 0 for name, points in names):
            return True
    return False


def _scaled(encounter: Encounter, roller: Combatant, target: Combatant, difference: int) -> int:
    """The result after scale (tiered edition; 000 > Scale): the Ogre's 0 becomes a level 2."""
    if encounter.rules.edition != "tiered" or roller.scale == target.scale:
        return difference
    return adjust_for_scale(difference, roller.scale, target.scale, encounter.rules).margin


def _within_reach(encounter: Encounter, victories: list[Victory], log: list[str]) -> list[Victory]:
    """A spear's victories against at most its table's number of targets a round.

    002 > Hardcore Weapon Modifiers (Short Spear, Longspear: "a max of 2 targets per combat
    round"): the declared target's victory is kept first, then the highest levels (RULINGS.md).
    """
    kept: list[Victory] = []
    for winner in dict.fromkeys(v.winner for v in victories):
        won = [v for v in victories if v.winner == winner]
        use = hardcore_use(encounter, encounter.combatant(winner))
        limit = hardcore_weapon(use).max_targets if use else None
        if limit is None or len(won) <= limit:
            kept += won
            continue
        target = next((d.target for d in encounter.declarations if d.actor == winner), None)
        won.sort(key=lambda v: (v.loser != target, -v.level, v.id))
        kept += won[:limit]
        dropped = ", ".join(v.loser for v in won[limit:])
        log.append(
            f"round {encounter.round}: {winner}'s {use} wins over {limit} targets at most; "
            f"none over {dropped}"
        )
    return sorted(kept, key=lambda v: v.id)


def _roll(encounter: Encounter, source: DiceSource) -> dict[str, RollRecord]:
    """Every declared roll, highest RFL first (002 > Combat > Round Order: the performance phase);
    a combatant who waits rolls nothing."""
    rolls: dict[str, RollRecord] = {}
    order = list(reversed(encounter.declaration_order()))
    for ident in order:
        fighter = encounter.combatant(ident)
        declaration = next(d for d in encounter.declarations if d.actor == ident)
        if declaration.action == "wait":
            continue
        pool = roll_pool(encounter, fighter, declaration)
        size = pool.size
        breakdown = tuple((c.source, c.dice) for c in pool.contributions)
        faces = source.roll(6, size) if size > 0 else ()
        rolls[ident] = RollRecord(
            actor=ident, pool=size, breakdown=breakdown, faces=faces, wins=count_wins(faces)
        )
    return rolls


def resolve(encounter: Encounter, source: DiceSource) -> Encounter:
    """The performance phase: every declared combatant rolls; victories are found (002 > Combat >
    Round Order; Fighting Groups; Melee vs Ranged; Circumstantial Modifiers)."""
    if encounter.phase != "declaration":
        raise RulesError(ROUND_ORDER, "this round is already resolved", fix="choose its outcomes")
    missing = expected_next(encounter)
    if missing is not None:
        raise RulesError(ROUND_ORDER, f"{missing} has not declared", fix=f"declare for {missing}")
    rolls = _roll(encounter, source)
    declared = {d.actor: d for d in encounter.declarations}
    log = list(encounter.log)
    for record in rolls.values():
        log.append(
            f"round {encounter.round}: {record.actor} rolls {record.pool}D6 "
            f"{list(record.faces)}: {record.wins} wins"
        )
    victories: list[Victory] = []
    updated = encounter

    def win(
        winner: str,
        loser: str,
        level: int,
        *,
        armour_allowed: bool,
        action: str = "attack",
        detail: str = "",
    ) -> None:
        """Record a victory level of ``winner`` over ``loser``, numbered in order found."""
        victories.append(
            Victory(
                id=encounter.next_victory + len(victories),
                round=encounter.round,
                winner=winner,
                loser=loser,
                level=level,
                ranged=action == "ranged",
                disarm_only=action == "disarm",
                armour_allowed=armour_allowed,
                detail=detail,
            )
        )

    def wins_against(defender: str, attacker: str) -> int:
        """A defender's wins against one attacker (ranged rolls weaken against melee; brace)."""
        roll = rolls.get(defender)
        if roll is None:
            return 0
        fighter = encounter.combatant(defender)
        wins = roll.wins
        attacker_declared = declared[attacker]
        defender_declared = declared[defender]
        if (
            fighter.ranged_weapon
            and updated.distance(defender, attacker) != "range"  # adjacent, or closed this round
            and attacker_declared.action != "ranged"
        ):
            dice = melee_dice(encounter, fighter, defender_declared, attacker)
            wins = count_wins(roll.faces[:dice])
        if (
            defender_declared.action == "brace"
            and defender_declared.target == attacker
            and attacker_declared.action == "charge"
        ):
            wins += BRACE_WINS
        engaged = [
            a
            for a, d in declared.items()
            if d.target == defender and d.action in OFFENSIVE and a != defender
        ]
        limit = max(1, roll.pool // 2)
        if attacker in engaged and engaged.index(attacker) >= limit:
            return 0  # beyond the opponents this roll can face (002 > Fighting Groups)
        return wins

    for ident, declaration in declared.items():
        attacker = encounter.combatant(ident)
        if declaration.action == "check":
            level = declaration.challenge_level
            if declaration.against is not None:
                level = rolls[declaration.against].wins if declaration.against in rolls else 0
            passed = rolls[ident].wins >= (level or 0)
            log.append(
                f"round {encounter.round}: {ident}'s check against CL {level}: "
                + ("passed" if passed else "failed")
            )
            continue
        if declaration.action not in OFFENSIVE or declaration.target is None:
            continue
        target = encounter.combatant(declaration.target)
        distance = encounter.distance(ident, target.id)
        if declaration.action in ("attack", "charge") and distance == "range":
            target_declared = declared.get(target.id)
            shooting = target_declared is not None and target_declared.action == "ranged"
            updated = updated.with_distance(ident, target.id, "adjacent")
            if shooting and attacker.reflex <= target.reflex and declaration.action != "charge":
                log.append(
                    f"round {encounter.round}: {ident} closes on {target.id} "
                    "(who is faster) and cannot strike yet"
                )
                continue
        armour_allowed = distance != "close" and "incapacitated" not in target.conditions
        shot = hardcore_shot(encounter, attacker, declaration)
        if declaration.challenge_level is not None or not target.can_act or shot:
            level_needed = (
                declaration.challenge_level if declaration.challenge_level is not None else 1
            )
            if shot and declaration.challenge_level is None and target.can_act:
                level_needed = ranged_challenge_level(
                    declaration.hardcore_range or "medium",
                    declaration.target_state,
                    cover=declaration.cover,
                    sniper_proficiency=_has_sniper(attacker),
                    steady=declaration.steady,
                )
            level = rolls[ident].wins - level_needed
            kind = (
                "off guard"
                if declaration.challenge_level is not None
                else "incapacitated target (CL 1, armour ignored)"
                if not target.can_act
                else f"hardcore ranged CL {level_needed}"
            )
            if not target.can_act:
                armour_allowed = False
            disarm_only = declaration.action == "disarm"
            if level >= (DISARM_LEVEL if disarm_only else 1):
                win(
                    ident,
                    target.id,
                    level,
                    armour_allowed=armour_allowed,
                    action=declaration.action,
                    detail=kind,
                )
            continue
        difference = _scaled(
            encounter, attacker, target, rolls[ident].wins - wins_against(target.id, ident)
        )
        disarm_only = declaration.action == "disarm"
        if disarm_only and 0 < difference < DISARM_LEVEL:
            log.append(
                f"round {encounter.round}: {ident}'s disarm attempt wins level {difference}, "
                f"short of the level {DISARM_LEVEL} a disarm needs"
            )
        elif difference > 0:
            action = declaration.action
            win(ident, target.id, difference, armour_allowed=armour_allowed, action=action)
    # defenders who beat a melee attacker win victories against it too (their roll is offence)
    for ident, declaration in declared.items():
        if declaration.action not in ("attack", "charge", "disarm") or declaration.target is None:
            continue
        target = encounter.combatant(declaration.target)
        target_declared = declared.get(target.id)
        if target_declared is None or target_declared.action in (
            "defend",
            "wait",
            "other",
            "check",
        ):
            continue
        if "defence" in target_declared.circumstances:
            continue  # a brace made a defence roll: +2D6, no victory (002 > Brace)
        if target_declared.target == ident and target_declared.action in OFFENSIVE:
            continue  # already compared as the target's own attack
        if target_declared.action == "ranged" or ident not in rolls or target.id not in rolls:
            continue
        if updated.distance(ident, target.id) == "range":
            continue
        difference = _scaled(
            encounter,
            target,
            encounter.combatant(ident),
            wins_against(target.id, ident) - rolls[ident].wins,
        )
        if difference > 0:
            close = updated.distance(ident, target.id) == "close"
            win(target.id, ident, difference, armour_allowed=not close)
    next_id = encounter.next_victory + len(victories)
    victories = _within_reach(encounter, victories, log)
    for victory in victories:
        log.append(
            f"round {encounter.round}: {victory.winner} wins victory level {victory.level} "
            f"over {victory.loser} (#{victory.id})"
        )
    updated = updated.model_copy(
        update={
            "rolls": tuple(rolls.values()),
            "victories": (*encounter.victories, *victories),
            "next_victory": next_id,
            "log": tuple(log),
            "phase": "outcomes",
            "steps": (
                *encounter.steps,
                Step(kind="resolve", faces=tuple(f for r in rolls.values() for f in r.faces)),
            ),
        }
    )
    return maybe_end_round(updated)
