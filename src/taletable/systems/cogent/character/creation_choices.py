"""The choices of creation that are rules, not typing: what a shell's answers become on a sheet.

A disabling characteristic is chosen from the d20 table (+1 skill point), rolled on it (+2, and
kept), or a custom one the narrator approves (marked ``custom``); a quirk of wealth is rolled on
the d20 table (duplicates rerolled), chosen by name, or agreed with the narrator (marked custom,
kept in ``commerce.custom_quirks``); an unknown name is refused unless marked custom. The
narrator's commerce level and the player's one step say how many quirks and bonus skill points
follow; a bonus point goes into a skill that holds none. Destiny starts by mode or tier.
"""

from __future__ import annotations

from typing import Any, Literal

from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.commerce import roll_disabling, roll_quirks
from taletable.systems.cogent.character.creation import partial_sheet
from taletable.systems.cogent.character.disabling_validation import skill_points_of
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.character.progression import core_destiny_maximum
from taletable.systems.cogent.character.report import COMMERCE, DISABLING
from taletable.systems.cogent.character.sheet import CoreCharacter, DisablingChoice
from taletable.systems.cogent.character.tables import (
    campaign_tiers,
    disabling_table,
    quirk_table,
    skill_table,
    tier_resources,
)

__all__ = [
    "ROLL",
    "QuirkChoice",
    "choose_disabling",
    "choose_quirk",
    "commerce_needs",
    "disabling_room",
    "with_commerce",
    "with_starting_destiny",
]

#: The answer that rolls the d20 instead of choosing.
ROLL = "roll"


def choose_disabling(
    answer: str, source: DiceSource, *, custom: bool = False, skill: str | None = None
) -> DisablingChoice:
    """A disabling characteristic from an answer: a table name, ``roll``, or a custom one.

    002 > Disabling Characteristics: "If you choose a Disabling Characteristic from the table
    below or create one that the Narrator approves, you will receive one additional Skill
    point"; "you may roll a twenty-sided dice ... This cannot be taken back." An unknown name
    not marked custom is refused.
    """
    name = answer.strip()
    if not name:
        raise InputError("disabling_characteristic", "empty", expected="a name, or roll")
    table = disabling_table()
    if name.lower() == ROLL and not custom:
        entry = table.find(roll_disabling(source))
        assert entry is not None  # the table's own entry
        return DisablingChoice(name=entry.name, how="rolled", roll=entry.roll, skill=skill)
    found = table.find(name)
    if found is not None:
        return DisablingChoice(name=found.name, how="chosen", skill=skill)
    if custom:
        return DisablingChoice(name=name, how="chosen", custom=True)
    raise RulesError(
        DISABLING,
        f"{name!r} is not on the table",
        fix="choose a name from the table, roll the d20, or mark it custom (one the narrator "
        "approves)",
    )


QuirkChoice = tuple[str, bool]


def choose_quirk(
    answer: str,
    source: DiceSource,
    *,
    edition: Literal["core", "tiered"] = "core",
    held: tuple[str, ...] = (),
    custom: bool = False,
) -> QuirkChoice:
    """A quirk of wealth from an answer: (its name, whether it is custom).

    002 > Assigning Commerce Points: "they must roll on the 'Quirks of Wealth' table ... (Player
    and Narrator can instead agree upon a backstory appropriate quirk if they desire)"; "Re-roll
    the second result if ... you roll the same result twice". A blank answer or ``roll`` rolls
    (core only: 000's quirks are chosen); an unknown name not marked custom is refused.
    """
    name = answer.strip()
    table = quirk_table().of(edition)
    if edition == "core" and not custom and name.lower() in ("", ROLL):
        (rolled,) = roll_quirks(1, source, already=held)
        return rolled, False
    found = table.find(name) if name else None
    if found is not None:
        if found.name in held:
            raise RulesError(COMMERCE, f"{found.name} is held already", fix="take another")
        return found.name, False
    if custom and name and edition == "core":
        return name, True
    rule = COMMERCE if edition == "core" else "000 > Character Creation > Equipment"
    fix = "choose a name from the Quirks of Wealth table"
    fix += (
        ", roll the d20, or mark it custom (agreed with the narrator)" if edition == "core" else ""
    )
    raise RulesError(rule, f"{name!r} is not a quirk of wealth", fix=fix)


