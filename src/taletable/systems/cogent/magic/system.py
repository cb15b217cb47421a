"""The example magic system as data: schools, spells, summoning, flight and movement tables.

002 > Supplementary Content > Example Magic Systems > Classic Fantasy Magic system, and the
hard-magic druid spells of 002 > Supplementary Content > Metahuman Powers in Cogent. Loaded
from ``data/classic_fantasy.yaml`` and validated.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from taletable._model import Record
from taletable.errors import InputError
from taletable.library import load_package_table

__all__ = [
    "MAGIC",
    "Component",
    "HardSpell",
    "MagicSystem",
    "Spell",
    "SummonedCreature",
    "magic_system",
]

MAGIC = "002 > Supplementary Content > Example Magic Systems > Classic Fantasy Magic system"
Size = Literal["human", "car", "bus", "airplane"]


class School(Record):
    """A school of magic and the spells it teaches."""

    name: str
    spells: tuple[str, ...]


class Spell(Record):
    """A spell (a proficiency); ``summons`` names the element it can summon."""

    name: str
    summary: str
    summons: str | None = None
    combat: bool = False


class SummonedCreature(Record):
    """A row of the summoning CL table: what the CL brings and its combat pool."""

    challenge_level: int = Field(ge=1)
    name: str
    combat_pool: int = Field(ge=1)


class Element(Record):
    """A summoning spell's element: its duration schedule and what harms its elementals."""

    name: str
    spell: str
    schedule: str
    opposing: str
    harmed_by_regular_attacks: bool


class Summoning(Record):
    """The summoning table, the duration schedules and the elements."""

    creatures: tuple[SummonedCreature, ...]
    schedules: dict[str, tuple[str, ...]]
    elements: tuple[Element, ...]


class FlightRow(Record):
    """Aeromancy flight: the CL to fly up to a speed."""

    challenge_level: int
    up_to_kmh: int
    effect: str


class Flight(Record):
    """The aeromancy flight table."""

    sprint_kmh: int
    rows: tuple[FlightRow, ...]


class MovementRow(Record):
    """One printed row: a CL and the (distance band, size) cases it covers."""

    challenge_level: int = Field(ge=0)
    cases: tuple[tuple[int, Size], ...]


class MovementTable(Record):
    """Levitation or a teleportation: the book's CL rows."""

    spell: str
    doubled_unseen: bool
    rows: tuple[MovementRow, ...]


class Component(Record):
    """Something a hard spell needs at hand (or a condition, such as moonlight)."""

    key: str
    item: str
    consumed: bool = False
    breaks_on_failure: bool = False


class Requirement(Record):
    """Skill points a hard spell needs invested in a named skill."""

    skill: str
    kind: Literal["combat", "vocational"]
    points: int = Field(ge=1)


class HardSpell(Record):
    """A spell of the hard magic system: a fixed CL, requirements and components."""

    name: str
    challenge_level: int = Field(ge=1)
    target: str
    requires: Requirement
    components: tuple[Component, ...] = ()
    effect: str
    failure: str = ""
    failure_injury: str | None = None
    armour: int = 0
    stacks: bool = True


class HardSpells(Record):
    """The hard-magic druid spells."""

    source: str
    spells: tuple[HardSpell, ...]


class MagicSystem(Record):
    """The whole example system."""

    source: str
    max_spell_points: int = Field(ge=1)
    schools: tuple[School, ...]
    spells: tuple[Spell, ...]
    summoning: Summoning
    flight: Flight
    distance_bands: tuple[int, ...]
    sizes: tuple[Size, ...]
    movement: tuple[MovementTable, ...]
    hard_spells: HardSpells

    @model_validator(mode="after")
    def _consistent(self) -> MagicSystem:
        names = {spell.name for spell in self.spells}
        for school in self.schools:
            for name in school.spells:
                if name not in names:
                    raise ValueError(f"school {school.name} lists unknown spell {name!r}")
        for element in self.summoning.elements:
            if element.schedule not in self.summoning.schedules:
                raise ValueError(f"element {element.name}: unknown schedule {element.schedule}")
        return self

    def spell(self, name: str, *, field: str = "spell") -> Spell:
        """The spell called ``name`` (any case, dashes for spaces)."""
        wanted = _key(name)
        for spell in self.spells:
            if _key(spell.name) == wanted:
                return spell
        raise InputError(field, f"no spell called {name!r}", expected=self.spell_names())

    def spell_names(self) -> str:
        """The spells, for messages."""
        return ", ".join(spell.name for spell in self.spells)

    def schools_of(self, spell: str) -> tuple[str, ...]:
        """The schools that teach ``spell``."""
        return tuple(school.name for school in self.schools if spell in school.spells)

    def school(self, name: str) -> School:
        """The school called ``name``."""
        for school in self.schools:
            if _key(school.name) == _key(name):
                return school
        expected = ", ".join(school.name for school in self.schools)
        raise InputError("school", f"no school called {name!r}", expected=expected)

    def hard_spell(self, name: str) -> HardSpell | None:
        """The hard-magic spell called ``name``, if there is one."""
        for spell in self.hard_spells.spells:
            if _key(spell.name) == _key(name):
                return spell
        return None

    def element(self, name: str) -> Element:
        """The summoning element named by its element or its spell (``fire``, ``pyromancy``)."""
        for element in self.summoning.elements:
            if _key(name) in {_key(element.name), _key(element.spell)}:
                return element
        expected = ", ".join(f"{e.spell} ({e.name})" for e in self.summoning.elements)
        raise InputError("school", f"{name!r} cannot summon", expected=expected)

    def movement_table(self, spell: str) -> MovementTable | None:
        """The CL rows of levitation or a teleportation."""
        for table in self.movement:
            if _key(table.spell) == _key(spell):
                return table
        return None


def _key(name: str) -> str:
    return name.strip().lower().replace("-", " ").replace("_", " ")


def magic_system() -> MagicSystem:
    """The example magic system shipped in ``data/classic_fantasy.yaml``."""
    return load_package_table(
        "taletable.systems.cogent.magic", "data/classic_fantasy.yaml", MagicSystem
    )
