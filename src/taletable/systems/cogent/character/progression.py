"""Campaign progression: what each chapter, arc and milestone awards (recorded on the sheet).

core (002 > Narration > Campaign Progression): a skill point per chapter (every second chapter
from the stated arc), a destiny point per chapter up to the maximum, attribute points at the
stated arc ends and at the start of the final arc, skill caps lifted at arc ends and career
milestones, and the Veteran option Glory Days (a destiny maximum of 1 growing to 2, 3 and 4).
tiered (000 > Tier Progression): a destiny point per chapter up to the tier's maximum, a skill
point for significant growth, and a tier per story.
"""

from __future__ import annotations

from typing import Literal, get_args

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.campaign_limits import campaign_awards
from taletable.systems.cogent.character.sheet import (
    Award,
    CoreCharacter,
    Destiny,
    TieredCharacter,
)
from taletable.systems.cogent.character.tables import (
    ArcAward,
    Progression,
    campaign_tiers,
    tier_resources,
)
from taletable.systems.cogent.rules import TIERED, Rules

__all__ = ["CoreEvent", "advance", "advance_core", "advance_tiered", "core_destiny_maximum"]

CAMPAIGN = "002 > Narration > Campaign Progression"
TIERS = "000 > Tier Progression"
CORE_MAXIMUM_DESTINY = 3

CoreEvent = Literal["chapter", "arc", "final-arc", "first-session", "milestone"]


def _plan(sheet: CoreCharacter) -> Progression:
    """The sheet's tier's progression (data/campaign_tiers.yaml); fast play has none."""
    plan = campaign_tiers().progression.get(sheet.mode)
    if plan is None:
        raise RulesError(
            CAMPAIGN, "fast play has no campaign progression", fix="set a campaign mode"
        )
    return plan


def core_destiny_maximum(sheet: CoreCharacter) -> int:
    """The destiny maximum: 3, or Glory Days' 1 growing by arc (002 > Veteran Tier)."""
    plan = campaign_tiers().progression.get(sheet.mode)
    if not sheet.glory_days or plan is None or plan.glory_days_maximum_destiny is None:
        return CORE_MAXIMUM_DESTINY
    maximum = plan.glory_days_maximum_destiny
    for award in campaign_awards(sheet):
        maximum = max(maximum, award.glory_days_maximum_destiny or 0)
    return maximum


def _record(
    sheet: CoreCharacter,
    event: str,
    detail: str,
    progress: dict[str, object] | None = None,
    **changes: object,
) -> CoreCharacter:
    updated = sheet.progress.model_copy(update=progress or {})
    history = (*sheet.history, Award(event=event, detail=detail))
    return sheet.model_copy(update={"progress": updated, "history": history, **changes})


def _chapter(sheet: CoreCharacter, plan: Progression) -> CoreCharacter:
    """A chapter: a skill point (every second chapter of the arc from the stated arc) and a
    destiny point up to the maximum."""
    progress = sheet.progress
    chapters = progress.chapters_completed + 1
    in_arc = progress.chapters_in_arc + 1
    arc = progress.arcs_completed + 1
    every_second = arc >= plan.skill_points_every_second_chapter_from_arc
    skill = 0 if every_second and in_arc % 2 else 1
    destiny = min(sheet.destiny.points + 1, sheet.destiny.maximum)
    detail = (
        f"chapter {chapters} (arc {arc}, chapter {in_arc}): +{skill} skill point, "
        f"destiny {destiny}/{sheet.destiny.maximum}"
    )
    return _record(
        sheet, "chapter", detail,
        progress={
            "chapters_completed": chapters,
            "chapters_in_arc": in_arc,
            "skill_points_awarded": progress.skill_points_awarded + skill,
        },
        destiny=sheet.destiny.model_copy(update={"points": destiny}),
    )  # fmt: skip


