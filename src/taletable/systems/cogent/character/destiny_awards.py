"""Destiny held on a sheet: points spent on rolls and points awarded, each in the history.

002 > Character Creation > Destiny Points: a point is spent before or after a roll, "for as
many Destiny Points as they have"; > Awarding Destiny Points: "During Fastplay games award one
destiny point roughly every three hours of play as a baseline", and "The narrator may also
award players additional destiny points throughout the game for exceptional role-playing", up
to the maximum. 000 > Destiny Points: the tiered sheet holds up to its tier's maximum.
Campaign chapters award theirs through ``progression``.
"""

from __future__ import annotations

import math

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.sheet import Award, CoreCharacter, TieredCharacter

__all__ = [
    "HOURS_PER_DESTINY_POINT",
    "award_destiny",
    "destiny_for_hours",
    "return_destiny",
    "spend_destiny",
]

DESTINY = "002 > Character Creation > Destiny Points"
AWARDING = f"{DESTINY} > Awarding Destiny Points"
#: Fast Play: "award one destiny point roughly every three hours of play as a baseline".
HOURS_PER_DESTINY_POINT = 3
#: The most hours one session may add (a day and a night of play).
MAX_SESSION_HOURS = 24

Sheet = CoreCharacter | TieredCharacter


def _destiny_source(sheet: Sheet) -> str:
    return DESTINY if isinstance(sheet, CoreCharacter) else "000 > Destiny > Destiny Points"


def spend_destiny(sheet: Sheet, points: int, what: str) -> Sheet:
    """Debit ``points`` spent on ``what`` (a roll), recorded; never more than the sheet holds.

    002 > Destiny Points: "for as many Destiny Points as they have".
    """
    if points < 0:
        raise InputError("destiny", f"{points}", expected="0 or more points")
    held = sheet.destiny.points
    if points > held:
        raise RulesError(
            _destiny_source(sheet), f"{points} destiny point(s) spent, {held} held",
            fix=f"spend at most {held}",
        )  # fmt: skip
    if points == 0:
        return sheet
    destiny = sheet.destiny.model_copy(update={"points": held - points})
    line = Award(
        event="destiny-spent",
        detail=f"{points} spent on {what}: destiny {held} -> {held - points}/"
        f"{sheet.destiny.maximum}",
    )
    return sheet.model_copy(update={"destiny": destiny, "history": (*sheet.history, line)})


def _award(sheet: Sheet, points: int, why: str) -> Sheet:
    held, most = sheet.destiny.points, sheet.destiny.maximum
    after = min(most, held + points)
    lost = held + points - after
    detail = f"+{points} ({why}): destiny {held} -> {after}/{most}"
    if lost:
        detail += f" ({lost} over the maximum, not held)"
    destiny = sheet.destiny.model_copy(update={"points": after})
    line = Award(event="destiny", detail=detail)
    return sheet.model_copy(update={"destiny": destiny, "history": (*sheet.history, line)})


def award_destiny(sheet: Sheet, points: int, reason: str) -> Sheet:
    """The narrator's award for play, up to the maximum (002 > Awarding Destiny Points: "for
    exceptional role-playing"; 000 > Destiny Points: "to a maximum as defined by the Tier")."""
    if not reason.strip():
        raise InputError("reason", "empty", expected="what the player did to earn it")
    if not 1 <= points <= sheet.destiny.maximum:
        raise InputError(
            "award", f"{points}", expected=f"1 to {sheet.destiny.maximum} (the maximum)"
        )
    return _award(sheet, points, reason.strip())


def destiny_for_hours(sheet: Sheet, hours: float) -> Sheet:
    """Fast Play's destiny by time: a point per three hours played in all, up to the maximum.

    002 > Awarding Destiny Points: "During Fastplay games award one destiny point roughly every
    three hours of play as a baseline. During Campaign Play destiny points are awarded at
    different rates depending on the tier of play." The hours add up across sessions
    (``progress.hours_played``), so two sessions of two hours give one point.
    """
    if not isinstance(sheet, CoreCharacter) or sheet.mode != "fast_play":
        raise RulesError(
            AWARDING, "destiny by hours of play is the Fast Play baseline",
            fix="in Campaign Play destiny comes per chapter (a chapter advance), or as the "
            "narrator's award ({award})",
        )  # fmt: skip
    if not (0 < hours <= MAX_SESSION_HOURS) or math.isnan(hours):
        raise InputError("hours", f"{hours}", expected=f"more than 0, at most {MAX_SESSION_HOURS}")
    before = sheet.progress.hours_played
    after = before + hours
    points = int(after // HOURS_PER_DESTINY_POINT) - int(before // HOURS_PER_DESTINY_POINT)
    progress = sheet.progress.model_copy(update={"hours_played": after})
    played = sheet.model_copy(update={"progress": progress})
    why = f"{hours:g} hour(s) played, {after:g} in all"
    if points == 0:
        line = Award(event="hours", detail=f"{why}: no destiny point yet (one per 3 hours)")
        return played.model_copy(update={"history": (*played.history, line)})
    return _award(played, points, why)


def return_destiny(sheet: Sheet, points: int, what: str) -> Sheet:
    """Give back ``points`` spent on ``what`` when the step that spent them is taken back
    (RULINGS.md "taking back a fight's step"), up to the maximum, recorded in the history."""
    if points < 1:
        raise InputError("destiny", f"{points}", expected="1 or more points")
    return _award(sheet, points, f"given back: {what} taken back")
