"""Changes in play, each recorded in the sheet's history: attribute points spent from awards,
commerce gained.

core (002 > Attributes; Narration > Campaign Progression): the campaign awards attribute points
at arc ends and at the start of the final arc; spending one raises an attribute and is recorded
(``progress.attributes_from_awards``), so that an INT point bought so gives no skill points
("+3 Skill Points during character creation"). tiered (000 > Tier Progression): a new tier's
attribute point is spent the same way.
Commerce (002 > Assigning Commerce Points: "Players will gain commerce points throughout
gameplay which will be assigned by the narrator as a reward for quests"; 000 > Equipment): a
gain raises the points held and ``commerce.gained``, the most the sheet may hold beyond its
creation level.
"""

from __future__ import annotations

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.budget import tiered_budget
from taletable.systems.cogent.character.commerce import commerce_points
from taletable.systems.cogent.character.sheet import Award, CoreCharacter, TieredCharacter

__all__ = ["gain_commerce", "raise_attribute"]

CAMPAIGN = "002 > Narration > Campaign Progression"
ATTRIBUTES = "002 > Character Creation > Attributes"
TIERS = "000 > Tier Progression > Tier Resources and Limits"
COMMERCE = "002 > Character Creation > Commerce Points"
MAX_ATTRIBUTE = 2
#: The highest attribute a sheet holds, superhuman or not (the sheet's own bound).
SHEET_TOP_ATTRIBUTE = 10
#: The top of the commerce scale (002 > Commerce Points; RULINGS.md "commerce scale row 9").
TOP_COMMERCE = 8
#: The most commerce points a tiered sheet holds (its schema's bound).
TOP_TIERED_COMMERCE = 20


def _attribute_name(sheet: CoreCharacter | TieredCharacter, attribute: str) -> str:
    names = tuple(sheet.attributes.model_dump())
    wanted = attribute.strip().upper()
    if wanted not in names:
        raise InputError("attribute", f"{attribute!r}", expected=", ".join(names))
    return wanted


def raise_attribute(
    sheet: CoreCharacter | TieredCharacter, attribute: str
) -> CoreCharacter | TieredCharacter:
    """Spend one awarded attribute point on ``attribute`` and record it in the history.

    core: the point comes from the campaign's awards (002 > Campaign Progression); an attribute
    above 2 needs ``superhuman_attributes`` (002 > Attributes); an INT point bought so gives no
    skill points (002 > Attributes: "+3 Skill Points during character creation"). tiered: the
    point comes from the tier's attribute points not yet spent (000 > Tier Resources and Limits).
    No attribute goes past the sheet's top, :data:`SHEET_TOP_ATTRIBUTE`.
    """
    name = _attribute_name(sheet, attribute)
    before = int(getattr(sheet.attributes, name))
    if before + 1 > SHEET_TOP_ATTRIBUTE:  # else the sheet saved would be one no command reads
        raise InputError(
            "attribute",
            f"{name} is {before}, the most a sheet holds",
            expected="another attribute to raise",
        )
    attributes = sheet.attributes.model_copy(update={name: before + 1})
    detail = f"{name} {before} -> {before + 1} with an awarded attribute point"
    if isinstance(sheet, TieredCharacter):
        if tiered_budget(sheet).attribute_points_left < 1:
            raise RulesError(
                TIERS,
                f"no attribute point left at tier {sheet.tier}",
                fix="a new tier brings one (a tier advance)",
            )
        history = (*sheet.history, Award(event="attribute", detail=detail))
        return sheet.model_copy(update={"attributes": attributes, "history": history})
    progress = sheet.progress
    bought: dict[str, int] = dict(progress.attributes_from_awards.items())
    if progress.attribute_points_awarded - sum(bought.values()) < 1:
        raise RulesError(
            CAMPAIGN,
            "no awarded attribute point left to spend",
            fix="attribute points come at the arc ends and the start of the final arc "
            "(`character advance`)",
        )
    if before + 1 > MAX_ATTRIBUTE and not sheet.superhuman_attributes:
        raise RulesError(
            ATTRIBUTES,
            f"{name} would be {before + 1}",
            fix=f"at most {MAX_ATTRIBUTE} without superhuman means (superhuman_attributes)",
        )
    if name == "INT":
        detail += " (no skill points: +3 per INT point is a creation rule)"
    bought[name] = bought.get(name, 0) + 1
    updated = progress.model_copy(update={"attributes_from_awards": bought})
    history = (*sheet.history, Award(event="attribute", detail=detail))
    return sheet.model_copy(
        update={"attributes": attributes, "progress": updated, "history": history}
    )


def gain_commerce(
    sheet: CoreCharacter | TieredCharacter, points: int, reason: str
) -> CoreCharacter | TieredCharacter:
    """Commerce points the narrator awards in play, recorded in the history.

    002 > Assigning Commerce Points: "Players will gain commerce points throughout gameplay
    which will be assigned by the narrator as a reward for quests"; the core scale tops at 8
    (002 > Commerce Points). A tiered sheet's points are 000 > Equipment's.
    """
    if not reason.strip():
        raise InputError("reason", "empty", expected="why the narrator awards it (a quest...)")
    if not 1 <= points <= TOP_COMMERCE:
        raise InputError("gain", f"{points}", expected=f"1 to {TOP_COMMERCE} commerce points")
    before = commerce_points(sheet)
    top = TOP_COMMERCE if isinstance(sheet, CoreCharacter) else TOP_TIERED_COMMERCE
    if before + points > top:
        raise RulesError(
            COMMERCE,
            f"{before} + {points} commerce points is above the scale's top, {top}",
            fix=f"award at most {top - before}",
        )
    commerce = sheet.commerce.model_copy(
        update={"points": before + points, "gained": sheet.commerce.gained + points}
    )
    line = Award(
        event="commerce",
        detail=f"+{points} commerce ({reason.strip()}): {before} -> {before + points}",
    )
    return sheet.model_copy(update={"commerce": commerce, "history": (*sheet.history, line)})
