"""`taletable cogent character new` by prompts: every creation step of the edition, in order.

The steps, their order and every rule come from the engine (``creation.py``) through
``taletable.play``: each step's answers are checked when given, and an illegal answer is shown
with its rule and asked again, so the finished sheet is legal. Prompts go to stderr so that
``--json`` prints only the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from taletable.cli.common import ask
from taletable.errors import InputError, RulesError
from taletable.play.character_creation import (
    CommerceRequest,
    DisablingRequest,
    QuirkPicked,
    QuirkRequest,
    SheetDraft,
    StartingDestinyRequest,
    StepRequest,
    character_step,
    commerce,
    disabling,
    quirk,
    starting_destiny,
)
from taletable.play.context import Table
from taletable.play.creation_form import NESTED_POINTS, creation_choices, step_fields
from taletable.systems.cogent.character.creation import creation_steps
from taletable.systems.cogent.character.creation_choices import disabling_room
from taletable.systems.cogent.character.report import Problem
from taletable.systems.cogent.character.tables import skill_table

__all__ = ["prompted_sheet"]

Data = dict[str, Any]
#: Prompts for more disabling characteristics stop here where the mode sets no limit.
MOST_DISABLING = 20
CUSTOM = "custom:"


def _ask(text: str, **options: Any) -> Any:
    return click.prompt(text, err=True, **options)


def _say(text: str) -> None:
    click.echo(text, err=True)


def _show(problems: tuple[Problem, ...]) -> None:
    for problem in problems:
        _say(f"✗ {problem.found} ({problem.rule}); {problem.fix}")


def _check(data: Data, step: str, table: Table) -> tuple[Problem, ...]:
    return character_step(StepRequest(sheet=data, step=step), table).result.problems


def _until_legal(data: Data, step: str, table: Table, fill: Callable[[Data], Data]) -> Data:
    """Ask a step's answers until the step is legal, showing each broken rule."""
    while True:
        try:
            candidate = fill(data)
        except (RulesError, InputError) as error:
            _say(f"✗ {error}")
            continue
        problems = _check(candidate, step, table)
        if not problems:
            return candidate
        _show(problems)


def _optional(text: str) -> str:
    return str(_ask(text, default="", show_default=False)).strip()


def _pairs(text: str) -> list[tuple[str, str]]:
    """``"A=1, B=2"`` (or ``A:1``) as pairs; a part without ``=`` is a click error, asked again."""
    pairs = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, sep, value = part.replace(":", "=").partition("=")
        if not sep or not name.strip() or not value.strip():
            raise click.BadParameter(f"{part!r}: write NAME=VALUE")
        pairs.append((name.strip(), value.strip()))
    return pairs


def _points(text: str) -> dict[str, int]:
    try:
        return {name: int(value) for name, value in _pairs(text)}
    except ValueError:
        raise click.BadParameter(f"{text!r}: points are whole numbers") from None


def _asked(prompt: str, parse: Callable[[str], Any]) -> Any:
    """Ask until ``parse`` reads the answer."""
    while True:
        try:
            return parse(_optional(prompt))
        except click.BadParameter as error:
            _say(f"✗ {error.message}")


def _mode(data: Data, table: Table) -> Data:
    step = "mode" if data["edition"] == "core" else "tier"
    field = step_fields(data["edition"], step)[0]
    if step == "mode":
        modes = click.Choice([str(choice) for choice in field.choices])
        return {**data, "mode": _ask(field.prompt, type=modes, default=field.default)}
    tiers = [int(choice) for choice in field.choices]
    chosen = _ask(field.prompt, type=click.IntRange(min(tiers), max(tiers)), default=field.default)
    return {**data, "tier": chosen}


def _identity(data: Data, table: Table) -> Data:
    def fill(data: Data) -> Data:
        identity = {}
        for field in step_fields(data["edition"], "identity"):
            answer = _ask(field.prompt) if field.required else _optional(field.prompt)
            identity[field.name.removeprefix("identity.")] = str(answer).strip()
        return {**data, "identity": identity}

    return _until_legal(data, "identity", table, fill)


def _attributes(data: Data, table: Table) -> Data:
    fields = step_fields(data["edition"], "attributes")

    def fill(data: Data) -> Data:
        chosen = {field.name.removeprefix("attributes."): _ask(field.prompt, type=int,
                                                               default=field.default)
                  for field in fields}  # fmt: skip
        return {**data, "attributes": chosen}

    return _until_legal(data, "attributes", table, fill)


