"""Limits of the core Campaign Play tiers (002 > Narration > Campaign Progression).

At creation each tier caps the number of vocations and disabling characteristics; until the arcs
and career milestones lift them, it caps the points in a core skill and in a vocation (or its
vocational and combat skills). Fast Play caps every skill at 4 and nothing else.
"""

from __future__ import annotations

from taletable.systems.cogent.character.report import CAMPAIGN, Problem
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.character.tables import ArcAward, campaign_tiers

__all__ = ["campaign_awards", "campaign_problems", "campaign_started", "core_caps"]

#: History events that mean the campaign has progressed past character creation.
PROGRESS_EVENTS = frozenset({"chapter", "arc", "final-arc", "first-session", "milestone"})


def campaign_awards(sheet: CoreCharacter) -> list[ArcAward]:
    """The arc awards a campaign sheet has reached: each completed arc's, then the final arc's."""
    plan = campaign_tiers().progression.get(sheet.mode)
    if plan is None:
        return []
    arcs = sheet.progress.arcs_completed
    awards = [plan.arcs[number] for number in sorted(plan.arcs) if number <= arcs]
    if sheet.progress.final_arc_started:
        awards.append(plan.final_arc)
    return awards


def core_caps(sheet: CoreCharacter) -> tuple[int, int, dict[str, int]]:
    """Max points in a core skill, in a vocation (or its skills), and per-vocation overrides.

    Fast Play caps every skill at 4; campaign tiers start lower and lift at the arc ends and
    career milestones of 002 > Campaign Progression (data/campaign_tiers.yaml). The overrides
    are keyed by the vocation's name in lower case.
    """
    mode = campaign_tiers().modes[sheet.mode]
    core_cap, vocation_cap = mode.max_core_skill, mode.max_vocation_skill
    for award in campaign_awards(sheet):
        core_cap = max(core_cap, award.max_core_skill or 0)
        vocation_cap = max(vocation_cap, award.max_vocation_skill or 0)
        if not sheet.career_milestones_used:
            vocation_cap = max(vocation_cap, award.max_vocation_skill_without_milestones or 0)
    plan = campaign_tiers().progression.get(sheet.mode)
    lifted = plan.career_milestone_vocation_cap if plan else vocation_cap
    overrides = {
        name.lower(): max(lifted, vocation_cap) for name in sheet.progress.career_milestones
    }
    if "*" in sheet.progress.career_milestones:
        vocation_cap = max(vocation_cap, lifted)
    return core_cap, vocation_cap, overrides


def campaign_started(sheet: CoreCharacter) -> bool:
    """Has the campaign progressed (a chapter, arc, first session or milestone on the sheet)?"""
    progress = sheet.progress
    return bool(
        progress.chapters_completed
        or progress.arcs_completed
        or progress.final_arc_started
        or progress.career_milestones
        or any(award.event in PROGRESS_EVENTS for award in sheet.history)
    )


def campaign_problems(sheet: CoreCharacter) -> list[Problem]:
    """The tier's creation limits on vocations and disabling characteristics, and Glory Days.

    The limits hold at creation only: "as soon as the campaign progresses, these restrictions no
    longer apply to characters (they can learn new vocations, and may acquire new disabling
    characteristics if relevant)". Glory Days is "an optional rule for Veteran campaigns only".
    """
    problems: list[Problem] = []
    if sheet.glory_days and sheet.mode != "veteran":
        problems.append(
            Problem(
                rule=f"{CAMPAIGN} > Veteran Tier",
                found=f"glory_days set in {sheet.mode}",
                fix="Glory Days is a Veteran rule: set mode veteran or glory_days false",
                field="glory_days",
            )
        )
    if campaign_started(sheet):
        return problems
    mode = campaign_tiers().modes[sheet.mode]
    if mode.max_vocations is not None and len(sheet.vocations) > mode.max_vocations:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{len(sheet.vocations)} vocations",
                fix=f"at most {mode.max_vocations} at creation in {sheet.mode}",
                field="vocations",
            )
        )
    disabling = len(sheet.disabling_characteristics)
    if mode.max_disabling is not None and disabling > mode.max_disabling:
        problems.append(
            Problem(
                rule=CAMPAIGN,
                found=f"{disabling} disabling characteristics",
                fix=f"at most {mode.max_disabling} at creation in {sheet.mode}",
                field="disabling_characteristics",
            )
        )
    return problems
