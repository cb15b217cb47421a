"""Starting an encounter and declaring actions (002 > Combat > Round Order).

Declaration goes from the lowest RFL to the highest (ties settled once per encounter by 1D6);
a declaration cannot be changed. Declaring later is an advantage: a brace answers a charge
declared before it. The performance phase is in ``exchange.py``; outcomes in ``aftermath.py``.
"""

from __future__ import annotations

from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat.combatant import spend_from_sheet
from taletable.systems.cogent.combat.conditions import brought_conditions
from taletable.systems.cogent.combat.hardcore import worn_armour_level
from taletable.systems.cogent.combat.pool import DUAL_WIELD_BONUS
from taletable.systems.cogent.combat.situation import hardcore_shot, roll_pool, scoped
from taletable.systems.cogent.combat.state import (
    MAX_COMBATANTS,
    Combatant,
    Declaration,
    Encounter,
    Engagement,
    Step,
)
from taletable.systems.cogent.equipment import weapon_group
from taletable.systems.cogent.rules import Rules

__all__ = ["OFFENSIVE", "ROUND_ORDER", "declare", "expected_next", "start_encounter"]

ROUND_ORDER = "002 > Combat > Round Order"
#: The most times a roll-off is rolled again among fighters still tied (DESIGN > Principles 8).
MAX_ROLL_OFFS = 20
OFFENSIVE = ("attack", "charge", "disarm", "ranged")


def start_encounter(
    fighters: list[tuple[str, str, CoreCharacter, str | None]],
    source: DiceSource,
    *,
    name: str = "encounter",
    secondary: dict[str, str] | None = None,
    rules: Rules | None = None,
    scales: dict[str, int] | None = None,
    engagements: tuple[Engagement, ...] = (),
) -> Encounter:
    """Start an encounter from ``(id, side, sheet, weapon)`` entries; roll 1D6 for RFL ties
    (002 > Combat > Round Order), once for the whole encounter, again among those still tied.
    ``engagements``: pairs the narrator starts adjacent or in close combat; every other pair
    starts at range, and "the narrator will determine how many rounds" closing takes (002 >
    Combat > Melee vs Ranged)."""
    ids = _check_line_up(fighters, secondary, scales)
    built: list[Combatant] = []
    log: list[Note] = []
    reflexes = [sheet.attributes.RFL for _, _, sheet, _ in fighters]
    for ident, side, sheet, weapon in fighters:
        tie = source.roll(6, 1)[0] if reflexes.count(sheet.attributes.RFL) > 1 else 0
        second, scale = (secondary or {}).get(ident), (scales or {}).get(ident, 0)
        fighter, notes = _combatant(
            ident, side, sheet, weapon, second, rules or Rules(), tie, scale
        )
        built.append(fighter)
        log += notes
    built, rerolled = _settle_ties(built, source)
    log += rerolled
    _check_engagements(ids, engagements)
    log += [
        note(
            "combat.start_close" if pair.distance == "close" else "combat.start_adjacent",
            a=pair.a,
            b=pair.b,
        )
        for pair in engagements
    ]
    encounter = Encounter(
        name=name,
        combatants=tuple(built),
        rules=rules or Rules(),
        engagements=engagements,
        opening=tuple(built),
        opening_engagements=engagements,
        opening_dice_source=source.kind,
    )
    if encounter.rules.edition != "tiered" and any(f.scale for f in built):
        log.append(note("combat.scale_in_core", "000 > Scale"))
    order = note("combat.order", round=1, order=tuple(encounter.declaration_order()))
    return encounter.model_copy(update={"log": (*log, order)})


