"""Commerce at creation (002 > Character Creation > Commerce Points > Assigning Commerce Points).

The narrator assigns level 2, 3 or 4; level 2 gives a skill point for an untouched skill, level 4
a quirk of wealth; the player may step once up (another quirk) or down (another untouched-skill
point), ending between 1 and 5. Quirks come from the d20 table, duplicates rerolled. A bonus
skill holds exactly its 1 point at creation only: once the campaign progresses it may grow
(RULINGS.md "When the campaign progresses"). The first vocation's free point is not a bonus
point: the first vocation always holds a point before commerce is assigned, so it is never the
untouched skill a bonus point goes into (RULINGS.md "commerce bonus skill points"). In play the
points held never exceed that level plus the gains recorded (`commerce.gained`).
"""

from __future__ import annotations

from taletable.systems.cogent.character.budget import points_in
from taletable.systems.cogent.character.campaign_limits import campaign_started
from taletable.systems.cogent.character.report import COMMERCE, Problem
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.character.tables import quirk_table

__all__ = ["commerce_problems"]


def commerce_problems(sheet: CoreCharacter) -> list[Problem]:
    """Every problem with the sheet's commerce assignment (002 > Assigning Commerce Points)."""
    problems: list[Problem] = []
    commerce = sheet.commerce
    if commerce.assigned not in (2, 3, 4):
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"assigned commerce level {commerce.assigned}",
                fix="the narrator assigns a commerce level of 2, 3 or 4",
            )
        )
    quirks_needed = (commerce.assigned == 4) + (commerce.adjustment == 1)
    quirks_taken = len(commerce.quirks) + len(commerce.custom_quirks)
    if quirks_taken != quirks_needed:
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"{quirks_taken} quirks of wealth",
                fix=f"take {quirks_needed}: one at level 4, one more for stepping up "
                "(rolled, or agreed with the narrator as custom_quirks)",
            )
        )
    table = quirk_table().core
    for quirk in commerce.quirks:
        if table.find(quirk) is None:
            problems.append(
                Problem(
                    rule=COMMERCE,
                    found=f"{quirk!r} is not a quirk of wealth",
                    fix="use a name from the Quirks of Wealth table",
                )
            )
    every_quirk = [quirk.strip().lower() for quirk in (*commerce.quirks, *commerce.custom_quirks)]
    if len(set(every_quirk)) != len(every_quirk):
        problems.append(
            Problem(rule=COMMERCE, found="the same quirk twice", fix="reroll duplicates")
        )
    most = commerce.level + commerce.gained
    if commerce.points is not None and commerce.points > most:
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"{commerce.points} commerce points",
                fix=f"at most {most}: the level after creation ({commerce.level}; creation ends "
                f"between ONE and FIVE) plus {commerce.gained} gained in play; record each "
                "gain in play as a commerce award (its reason goes in the history)",
            )
        )
    bonus_needed = (commerce.assigned == 2) + (commerce.adjustment == -1)
    if len(commerce.bonus_skills) != bonus_needed:
        problems.append(
            Problem(
                rule=COMMERCE,
                found=f"{len(commerce.bonus_skills)} commerce bonus skill(s)",
                fix=f"name {bonus_needed}: one at level 2, one more for stepping down",
            )
        )
    if len({name.strip().lower() for name in commerce.bonus_skills}) != len(commerce.bonus_skills):
        problems.append(
            Problem(
                rule=COMMERCE,
                found="the same commerce bonus skill twice",
                fix="each bonus point goes in a different untouched skill",
            )
        )
    if campaign_started(sheet):
        return problems
    first = sheet.vocations[0].name.strip().lower() if sheet.vocations else None
    for name in commerce.bonus_skills:
        if name.strip().lower() == first:
            problems.append(
                Problem(
                    rule=COMMERCE,
                    found=f"commerce bonus point in {name}, the first vocation",
                    fix="the first vocation's point is its free point (002 > Vocations), so it "
                    "is not untouched: put the bonus point in a skill, vocation or vocational "
                    "skill with no points",
                )
            )
        elif points_in(sheet, name) != 1:
            problems.append(
                Problem(
                    rule=COMMERCE,
                    found=f"commerce bonus point in {name} ({points_in(sheet, name)} points)",
                    fix="the bonus point goes in a skill with no other points: it has exactly 1",
                )
            )
    return problems
