"""The creation steps as both shells ask them: each step's plain fields (their labels, the
book's words for them, defaults, bounds and choices) and the lists the steps pick from, all
drawn from the engine's rules tables and sheet models.

The steps, their order and their rules are the engine's (``creation.creation_steps``,
``check_step``); this module says how a step is asked. The CLI's prompts
(``cli/cogent/character_prompts.py``) and the live table's wizard (``server/pages/wizard*``)
both read it, so neither keeps its own list of modes, tiers, identity fields, attributes,
skills, weapon groups or defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from taletable._model import Record

__all__ = [
    "NESTED_POINTS",
    "CreationField",
    "creation_choices",
    "identity_fields",
    "step_fields",
]

Edition = Literal["core", "tiered"]
#: The commerce step of 002 > Assigning Commerce Points: the player's one step, and its words.
COMMERCE_STEPS = ((-1, "down one (a skill point)"), (0, "keep it"), (1, "up one (a quirk)"))
#: A new vocation's points (core) or rank (tiered), and a nested skill's points, when none are
#: given.
VOCATION_POINTS = VOCATION_RANK = NESTED_POINTS = 1


class CreationField(Record):
    """One plain field of a creation step, as a form shows it and a prompt asks it."""

    #: The sheet field it fills, as a path (``identity.disposition``, ``attributes.STR``).
    name: str
    #: A short label (a form's).
    label: str
    #: The book's words for it (a prompt's).
    prompt: str
    kind: Literal["text", "long_text", "number", "choice"]
    default: str | int | None = None
    choices: tuple[str | int, ...] = ()
    #: The words of each choice (a tier's name), when they are not the choice itself.
    titles: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    required: bool = False


def identity_fields(edition: Edition) -> list[CreationField]:
    """The identity step's fields: the name, the concept, and those creation asks for
    (``creation.IDENTITY_REQUIRED``), each with the book's section as its prompt."""
    from taletable.systems.cogent.character.creation import IDENTITY_REQUIRED

    sections = dict(IDENTITY_REQUIRED[edition])
    names = list(dict.fromkeys(["name", "concept", *sections]))
    return [
        CreationField(
            name=f"identity.{field}",
            label=field.replace("_", " ").capitalize(),
            prompt=sections.get(field, field.replace("_", " ").capitalize()),
            kind="long_text" if field in ("history", "elevator_pitch") else "text",
            required=field == "name",
        )
        for field in names
    ]


def _attributes(edition: Edition) -> list[CreationField]:
    from taletable.systems.cogent.character.sheet import CoreAttributes, TieredAttributes
    from taletable.systems.cogent.character.tables import skill_table

    model = CoreAttributes if edition == "core" else TieredAttributes
    fields = []
    for name in skill_table(edition).attributes:
        bounds = {type(rule).__name__: rule for rule in model.model_fields[name].metadata}
        low, high = getattr(bounds.get("Ge"), "ge", None), getattr(bounds.get("Le"), "le", None)
        fields.append(CreationField(name=f"attributes.{name}", label=name,
                                    prompt=f"{name} points", kind="number", default=0,
                                    low=low, high=high))  # fmt: skip
    return fields


def step_fields(edition: Edition, step: str) -> list[CreationField]:
    """The plain fields of the creation step ``step`` (a step of rows or of choices that are
    rules, such as skills or disabling characteristics, has none: see
    :func:`creation_choices`)."""
    from taletable.systems.cogent.character.tables import campaign_tiers, tier_resources

    if step == "mode":
        modes = tuple(campaign_tiers().modes)
        return [CreationField(name="mode", label="Mode of play", prompt="Mode", kind="choice",
                              default="fast_play", choices=modes,
                              titles=tuple(m.replace("_", " ") for m in modes))]  # fmt: skip
    if step == "tier":
        tiers = tier_resources().tiers
        return [CreationField(name="tier", label="Tier of play", prompt="Tier", kind="choice",
                              default=2, choices=tuple(t.tier for t in tiers),
                              titles=tuple(f"{t.tier}: {t.name}" for t in tiers))]  # fmt: skip
    if step == "identity":
        return identity_fields(edition)
    if step == "attributes":
        return _attributes(edition)
    if step == "commerce" and edition == "core":
        return [
            CreationField(name="commerce.assigned", label="Commerce level the narrator assigns",
                          prompt="Commerce level from the narrator", kind="number", default=3,
                          low=0, high=8),
            CreationField(name="commerce.adjustment", label="Your step",
                          prompt="Step it once (-1, 0 or 1)", kind="choice", default=0,
                          choices=tuple(v for v, _ in COMMERCE_STEPS),
                          titles=tuple(t for _, t in COMMERCE_STEPS)),
        ]  # fmt: skip
    return []


def _nested_names(sheet: Mapping[str, Any]) -> list[str]:
    vocations = [v for v in sheet.get("vocations") or () if isinstance(v, dict)]
    names = [row.get("name") for vocation in vocations
             for key in ("vocational_skills", "specialisations", "combat_skills")
             for row in vocation.get(key) or () if isinstance(row, dict)]  # fmt: skip
    return [str(name) for name in names if name]


def creation_choices(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """What the steps of ``sheet``'s edition pick from, from the engine's tables: attributes,
    skills (and each one's attribute), every skill of the sheet, combat skills (weapon
    categories), weapon groups, armour pieces, disabling characteristics and the room left for
    them, quirks of wealth; and the defaults of a new vocation's points and rank."""
    from taletable.systems.cogent.character.creation_choices import ROLL, disabling_room
    from taletable.systems.cogent.character.tables import (
        combat_skill_table,
        disabling_table,
        quirk_table,
        skill_table,
    )
    from taletable.systems.cogent.equipment import armour_table, weapon_table

    edition = sheet.get("edition", "core")
    skills = skill_table(edition)
    core = [skill.name for skill in skills.skills]
    return {
        "attributes": list(skills.attributes),
        "skills": core,
        "skill_attributes": {skill.name: skill.attribute for skill in skills.skills},
        #: Every skill of the sheet (Overconfident's "specific skill" may be a vocation's).
        "skill_choices": list(dict.fromkeys([*core, *_nested_names(sheet)])),
        "combat_skills": [category.name for category in combat_skill_table().categories],
        "weapon_groups": [group.name for group in weapon_table().groups],
        "armour": [piece.name for piece in armour_table().pieces],
        "disabling": [entry.name for entry in disabling_table().entries],
        "disabling_room": disabling_room(dict(sheet)),
        "quirks": [quirk.name for quirk in quirk_table().of(edition).entries],
        "roll": ROLL,
        "vocation_points": VOCATION_POINTS,
        "vocation_rank": VOCATION_RANK,
        "nested_points": NESTED_POINTS,
    }
