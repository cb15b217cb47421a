"""Combat encounters, round by round (002 > Combat): start, declare, resolve, choose, status,
replay. Each reads the encounter from the table's store (verified: sealed and replayable),
plays one step, and saves it over the version it read, so two people acting at once can never
lose a step: the second is refused and told to reload.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field

from taletable.errors import InputError
from taletable.play.combat_sheets import character_keys, destiny_debits, save_debits
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.encounters import (
    StoredEncounter,
    create_encounter,
    playing_encounter,
    read_encounter,
    save_encounter,
)
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.fighters import encounter_fighters
from taletable.play.registry import action
from taletable.play.requests import Request, described, rule_field
from taletable.systems.cogent.combat import Declaration, Encounter, choose, declare, resolve
from taletable.systems.cogent.combat.hardcore import Cover, Range, TargetState
from taletable.systems.cogent.combat.narration import CLEARABLE, NARRATED, narrate_condition
from taletable.systems.cogent.combat.pool import narrator_modifiers
from taletable.systems.cogent.combat.replay import destiny_after, verify_replay
from taletable.systems.cogent.combat.rounds import start_encounter
from taletable.systems.cogent.combat.state import MAX_ASSIST, MAX_ROUNDS, Action, Engagement

__all__ = [
    "CombatChooseRequest",
    "CombatConditionRequest",
    "CombatDeclareRequest",
    "CombatDestinyRequest",
    "CombatRequest",
    "CombatResolveRequest",
    "CombatStartRequest",
    "combat_choose",
    "combat_condition",
    "combat_declare",
    "combat_destiny",
    "combat_replay",
    "combat_resolve",
    "combat_start",
    "combat_status",
]

#: The encounter's key: a file's path at the CLI (``--out``, ``FILE``), an id at a live table.
ENCOUNTER = AliasChoices("encounter", "file", "out", "key")
Key = Field(min_length=1, max_length=4096, validation_alias=ENCOUNTER)


class CombatRequest(Request):
    """An encounter to act on (status, replay)."""

    encounter: str = Key


class CombatStartRequest(Request):
    """A new encounter: each fighter ``ID:SIDE:REF[:WEAPON[:SECONDARY]]`` and the table's
    optional combat rules (002 > Hardcore rules; 000 > Scale)."""

    encounter: str = Key
    fighters: tuple[str, ...] = described(
        text="A combatant (repeatable): FILE is a sheet, a statblock or @NAME of the bestiary; "
        "WEAPON defaults to the first carried (or 'unarmed'); SECONDARY: dual wielding.",
        form="ID:SIDE:FILE[:WEAPON[:SECONDARY]]", repeated=True, min_length=2, max_length=40,
        validation_alias=AliasChoices("fighters", "fighter"),
    )  # fmt: skip
    name: str = described("encounter", "The encounter's name.", min_length=1, max_length=200)
    edition: Literal["core", "tiered"] | None = described(
        None, "Cogent edition (default: the table's, core at the command line)."
    )
    hardcore_armour: bool = rule_field("hardcore_armour")
    hardcore_weapons: bool = rule_field("hardcore_weapons")
    hardcore_ranged: bool = rule_field("hardcore_ranged")
    scales: tuple[str, ...] = described(
        (), "A combatant's scale (tiered); a statblock's own scale counts without it.",
        form="ID=N", repeated=True, validation_alias=AliasChoices("scales", "scale"),
    )  # fmt: skip
    scale_method: Literal["table", "difference"] = rule_field("scale_method")
    no_scale_clamp: bool = rule_field("scale_clamp", off=True)
    engagements: tuple[str, ...] = described(
        (), "A pair that starts adjacent or in close combat (DISTANCE: adjacent or close); "
        "every other pair starts at range.", form="A:B:DISTANCE", repeated=True,
        max_length=200, validation_alias=AliasChoices("engagements", "engaged"),
    )  # fmt: skip
    faces: Faces = None


class CombatDeclareRequest(Request):
    """One combatant's declaration for the round (002 > Combat > Round Order)."""

    encounter: str = Key
    actor: str = described(text="Who declares.", min_length=1, max_length=60)
    action: Action = described(text="What the fighter does this round.")
    target: str | None = described(None, "The target's id.", max_length=60)
    circumstances: tuple[Literal["high ground", "flank", "defence", "narrow"], ...] = described(
        (), "A circumstantial bonus; defence makes a brace a defence roll (+2D6, no victory); "
        "narrow confines (an alleyway, a hallway) negate a reach weapon's bonus.", repeated=True,
        validation_alias=AliasChoices("circumstances", "circumstance"),
    )  # fmt: skip
    modifiers: tuple[str, ...] = described(
        (), "A narrator's modifier (distance, unequal equipment...).", form="NAME=DICE",
        repeated=True, max_length=20, validation_alias=AliasChoices("modifiers", "modifier"),
    )  # fmt: skip
    pool: int | None = described(
        None, "For other/check actions: the narrator's pool.", ge=0, le=200
    )
    challenge_level: int | None = described(
        None, "Off guard: the CL (wins over it are victory levels); check: its CL.", ge=0,
        le=100, validation_alias=AliasChoices("challenge_level", "cl"),
    )  # fmt: skip
    against: str | None = described(
        None, "For a check: the opponent whose wins are the CL.", max_length=60
    )
    prepared: bool = described(False, "Brace prepared a full round before.")
    hardcore_range: Range | None = described(
        None, "Hardcore ranged: the range.",
        validation_alias=AliasChoices("hardcore_range", "range"),
    )  # fmt: skip
    target_state: TargetState = described("stationary", "Hardcore ranged: the target's state.")
    cover: Cover = described("none", "Hardcore ranged: cover of a moving target.")
    unsteady: bool = described(False, "Hardcore ranged: not kneeling or lying down.")
    use: str | None = described(
        None, "Hardcore weapons: the group a weapon of several heads is used as.", min_length=1,
        max_length=60,
    )  # fmt: skip
    assist_wins: int = described(
        0, "An assist rolled before this roll: its wins over the CL, or negative for a "
        "backfire's losses (002 > Assists).", ge=-MAX_ASSIST, le=MAX_ASSIST,
    )  # fmt: skip
    destiny_before: bool = described(
        False, "Spend a destiny point from the fighter's sheet: 3-6 win (002 > Destiny Points)."
    )