def _check_line_up(
    fighters: list[tuple[str, str, CoreCharacter, str | None]],
    secondary: dict[str, str] | None,
    scales: dict[str, int] | None,
) -> list[str]:
    """The fighters' ids, refused when too few or many, shared, or unknown to an option."""
    if not 2 <= len(fighters) <= MAX_COMBATANTS:
        raise InputError("combatants", f"{len(fighters)}", expected=f"2 to {MAX_COMBATANTS}")
    ids = [ident for ident, *_ in fighters]
    if len(set(ids)) != len(ids):
        raise InputError("combatants", "two combatants share an id", expected="distinct ids")
    for field, named in (("scales", scales), ("secondary", secondary)):
        unknown = sorted(set(named or {}) - set(ids))
        if unknown:
            raise InputError(field, f"no combatant {unknown[0]!r}", expected=", ".join(ids))
    for ident, value in (scales or {}).items():
        if not -6 <= value <= 6:
            raise InputError("scales", f"{ident}={value}", expected="a scale from -6 to 6")
    return ids


def _combatant(
    ident: str, side: str, sheet: CoreCharacter, weapon: str | None, second: str | None,
    rules: Rules, tie: int, scale: int,
) -> tuple[Combatant, list[Note]]:  # fmt: skip
    """One fighter as it enters: its weapons checked, its armour, and the conditions its sheet
    brings (noted in the first round's log)."""
    if weapon is not None and all(w.name != weapon for w in sheet.equipment.weapons):
        raise InputError(
            "weapon",
            f"{ident} carries no {weapon!r}",
            expected=", ".join(w.name for w in sheet.equipment.weapons) or "none",
        )
    if second is not None:
        _check_secondary(ident, sheet, weapon, second)
    level = worn_armour_level(sheet.equipment.armour, rules)
    conditions, until, notes = brought_conditions(sheet)
    fighter = Combatant(
        id=ident, side=side, sheet=sheet, weapon=weapon, secondary=second, armour_level=level,
        strength_left=max(0, sheet.attributes.STR), armour_left=level, tie_roll=tie,
        scale=scale, conditions=conditions, condition_until=until,
    )  # fmt: skip
    noted = [n.model_copy(update={"values": {"round": 1, "fighter": ident, **n.values}})
             for n in notes]  # fmt: skip
    return fighter, noted


def _settle_ties(
    fighters: list[Combatant], source: DiceSource
) -> tuple[list[Combatant], list[Note]]:
    """Roll the 1D6 roll-off again among fighters still tied, until none are (002 > Combat >
    Round Order: "If two Characters have the same REF, they each roll 1D6, where the highest
    resulting roll gets to declare later"; RULINGS.md "Ties in declaration order")."""
    log: list[Note] = []
    for _ in range(MAX_ROLL_OFFS):
        groups: dict[tuple[int, ...], list[int]] = {}
        for index, fighter in enumerate(fighters):
            groups.setdefault(_tie_key(fighter), []).append(index)
        tied = [members for members in groups.values() if len(members) > 1]
        if not tied:
            return fighters, log
        for members in tied:
            faces = []
            for index in members:
                fighter = fighters[index]
                face = source.roll(6, 1)[0]
                fighters[index] = fighter.model_copy(
                    update={"tie_rerolls": (*fighter.tie_rerolls, face)}
                )
                faces.append(face)
            tied_ids = tuple(fighters[i].id for i in members)
            log.append(note("combat.roll_off", fighters=tied_ids, faces=tuple(faces)))
    return fighters, [*log, note("combat.roll_off_still_tied")]


def _tie_key(fighter: Combatant) -> tuple[int, ...]:
    return (fighter.reflex, fighter.tie_roll, *fighter.tie_rerolls)


def _check_engagements(ids: list[str], engagements: tuple[Engagement, ...]) -> None:
    """Each starting pair names two different combatants, once."""
    seen: list[set[str]] = []
    for pair in engagements:
        for ident in (pair.a, pair.b):
            if ident not in ids:
                raise InputError("engagements", f"no combatant {ident!r}", expected=", ".join(ids))
        if pair.a == pair.b or {pair.a, pair.b} in seen:
            raise InputError(
                "engagements", f"{pair.a}:{pair.b}", expected="each pair of two combatants once"
            )
        seen.append({pair.a, pair.b})


