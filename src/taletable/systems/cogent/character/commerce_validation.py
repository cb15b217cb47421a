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
from taletable.systems.cogent.character.sheet import CoreCharacter, CoreCommerce
from taletable.systems.cogent.character.tables import quirk_table

__all__ = ["commerce_problems"]


Found = list[tuple[str, str]]  # what was found, and its fix


def _quirks(commerce: CoreCommerce) -> Found:
    """One quirk at level 4 and one more for stepping up, from the table, none twice."""
    found: Found = []
    needed = (commerce.assigned == 4) + (commerce.adjustment == 1)
    taken = len(commerce.quirks) + len(commerce.custom_quirks)
    if taken != needed:
        found.append((
            f"{taken} quirks of wealth",
            f"take {needed}: one at level 4, one more for stepping up (rolled, or agreed with "
            "the narrator as custom_quirks)",
        ))  # fmt: skip
    table = quirk_table().core
    found += [
        (f"{quirk!r} is not a quirk of wealth", "use a name from the Quirks of Wealth table")
        for quirk in commerce.quirks
        if table.find(quirk) is None
    ]
    every = [quirk.strip().lower() for quirk in (*commerce.quirks, *commerce.custom_quirks)]
    if len(set(every)) != len(every):
        found.append(("the same quirk twice", "reroll duplicates"))
    return found


def _level(commerce: CoreCommerce) -> Found:
    """The narrator assigns level 2, 3 or 4."""
    if commerce.assigned in (2, 3, 4):
        return []
    return [(f"assigned commerce level {commerce.assigned}",
             "the narrator assigns a commerce level of 2, 3 or 4")]  # fmt: skip


def _points_held(commerce: CoreCommerce) -> Found:
    """No more points than the level after creation plus what play gave."""
    most = commerce.level + commerce.gained
    if commerce.points is None or commerce.points <= most:
        return []
    return [(
        f"{commerce.points} commerce points",
        f"at most {most}: the level after creation ({commerce.level}; creation ends between "
        f"ONE and FIVE) plus {commerce.gained} gained in play; record each gain in play as "
        "a commerce award (its reason goes in the history)",
    )]  # fmt: skip


def _bonus_skills(sheet: CoreCharacter) -> Found:
    """One untouched-skill point at level 2 and one more for stepping down, each in a different
    skill holding just that point at creation, never the first vocation (its free point)."""
    commerce, found = sheet.commerce, []
    needed = (commerce.assigned == 2) + (commerce.adjustment == -1)
    if len(commerce.bonus_skills) != needed:
        found.append((
            f"{len(commerce.bonus_skills)} commerce bonus skill(s)",
            f"name {needed}: one at level 2, one more for stepping down",
        ))  # fmt: skip
    if len({name.strip().lower() for name in commerce.bonus_skills}) != len(commerce.bonus_skills):
        found.append((
            "the same commerce bonus skill twice",
            "each bonus point goes in a different untouched skill",
        ))  # fmt: skip
    if campaign_started(sheet):
        return found
    first = sheet.vocations[0].name.strip().lower() if sheet.vocations else None
    for name in commerce.bonus_skills:
        if name.strip().lower() == first:
            found.append((
                f"commerce bonus point in {name}, the first vocation",
                "the first vocation's point is its free point (002 > Vocations), so it is not "
                "untouched: put the bonus point in a skill, vocation or vocational skill with "
                "no points",
            ))  # fmt: skip
        elif points_in(sheet, name) != 1:
            found.append((
                f"commerce bonus point in {name} ({points_in(sheet, name)} points)",
                "the bonus point goes in a skill with no other points: it has exactly 1",
            ))  # fmt: skip
    return found


def commerce_problems(sheet: CoreCharacter) -> list[Problem]:
    """Every problem with the sheet's commerce assignment (002 > Assigning Commerce Points)."""
    commerce = sheet.commerce
    found = [*_level(commerce), *_quirks(commerce), *_points_held(commerce), *_bonus_skills(sheet)]
    return [Problem(rule=COMMERCE, found=what, fix=fix) for what, fix in found]
