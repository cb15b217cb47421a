"""Limits of the core Campaign Play tiers (002 > Narration > Campaign Progression).

At creation each tier caps the number of vocations and disabling characteristics; until the arcs
and career milestones lift them, it caps the points in a core skill and in a vocation (or its
vocational and combat skills). Fast Play caps every skill at 4 and nothing else.
"""

from __future__ import annotations

from taletable.systems.cogent.character.report import CAMPAIGN, Problem
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.character.tables import campaign_tiers

__all__ = ["campaign_problems", "core_caps"]


def core_caps(sheet: CoreCharacter) -> tuple[int, int, dict[str, int]]:
    """Max points in a core skill, in a vocation (or its skills), and per-vocation overrides.

    Fast Play caps every skill at 4; campaign tiers start lower and lift at the arc ends and
    career milestones of 002 > Campaign Progression.
    """
    mode = campaign_tiers().modes[sheet.mode]
    core_cap, vocation_cap = mode.max_core_skill, mode.max_vocation_skill
    arcs = sheet.progress.arcs_completed
    if sheet.mode == "initiate":
        core_cap = 4 if arcs >= 2 else 3 if arcs >= 1 else 2
        vocation_cap = 3 if arcs >= 1 else 2
        if arcs >= 2 and not sheet.career_milestones_used:
            vocation_cap = 4
    elif sheet.mode == "adept":
        core_cap = 4 if arcs >= 1 else 3
        if arcs >= 1 and not sheet.career_milestones_used:
            vocation_cap = 4
    overrides = {name: 4 for name in sheet.progress.career_milestones}
    if "*" in sheet.progress.career_milestones:
        vocation_cap = 4
    return core_cap, vocation_cap, overrides


def campaign_problems(sheet: CoreCharacter) -> list[Problem]:
    """The tier's creation limits on vocations and disabling characteristics."""
    problems: list[Problem] = []
    mode = campaign_tiers().modes[sheet.mode]
    if mode.max_vocations is not None and len(sheet.vocations) > mode.max_vocations:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{len(sheet.vocations)} vocations",
                fix=f"at most {mode.max_vocations} at creation in {sheet.mode}",
            )
        )
    disabling = len(sheet.disabling_characteristics)
    if mode.max_disabling is not None and disabling > mode.max_disabling:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{disabling} disabling characteristics",
                fix=f"at most {mode.max_disabling} at creation in {sheet.mode}",
            )
        )
    return problems