def _check_secondary(ident: str, sheet: CoreCharacter, weapon: str | None, second: str) -> None:
    """A secondary weapon is carried, small or medium, and held with a primary (Dual Wielding)."""
    carried = next((w for w in sheet.equipment.weapons if w.name == second), None)
    if carried is None:
        names = ", ".join(w.name for w in sheet.equipment.weapons) or "none"
        raise InputError("secondary", f"{ident} carries no {second!r}", expected=names)
    if weapon is None or weapon == second:
        raise InputError(
            "secondary", f"{ident}'s {second} needs another primary weapon", expected="WEAPON"
        )
    if weapon_group(carried.group).name not in DUAL_WIELD_BONUS:
        raise RulesError(
            "002 > Combat Modifiers > Dual Wielding",
            f"{ident}'s {second} ({carried.group}) cannot be a secondary weapon",
            fix="dual wield a small or medium secondary weapon",
        )


def _spend_before(encounter: Encounter, actor: Combatant) -> Encounter:
    """A destiny point spent before the roll, from the fighter's sheet (002 > Destiny Points:
    "each dice that rolls a 3 or higher will be considered a win"; 000 > Destiny Points:
    Advantage, the same)."""
    what = f"3-6 wins on a combat roll in round {encounter.round}"
    return encounter.replace(spend_from_sheet(actor, 1, what))


def expected_next(encounter: Encounter) -> str | None:
    """Who declares next: the lowest RFL not yet declared (002 > Combat > Round Order)."""
    declared = {d.actor for d in encounter.declarations}
    return next((i for i in encounter.declaration_order() if i not in declared), None)


def declare(encounter: Encounter, declaration: Declaration) -> Encounter:
    """Record a declaration, in order, refusing what the rules forbid (002 > Round Order)."""
    actor = _whose_turn(encounter, declaration)
    _check_action(encounter, actor, declaration)
    _check_options(encounter, actor, declaration)
    action = declaration.action
    if action != "wait":
        roll_pool(encounter, actor, declaration)  # refused now, not in the performance phase
    elif declaration.assist_wins or declaration.destiny_before:
        field = "assist_wins" if declaration.assist_wins else "destiny_before"
        raise InputError(field, "a fighter who waits makes no roll", expected="another action")
    if declaration.destiny_before:
        encounter = _spend_before(encounter, actor)
    step = Step(kind="declare", declaration=declaration)
    updated = encounter.model_copy(
        update={
            "declarations": (*encounter.declarations, declaration),
            "steps": (*encounter.steps, step),
        }
    )
    line = note(
        "combat.declare_destiny" if declaration.destiny_before else "combat.declare",
        "002 > Assists", round=encounter.round, actor=actor.id, action=action,
        target=declaration.target, assist=declaration.assist_wins or None,
    )  # fmt: skip
    return updated.model_copy(update={"log": (*updated.log, line)})


def _whose_turn(encounter: Encounter, declaration: Declaration) -> Combatant:
    """The declaring fighter, refused unless it is its turn to declare (002 > Round Order)."""
    if encounter.phase != "declaration":
        raise RulesError(
            ROUND_ORDER, "outcomes of this round are still to be chosen", fix="choose them first"
        )
    actor = encounter.combatant(declaration.actor)
    if not actor.can_act:
        raise RulesError(
            ROUND_ORDER, f"{actor.id} cannot act ({', '.join(actor.conditions)})", fix=""
        )
    if any(d.actor == actor.id for d in encounter.declarations):
        raise RulesError(
            ROUND_ORDER, f"{actor.id} has declared; a declaration cannot be changed", fix=""
        )
    expected = expected_next(encounter)
    if expected != actor.id:
        raise RulesError(
            ROUND_ORDER,
            f"{expected} declares before {actor.id} (lower RFL declares first)",
            fix=f"declare for {expected}",
        )
    return actor


