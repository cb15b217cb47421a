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

__all__ = [
    "FILLS",
    "MOST_ROWS",
    "NESTED",
    "Data",
    "identity_fields",
    "listed",
    "offers",
    "plain_values",
    "rows_of",
]

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
    from taletable.play.creation_form import step_fields

    if data["edition"] == "core":
        mode = step_fields("core", "mode")[0]
        return {**data, "mode": _text(form, "mode") or mode.default}
    tier = step_fields("tiered", "tier")[0]
    return {**data, "tier": _int(form, "tier", "tier", int(tier.default or 0))}


def identity_fields(edition: str) -> list[str]:
    """The identity fields the edition's identity step asks for (the play layer's list)."""
    from taletable.play.creation_form import identity_fields as fields

    return [field.name.removeprefix("identity.") for field in fields(edition)]  # type: ignore[arg-type]


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
    """What the steps of ``data``'s edition offer to choose from: the engine's tables, as the
    play layer describes them for both shells (``play.creation_form.creation_choices``)."""
    from taletable.play.creation_form import creation_choices

    return {**creation_choices(data), "spare_rows": SPARE_ROWS}


def plain_values(data: Data, fields: list[Any]) -> dict[str, Any]:
    """Each plain field's value on the sheet being made (its default when not yet filled)."""
    values = {}
    for field in fields:
        value: Any = data
        for part in field.name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        values[field.name] = field.default if value is None else value
    return values
