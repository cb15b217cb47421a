"""What shapes one combatant's roll this round, read from the encounter (002 > Combat Modifiers).

``roll_pool`` is the pool a declaration will roll; ``declare`` builds it at once so a declaration
that could not be rolled (a weapon that cannot strike so, too many dice) is refused then, never
in the middle of the performance phase, when a declaration can no longer be changed.
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.sheet import Weapon
from taletable.systems.cogent.combat.pool import Situation, situational_pool, weapon_use
from taletable.systems.cogent.combat.state import Combatant, Declaration, Encounter
from taletable.systems.cogent.equipment import weapon_group
from taletable.systems.cogent.pools import MAX_POOL, DicePool

__all__ = [
    "BALLISTIC",
    "automatic_fire",
    "dismembering_projectiles",
    "hardcore_shot",
    "hardcore_use",
    "melee_dice",
    "roll_pool",
    "scoped",
    "situation_for",
]

#: The standard groups the hardcore ranged rules apply to: ballistic weapons, against which no
#: defence roll can be made (002 > Hardcore Ranged Rules: "work differently to, say, bows").
BALLISTIC = ("Hand Ballistic", "Shoulder Stock Ballistic", "Heavy Ballistic")


def situation_for(encounter: Encounter, fighter: Combatant, declaration: Declaration) -> Situation:
    """The situation of ``fighter``'s declared roll: target kind, close combat, conditions.

    002 > Combat Modifiers (Close Combat; Circumstantial Modifiers); Weapon Modifiers (a ranged
    weapon's bonus against a target at range, its melee penalty otherwise); Defence rolls (+2D6).
    """
    target_id = declaration.target
    target = encounter.combatant(target_id) if target_id else None
    at_range = target is not None and encounter.distance(fighter.id, target.id) == "range"
    ranged_target = declaration.action == "ranged" and at_range
    grappling = [
        encounter.combatant(other)
        for engagement in encounter.engagements
        if engagement.distance == "close" and fighter.id in (engagement.a, engagement.b)
        for other in (engagement.a, engagement.b)
        if other != fighter.id
    ]
    # in close combat with anyone, every roll is made in close combat (RULINGS.md)
    close = bool(grappling)
    opponents = [target] if target is not None and target in grappling else grappling
    reach = any(_holds_reach(opponent) for opponent in opponents)
    circumstances = list(declaration.circumstances)
    for condition in ("staggered", "prone"):
        if condition in fighter.conditions:
            circumstances.append(condition)
    if declaration.action in ("charge", "disarm"):
        circumstances.append(declaration.action)
    if declaration.action == "defend":
        circumstances.append("defence")
    disarmed = "disarmed" in fighter.conditions
    return Situation(
        weapon=None if disarmed else fighter.weapon,
        secondary=None if disarmed else fighter.secondary,
        use=declaration.use,
        target="ranged" if ranged_target else "melee",
        close_combat=close,
        opponent_reach=reach,
        circumstances=tuple(circumstances),
        narrator=declaration.modifiers,
    )


def _holds_reach(fighter: Combatant) -> bool:
    """A reach weapon in hand (002 > Close Combat: a medium weapon keeps its bonus against it)."""
    carried = _carried(fighter)
    return carried is not None and weapon_group(carried.group).name == "Reach Weapon"


def roll_pool(encounter: Encounter, fighter: Combatant, declaration: Declaration) -> DicePool:
    """The pool ``fighter`` rolls for ``declaration`` (a narrator's pool for other actions).

    002 > Combat Fundamentals and Combat Modifiers; any other action is a pool the narrator
    builds (002 > Performance Phase, Leon and Dartain). At most 200 dice (DESIGN > Principles 8).
    """
    if declaration.action in ("other", "check"):
        pool = DicePool(contributions=()).plus("narrator's pool", declaration.pool or 0)
    else:
        situation = situation_for(encounter, fighter, declaration)
        pool = situational_pool(fighter.sheet, situation, encounter.rules)
    if pool.size > MAX_POOL:
        raise InputError(
            "modifiers", f"{fighter.id}'s pool of {pool.size} dice", expected=f"at most {MAX_POOL}"
        )
    return pool


def melee_dice(encounter: Encounter, fighter: Combatant, declaration: Declaration, foe: str) -> int:
    """Dice of ``fighter``'s roll that count against an adjacent melee attacker ``foe``.

    002 > Melee vs Ranged: a ranged roll compared with a melee attacker is reduced by the
    weapon's melee-target penalty; a weapon that cannot be used in melee counts no dice. A
    defence roll keeps its +2D6 (002 > Defence rolls).
    """
    action = "attack" if declaration.action == "ranged" else declaration.action
    as_melee = declaration.model_copy(update={"action": action, "target": foe})
    try:
        return max(0, roll_pool(encounter, fighter, as_melee).size)
    except (InputError, RulesError):
        return 0


def _carried(fighter: Combatant) -> Weapon | None:
    if fighter.weapon is None or "disarmed" in fighter.conditions:
        return None
    return next(w for w in fighter.sheet.equipment.weapons if w.name == fighter.weapon)


def scoped(fighter: Combatant) -> bool:
    """The weapon in hand has a scope (002 > Hardcore Ranged Rules: "Sniper range can only be
    attempted if the weapon has a scope")."""
    carried = _carried(fighter)
    return carried is not None and carried.scope


def dismembering_projectiles(fighter: Combatant) -> bool:
    """The weapon in hand shoots magic or explosive projectiles, so its ranged victories may
    dismember (002 > Victory Levels, Level 4: "not available to ranged combat rolls unless magic
    or explosive projectiles are involved")."""
    carried = _carried(fighter)
    return carried is not None and (carried.magic_projectile or carried.explosive)


def automatic_fire(fighter: Combatant) -> bool:
    """The weapon in hand fires fully automatic, so its ranged roll may achieve victories
    against more than one opponent a round (002 > Combat > Fighting Groups: "a fully automatic
    machine gun can hit multiple opponents in a single round")."""
    carried = _carried(fighter)
    return carried is not None and carried.automatic


def hardcore_use(encounter: Encounter, fighter: Combatant) -> str | None:
    """The hardcore group ``fighter``'s weapon is used as this round (its declared way of use,
    else its standard function), or None without the hardcore weapon rules or a weapon."""
    carried = _carried(fighter)
    if not encounter.rules.hardcore_weapons or carried is None:
        return None
    declared = next((d for d in encounter.declarations if d.actor == fighter.id), None)
    return weapon_use(carried, declared.use if declared else None)


def hardcore_shot(encounter: Encounter, fighter: Combatant, declaration: Declaration) -> bool:
    """A ranged attack rolled against the hardcore CL table: a ballistic weapon's shot with
    ``Rules.hardcore_ranged`` (002 > Hardcore Ranged Rules; RULINGS.md "hardcore ranged")."""
    carried = _carried(fighter)
    return (
        encounter.rules.hardcore_ranged
        and declaration.action == "ranged"
        and carried is not None
        and weapon_group(carried.group).name in BALLISTIC
    )