def _check_action(encounter: Encounter, actor: Combatant, declaration: Declaration) -> None:
    """Refuse an action the fighter cannot take now: its target, its weapon, its distance
    (002 > Combat; Circumstantial Modifiers; Weapon Modifiers)."""
    action = declaration.action
    for named in (declaration.target, declaration.against):
        if named is not None:
            encounter.combatant(named)  # refuses an unknown id, whatever the action
    if action in (*OFFENSIVE, "brace") or (action == "check" and declaration.target):
        if declaration.target is None:
            raise InputError("target", f"{action} needs a target", expected="a combatant id")
        target = encounter.combatant(declaration.target)
        if target.id == actor.id:
            raise InputError("target", "a combatant cannot target itself", expected="another id")
    if action == "ranged" and not actor.ranged_weapon:
        raise RulesError(
            "002 > Combat > Weapon Modifiers",
            f"{actor.id} has no ranged weapon in hand",
            fix="attack",
        )
    if action == "charge" and encounter.distance(actor.id, declaration.target or "") != "range":
        raise RulesError(
            "002 > Circumstantial Modifiers", "a charge needs distance", fix="attack instead"
        )
    if action == "disarm" and (
        encounter.distance(actor.id, declaration.target or "") != "close" or actor.weapon
    ):
        raise RulesError(
            "002 > Weapon Modifiers > Unarmed",
            "an unarmed disarm needs close combat",
            fix="enter close combat unarmed first",
        )
    if action == "brace":
        charge = next((d for d in encounter.declarations if d.actor == declaration.target), None)
        if not declaration.prepared and (charge is None or charge.action != "charge"):
            raise RulesError(
                "002 > Circumstantial Modifiers (Brace)",
                "a brace counters a charge declared before it (or a round of preparation)",
                fix="declare brace after the charge, or mark it prepared",
            )
    if action in ("other", "check") and declaration.pool is None:
        raise InputError("pool", f"{action} needs the narrator's pool", expected="{pool} N")
    if action == "check" and declaration.against is None and declaration.challenge_level is None:
        raise InputError(
            "against",
            "a check needs a CL or an opponent's wins",
            expected="{against} ID or {challenge_level} C",
        )


def _check_options(encounter: Encounter, actor: Combatant, declaration: Declaration) -> None:
    """Refuse options the declaration cannot have: hardcore ones without their rules, off-guard
    flanking, defence without a brace (002 > Hardcore Combat; Circumstantial Modifiers)."""
    action = declaration.action
    if declaration.use is not None and not encounter.rules.hardcore_weapons:
        raise InputError(
            "use", "a weapon's way of use is a hardcore rule", expected="the hardcore weapon rules"
        )
    if declaration.use is not None and actor.weapon is None:
        raise InputError("use", f"{actor.id} holds no weapon", expected="no {use}")
    if declaration.hardcore_range is not None and not hardcore_shot(encounter, actor, declaration):
        raise InputError(
            "hardcore_range",
            "the hardcore range is for a ballistic weapon's ranged attack",
            expected="the hardcore ranged rules and a ballistic weapon, or no {hardcore_range}",
        )
    if declaration.hardcore_range == "sniper" and not scoped(actor):
        raise RulesError(
            "002 > Hardcore Combat > Hardcore Ranged Rules",
            f"sniper range can only be attempted if the weapon has a scope ({actor.id}'s has none)",
            fix="shoot at long range, or give the weapon a scope on the sheet",
        )
    if declaration.challenge_level is not None and "flank" in declaration.circumstances:
        raise RulesError(
            "002 > Circumstantial Modifiers (Off Guard)",
            "an off-guard attack is a normal combat roll without a flanking bonus",
            fix="drop flank",
        )
    if "defence" in declaration.circumstances and action != "brace":
        raise InputError(
            "circumstances",
            "defence reinforces a brace only (a defence roll is {action} defend)",
            expected="{action} brace, or {action} defend",
        )
