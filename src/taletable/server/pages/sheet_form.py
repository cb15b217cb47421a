"""A sheet edited as a form: the form's fields read back into the sheet's data, rows added and
removed, and what the lists offer (the engine's rules tables).

The form carries the sheet it was drawn from (``draft``, JSON); what the form does not show
(injuries, history, progress, magic, a weapon's hardcore group...) is kept from it, and each
row names the row of the draft it came from (``.from``), so a row's hidden fields follow it
when another row is removed. Nothing here decides a rule: a malformed number is an
``InputError`` naming its form field; whether the sheet is legal, the engine says
(``cogent.character.validate``, and the save's own check).

Cogent sheets get the whole form (identity, attributes, skills, vocations with their nested
skills, destiny, commerce, equipment); a boons or labcats sheet, kept as given by its system,
gets a field for each of its plain values (:func:`plain_fields`).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from taletable.errors import InputError
from taletable.play.creation_form import step_fields
from taletable.server.pages.form_rows import (
    MOST_ROWS,
    Data,
    Form,
    named_rows,
    number,
    rows,
    strings,
    text,
    whole,
)
from taletable.server.pages.wizard_steps import NESTED, identity_fields, offers

__all__ = ["Data", "apply_op", "decode", "form_offers", "plain_fields", "slot_keys"]

def _skills(form: Form, keep: bool) -> dict[str, int]:
    skills: dict[str, int] = {}
    for where, _base in rows(form, "skills", []):
        name = text(form, f"{where}.name")
        if not name:
            continue
        if name in skills and not keep:
            raise InputError(f"{where}.name", f"{name} is listed twice",
                             expected="each skill once")  # fmt: skip
        skills[name] = number(form, f"{where}.points")
    return skills


def _vocations(form: Form, draft: Data, keep: bool) -> list[Data]:
    edition = draft["edition"]
    old = list(draft.get("vocations") or [])
    step = {"points": "int"} if edition == "core" else {"rank": "int"}
    vocations = named_rows(form, "vocations", old, True,
                            {"name": "text", "attribute": "text", **step})  # fmt: skip
    kept = []
    for row, vocation in enumerate(vocations):
        if not (vocation.get("name") or keep):
            continue
        for nested, fields in NESTED[edition].items():
            prior = list(vocation.get(nested) or [])
            vocation[nested] = named_rows(form, f"vocations.{row}.{nested}", prior, keep, fields)
        kept.append(vocation)
    return kept


def _commerce(form: Form, draft: Data, keep: bool) -> Data:
    commerce = dict(draft.get("commerce") or {})
    if draft["edition"] == "core":
        level, step = step_fields("core", "commerce")
        commerce["assigned"] = number(form, level.name, int(level.default or 0))
        adjustment = number(form, step.name, int(step.default or 0))
        if adjustment or "adjustment" in commerce:
            commerce["adjustment"] = adjustment
    points = whole(form, "commerce.points", None)
    if points is None:
        commerce.pop("points", None)
    else:
        commerce["points"] = points
    commerce["quirks"] = strings(form, "commerce.quirks", list(commerce.get("quirks") or []),
                                  keep)  # fmt: skip
    return commerce


def _equipment(form: Form, draft: Data, keep: bool) -> Data:
    equipment = dict(draft.get("equipment") or {})
    weapons = list(equipment.get("weapons") or [])
    equipment["weapons"] = named_rows(form, "equipment.weapons", weapons, keep,
                                       {"name": "text", "group": "text"})  # fmt: skip
    for part in ("armour", "items"):
        prior = list(equipment.get(part) or [])
        equipment[part] = strings(form, f"equipment.{part}", prior, keep)
    return equipment


def decode_cogent(form: Form, draft: Data, *, keep: bool = False) -> Data:
    """The Cogent sheet the form holds: ``draft`` with every field the form shows read from it.
    ``keep`` keeps blank rows (while rows are added and removed)."""
    data = copy.deepcopy(draft)
    edition = data["edition"]
    identity = dict(data.get("identity") or {})
    for field in identity_fields(edition):
        if f"identity.{field}" in form:
            identity[field] = text(form, f"identity.{field}")
    data["identity"] = identity
    step = "mode" if edition == "core" else "tier"
    default = step_fields(edition, step)[0].default
    chosen: Any = text(form, step) or data.get(step, default)
    chosen = number(form, step, int(chosen)) if step == "tier" else chosen
    if step in data or chosen != default:  # the sheet's default is left unwritten
        data[step] = chosen
    names = form_offers(data)["attributes"]
    data["attributes"] = {name: number(form, f"attributes.{name}") for name in names}
    data["skills"] = _skills(form, keep)
    data["vocations"] = _vocations(form, data, keep)
    data["destiny"] = {"points": number(form, "destiny.points"),
                       "maximum": number(form, "destiny.maximum")}  # fmt: skip
    data["commerce"] = _commerce(form, data, keep)
    data["equipment"] = _equipment(form, data, keep)
    return data


def plain_fields(data: Any, path: tuple[str, ...] = ()) -> list[tuple[str, str, Any]]:
    """A boons or labcats sheet's plain values (text, numbers, yes/no) as form fields: the
    field's name (its path as JSON), its label, its value; lists and the like stay in YAML."""
    if isinstance(data, dict):
        found = []
        for key, value in data.items():
            found += plain_fields(value, (*path, str(key)))
        return found
    if isinstance(data, (str, int, float, bool)) and path:
        label = " › ".join(part.replace("_", " ") for part in path)
        return [(json.dumps(list(path)), label, data)]
    return []


