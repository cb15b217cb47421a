"""The performance phase: every combatant rolls once; engaged pairs compare wins.

002 > Combat: each win over the opponent is a victory level, and a pair of rolls is compared
once, so only the side with more wins gains levels. A melee roll can beat every engaged
opponent (a combatant faces at most half its pool, rounded down); a ranged roll wins only
against its declared target but defends against all. Against a melee attacker in reach a
ranged roll counts only the dice left after the melee-target penalty, unless the shooter is
faster than an attacker closing on it this round, whose shot is fired first (002 > Melee vs
Ranged). A defence roll (+2D6) wins nothing. A brace adds +2 wins against a charge. An
off-guard attack or a helpless target is rolled against a CL (CL 1 for the helpless, armour
ignored); wins over it are victory levels. A check's CL is an opponent's wins (Leon and Dartain).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from taletable.dice import DiceSource, GivenFaces
from taletable.errors import RulesError
from taletable.explain import Note, Value, note
from taletable.systems.cogent.combat.aftermath import maybe_end_round
from taletable.systems.cogent.combat.hardcore import hardcore_weapon, ranged_challenge_level
from taletable.systems.cogent.combat.outcomes import OUTCOME_LEVELS
from taletable.systems.cogent.combat.reading import check_faces, roll_notes, roll_round, round_rolls
from taletable.systems.cogent.combat.rounds import OFFENSIVE, ROUND_ORDER, expected_next
from taletable.systems.cogent.combat.situation import (
    automatic_fire,
    dismembering_projectiles,
    hardcore_shot,
    hardcore_use,
    melee_dice,
    scoped,
)
from taletable.systems.cogent.combat.state import (
    Combatant,
    Declaration,
    Encounter,
    RollRecord,
    Step,
    Victory,
)
from taletable.systems.cogent.scale import adjust_for_scale

__all__ = ["BRACE_WINS", "resolve"]

BRACE_WINS = 2
#: An unarmed disarm attempt wins only a disarm, a level 2 outcome (002 > Victory Levels).
DISARM_LEVEL = OUTCOME_LEVELS["disarm"]
MELEE_VS_RANGED = "002 > Combat > Melee vs Ranged"
#: Actions that make no victory against a melee attacker (a defence roll wins nothing).
PASSIVE = ("defend", "wait", "other", "check")


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


@dataclass
class _Round:
    """One performance phase: the rolls, who closes on whom, and the victories found."""

    encounter: Encounter
    rolls: dict[str, RollRecord]
    declared: dict[str, Declaration]
    closing: set[tuple[str, str]]
    victories: list[Victory] = field(default_factory=list)
    log: list[Note] = field(default_factory=list)

    def note(self, kind: str, cite: str = "", **values: Value) -> None:
        """Log ``kind`` in this round."""
        self.log.append(note(kind, cite, round=self.encounter.round, **values))

    def faster(self, first: str, second: str) -> bool:
        """``first`` acts before ``second`` (002 > Performance Phase: higher RFL first; equal
        RFL by the encounter's 1D6 roll-off, as in declaration)."""
        order = self.encounter.declaration_order()
        return first in order and second in order and order.index(first) > order.index(second)

    def in_reach(self, first: str, second: str) -> bool:
        """Adjacent or in close combat already, or one closes on the other this round."""
        return (
            self.encounter.distance(first, second) != "range"
            or (first, second) in self.closing
            or (second, first) in self.closing
        )

    def fires_first(self, shooter: str, foe: str) -> bool:
        """A shooter faster than a melee attacker closing on it shoots before it arrives
        (002 > Melee vs Ranged: "the ranged combatant might still not receive the ascribed
        penalty, if they have a higher reflex")."""
        return (foe, shooter) in self.closing and self.faster(shooter, foe)

    def counted_wins(self, ident: str, foe: str) -> int:
        """``ident``'s wins as compared with ``foe``: a ranged weapon's roll against a melee foe
        in reach counts only the dice its melee-target penalty leaves (002 > Melee vs Ranged)."""
        roll = self.rolls.get(ident)
        if roll is None:
            return 0
        fighter = self.encounter.combatant(ident)
        if (
            fighter.ranged_weapon
            and foe in self.declared
            and self.declared[foe].action != "ranged"
            and self.in_reach(ident, foe)
            and not self.fires_first(ident, foe)
        ):
            dice = melee_dice(self.encounter, fighter, self.declared[ident], foe)
            return roll.wins_of(dice)
        return roll.wins

    def defence_wins(self, defender: str, attacker: str) -> int:
        """A defender's wins against one attacker: its counted wins, +2 for a brace against the
        charge, and 0 beyond the opponents its roll can face (002 > Fighting Groups)."""
        roll = self.rolls.get(defender)
        if roll is None:
            return 0
        wins = self.counted_wins(defender, attacker)
        own, theirs = self.declared[defender], self.declared[attacker]
        if own.action == "brace" and own.target == attacker and theirs.action == "charge":
            wins += BRACE_WINS
        engaged = [
            a
            for a, d in self.declared.items()
            if d.target == defender and d.action in OFFENSIVE and a != defender
        ]
        limit = max(1, roll.pool // 2)
        if attacker in engaged and engaged.index(attacker) >= limit:
            return 0
        return wins

    def win(self, winner: str, loser: str, level: int, *, armour: bool, action: str,
            detail: str = "") -> None:  # fmt: skip
        """Record a victory level of ``winner`` over ``loser``, numbered in order found."""
        shooter = self.encounter.combatant(winner)
        self.victories.append(
            Victory(
                id=self.encounter.next_victory + len(self.victories),
                round=self.encounter.round,
                winner=winner,
                loser=loser,
                level=level,
                ranged=action == "ranged",
                dismembering_projectile=action == "ranged" and dismembering_projectiles(shooter),
                disarm_only=action == "disarm",
                armour_allowed=armour,
                detail=detail,
            )
        )


def _closing(encounter: Encounter, declared: dict[str, Declaration]) -> set[tuple[str, str]]:
    """Melee attackers at range from their target, who close on it this round (002 > Melee vs
    Ranged: "The character using the melee weapon must close the distance")."""
    return {
        (ident, d.target)
        for ident, d in declared.items()
        if d.action in ("attack", "charge")
        and d.target is not None
        and encounter.distance(ident, d.target) == "range"
    }


def _against_cl(state: _Round, attacker: Combatant, target: Combatant, declared: Declaration,
                armour: bool) -> None:  # fmt: skip
    """An attack rolled against a CL: off guard (the narrator's), a helpless target (CL 1,
    armour ignored) or a hardcore ballistic shot (the range table's CL). 002 > Circumstantial
    Modifiers (Off Guard; Incapacitated); Hardcore Ranged Rules."""
    shot = hardcore_shot(state.encounter, attacker, declared)
    needed = declared.challenge_level if declared.challenge_level is not None else 1
    if shot and declared.challenge_level is None and target.can_act:
        needed = ranged_challenge_level(
            declared.hardcore_range or "medium",
            declared.target_state,
            cover=declared.cover,
            scope=scoped(attacker),
            sniper_proficiency=_has_sniper(attacker),
            steady=declared.steady,
        )
    if declared.challenge_level is not None:
        kind = "off guard"
    elif not target.can_act:
        kind, armour = "incapacitated target (CL 1, armour ignored)", False
    else:
        kind = f"hardcore ranged CL {needed}"
    level = state.rolls[attacker.id].wins - needed
    if level >= (DISARM_LEVEL if declared.action == "disarm" else 1):
        state.win(attacker.id, target.id, level, armour=armour, action=declared.action,
                  detail=kind)  # fmt: skip


def _attack(state: _Round, ident: str, declared: Declaration) -> None:
    """One offensive declaration compared with its target, once (002 > Victory Levels)."""
    encounter = state.encounter
    attacker = encounter.combatant(ident)
    target = encounter.combatant(declared.target or "")
    armour = encounter.distance(ident, target.id) != "close" and target.can_act
    if (
        declared.challenge_level is not None
        or not target.can_act
        or hardcore_shot(encounter, attacker, declared)
    ):
        _against_cl(state, attacker, target, declared, armour)
        return
    mine = state.counted_wins(ident, target.id)
    difference = _scaled(encounter, attacker, target, mine - state.defence_wins(target.id, ident))
    if declared.action == "disarm" and 0 < difference < DISARM_LEVEL:
        state.note("combat.disarm_short", actor=ident, level=difference, needed=DISARM_LEVEL)
    elif difference > 0:
        state.win(ident, target.id, difference, armour=armour, action=declared.action)


def _counter(state: _Round, ident: str, declared: Declaration) -> None:
    """A defender whose roll beats a melee attacker wins victory levels over it: its roll is
    offence too (002 > Victory Levels; Fighting Groups, Terrik), unless it made a defence roll,
    aimed a ranged roll at someone else (002 > Melee vs Ranged) with a weapon that is not fully
    automatic (002 > Fighting Groups), or already attacked it."""
    target_id = declared.target or ""
    theirs = state.declared.get(target_id)
    if theirs is None or theirs.action in PASSIVE or "defence" in theirs.circumstances:
        return
    if theirs.target == ident and theirs.action in OFFENSIVE:
        return  # already compared as the target's own attack
    encounter = state.encounter
    single_shot = not automatic_fire(encounter.combatant(target_id))
    if (theirs.action == "ranged" and single_shot) or ident not in state.rolls:
        return
    if target_id not in state.rolls:
        return
    if not state.in_reach(ident, target_id):
        return
    difference = _scaled(
        encounter,
        encounter.combatant(target_id),
        encounter.combatant(ident),
        state.defence_wins(target_id, ident) - state.counted_wins(ident, target_id),
    )
    if difference > 0:
        close = encounter.distance(ident, target_id) == "close"
        state.win(target_id, ident, difference, armour=not close, action="attack")


def _within_reach(encounter: Encounter, victories: list[Victory], log: list[Note]) -> list[Victory]:
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
        dropped = tuple(v.loser for v in won[limit:])
        log.append(
            note("combat.hardcore_targets", round=encounter.round, winner=winner, use=use,
                 limit=limit, dropped=dropped)
        )  # fmt: skip
    return sorted(kept, key=lambda v: v.id)


def _note_closing(state: _Round) -> None:
    """Say who closes on whom, and which shooter fires before the attacker arrives."""
    for attacker, target in sorted(state.closing):
        state.note("combat.closes", attacker=attacker, target=target)
        shooting = target in state.declared and state.declared[target].action == "ranged"
        if shooting and state.fires_first(target, attacker):
            state.note("combat.shoots_first", MELEE_VS_RANGED, attacker=attacker, target=target)


def _check(state: _Round, ident: str, declared: Declaration) -> None:
    """A check declared in combat: against its CL, or an opponent's wins (Leon and Dartain)."""
    level = declared.challenge_level
    if declared.against is not None:
        level = state.rolls[declared.against].wins if declared.against in state.rolls else 0
    passed = state.rolls[ident].wins >= (level or 0)
    state.note("combat.check_passed" if passed else "combat.check_failed", actor=ident, level=level)


def resolve(
    encounter: Encounter,
    source: DiceSource,
    *,
    exact_faces: bool = False,
    after: Mapping[str, int] | None = None,
) -> Encounter:
    """The performance phase: every declared combatant rolls; victories are found (002 > Combat >
    Round Order; Fighting Groups; Melee vs Ranged; Circumstantial Modifiers).

    Given faces too few for the round are refused before any is read, saying whose roll is
    short; with ``exact_faces`` faces left over are refused too (a person's dice for one round).
    """
    if encounter.phase != "declaration":
        raise RulesError(ROUND_ORDER, "this round is already resolved", fix="choose its outcomes")
    missing = expected_next(encounter)
    if missing is not None:
        raise RulesError(ROUND_ORDER, f"{missing} has not declared", fix=f"declare for {missing}")
    if isinstance(source, GivenFaces):
        needed = sum(max(0, pool.size) for _, pool in round_rolls(encounter))
        if exact_faces or source.remaining < needed:
            check_faces(encounter, source.remaining)
    rolls = roll_round(encounter, source, after or {})
    declared = {d.actor: d for d in encounter.declarations}
    state = _Round(encounter, rolls, declared, _closing(encounter, declared), log=[*encounter.log])
    for record in rolls.values():
        state.note(
            "combat.roll", actor=record.actor, pool=record.pool, faces=record.faces,
            wins=record.wins, notes=roll_notes(record),
        )  # fmt: skip
    _note_closing(state)
    for ident, declaration in declared.items():
        if declaration.action == "check":
            _check(state, ident, declaration)
        elif declaration.action in OFFENSIVE and declaration.target is not None:
            _attack(state, ident, declaration)
    for ident, declaration in declared.items():
        if declaration.action in ("attack", "charge", "disarm") and declaration.target:
            _counter(state, ident, declaration)
    next_id = encounter.next_victory + len(state.victories)
    victories = _within_reach(encounter, state.victories, state.log)
    for victory in victories:
        state.note(
            "combat.victory", winner=victory.winner, level=victory.level, loser=victory.loser,
            victory=victory.id,
        )  # fmt: skip
    updated = encounter
    for attacker, target in sorted(state.closing):  # sorted: a replay in any process agrees
        updated = updated.with_distance(attacker, target, "adjacent")
    updated = updated.model_copy(
        update={
            "rolls": tuple(rolls.values()),
            "victories": (*encounter.victories, *victories),
            "next_victory": next_id,
            "log": tuple(state.log),
            "phase": "outcomes",
            "steps": (
                *encounter.steps,
                Step(
                    kind="resolve",
                    faces=tuple(f for r in rolls.values() for f in r.faces),
                    dice_source=source.kind,
                ),
            ),
        }
    )
    return maybe_end_round(updated)
