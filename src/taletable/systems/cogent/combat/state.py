"""Encounter state: combatants, engagements, declarations, victories (serialisable).

Every value is frozen; every operation in ``rounds.py`` returns a new ``Encounter``, so a
refused command changes nothing and an encounter can be saved, resumed and replayed from its log.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, model_validator

from taletable._model import Record
from taletable.errors import InputError
from taletable.explain import Note
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.combat.conditions import CONDITIONS, HELPLESS
from taletable.systems.cogent.combat.hardcore import Cover, Range, TargetState
from taletable.systems.cogent.dice import count_wins
from taletable.systems.cogent.rules import Rules

__all__ = [
    "ACTIONS",
    "CONDITIONS",
    "Action",
    "Combatant",
    "Declaration",
    "Encounter",
    "Engagement",
    "RollRecord",
    "Step",
    "Victory",
]

Action = Literal[
    "attack", "ranged", "defend", "charge", "brace", "disarm", "other", "check", "wait"
]
ACTIONS: tuple[str, ...] = get_args(Action)
Distance = Literal["range", "adjacent", "close"]
#: The most combatants and rounds one encounter holds (DESIGN > Principles 8).
MAX_COMBATANTS = 50
MAX_ROUNDS = 500
#: The most wins or losses an assist brings to a combat roll (its CL caps it; RULINGS.md).
MAX_ASSIST = 20


class Combatant(Record):
    """One fighter: its sheet, side, weapons, reductions left and conditions."""

    id: str = Field(min_length=1, max_length=60)
    side: str = Field(min_length=1)
    sheet: CoreCharacter
    weapon: str | None = None
    secondary: str | None = None
    armour_level: int = Field(ge=0, le=10)
    strength_left: int = Field(ge=0)
    armour_left: int = Field(ge=0)
    tie_roll: int = 0
    #: The roll-off rolled again while still tied with another of the same RFL (002 > Round Order).
    tie_rerolls: tuple[int, ...] = ()
    scale: int = Field(default=0, ge=-6, le=6)
    conditions: tuple[str, ...] = ()
    condition_until: dict[str, int] = Field(default_factory=dict)

    @property
    def reflex(self) -> int:
        return self.sheet.attributes.RFL

    @property
    def can_act(self) -> bool:
        """Not dead, unconscious, incapacitated, tied up or asleep (002 > Circumstantial
        Modifiers, Incapacitated: "cannot fight back or defend themselves")."""
        return not HELPLESS & set(self.conditions)

    @property
    def ranged_weapon(self) -> bool:
        from taletable.systems.cogent.equipment import weapon_group

        if self.weapon is None:
            return False
        carried = next(w for w in self.sheet.equipment.weapons if w.name == self.weapon)
        return weapon_group(carried.group).ranged is not None


class Engagement(Record):
    """How close two combatants are: at range, adjacent, or in close combat."""

    a: str
    b: str
    distance: Distance

    def involves(self, first: str, second: str) -> bool:
        return {self.a, self.b} == {first, second}


class Declaration(Record):
    """What a combatant declared for this round (it cannot be changed)."""

    actor: str
    action: Action
    target: str | None = None
    circumstances: tuple[str, ...] = ()
    modifiers: tuple[tuple[str, Annotated[int, Field(ge=-50, le=50)]], ...] = ()
    pool: int | None = Field(default=None, ge=0, le=200)
    challenge_level: int | None = Field(default=None, ge=0, le=100)
    against: str | None = None
    prepared: bool = False
    hardcore_range: Range | None = None
    target_state: TargetState = "stationary"
    cover: Cover = "none"
    steady: bool = True
    #: Hardcore weapons: the way a weapon of several heads is used this round (its group).
    use: str | None = Field(default=None, min_length=1, max_length=60)
    #: An assist rolled before this roll: wins over its CL, or a backfire's losses (negative),
    #: added to the roll's result (002 > Assists; RULINGS.md "assists and destiny in combat").
    assist_wins: int = Field(default=0, ge=-MAX_ASSIST, le=MAX_ASSIST)
    #: A destiny point spent before the roll: every die wins on 3-6 (002 > Destiny Points).
    destiny_before: bool = False


class RollRecord(Record):
    """A combatant's roll this round: its pool, its faces and wins (the dice's wins, with an
    assist's wins or losses and destiny's wins after the roll; a backfire may take it below 0)."""

    actor: str
    pool: int
    breakdown: tuple[tuple[str, int], ...]
    faces: tuple[int, ...]
    wins: int
    #: The lowest face that wins: 4, or 3 after a destiny point spent before the roll.
    win_on: int = 4
    assist: int = 0
    destiny_after: int = 0

    def wins_of(self, dice: int) -> int:
        """The result counting only the first ``dice`` faces (a ranged roll against a melee
        attacker, 002 > Melee vs Ranged), with the same assist and destiny."""
        return count_wins(self.faces[:dice], self.win_on) + self.assist + self.destiny_after


class Victory(Record):
    """A victory level one combatant holds over another, waiting for its outcome."""

    id: int
    round: int
    winner: str
    loser: str
    level: int
    ranged: bool = False
    #: Won by a ranged roll of magic or explosive projectiles, which may dismember.
    dismembering_projectile: bool = False
    disarm_only: bool = False
    armour_allowed: bool = True
    outcome: str | None = None
    detail: str = ""


class Step(Record):
    """One accepted command, as given, with the faces a resolve used: the encounter's replay log."""

    kind: Literal["declare", "resolve", "choose", "condition", "destiny"]
    declaration: Declaration | None = None
    faces: tuple[int, ...] = ()
    victory: int | None = None
    outcome: str | None = None
    strength: int | None = None
    armour: int | None = None
    #: Where a resolve's faces came from: ``system``, ``seeded``, ``given`` (a person's
    #: physical dice) or ``ledger`` (a live table's scene seed); None for other steps.
    dice_source: str | None = None
    #: A narrator's condition step: the fighter, the condition set (or cleared), its rounds;
    #: a destiny step: the fighter and the points spent after its roll.
    fighter: str | None = None
    condition: str | None = None
    clear: bool = False
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    points: int | None = Field(default=None, ge=1, le=50)