class CombatResolveRequest(Request):
    """Roll the round: the table's dice, or a person's faces (highest RFL first)."""

    encounter: str = Key
    faces: Faces = None


class CombatConditionRequest(Request):
    """A state the narrator sets on a fighter between rounds, or ends (002 > Circumstantial
    Modifiers: tied up, asleep, prone, staggered by thrown sand)."""

    encounter: str = Key
    fighter: str = described(text="The fighter's id.", min_length=1, max_length=60)
    condition: str | None = described(
        None, f"A state to set: {', '.join(NARRATED)} (002 > Circumstantial Modifiers; sand in "
        "the face staggers).", max_length=60, validation_alias=AliasChoices("condition", "set"),
    )  # fmt: skip
    clear: str | None = described(None, f"A state to end: {', '.join(CLEARABLE)}.", max_length=60)
    rounds: int | None = described(
        None, "Rounds it lasts, this one included (default: staggered and prone one round, "
        "tied up and asleep until cleared).", ge=1, le=MAX_ROUNDS,
    )  # fmt: skip


class CombatDestinyRequest(Request):
    """Destiny points a fighter spends right after its roll, a win each (002 > Destiny Points)."""

    encounter: str = Key
    fighter: str = described(text="The fighter who spends.", min_length=1, max_length=60)
    points: int = described(1, "Destiny points from its sheet, a win each.", ge=1, le=50)


class CombatChooseRequest(Request):
    """A victory's outcome, with the loser's STR and armour spends (default: the policy)."""

    encounter: str = Key
    victory: int = described(text="The victory's number (#N).", ge=1, le=100_000)
    outcome: str | None = described(
        None, "The outcome; default: the most severe injury the level allows.", max_length=60
    )
    strength: int | None = described(
        None, "STR points the loser spends (default: policy).", ge=0, le=100
    )
    armour: int | None = described(
        None, "Armour levels the loser spends (default: policy)", ge=0, le=100
    )


def _stepped(
    kind: str, read: StoredEncounter, encounter: Encounter, saved: Event
) -> Played[Encounter]:
    """The step played, as an event: the step as recorded and where its log lines begin."""
    step = encounter.steps[-1].model_dump(mode="json") if encounter.steps else {}
    data = {
        "round": encounter.round,
        "phase": encounter.phase,
        "log_from": len(read.encounter.log),
        "step": step,
    }
    return Played(encounter, (Event(kind=kind, subject=read.key, data=data), saved))


def _engagement(text: str) -> Engagement:
    """``A:B:adjacent`` or ``A:B:close``: a pair the narrator starts engaged."""
    parts = [part.strip() for part in text.split(":")]
    if len(parts) != 3 or parts[2] not in ("adjacent", "close") or not all(parts):
        raise InputError("engagements", f"{text!r}", expected="A:B:adjacent or A:B:close")
    return Engagement(a=parts[0], b=parts[1], distance=parts[2])


@action("cogent.combat.start", CombatStartRequest)
def combat_start(request: CombatStartRequest, table: Table) -> Played[Encounter]:
    """Start an encounter; RFL ties are settled now by a 1D6 roll-off that holds (002 >
    Combat > Round Order)."""
    fighters, secondary, scales = encounter_fighters(table, request.fighters, request.scales)
    at_table = table.rules  # a live table's own options stay on; the request may add more
    rules = at_table.model_copy(
        update={
            "edition": request.edition or at_table.edition,
            "hardcore_armour": at_table.hardcore_armour or request.hardcore_armour,
            "hardcore_weapons": at_table.hardcore_weapons or request.hardcore_weapons,
            "hardcore_ranged": at_table.hardcore_ranged or request.hardcore_ranged,
            "scale_method": request.scale_method,
            "scale_clamp": at_table.scale_clamp and not request.no_scale_clamp,
        }
    )
    source = dice_for(table, request.faces)
    encounter = start_encounter(
        fighters, source, name=request.name, secondary=secondary, rules=rules, scales=scales,
        engagements=tuple(_engagement(text) for text in request.engagements),
    )  # fmt: skip
    finish(source)
    keys = character_keys(table, request.fighters)
    saved = create_encounter(table, request.encounter, encounter, keys)
    started = Event(
        kind="cogent.combat.start",
        subject=request.encounter,
        data={"fighters": [fighter.id for fighter in encounter.combatants]},
    )
    return Played(encounter, (started, saved))