def _first_session(sheet: CoreCharacter, plan: Progression) -> CoreCharacter:
    """First Taste of Glory (Initiate): one skill point after the first session, once."""
    if not plan.first_session_skill_point:
        raise RulesError(CAMPAIGN, "First Taste of Glory is an Initiate rule", fix="use chapter")
    if any(award.event == "first-session" for award in sheet.history):
        raise RulesError(
            CAMPAIGN, "the first session's skill point was already awarded",
            fix="later skill points come per chapter",
        )  # fmt: skip
    return _record(
        sheet, "first-session", "First Taste of Glory: +1 skill point",
        progress={"skill_points_awarded": sheet.progress.skill_points_awarded + 1},
    )  # fmt: skip


def _arc(sheet: CoreCharacter, plan: Progression) -> CoreCharacter:
    """An arc completed: the stated attribute points; the caps of the next tier apply."""
    progress = sheet.progress
    arcs = progress.arcs_completed + 1
    attribute = plan.arcs.get(arcs, ArcAward()).attribute_points
    updated = _record(
        sheet, "arc", f"arc {arcs} completed: +{attribute} attribute point; caps per tier",
        progress={
            "arcs_completed": arcs,
            "chapters_in_arc": 0,
            "attribute_points_awarded": progress.attribute_points_awarded + attribute,
        },
    )  # fmt: skip
    return _refresh_destiny_maximum(updated)


def _final_arc(sheet: CoreCharacter, plan: Progression) -> CoreCharacter:
    """The final arc begins, once per campaign, with its attribute points."""
    progress = sheet.progress
    if progress.final_arc_started:
        raise RulesError(
            CAMPAIGN, "the final arc has already begun", fix="it begins once per campaign"
        )
    points = plan.final_arc.attribute_points
    updated = _record(
        sheet, "final-arc", f"the final arc begins: +{points} attribute point",
        progress={
            "final_arc_started": True,
            "attribute_points_awarded": progress.attribute_points_awarded + points,
        },
    )  # fmt: skip
    return _refresh_destiny_maximum(updated)


_CORE_EVENTS = {
    "chapter": _chapter, "first-session": _first_session, "arc": _arc, "final-arc": _final_arc,
}  # fmt: skip


def advance_core(sheet: CoreCharacter, event: CoreEvent, *, vocation: str = "*") -> CoreCharacter:
    """Apply one campaign event to a core sheet and record it (002 > Campaign Progression)."""
    plan = _plan(sheet)
    if event == "milestone":
        return _milestone(sheet, vocation)
    step = _CORE_EVENTS.get(event)
    if step is None:
        raise InputError(
            "event", f"{event!r}", expected="chapter, arc, final-arc, first-session, milestone"
        )
    return step(sheet, plan)


def _milestone(sheet: CoreCharacter, vocation: str) -> CoreCharacter:
    """A career milestone lifts one vocation's cap (or all, ``*``) to 4 (002 > Initiate/Adept)."""
    progress = sheet.progress
    needed = _plan(sheet).career_milestone_after_arc
    if needed is None:
        raise RulesError(
            CAMPAIGN,
            f"career milestones are Initiate and Adept rules, not {sheet.mode}",
            fix="a Veteran's vocation cap is already 4",
        )
    if not sheet.career_milestones_used:
        raise RulesError(
            CAMPAIGN,
            "this campaign does not use career milestones (career_milestones_used: false)",
            fix=f"the vocation cap lifts to 4 at the end of arc {needed} instead",
        )
    if progress.arcs_completed < needed:
        raise RulesError(
            CAMPAIGN,
            f"a career milestone comes after arc {needed}",
            fix="complete the arc first",
        )
    if vocation != "*":
        known = [held.name for held in sheet.vocations]
        match = next((name for name in known if name.lower() == vocation.strip().lower()), None)
        if match is None:
            raise InputError(
                "vocation",
                f"{vocation!r} is not a vocation on the sheet",
                expected=", ".join(known) or "* (all)",
            )
        vocation = match
    if vocation in progress.career_milestones or "*" in progress.career_milestones:
        raise RulesError(
            CAMPAIGN,
            f"the milestone for {vocation} is done",
            fix="each vocation's cap lifts once",
        )
    return _record(
        sheet,
        "milestone",
        f"career milestone ({vocation}): vocation cap 4",
        progress={"career_milestones": (*progress.career_milestones, vocation)},
    )