def _left(data: Data, table: Table, step: str) -> None:
    budget = character_step(StepRequest(sheet=data, step=step), table).result.budget
    if budget is not None:
        _say(f"skill points left {budget.skill_points_left} of {budget.skill_points}")


def _skills(data: Data, table: Table) -> Data:
    names = ", ".join(skill.name for skill in skill_table(data["edition"]).skills)
    _say(f"skills: {names}")
    _left(data, table, "skills")

    def fill(data: Data) -> Data:
        chosen = _asked("Skill points as NAME=POINTS, comma separated (blank for none)", _points)
        return {**data, "skills": {**data.get("skills", {}), **chosen}}

    return _until_legal(data, "skills", table, fill)


def _nested(under: str, kind: str, attributes: tuple[str, ...] | None) -> list[Data]:
    """The skills under a vocation, one a line: name, its attribute when it has one, points."""
    nested: list[Data] = []
    while name := _optional(f"  {kind} under {under} (blank to finish)"):
        skill: Data = {"name": name}
        if attributes:
            skill["attribute"] = _ask("  its attribute", type=click.Choice(attributes))
        skill["points"] = _ask("  its points", type=int, default=NESTED_POINTS)
        nested.append(skill)
    return nested


def _vocation(data: Data, name: str) -> Data:
    attributes = tuple(skill_table(data["edition"]).attributes)
    vocation: Data = {
        "name": name,
        "attribute": _ask("Its attribute", type=click.Choice(attributes)),
    }
    defaults = creation_choices(data)
    if data["edition"] == "core":
        vocation["points"] = _ask("Its points (the first vocation's first point is free)",
                                  type=int, default=defaults["vocation_points"])  # fmt: skip
        vocation["vocational_skills"] = _nested(name, "Vocational skill", attributes)
        vocation["combat_skills"] = _nested(name, "Combat skill (a weapon category)", None)
    else:
        vocation["rank"] = _ask("Its rank", type=int, default=defaults["vocation_rank"])
        vocation["specialisations"] = _nested(name, "Specialisation", attributes)
    return vocation


def _vocations(data: Data, table: Table) -> Data:
    _left(data, table, "vocations")

    def fill(data: Data) -> Data:
        vocations = []
        while name := _optional("Vocation (blank to finish)"):
            vocations.append(_vocation(data, name))
        return {**data, "vocations": vocations}

    return _until_legal(data, "vocations", table, fill)


def _characteristic(table: Table) -> Data | None:
    """One disabling characteristic from the table, rolled, or custom; None to finish."""
    while True:
        answer = _optional(
            "Disabling characteristic (a name from the table, 'roll' for the d20, "
            "'custom: NAME', blank to finish)"
        )
        if not answer:
            return None
        custom = answer.lower().startswith(CUSTOM)
        request = DisablingRequest(answer=answer[len(CUSTOM) :] if custom else answer,
                                   custom=custom)  # fmt: skip
        try:
            choice = disabling(request, table).result
        except RulesError as error:
            _say(f"✗ {error}")
            continue
        if choice.how == "rolled":
            _say(f"rolled {choice.roll}: {choice.name} (kept)")
        return choice.model_dump(mode="json", exclude_defaults=True)


def _disabling(data: Data, table: Table, step: str = "disabling") -> Data:
    taken = list(data.get("disabling_characteristics", ()))
    while (room := disabling_room({**data, "disabling_characteristics": taken})) != 0:
        if len(taken) >= MOST_DISABLING or (choice := _characteristic(table)) is None:
            break
        taken.append(choice)
        while problems := _check({**data, "disabling_characteristics": taken}, step, table):
            _show(problems)
            where = f"disabling_characteristics.{len(taken) - 1}.skill"
            if any(problem.field == where for problem in problems):  # Overconfident's skill
                taken[-1] = {**taken[-1], "skill": str(_ask(f"{choice['name']}: the skill"))}
            elif taken[-1].get("how") != "rolled":  # a chosen one is taken back
                taken.pop()
            else:
                break
        if room == 1:
            break
    return {**data, "disabling_characteristics": taken}


def _quirk(held: list[QuirkPicked], edition: str, table: Table) -> QuirkPicked:
    prompt = "Quirk of wealth (a name, 'custom: NAME', or blank to roll the d20)"
    while True:
        answer = _optional(prompt if edition == "core" else "Quirk of wealth (a name)")
        custom = answer.lower().startswith(CUSTOM)
        request = QuirkRequest(answer=answer[len(CUSTOM) :] if custom else answer,
                               edition=edition, custom=custom,
                               held=tuple(q.name for q in held))  # fmt: skip
        try:
            picked = quirk(request, table).result
        except RulesError as error:
            _say(f"✗ {error}")
            continue
        if not answer:
            _say(f"rolled: {picked.name}")
        return picked