@action("cogent.combat.declare", CombatDeclareRequest)
def combat_declare(request: CombatDeclareRequest, table: Table) -> Played[Encounter]:
    """Declare a combatant's action: lowest RFL first, and it cannot be changed."""
    read = playing_encounter(table, request.encounter)
    given = request.model_dump(exclude={"encounter", "modifiers", "unsteady"})
    declaration = Declaration(
        **given, modifiers=narrator_modifiers(request.modifiers), steady=not request.unsteady
    )
    encounter = declare(read.encounter, declaration)
    what = f"round {encounter.round} of {read.key}"
    debits = destiny_debits(table, read.sheets, read.encounter, encounter, what)
    saved = save_encounter(table, read, encounter)
    played = _stepped("cogent.combat.declare", read, encounter, saved)
    return Played(encounter, (*played.events, *save_debits(table, debits)))


@action("cogent.combat.resolve", CombatResolveRequest)
def combat_resolve(request: CombatResolveRequest, table: Table) -> Played[Encounter]:
    """Roll every declared pool (faces read highest RFL first) and find the victories."""
    read = playing_encounter(table, request.encounter)
    source = dice_for(table, request.faces)
    encounter = resolve(read.encounter, source, exact_faces=request.faces is not None)
    finish(source)
    saved = save_encounter(table, read, encounter)
    return _stepped("cogent.combat.resolve", read, encounter, saved)


@action("cogent.combat.choose", CombatChooseRequest)
def combat_choose(request: CombatChooseRequest, table: Table) -> Played[Encounter]:
    """Apply a victory's outcome with the loser's reductions (002 > Combat > Victory Levels)."""
    read = playing_encounter(table, request.encounter)
    encounter = choose(
        read.encounter,
        request.victory,
        request.outcome,
        strength=request.strength,
        armour=request.armour,
    )
    saved = save_encounter(table, read, encounter)
    return _stepped("cogent.combat.choose", read, encounter, saved)


@action("cogent.combat.condition", CombatConditionRequest)
def combat_condition(request: CombatConditionRequest, table: Table) -> Played[Encounter]:
    """Set or end a fighter's state between rounds (002 > Combat > Circumstantial Modifiers)."""
    if (request.condition is None) == (request.clear is None):
        raise InputError(
            "condition", "give a state to set or one to clear", expected="one of set, clear"
        )
    read = playing_encounter(table, request.encounter)
    encounter = narrate_condition(
        read.encounter,
        request.fighter,
        request.condition or request.clear or "",
        clear=request.clear is not None,
        rounds=request.rounds,
    )
    saved = save_encounter(table, read, encounter)
    return _stepped("cogent.combat.condition", read, encounter, saved)


@action("cogent.combat.destiny", CombatDestinyRequest)
def combat_destiny(request: CombatDestinyRequest, table: Table) -> Played[Encounter]:
    """Spend destiny after a roll: a win each, and the round's rolls compared again (002 >
    Character Creation > Destiny Points)."""
    read = playing_encounter(table, request.encounter)
    encounter = destiny_after(read.encounter, request.fighter, request.points)
    what = f"round {encounter.round} of {read.key}"
    debits = destiny_debits(table, read.sheets, read.encounter, encounter, what)
    saved = save_encounter(table, read, encounter)
    played = _stepped("cogent.combat.destiny", read, encounter, saved)
    old, new = read.encounter.log, encounter.log
    same = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), len(old))
    event = played.events[0]
    data = {**event.data, "log_from": same}  # the round's lines, read again with the wins
    changed = event.model_copy(update={"data": data})
    return Played(encounter, (changed, saved, *save_debits(table, debits)))


@action("cogent.combat.status", CombatRequest, reads=True)
def combat_status(request: CombatRequest, table: Table) -> Played[Encounter]:
    """Where the encounter stands: combatants, who declares next, victories waiting."""
    read = read_encounter(table, request.encounter)
    return Played(read.encounter, (Event(kind="cogent.combat.status", subject=read.key),))


@action("cogent.combat.replay", CombatRequest, reads=True)
def combat_replay(request: CombatRequest, table: Table) -> Played[Encounter]:
    """Replay an encounter from its opening and steps; refuse one that does not match them."""
    encounter = verify_replay(read_encounter(table, request.encounter).encounter)
    replayed = Event(
        kind="cogent.combat.replay", subject=request.encounter, data={"steps": len(encounter.steps)}
    )
    return Played(encounter, (replayed,))
