"""Character sheets of both editions, as validated data (schema version 1).

core (002 > Character Creation): STR, RFL, INT; 15 core skills; vocations with their attribute,
and under each its vocational skills and combat skills; disabling characteristics; destiny;
commerce level and quirks of wealth; equipment; injuries and conditions.
tiered (000 > Character Creation): STR, RFL, INT, CHA; 12 skills; vocations with ranks and
specialisations; tier; commerce points and quirks; destiny.

A sheet file holds exactly these fields (unknown fields are refused, so a typo is caught);
what the rules allow is checked by ``validation.py`` and ``tiered_validation.py``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Field, SerializationInfo, TypeAdapter, model_serializer
from pydantic_core.core_schema import SerializerFunctionWrapHandler

from taletable._model import Record

__all__ = [
    "CORE_ATTRIBUTES",
    "SCHEMA_VERSION",
    "Award",
    "Character",
    "CombatSkill",
    "CoreAttributes",
    "CoreCharacter",
    "CoreCommerce",
    "CoreProgress",
    "CoreVocation",
    "Destiny",
    "DisablingChoice",
    "Equipment",
    "Identity",
    "Injury",
    "Magic",
    "Specialisation",
    "SpellChoice",
    "TieredAttributes",
    "TieredCharacter",
    "TieredCommerce",
    "TieredVocation",
    "VocationalSkill",
    "Weapon",
    "character_adapter",
]

SCHEMA_VERSION = 1
CoreAttribute = Literal["STR", "RFL", "INT"]
CORE_ATTRIBUTES: tuple[CoreAttribute, ...] = ("STR", "RFL", "INT")
TieredAttribute = Literal["STR", "RFL", "INT", "CHA"]
Points = Annotated[int, Field(ge=-1, le=20)]


class Identity(Record):
    """Who the character is (002 > Character Identity; 000 > Character Identity)."""

    name: str = Field(min_length=1, max_length=200)
    concept: str = ""
    elevator_pitch: str = ""
    disposition: str = ""
    history: str = ""
    beliefs: str = ""
    goals: str = ""


class CoreAttributes(Record):
    """002 > Attributes: Strength, Reflex, Intelligence."""

    STR: int = Field(default=0, ge=-5, le=10)
    RFL: int = Field(default=0, ge=-5, le=10)
    INT: int = Field(default=0, ge=-5, le=10)


class TieredAttributes(Record):
    """000 > Attributes: Strength, Reflex, Intelligence, Charisma."""

    STR: int = Field(default=0, ge=-5, le=10)
    RFL: int = Field(default=0, ge=-5, le=10)
    INT: int = Field(default=0, ge=-5, le=10)
    CHA: int = Field(default=0, ge=-5, le=10)


class VocationalSkill(Record):
    """A vocational skill with its own core attribute (002 > Vocational Skills)."""

    name: str = Field(min_length=1)
    attribute: CoreAttribute
    points: Points = 0


class CombatSkill(Record):
    """A combat skill: a weapon category, or free-form for beasts, monsters and magic."""

    name: str = Field(min_length=1)
    points: Points = 0
    free_form: Literal["beast", "monster", "magic"] | None = None


class CoreVocation(Record):
    """A vocation with its attribute and points, and the skills nested under it."""

    name: str = Field(min_length=1)
    attribute: CoreAttribute
    points: Points = 0
    vocational_skills: tuple[VocationalSkill, ...] = ()
    combat_skills: tuple[CombatSkill, ...] = ()


class DisablingChoice(Record):
    """A disabling characteristic from the table or custom (narrator-approved), chosen or rolled."""

    name: str = Field(min_length=1)
    how: Literal["chosen", "rolled"] = "chosen"
    roll: int | None = Field(default=None, ge=1, le=20)
    skill: str | None = None
    custom: bool = False
    notes: str = ""


class Destiny(Record):
    """Destiny points held and the most that may be held."""

    points: int = Field(ge=0, le=50)
    maximum: int = Field(ge=0, le=50)


class CoreCommerce(Record):
    """002 > Assigning Commerce Points: the narrator's level, the player's step, quirks."""

    assigned: int = Field(ge=0, le=8)
    adjustment: Literal[-1, 0, 1] = 0
    quirks: tuple[str, ...] = ()
    #: Quirks the player and narrator agreed instead of rolling ("a backstory appropriate quirk").
    custom_quirks: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    bonus_skills: tuple[str, ...] = ()
    #: Commerce points now, when purchases or play changed them (None: the level).
    points: int | None = Field(default=None, ge=0, le=20)
    #: Commerce points gained in play (`character commerce --gain`), recorded in the history.
    gained: int = Field(default=0, ge=0, le=100)

    @property
    def level(self) -> int:
        """The commerce level after the player's optional step."""
        return self.assigned + self.adjustment

    @property
    def current(self) -> int:
        """Commerce points now (the level until purchases or rewards change them)."""
        return self.level if self.points is None else self.points


