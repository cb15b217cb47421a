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
from taletable.server.pages.form_rows import MOST_ROWS, named_rows

__all__ = ["FILLS", "MOST_ROWS", "Data", "identity_fields", "listed", "offers", "rows_of"]

Data = dict[str, Any]
Form = Mapping[str, Any]
#: Blank rows the vocation and weapon steps show beyond those already filled.
SPARE_ROWS = 1


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


#: The skills nested under a vocation, by edition, and the fields each row posts.
NESTED = {
    "core": {
        "vocational_skills": {"name": "text", "attribute": "text", "points": "int"},
        "combat_skills": {"name": "text", "points": "int"},
    },
    "tiered": {"specialisations": {"name": "text", "attribute": "text", "points": "int"}},
}


def _vocation(form: Form, row: int, edition: str) -> Data | None:
    name = _text(form, f"vocations.{row}.name")
    if not name:
        return None
    where = f"vocations.{row}"
    vocation: Data = {"name": name, "attribute": _text(form, f"{where}.attribute")}
    if edition == "core":
        vocation["points"] = _int(form, f"{where}.points", where)
    else:
        vocation["rank"] = _int(form, f"{where}.rank", where)
    for nested, fields in NESTED[edition].items():  # rows: a name and its points
        vocation[nested] = named_rows(form, f"{where}.{nested}", [], False, fields)
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
        "armour": [str(name) for name in _picked(form, "equipment.armour")],
        "items": listed(_text(form, "equipment.items")),
    }
    return {**data, "equipment": equipment}


def _picked(form: Form, name: str) -> list[Any]:
    """Every value of a field posted more than once (ticked boxes)."""
    getlist = getattr(form, "getlist", None)
    return list(getlist(name)) if getlist is not None else listed(_text(form, name))


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
        combat_skill_table,
        disabling_table,
        quirk_table,
        skill_table,
        tier_resources,
    )
    from taletable.systems.cogent.equipment import armour_table, weapon_table

    edition = data.get("edition", "core")
    skills = skill_table(edition)
    vocations = [v for v in data.get("vocations") or () if isinstance(v, dict)]
    nested = [row.get("name") for vocation in vocations
              for key in ("vocational_skills", "specialisations", "combat_skills")
              for row in vocation.get(key) or () if isinstance(row, dict)]  # fmt: skip
    core = [skill.name for skill in skills.skills]
    return {
        "modes": list(campaign_tiers().modes),
        "tiers": [(tier.tier, tier.name) for tier in tier_resources().tiers],
        "identity_fields": identity_fields(edition),
        "attributes": list(skills.attributes),
        "skills": core,
        #: Every skill of the sheet (Overconfident's "specific skill" may be a vocation's).
        "skill_choices": list(dict.fromkeys([*core, *(str(name) for name in nested if name)])),
        "skill_attributes": {skill.name: skill.attribute for skill in skills.skills},
        "weapon_groups": [group.name for group in weapon_table().groups],
        "combat_skills": [category.name for category in combat_skill_table().categories],
        "armour": [piece.name for piece in armour_table().pieces],
        "disabling": [entry.name for entry in disabling_table().entries],
        "disabling_room": disabling_room(data),
        "quirks": [quirk.name for quirk in quirk_table().of(edition).entries],
        "roll": ROLL,
        "spare_rows": SPARE_ROWS,
    }