def commerce_needs(assigned: int, adjustment: int) -> tuple[int, int]:
    """How many quirks of wealth and commerce bonus skill points the level and step bring.

    002 > Assigning Commerce Points: "a commerce level of Two ... +1 skill point"; "Four, they
    must roll on the 'Quirks of Wealth' table"; "If they decrease it, they gain +1 skill points";
    "If they increase it, they must roll".
    """
    if assigned not in (2, 3, 4):
        raise RulesError(COMMERCE, f"assigned commerce level {assigned}",
                         fix="the narrator assigns a commerce level of 2, 3 or 4")  # fmt: skip
    if adjustment not in (-1, 0, 1):
        raise RulesError(COMMERCE, f"a step of {adjustment}",
                         fix="the player may step the level once: -1, 0 or +1")  # fmt: skip
    return (assigned == 4) + (adjustment == 1), (assigned == 2) + (adjustment == -1)


def _bonus_point(data: dict[str, Any], name: str) -> None:
    """Put a commerce bonus point in ``name``, a skill that holds none: "may only spend it in a
    skill they have not already assigned any points into"."""
    sheet = character_from_data(partial_sheet(data), source="sheet")
    points = skill_points_of(sheet, name)
    if points is None:
        raise RulesError(
            COMMERCE,
            f"{name!r} is not a skill of this sheet",
            fix="name a core skill, or a vocation or vocational skill on the sheet",
        )
    if points != 0:
        raise RulesError(COMMERCE, f"{name} already holds {points} point(s)",
                         fix="the bonus point goes in a skill with no points yet")  # fmt: skip
    canonical = skill_table(sheet.edition).canonical(name)
    if canonical is not None:
        data["skills"] = {**data.get("skills", {}), canonical: 1}
        return
    wanted = name.strip().lower()
    vocations = [dict(v) for v in data.get("vocations", ())]
    for vocation in vocations:
        if str(vocation["name"]).lower() == wanted:
            vocation["points"] = 1
        for kind in ("vocational_skills", "combat_skills"):
            nested = [dict(s) for s in vocation.get(kind, ())]
            for skill in nested:
                if str(skill["name"]).lower() == wanted:
                    skill["points"] = 1
            vocation[kind] = nested
    data["vocations"] = vocations


def with_commerce(
    data: dict[str, Any],
    *,
    assigned: int,
    adjustment: int = 0,
    quirks: tuple[QuirkChoice, ...] = (),
    bonus_skills: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The core sheet ``data`` with its commerce assigned and each bonus point placed.

    The counts must match :func:`commerce_needs` (the check of the commerce step says so).
    """
    commerce_needs(assigned, adjustment)
    updated = {**data}
    for name in bonus_skills:
        _bonus_point(updated, name)
    updated["commerce"] = {
        "assigned": assigned,
        "adjustment": adjustment,
        "quirks": [name for name, custom in quirks if not custom],
        "custom_quirks": [name for name, custom in quirks if custom],
        "bonus_skills": list(bonus_skills),
    }
    return updated


def with_starting_destiny(data: dict[str, Any]) -> dict[str, Any]:
    """The sheet ``data`` holding its starting destiny.

    002 > Awarding Destiny Points: "every character starts with 3 Destiny Points at character
    creation"; Glory Days starts at its maximum of 1 (002 > Veteran Tier). 000 > Finishing
    Touches: the tier's "Starting Destiny" of its "Max Destiny".
    """
    sheet = character_from_data(partial_sheet(data), source="sheet")
    if isinstance(sheet, CoreCharacter):
        maximum = core_destiny_maximum(sheet)
        destiny = {"points": maximum, "maximum": maximum}
    else:
        tier = tier_resources().of(sheet.tier)
        destiny = {"points": tier.destiny_start, "maximum": tier.destiny_max}
    return {**data, "destiny": destiny}


def disabling_room(data: dict[str, Any]) -> int | None:
    """How many more disabling characteristics creation allows; None where there is no limit.

    002 > Campaign Progression: "Disabling Characteristics: This number indicates the maximum
    number of Disabling Characteristics you may take at character creation. (Unrestricted in
    Fast Play games.)" The tiered edition sets none.
    """
    if data.get("edition", "core") != "core":
        return None
    limit = campaign_tiers().modes[data.get("mode", "fast_play")].max_disabling
    taken = len(data.get("disabling_characteristics", ()))
    return None if limit is None else max(0, limit - taken)