class TieredCommerce(Record):
    """000 > Equipment: commerce points from the tier plus one per quirk of wealth."""

    quirks: tuple[str, ...] = ()
    points: int | None = Field(default=None, ge=0, le=20)
    #: Commerce points gained in play (`character commerce --gain`), recorded in the history.
    gained: int = Field(default=0, ge=0, le=100)


class Weapon(Record):
    """A weapon carried: its name and weapon group (002 > Weapon Modifiers)."""

    name: str = Field(min_length=1)
    group: str
    magic_bonus: int = Field(default=0, ge=0, le=10)
    #: The combat skill that wields it when not the group's own (a beast's "Grinding Teeth").
    skill: str | None = None
    #: Its group in the hardcore weapon table, and how it is held (002 > Hardcore Combat).
    hardcore_group: str | None = None
    hands: Literal[1, 2] | None = None
    #: Other hardcore groups it can be used as, declared before the roll (a poleaxe's hammer,
    #: axe head and spike: 002 > Hardcore Weapon Modifiers); hardcore_group is its standard use.
    hardcore_uses: tuple[str, ...] = ()
    #: A scope is fitted: "Sniper range can only be attempted if the weapon has a scope"
    #: (002 > Hardcore Ranged Rules).
    scope: bool = False
    #: Its projectiles are magic or explosive, so a ranged roll may dismember (002 > Victory
    #: Levels: "not available to ranged combat rolls unless magic or explosive projectiles are
    #: involved").
    magic_projectile: bool = False
    explosive: bool = False
    #: Fully automatic fire: "a fully automatic machine gun can hit multiple opponents in a
    #: single round" (002 > Combat > Fighting Groups; RULINGS.md "automatic weapons").
    automatic: bool = False


class Equipment(Record):
    """Weapons, worn armour pieces and other items."""

    weapons: tuple[Weapon, ...] = ()
    armour: tuple[str, ...] = ()
    items: tuple[str, ...] = ()


class Injury(Record):
    """An injury: level 1 minor, 2 medium, 3 serious, 4 fatal (002 > Victory Levels).

    ``treated``: first aid was given (002 > Victory Levels: a medium injury "must be treated
    relatively soon", a serious one kills "if the wound is untreated"; RULINGS.md "healing").
    ``rested``: days of rest so far toward its healing. An untreated, unrested injury is
    written as before, without these fields, so sheets and fights saved before read and replay
    alike.
    """

    level: int = Field(ge=1, le=4)
    description: str = ""
    treated: bool = False
    #: Days of rest toward its healing (or its next level lost) so far.
    rested: int = Field(default=0, ge=0, le=365)

    @model_serializer(mode="wrap")
    def _untreated_as_before(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, object]:
        data: dict[str, object] = handler(self)
        if not self.treated:
            data.pop("treated", None)
        if not self.rested:
            data.pop("rested", None)
        return data


class Award(Record):
    """One line of the sheet's history: an award or a change, and why."""

    event: str
    detail: str = ""


class SpellChoice(Record):
    """A spell the character knows and the skill points spent on it (002 > Example Magic
    Systems > Classic Fantasy Magic system: "Each spell is an individual proficiency")."""

    name: str = Field(min_length=1)
    points: Points = 0


