"""Character creation step by step: the steps of each edition, and a check after each.

core (002 > Character Creation, in the book's order): the mode of play (Fast Play, or a Campaign
tier: 002 > Narration > Campaign Progression), the character's identity, attributes, disabling
characteristics ("should always be chosen or rolled before any points are assigned to Skills"),
core skills, vocations with their vocational and combat skills, commerce ("At the conclusion of
character creation"), equipment, destiny.
tiered (000 > Character Creation > "An overview of the process"): the tier, identity,
attributes, vocations and specialisations, skills, equipment (commerce points and quirks),
finishing touches (destiny and characteristics).

A shell (the CLI's prompts, the live table's wizard) fills a sheet's data one step at a time and
calls :func:`check_step` after each; it gets the problems of that step's fields only (a later
step's fields are not yet filled, so their problems wait). :func:`creation_report` checks the
finished sheet: every rule of ``validate`` and the identity creation asks for.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ValidationError

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.budget import Budget, core_budget, tiered_budget
from taletable.systems.cogent.character.report import CREATION, Problem, Report
from taletable.systems.cogent.character.sheet import (
    CoreCharacter,
    TieredCharacter,
)
from taletable.systems.cogent.character.tiered_validation import validate_tiered
from taletable.systems.cogent.character.validation import validate_core

__all__ = [
    "CORE_STEPS",
    "TIERED_STEPS",
    "CreationRefused",
    "CreationStep",
    "StepCheck",
    "budget_of",
    "check_step",
    "creation_report",
    "creation_steps",
    "identity_problems",
    "partial_sheet",
]

Edition = Literal["core", "tiered"]
TIERED = "000 > Character Creation"


class CreationStep(Record):
    """One step of creation: its name, the book's section, and the sheet fields it fills.

    ``checks`` are the fields whose problems the step reports (its own, and the point budgets
    it spends from: ``attribute_points``, ``skill_points``).
    """

    name: str
    title: str
    source: str
    fills: tuple[str, ...]
    checks: tuple[str, ...]


def _step(name: str, title: str, source: str, fills: tuple[str, ...], *spends: str) -> CreationStep:
    return CreationStep(name=name, title=title, source=source, fills=fills, checks=fills + spends)


#: 002 > Character Creation, in the book's order (Campaign Play's tier chosen first).
CORE_STEPS: tuple[CreationStep, ...] = (
    _step("mode", "Fast Play or a Campaign tier", "002 > Narration > Campaign Progression",
          ("edition", "mode", "superhuman_attributes")),
    _step("identity", "Character Identity", f"{CREATION} > Character Identity", ("identity",)),
    _step("attributes", "Attributes", f"{CREATION} > Attributes", ("attributes",),
          "attribute_points"),
    _step("disabling", "Disabling Characteristics", f"{CREATION} > Disabling Characteristics",
          ("disabling_characteristics",)),
    _step("skills", "Core Skills", f"{CREATION} > Core Skills", ("skills",), "skill_points"),
    _step("vocations", "Vocations, Vocational and Combat Skills", f"{CREATION} > Vocations",
          ("vocations",), "skill_points"),
    _step("commerce", "Commerce Points and Quirks of Wealth",
          f"{CREATION} > Commerce Points > Assigning Commerce Points", ("commerce",),
          "skill_points"),
    _step("equipment", "Equipment", "002 > Combat > Weapon Modifiers; Armour", ("equipment",)),
    _step("destiny", "Destiny Points", f"{CREATION} > Destiny Points",
          ("destiny", "glory_days")),
)  # fmt: skip

#: 000 > Character Creation: "An overview of the process".
TIERED_STEPS: tuple[CreationStep, ...] = (
    _step("tier", "Tier of play", "000 > Tier Progression", ("edition", "tier")),
    _step("identity", "Character Identity", f"{TIERED} > Character Identity", ("identity",)),
    _step("attributes", "Attributes", f"{TIERED} > Attributes", ("attributes",),
          "attribute_points"),
    _step("vocations", "Vocations and Specialisations", f"{TIERED} > Vocations",
          ("vocations",), "skill_points"),
    _step("skills", "Skills", f"{TIERED} > Skills", ("skills",), "skill_points"),
    _step("equipment", "Equipment: Commerce Points and Quirks of Wealth",
          f"{TIERED} > Equipment", ("commerce", "equipment")),
    _step("finishing", "Finishing Touches: Destiny and Characteristics",
          f"{TIERED} > Finishing Touches", ("destiny", "disabling_characteristics")),
)  # fmt: skip


def creation_steps(edition: Edition) -> tuple[CreationStep, ...]:
    """The creation steps of ``edition``, in order (every mode and tier walks the same steps;
    the mode or tier sets their limits)."""
    return CORE_STEPS if edition == "core" else TIERED_STEPS


#: What each edition's identity step asks to be filled in, and the book's words for why.
IDENTITY_REQUIRED: dict[str, tuple[tuple[str, str], ...]] = {
    "core": (
        ("disposition", "Character Disposition"),
        ("history", "Character History"),
        ("beliefs", "Beliefs / Morality"),
        ("goals", "Goals / Aspirations"),
    ),
    "tiered": (
        ("concept", "Character Concept"),
        ("elevator_pitch", "Elevator Pitch"),
        ("history", "Flesh it Out"),
    ),
}


def identity_problems(sheet: CoreCharacter | TieredCharacter) -> list[Problem]:
    """002 > Creating a Character: "there are several Core Characteristic requirements to be
    filled out" (disposition, history, beliefs, goals); 000 > Character Identity: "Write down
    this Character Concept", "Write your elevator Pitch", "Write a short story" (history)."""
    rule = (
        f"{CREATION} > Creating a Character"
        if sheet.edition == "core"
        else (f"{TIERED} > Character Identity")
    )
    problems = []
    for field, section in IDENTITY_REQUIRED[sheet.edition]:
        if not getattr(sheet.identity, field).strip():
            problems.append(
                Problem(
                    rule=f"{rule} > {section}" if sheet.edition == "core" else rule,
                    found=f"no {section}",
                    fix=f"write the character's {section} ({field})",
                    field=f"identity.{field}",
                )
            )
    return problems