def _bring(data: Data, table: Table, level: tuple[int, int], quirks: list[QuirkPicked],
           bonus: list[str]) -> Data:  # fmt: skip
    """Take the quirks and bonus points the level and step bring; the sheet with them."""

    def draft(bonus_skills: tuple[str, ...]) -> SheetDraft:
        request = ask(CommerceRequest, sheet=data, assigned=level[0], adjustment=level[1],
                      quirks=tuple(quirks), bonus_skills=bonus_skills)  # fmt: skip
        return commerce(request, table).result

    needs = draft(tuple(bonus))
    while len(quirks) < needs.quirks_needed:
        quirks.append(_quirk(quirks, "core", table))
    while len(bonus) < needs.bonus_skills_needed:
        name = _optional("Skill for the commerce bonus point (one with no points yet)")
        try:
            draft((*bonus, name))
        except RulesError as error:
            _say(f"✗ {error}")
            continue
        bonus.append(name)
    return draft(tuple(bonus)).sheet


def _commerce(data: Data, table: Table) -> Data:
    def fill(data: Data) -> Data:
        quirks: list[QuirkPicked] = []
        bonus: list[str] = []
        level, adjustment = step_fields("core", "commerce")
        assigned = _ask(level.prompt, type=int, default=level.default)
        _bring(data, table, (assigned, 0), quirks, bonus)
        step = _ask(adjustment.prompt, type=int, default=adjustment.default)
        return _bring(data, table, (assigned, step), quirks, bonus)

    return _until_legal(data, "commerce", table, fill)


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _tiered_quirks(data: Data, table: Table) -> Data:
    held: list[QuirkPicked] = []
    while _optional("Take a quirk of wealth for +1 commerce point? (y/blank)").lower() == "y":
        picked = _quirk(held, "tiered", table)
        candidate = {**data, "commerce": {"quirks": [q.name for q in (*held, picked)]}}
        problems = tuple(p for p in _check(candidate, "equipment", table) if p.field == "commerce")
        if problems:
            _show(problems)
            break
        held.append(picked)
    return {**data, "commerce": {"quirks": [q.name for q in held]}}


def _equipment(data: Data, table: Table) -> Data:
    if data["edition"] == "tiered":
        data = _tiered_quirks(data, table)

    def fill(data: Data) -> Data:
        weapons = _asked("Weapons as NAME=GROUP, comma separated (blank for none)", _pairs)
        armour = _asked("Armour pieces, comma separated (blank for none)", _names)
        items = _asked("Other items, comma separated (blank for none)", _names)
        equipment = {"weapons": [{"name": n, "group": g} for n, g in weapons],
                     "armour": armour, "items": items}  # fmt: skip
        return {**data, "equipment": equipment}

    return _until_legal(data, "equipment", table, fill)


def _destiny(data: Data, table: Table) -> Data:
    if data.get("mode") == "veteran" and click.confirm(
        "Glory Days (the optional Veteran rule: destiny starts at 1 of 1)", default=False, err=True
    ):
        data = {**data, "glory_days": True}
    data = starting_destiny(StartingDestinyRequest(sheet=data), table).result.sheet
    _say(f"destiny points {data['destiny']['points']} of {data['destiny']['maximum']}")
    return data


def _finishing(data: Data, table: Table) -> Data:
    return _disabling(_destiny(data, table), table, step="finishing")


STEPS: dict[str, Callable[[Data, Table], Data]] = {
    "mode": _mode,
    "tier": _mode,
    "identity": _identity,
    "attributes": _attributes,
    "disabling": _disabling,
    "skills": _skills,
    "vocations": _vocations,
    "commerce": _commerce,
    "equipment": _equipment,
    "destiny": _destiny,
    "finishing": _finishing,
}


def prompted_sheet(table: Table) -> Data:
    """A new sheet's data from prompts, every step of its edition checked as it is answered;
    d20 rolls come from the table's dice."""
    edition = _ask("Edition", type=click.Choice(["core", "tiered"]), default="core")
    data: Data = {"edition": edition}
    for step in creation_steps(edition):
        _say(f"-- {step.title} ({step.source})")
        data = STEPS[step.name](data, table)
    return data