def decode_plain(form: Form, draft: Data) -> Data:
    """A boons or labcats sheet: ``draft`` with each plain value the form shows read back, as
    the kind it was (a number stays a number)."""
    data = copy.deepcopy(draft)
    for name, label, value in plain_fields(draft):
        path = json.loads(name)
        holder = data
        for part in path[:-1]:
            holder = holder[part]
        if isinstance(value, bool):
            holder[path[-1]] = bool(form.get(name))
        elif name in form and isinstance(value, int):
            holder[path[-1]] = number(form, name)
        elif name in form and isinstance(value, float):
            typed = text(form, name)
            try:
                holder[path[-1]] = float(typed)
            except ValueError:
                raise InputError(label, f"{typed!r} is not a number", expected="a number") from None
        elif name in form:
            holder[path[-1]] = text(form, name)
    return data


def _tidy(data: Any, draft: Any) -> Any:
    """``data`` without the empty lists and mappings the form added where ``draft`` had no
    such field (a sheet with no weapons stays without a ``weapons`` field)."""
    if not isinstance(data, dict):
        return data
    before = draft if isinstance(draft, dict) else {}
    tidied = {}
    for key, value in data.items():
        if isinstance(value, list) and isinstance(before.get(key), list):
            old = before[key]
            value = [_tidy(item, old[n] if n < len(old) else None) for n, item in enumerate(value)]
        value = _tidy(value, before.get(key))
        if value in ([], {}, "") and key not in before:
            continue
        tidied[key] = value
    return tidied


def decode(form: Form, draft: Data, *, keep: bool = False) -> Data:
    """The sheet the form holds (Cogent's form, or a plain sheet's fields)."""
    if draft.get("edition") in ("core", "tiered"):
        return dict(_tidy(decode_cogent(form, draft, keep=keep), draft))
    return decode_plain(form, draft)


def _holder(data: Data, path: list[str]) -> Any:
    holder: Any = data
    for part in path:
        holder = holder[int(part)] if isinstance(holder, list) else holder.setdefault(part, {})
    return holder


def _blank(data: Data, prefix: str) -> Any:
    """A new row of the list ``prefix`` (a skill: the first of the table the sheet lacks)."""
    last = prefix.rsplit(".", 1)[-1]
    attributes = form_offers(data)["attributes"]
    if last in ("armour", "items", "quirks"):
        return ""
    if last == "weapons":
        return {"name": "", "group": form_offers(data)["weapon_groups"][0]}
    if last == "combat_skills":
        return {"name": form_offers(data)["combat_skills"][0], "points": 0}
    row: Data = {"name": "", "attribute": attributes[0], "points": 0}
    if last == "vocations" and data["edition"] == "tiered":
        row = {"name": "", "attribute": attributes[0], "rank": 0}
    return row


def apply_op(data: Data, op: str) -> tuple[Data, str]:
    """``add:PREFIX`` or ``remove:PREFIX.N`` applied to ``data`` (with its blank rows); the
    sheet, and the form field to focus next."""
    verb, _sep, where = op.partition(":")
    parts = where.split(".")
    if not where or any(not part for part in parts):
        raise InputError("op", f"{op!r}", expected="add:LIST or remove:LIST.N")
    if verb == "add":
        holder = _holder(data, parts)
        if isinstance(holder, dict):  # skills: name -> points
            spare = [s for s in form_offers(data)["skills"] if s not in holder]
            if spare:
                holder[spare[0]] = 0
            return data, f"{where}.{len(holder) - 1}"
        if len(holder) >= MOST_ROWS:
            raise InputError(where, f"{MOST_ROWS} rows at most", expected="fewer rows")
        holder.append(_blank(data, where))
        return data, f"{where}.{len(holder) - 1}"
    if verb == "remove" and parts[-1].isdigit():
        holder, index = _holder(data, parts[:-1]), int(parts[-1])
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        if index < len(keys):
            del holder[keys[index]]
        return data, f"add:{'.'.join(parts[:-1])}"
    raise InputError("op", f"{op!r}", expected="add:LIST or remove:LIST.N")


def form_offers(data: Data) -> dict[str, Any]:
    """What the form's lists offer, from the engine's rules tables (the wizard's own lists,
    and the creation steps' identity fields, modes and tiers)."""
    found = offers(data)
    found["identity_fields"] = identity_fields(data.get("edition", "core"))
    mode, tier = step_fields("core", "mode")[0], step_fields("tiered", "tier")[0]
    found["modes"] = list(mode.choices)
    found["tiers"] = list(zip(tier.choices, tier.titles, strict=True))
    found["mode_default"], found["tier_default"] = mode.default, tier.default
    return found


def slot_keys(data: Data) -> list[str]:
    """The fields the form shows problems beside (a problem of a field under one of them is
    shown there; any other at the top)."""
    edition = data.get("edition")
    if edition not in ("core", "tiered"):
        return []
    keys = [f"identity.{field}" for field in identity_fields(edition)]
    keys += ["mode" if edition == "core" else "tier", "attributes", "skills", "vocations"]
    keys += [f"vocations.{n}" for n in range(len(data.get("vocations") or ()))]
    keys += ["destiny", "commerce", "equipment", "disabling_characteristics", "magic"]
    keys += [f"disabling_characteristics.{n}.skill"
             for n in range(len(data.get("disabling_characteristics") or ()))]  # fmt: skip
    return [*keys, "glory_days"]