class Magic(Record):
    """The example magic system on a sheet: the school chosen and the spells known from it.

    002 > Supplementary Content > Example Magic Systems > Classic Fantasy Magic system: "a player
    must select a school before they choose any spells to know". Validated by
    ``magic_validation.py``; core: the spells' points nest under ``vocation`` (RULINGS.md
    "spells on the sheet"); tiered: the school is a specialisation (000's Erin the Mage).
    """

    school: str = Field(min_length=1)
    #: core: the vocation whose proficiencies the spells are (their points nest under it).
    vocation: str | None = None
    spells: tuple[SpellChoice, ...] = ()
    #: The narrator moved spells between schools ("free to mix and match as they see fit").
    mixed_schools: bool = False


class CoreProgress(Record):
    """Where a campaign character is: arcs and chapters completed, awards, lifted caps."""

    arcs_completed: int = Field(default=0, ge=0, le=100)
    chapters_completed: int = Field(default=0, ge=0, le=1000)
    #: Chapters completed in the current arc (from the stated arc, a skill point every second one).
    chapters_in_arc: int = Field(default=0, ge=0, le=1000)
    skill_points_awarded: int = Field(default=0, ge=0, le=1000)
    attribute_points_awarded: int = Field(default=0, ge=0, le=100)
    career_milestones: tuple[str, ...] = ()
    final_arc_started: bool = False
    #: Hours of Fast Play so far: a destiny point "roughly every three hours of play".
    hours_played: float = Field(default=0, ge=0, le=100_000)
    #: Awarded attribute points spent, by attribute (`character raise`): an INT point bought with
    #: an award gives no skill points ("+3 Skill Points during character creation").
    attributes_from_awards: dict[CoreAttribute, Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=dict
    )


class CoreCharacter(Record):
    """A core-edition character (002)."""

    schema_version: Literal[1] = 1
    edition: Literal["core"] = "core"
    mode: Literal["fast_play", "initiate", "adept", "veteran"] = "fast_play"
    glory_days: bool = False
    career_milestones_used: bool = True
    superhuman_attributes: bool = False
    identity: Identity
    attributes: CoreAttributes = CoreAttributes()
    skills: dict[str, Points] = Field(default_factory=dict)
    vocations: tuple[CoreVocation, ...] = ()
    disabling_characteristics: tuple[DisablingChoice, ...] = ()
    destiny: Destiny = Destiny(points=3, maximum=3)
    commerce: CoreCommerce = CoreCommerce(assigned=3)
    equipment: Equipment = Equipment()
    injuries: tuple[Injury, ...] = ()
    conditions: tuple[str, ...] = ()
    progress: CoreProgress = CoreProgress()
    history: tuple[Award, ...] = ()
    magic: Magic | None = None


class Specialisation(Record):
    """A specialisation under a tiered vocation, with its attribute (000 > Skills)."""

    name: str = Field(min_length=1)
    attribute: TieredAttribute
    points: Points = 0


class TieredVocation(Record):
    """A tiered vocation: its rank (1 Apprentice ... 4 Master) and specialisations."""

    name: str = Field(min_length=1)
    attribute: TieredAttribute
    rank: int = Field(default=0, ge=0, le=20)
    specialisations: tuple[Specialisation, ...] = ()


class TieredCharacter(Record):
    """A tiered-edition character (000, gaps from 001)."""

    schema_version: Literal[1] = 1
    edition: Literal["tiered"] = "tiered"
    tier: int = Field(default=2, ge=0, le=5)
    identity: Identity
    attributes: TieredAttributes = TieredAttributes()
    skills: dict[str, Points] = Field(default_factory=dict)
    vocations: tuple[TieredVocation, ...] = ()
    destiny: Destiny = Destiny(points=1, maximum=3)
    commerce: TieredCommerce = TieredCommerce()
    disabling_characteristics: tuple[DisablingChoice, ...] = ()
    equipment: Equipment = Equipment()
    injuries: tuple[Injury, ...] = ()
    conditions: tuple[str, ...] = ()
    skill_points_awarded: int = Field(default=0, ge=0, le=1000)
    history: tuple[Award, ...] = ()
    magic: Magic | None = None


Character = Annotated[CoreCharacter | TieredCharacter, Discriminator("edition")]

#: Validates either edition's sheet by its ``edition`` field.
character_adapter: TypeAdapter[CoreCharacter | TieredCharacter] = TypeAdapter(Character)