def creation_report(sheet: CoreCharacter | TieredCharacter, *, cost_increase: int = 1) -> Report:
    """Every problem of a sheet being created: each rule of validation, and its identity."""
    if isinstance(sheet, CoreCharacter):
        report = validate_core(sheet, cost_increase=cost_increase)
    else:
        report = validate_tiered(sheet)
    problems = (*identity_problems(sheet), *report.problems)
    return report.model_copy(update={"legal": not problems, "problems": problems})


class StepCheck(Record):
    """A step checked: its problems (each naming its field), what is left to spend, and the
    step that comes next (None after the last)."""

    step: str
    legal: bool
    problems: tuple[Problem, ...]
    budget: Budget | None
    next_step: str | None


#: The name a sheet holds before the identity step has filled it in.
UNNAMED = "(unnamed)"


def partial_sheet(data: dict[str, Any]) -> dict[str, Any]:
    """A partly filled sheet's data, with the name a sheet needs before identity gives one."""
    filled = dict(data)
    identity = dict(filled.get("identity") or {})
    identity.setdefault("name", UNNAMED)
    filled["identity"] = identity
    return filled


def _format_problems(error: ValidationError) -> list[Problem]:
    """A sheet's malformed fields as problems (the field is the data's path)."""
    return [
        Problem(
            rule="character sheet format (`taletable schema character`)",
            found=f"{'.'.join(str(part) for part in item['loc']) or 'sheet'}: {item['msg']}",
            fix="give the field a value of its kind",
            field=".".join(str(part) for part in item["loc"]),
        )
        for item in error.errors()
    ]


def _concerns(problem: Problem, fields: tuple[str, ...]) -> bool:
    return problem.field.split(".")[0] in fields or problem.field == ""


def check_step(data: dict[str, Any], step: str, *, cost_increase: int = 1) -> StepCheck:
    """Check the sheet ``data`` filled up to ``step``: the problems of that step's fields.

    An unknown step is an InputError naming the steps of the sheet's edition.
    """
    edition = data.get("edition", "core")
    if edition not in ("core", "tiered"):
        raise InputError("edition", f"{edition!r}", expected="core or tiered")
    steps = creation_steps(edition)
    names = [s.name for s in steps]
    if step not in names:
        raise InputError("step", f"no step {step!r} in {edition}", expected=", ".join(names))
    index = names.index(step)
    following = names[index + 1] if index + 1 < len(names) else None
    fields = steps[index].checks
    try:
        model = CoreCharacter if edition == "core" else TieredCharacter
        sheet: CoreCharacter | TieredCharacter = model.model_validate(partial_sheet(data))
    except ValidationError as error:
        return StepCheck(step=step, legal=False, problems=tuple(_format_problems(error)),
                         budget=None, next_step=following)  # fmt: skip
    report = creation_report(sheet, cost_increase=cost_increase)
    problems = tuple(p for p in report.problems if _concerns(p, fields))
    if step == "identity" and sheet.identity.name == UNNAMED:
        problems = (
            Problem(
                rule=steps[index].source,
                found="no name",
                fix="give the character a name",
                field="identity.name",
            ),
            *problems,
        )
    return StepCheck(
        step=step,
        legal=not problems,
        problems=problems,
        budget=report.budget,
        next_step=following,
    )


def budget_of(sheet: CoreCharacter | TieredCharacter, *, cost_increase: int = 1) -> Budget:
    """What the sheet has to spend and has left (the builder view)."""
    if isinstance(sheet, CoreCharacter):
        return core_budget(sheet, cost_increase=cost_increase)
    return tiered_budget(sheet)


class CreationRefused(RulesError):
    """A sheet that is not a legal new character: every problem, the first in the message."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        self.problems = problems
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(first.rule, f"not a legal character: {first.found}{more}", fix=first.fix)

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.problems,), {}