def _legacy(line: str) -> dict[str, Any]:
    return {"kind": "legacy.line", "values": {"text": line}}


class Encounter(Record):
    """A combat encounter, round by round (schema version 2: its log is notes; version 1's
    lines of English are read as ``legacy.line`` notes and upgraded by replay, see
    ``replay.verify_replay``)."""

    schema_version: Literal[2] = 2
    kind: Literal["encounter"] = "encounter"
    name: str = "encounter"
    rules: Rules = Rules()
    round: int = Field(default=1, ge=1, le=MAX_ROUNDS)
    phase: Literal["declaration", "outcomes"] = "declaration"
    combatants: tuple[Combatant, ...]
    engagements: tuple[Engagement, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    victories: tuple[Victory, ...] = ()
    log: tuple[Note, ...] = ()
    next_victory: int = 1
    #: The combatants as the encounter started, and every step since: enough to replay it.
    opening: tuple[Combatant, ...] = ()
    #: The pairs the narrator started adjacent or in close combat (all others at range).
    opening_engagements: tuple[Engagement, ...] = ()
    #: Where the opening's RFL roll-off faces came from (see ``Step.dice_source``).
    opening_dice_source: str | None = None
    steps: tuple[Step, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        """Schema 1 (a log of English lines) read as schema 2: each line a ``legacy.line``
        note, which ``verify_replay`` turns into the notes its steps make."""
        if isinstance(data, dict) and data.get("schema_version") == 1:
            log = data.get("log", ())
            if isinstance(log, list | tuple) and all(isinstance(line, str) for line in log):
                data = {**data, "schema_version": 2, "log": [_legacy(line) for line in log]}
        return data

    def combatant(self, ident: str) -> Combatant:
        """The combatant with id ``ident``."""
        for fighter in self.combatants:
            if fighter.id == ident:
                return fighter
        known = ", ".join(fighter.id for fighter in self.combatants)
        raise InputError("combatant", f"no combatant {ident!r}", expected=known)

    def distance(self, first: str, second: str) -> Distance:
        """How far apart two combatants are (at range unless engaged otherwise)."""
        for engagement in self.engagements:
            if engagement.involves(first, second):
                return engagement.distance
        return "range"

    def replace(self, fighter: Combatant) -> Encounter:
        """This encounter with ``fighter`` updated."""
        fighters = tuple(fighter if f.id == fighter.id else f for f in self.combatants)
        return self.model_copy(update={"combatants": fighters})

    def with_distance(self, first: str, second: str, distance: Distance) -> Encounter:
        """This encounter with two combatants at ``distance``."""
        kept = tuple(e for e in self.engagements if not e.involves(first, second))
        return self.model_copy(
            update={"engagements": (*kept, Engagement(a=first, b=second, distance=distance))}
        )

    def declaration_order(self) -> list[str]:
        """Able combatants from lowest RFL to highest; ties by the encounter's 1D6 roll-off."""
        able = [f for f in self.combatants if f.can_act]
        return [f.id for f in sorted(able, key=lambda f: (f.reflex, f.tie_roll, f.tie_rerolls))]

    def sides(self) -> set[str]:
        """Sides with a combatant still able to fight."""
        return {f.side for f in self.combatants if f.can_act}