def _refresh_destiny_maximum(sheet: CoreCharacter) -> CoreCharacter:
    maximum = core_destiny_maximum(sheet)
    if maximum == sheet.destiny.maximum:
        return sheet
    destiny = sheet.destiny.model_copy(update={"maximum": maximum})
    return sheet.model_copy(update={"destiny": destiny})


def advance_tiered(
    sheet: TieredCharacter,
    event: Literal["chapter", "growth", "tier"],
    *,
    rules: Rules = TIERED,
) -> TieredCharacter:
    """Apply one tiered event (000 > Tier Progression): a chapter's destiny, a skill point for
    significant growth, or the next tier.

    A new tier (001 > Tier Resources and Limits, the increment row: +1 AP, +0.5 VP, +4 SP, +1
    CP, and "*" for destiny: "apply the Character Creation value for the new Tier") gives the
    new tier's row: the budget reads AP, VP and SP from it, the destiny maximum becomes the
    tier's, commerce points held rise by 1, and, since a tier comes with a new Story (000 >
    Destiny Points: "start with a number Destiny Points at the beginning of every Story based on
    the Tier"), destiny held rises to the new tier's starting destiny (``rules.story_destiny``
    ``reset``: is set to it).
    """
    history = list(sheet.history)
    if event == "chapter":
        points = min(sheet.destiny.points + 1, sheet.destiny.maximum)
        history.append(Award(event="chapter", detail=f"destiny {points}/{sheet.destiny.maximum}"))
        destiny = sheet.destiny.model_copy(update={"points": points})
        return sheet.model_copy(update={"destiny": destiny, "history": tuple(history)})
    if event == "growth":
        history.append(Award(event="growth", detail="+1 skill point for significant growth"))
        return sheet.model_copy(
            update={
                "skill_points_awarded": sheet.skill_points_awarded + 1,
                "history": tuple(history),
            }
        )
    if event == "tier":
        if sheet.tier >= 5:
            raise RulesError(TIERS, "tier 5 is the highest", fix="the character is a Legend")
        tier = tier_resources().of(sheet.tier + 1)
        held = sheet.destiny.points
        points = tier.destiny_start
        if rules.story_destiny == "at_least":
            points = min(max(held, tier.destiny_start), tier.destiny_max)
        history.append(
            Award(
                event="tier",
                detail=f"tier {tier.tier} ({tier.name}): destiny {held} -> {points}/"
                f"{tier.destiny_max} (a new Story starts with {tier.destiny_start})",
            )
        )
        destiny = Destiny(points=points, maximum=tier.destiny_max)
        commerce = sheet.commerce
        if commerce.points is not None:  # 001's increment row: +1 CP per tier
            commerce = commerce.model_copy(update={"points": commerce.points + 1})
        return sheet.model_copy(
            update={
                "tier": tier.tier,
                "destiny": destiny,
                "commerce": commerce,
                "history": tuple(history),
            }
        )
    raise InputError("event", f"{event!r}", expected="chapter, growth, tier")


def advance(
    sheet: CoreCharacter | TieredCharacter,
    event: str,
    *,
    vocation: str = "*",
    rules: Rules = TIERED,
) -> CoreCharacter | TieredCharacter:
    """Apply a campaign event of the sheet's edition (002 > Narration > Campaign Progression;
    000 > Tier Progression); an event of the other edition is refused, naming this edition's."""
    if isinstance(sheet, CoreCharacter):
        if event not in get_args(CoreEvent):
            raise RulesError(
                "002 > Campaign Progression",
                f"'{event}' is a tiered event",
                fix="use chapter, arc, final-arc, first-session or milestone",
            )
        return advance_core(sheet, event, vocation=vocation)  # type: ignore[arg-type]
    if event not in ("chapter", "growth", "tier"):
        raise RulesError(
            "000 > Tier Progression",
            f"'{event}' is a core event",
            fix="use chapter, growth or tier",
        )
    return advance_tiered(sheet, event, rules=rules)  # type: ignore[arg-type]
