"""Quirks of wealth whose condition comes about in play, and what it costs (recorded).

core (002 > Character Creation > Quirks of Wealth Table): Debt, "Should you lose your income for
a month, you immediately lose 2 Commerce Level"; Superiors Favour, "If they withdraw that
support, your business will collapse" (the narrator says how far, as for every quirk marked "*
Narrator Defines Specifics"). tiered (000 > Equipment): "All Quirks come with restrictions that
must be applied (or the Character will lose that Quirk and the associated +1 CP)".
The quirks that act on purchases (Tight Purse, Closed Trade, Family Ties, Scrooge, Loan Shark,
Hidden Price) are in ``commerce.purchase``.
"""

from __future__ import annotations

from taletable._model import find_named
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.commerce import commerce_points
from taletable.systems.cogent.character.sheet import Award, CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.tables import quirk_table

__all__ = ["quirk_consequence"]

QUIRKS = "002 > Character Creation > Commerce Points > Quirks of Wealth Table"
TIERED_QUIRKS = "000 > Character Creation > Equipment > Quirks of Wealth"


def _held(sheet: CoreCharacter | TieredCharacter, quirk: str) -> str:
    wanted = quirk.strip().lower()
    held = next((q for q in sheet.commerce.quirks if q.strip().lower() == wanted), None)
    if held is None:
        raise InputError(
            "quirk", f"{quirk!r} is not a quirk of this sheet",
            expected=", ".join(sheet.commerce.quirks) or "none held",
        )  # fmt: skip
    return held


def _core_levels(name: str, levels: int | None) -> tuple[int, str]:
    """The commerce levels a core quirk's condition takes, and what happened."""
    entry = find_named(quirk_table().core.entries, name)
    assert entry is not None  # a held quirk is on the table (validated)
    where = f"{QUIRKS} ({entry.name})"
    if entry.consequence is not None and entry.consequence.levels is not None:
        if levels not in (None, entry.consequence.levels):
            raise RulesError(
                where, entry.restriction, fix=f"{entry.name} loses {entry.consequence.levels}"
            )
        return entry.consequence.levels, entry.consequence.event
    if entry.consequence is None and not entry.narrator_defines:
        raise RulesError(
            where,
            f"{entry.name} costs no commerce: it is played ({entry.restriction})",
            fix="apply a quirk with a consequence (Debt, Superiors Favour) or one whose "
            "specifics the narrator defines (*), with {levels}",
        )
    if levels is None:
        raise InputError(
            "levels", f"{entry.name}: the narrator defines how far it falls",
            expected="the commerce levels lost, 1 to 8",
        )  # fmt: skip
    event = entry.consequence.event if entry.consequence else "the narrator's consequence"
    return levels, event


def quirk_consequence(
    sheet: CoreCharacter | TieredCharacter, quirk: str, reason: str, *, levels: int | None = None
) -> CoreCharacter | TieredCharacter:
    """A quirk's condition came about: its commerce is lost, recorded in the history.

    core: Debt loses 2 levels; Superiors Favour, and the quirks the narrator defines (*), lose
    the ``levels`` the narrator gives; the other quirks are played and cost nothing (refused).
    tiered: the restriction was not applied, so the quirk and its +1 CP are lost (000 >
    Equipment). Points never fall below 0 (RULINGS.md "quirks of wealth").
    """
    if not reason.strip():
        raise InputError("reason", "empty", expected="what happened in the story")
    if levels is not None and not 1 <= levels <= 8:
        raise InputError("levels", f"{levels}", expected="1 to 8 commerce levels")
    name = _held(sheet, quirk)
    before = commerce_points(sheet)
    if isinstance(sheet, TieredCharacter):
        if levels is not None:
            raise InputError("levels", "a tiered quirk lost costs its +1 CP", expected="none")
        after = max(0, before - 1)
        kept = tuple(q for q in sheet.commerce.quirks if q != name)
        detail = f"{name} lost ({reason.strip()}): the quirk and its +1 CP, {before} -> {after}"
        history = (*sheet.history, Award(event="quirk", detail=detail))
        tiered = sheet.commerce.model_copy(update={"quirks": kept, "points": after})
        return sheet.model_copy(update={"commerce": tiered, "history": history})
    lost, event = _core_levels(name, levels)
    after = max(0, before - lost)
    detail = f"{name}: {event} ({reason.strip()}): -{lost} commerce, {before} -> {after}"
    history = (*sheet.history, Award(event="quirk", detail=detail))
    core = sheet.commerce.model_copy(update={"points": after})
    return sheet.model_copy(update={"commerce": core, "history": history})
