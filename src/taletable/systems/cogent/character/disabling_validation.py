"""Disabling characteristics at creation (002 > Character Creation > Disabling Characteristics).

A characteristic is from the d20 table or custom (narrator-approved); a rolled one is the table's
entry for its roll; Overconfident names a skill that gets no points "during character creation"
(once the campaign progresses points may go there: RULINGS.md "When the campaign progresses").
The bonus skill points and the `*` cost increases are counted in ``budget.py``; the dice
penalties in ``pools.py``.
"""

from __future__ import annotations

from taletable.systems.cogent.character.budget import points_in
from taletable.systems.cogent.character.campaign_limits import campaign_started
from taletable.systems.cogent.character.report import DISABLING, Problem
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.character.tables import disabling_table

__all__ = ["disabling_problems"]


def disabling_problems(sheet: CoreCharacter) -> list[Problem]:
    """Every problem with the sheet's disabling characteristics (002 > Disabling Chars.)."""
    problems: list[Problem] = []
    table = disabling_table()
    at_creation = not campaign_started(sheet)
    for choice in sheet.disabling_characteristics:
        entry = table.find(choice.name)
        if entry is None and not choice.custom:
            problems.append(
                Problem(
                    rule=DISABLING,
                    found=f"{choice.name!r} is not on the table",
                    fix="use a table name, or mark it custom (narrator-approved)",
                )
            )
            continue
        if choice.how == "rolled" and (entry is None or choice.roll != entry.roll):
            problems.append(
                Problem(
                    rule=DISABLING,
                    found=f"{choice.name} marked rolled with roll {choice.roll}",
                    fix="a rolled characteristic is the table's entry for its d20 roll",
                )
            )
        if entry is not None and entry.forbids_skill:
            if not choice.skill:
                problems.append(
                    Problem(
                        rule=DISABLING,
                        found=f"{entry.name} names no skill",
                        fix="name the applicable skill",
                    )
                )
            elif at_creation and points_in(sheet, choice.skill) > 0:
                problems.append(
                    Problem(
                        rule=DISABLING,
                        found=f"{entry.name}: points in {choice.skill}",
                        fix="an Overconfident character spends no points on that skill at creation",
                    )
                )
    return problems
