"""The creation wizard's forms: what each step's fields become on the sheet being made, and
what each step offers to choose from (the engine's own tables: modes, tiers, attributes,
skills, weapon groups, disabling characteristics, quirks of wealth).

Nothing here decides a rule: a form's fields are read into the sheet's data as typed, and the
engine (``cogent.character.new.step`` and the choice actions, called by :mod:`.wizard`) says
whether they are legal. Malformed typing (a word where a number goes) is an ``InputError``
naming the sheet field it was meant for, shown beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from taletable.errors import InputError

__all__ = ["FILLS", "Data", "identity_fields", "listed", "offers", "points", "rows_of"]

Data = dict[str, Any]
Form = Mapping[str, Any]
#: Blank rows the vocation and weapon steps show beyond those already filled.
SPARE_ROWS = 1
#: The most rows a form may post (a limit checked before any work).
MOST_ROWS = 12


def _text(form: Form, name: str) -> str:
    return str(form.get(name, "") or "").strip()


def _int(form: Form, name: str, field: str, default: int = 0) -> int:
    text = _text(form, name)
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise InputError(field, f"{text!r} is not a whole number", expected="a number") from None


def rows_of(form: Form, name: str = "rows") -> int:
    """How many rows the form posted (at most ``MOST_ROWS``)."""
    return max(0, min(MOST_ROWS, _int(form, name, "rows")))


def listed(text: str) -> list[str]:
    """``"a, b, c"`` as its non-blank parts."""
    return [part.strip() for part in text.split(",") if part.strip()]


def points(text: str, field: str, *, with_attribute: bool) -> list[Data]:
    """``"Herbalism:INT=2, Axe=1"`` as skills: a name, its attribute (after ``:``) and points."""
    skills: list[Data] = []
    for part in listed(text):
        name, _sep, value = part.partition("=")
        name, _colon, attribute = name.partition(":")
        skill: Data = {"name": name.strip()}
        if with_attribute:
            skill["attribute"] = attribute.strip().upper()
        try:
            skill["points"] = int(value.strip() or "0")
        except ValueError:
            raise InputError(field, f"{part!r}: the points are a whole number",
                             expected="NAME:ATTRIBUTE=POINTS" if with_attribute
                             else "NAME=POINTS") from None  # fmt: skip
        skills.append(skill)
    return skills


def _mode(form: Form, data: Data) -> Data:
    if data["edition"] == "core":
        return {**data, "mode": _text(form, "mode") or "fast_play"}
    return {**data, "tier": _int(form, "tier", "tier", 2)}


def identity_fields(edition: str) -> list[str]:
    """The identity fields the edition's identity step asks for (``IDENTITY_REQUIRED``)."""
    from taletable.systems.cogent.character.creation import IDENTITY_REQUIRED

    fields = ["name", "concept", *(field for field, _ in IDENTITY_REQUIRED[edition])]
    return list(dict.fromkeys(fields))


def _identity(form: Form, data: Data) -> Data:
    fields = identity_fields(data["edition"])
    identity = {field: _text(form, f"identity.{field}") for field in fields}
    if not identity["name"]:
        del identity["name"]
    return {**data, "identity": identity}


def _attributes(form: Form, data: Data) -> Data:
    names = offers(data)["attributes"]
    chosen = {name: _int(form, f"attributes.{name}", "attributes") for name in names}
    return {**data, "attributes": chosen}


def _skills(form: Form, data: Data) -> Data:
    chosen = {}
    for name in offers(data)["skills"]:
        value = _int(form, f"skills.{name}", "skills")
        if value:
            chosen[name] = value
    return {**data, "skills": chosen}


def _vocation(form: Form, row: int, edition: str) -> Data | None:
    name = _text(form, f"vocations.{row}.name")
    if not name:
        return None
    where = f"vocations.{row}"
    vocation: Data = {"name": name, "attribute": _text(form, f"{where}.attribute")}
    nested = _text(form, f"{where}.skills")
    if edition == "core":
        vocation["points"] = _int(form, f"{where}.points", where)
        vocation["vocational_skills"] = points(nested, where, with_attribute=True)
        combat = _text(form, f"{where}.combat")
        vocation["combat_skills"] = points(combat, where, with_attribute=False)
    else:
        vocation["rank"] = _int(form, f"{where}.rank", where)
        vocation["specialisations"] = points(nested, where, with_attribute=True)
    return vocation


def _vocations(form: Form, data: Data) -> Data:
    rows = (_vocation(form, row, data["edition"]) for row in range(rows_of(form)))
    return {**data, "vocations": [row for row in rows if row is not None]}


def _equipment(form: Form, data: Data) -> Data:
    weapons = []
    for row in range(rows_of(form)):
        name = _text(form, f"weapons.{row}.name")
        if name:
            weapons.append({"name": name, "group": _text(form, f"weapons.{row}.group")})
    equipment = {
        "weapons": weapons,
        "armour": listed(_text(form, "equipment.armour")),
        "items": listed(_text(form, "equipment.items")),
    }
    return {**data, "equipment": equipment}


def _disabling_skills(form: Form, data: Data) -> Data:
    """The skill typed beside each characteristic taken (Overconfident's "specific skill")."""
    taken = []
    for row, choice in enumerate(data.get("disabling_characteristics", ())):
        skill = _text(form, f"disabling_characteristics.{row}.skill")
        taken.append({**choice, "skill": skill} if skill else {**choice})
    return {**data, "disabling_characteristics": taken}


def _destiny(form: Form, data: Data) -> Data:
    return {**data, "glory_days": bool(form.get("glory_days"))}


def _same(form: Form, data: Data) -> Data:
    return dict(data)


#: Each step's fields read into the sheet (the choices that are rules go through the engine).
FILLS: dict[str, Callable[[Form, Data], Data]] = {
    "mode": _mode,
    "tier": _mode,
    "identity": _identity,
    "attributes": _attributes,
    "skills": _skills,
    "vocations": _vocations,
    "disabling": _disabling_skills,
    "commerce": _same,
    "equipment": _equipment,
    "destiny": _destiny,
    "finishing": _disabling_skills,
}


def offers(data: Data) -> dict[str, Any]:
    """What the steps of ``data``'s edition offer to choose from, from the engine's tables."""
    from taletable.systems.cogent.character.creation_choices import ROLL, disabling_room
    from taletable.systems.cogent.character.tables import (
        campaign_tiers,
        disabling_table,
        quirk_table,
        skill_table,
        tier_resources,
    )
    from taletable.systems.cogent.equipment import weapon_table

    edition = data.get("edition", "core")
    skills = skill_table(edition)
    return {
        "modes": list(campaign_tiers().modes),
        "tiers": [(tier.tier, tier.name) for tier in tier_resources().tiers],
        "identity_fields": identity_fields(edition),
        "attributes": list(skills.attributes),
        "skills": [skill.name for skill in skills.skills],
        "skill_attributes": {skill.name: skill.attribute for skill in skills.skills},
        "weapon_groups": [group.name for group in weapon_table().groups],
        "disabling": [entry.name for entry in disabling_table().entries],
        "disabling_room": disabling_room(data),
        "quirks": [quirk.name for quirk in quirk_table().of(edition).entries],
        "roll": ROLL,
        "spare_rows": SPARE_ROWS,
    }
