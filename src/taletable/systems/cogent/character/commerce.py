"""Commerce: buying with commerce points, and the d20 tables of character creation.

002 > Character Creation > Commerce Points: an item of the buyer's level costs 2 points, one
level below costs 1, two or more below costs nothing unless bought in quantity or regularly
(RULINGS.md: then 1); nothing above the buyer's level can be bought. Quirks that forbid a
purchase (Tight Purse: only items two or more below the level) are enforced. 002 > Narrator
Tips > Commerce: a persuasion or deception check may drop an item's value by a level, and the
narrator may let destiny points lower it (one level per point here, RULINGS.md). Closed
Trade/Unique Market counts the level two lower away from home.
The quirks and disabling characteristics tables are rolled on a d20, duplicates rerolled.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.sheet import Award, CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.tables import (
    Quirk,
    commerce_scale,
    disabling_table,
    quirk_table,
    tier_resources,
)

__all__ = [
    "Purchase",
    "commerce_points",
    "purchase",
    "purchase_cost",
    "roll_disabling",
    "roll_quirks",
    "tiered_commerce_points",
]

COMMERCE = "002 > Character Creation > Commerce Points"
MAX_REROLLS = 200


def _check_value(value: int) -> None:
    """Item values run 0 to the scale's top, 8 (RULINGS.md: the book's row 9 is a misprint)."""
    top = max(level.value for level in commerce_scale().levels)
    if not 0 <= value <= top:
        raise InputError("value", f"item value {value}", expected=f"0 to {top}")


class Purchase(Record):
    """A purchase: the item, its value after discounts, its cost, the points left, and why."""

    item: str
    value: int
    effective_value: int
    cost: int
    points_before: int
    points_after: int
    destiny_spent: int
    #: Who it was bought for, when not the buyer (002 > Quirks of Wealth: Scrooge, Loan Shark...).
    bought_for: str | None = None
    notes: tuple[str, ...] = ()


def purchase_cost(value: int, level: int, *, quantity: bool = False) -> int:
    """Commerce points an item of ``value`` costs a buyer at ``level`` (002 > Commerce Points)."""
    _check_value(value)
    if value > level:
        raise RulesError(
            COMMERCE,
            f"an item of value {value} is above commerce level {level}",
            fix="buy items of your level or below (a haggle or the narrator's destiny "
            "discount may lower the value)",
        )
    if value == level:
        return 2
    if value == level - 1:
        return 1
    return 1 if quantity else 0


def tiered_commerce_points(sheet: TieredCharacter) -> int:
    """Commerce points: the tier's plus one per quirk of wealth (000 > Equipment)."""
    base = tier_resources().of(sheet.tier).commerce_points + len(sheet.commerce.quirks)
    return base if sheet.commerce.points is None else sheet.commerce.points


def commerce_points(sheet: CoreCharacter | TieredCharacter) -> int:
    """Commerce points held now (002 > Commerce Points; 000 > Equipment)."""
    if isinstance(sheet, CoreCharacter):
        return sheet.commerce.current
    return tiered_commerce_points(sheet)


def _discounts(value: int, haggled: bool, destiny: int) -> tuple[int, list[str]]:
    """The value after a haggle and the narrator's destiny discount (002 > Narrator Tips)."""
    notes: list[str] = []
    if haggled:
        notes.append("haggled: the value drops a level")
    if destiny:
        notes.append(f"{destiny} destiny point(s): the value drops {destiny} level(s)")
    return max(0, value - int(haggled) - destiny), notes


def _quirks_of(sheet: CoreCharacter | TieredCharacter) -> list[Quirk]:
    table = quirk_table().of(sheet.edition)
    return [entry for entry in map(table.find, sheet.commerce.quirks) if entry is not None]


def _buyer_level(points: int, quirks: list[Quirk], away: bool, notes: list[str]) -> int:
    """The level a purchase is judged at: Closed Trade counts it two lower away from home."""
    level = points
    for entry in quirks:
        if away and entry.away_level_drop:
            level = points - entry.away_level_drop
            notes.append(f"{entry.name}: level {points} counts as {level} away from home")
    if level < 0:
        raise RulesError(
            COMMERCE, f"commerce level {level} away from home", fix="nothing can be bought here"
        )
    return level


def _value_limits(quirks: list[Quirk], effective: int, level: int) -> None:
    """Tight Purse: "only purchase things with an item value of two or less than your commerce
    level" (002 > Quirks of Wealth Table)."""
    for entry in quirks:
        limit = entry.max_item_value_below_level
        if limit is not None and effective > level - limit:
            raise RulesError(
                f"{COMMERCE} > Quirks of Wealth ({entry.name})",
                entry.restriction,
                fix=f"buy items of value {level - limit} or less",
            )


def _spending_quirks(
    quirks: list[Quirk], cost: int, for_other: str | None, approved: bool
) -> list[str]:
    """002 > Quirks of Wealth Table: Family Ties' approval of spending, and what buying for
    another means to Scrooge, Loan Shark and Hidden Price (RULINGS.md "quirks of wealth")."""
    notes: list[str] = []
    for entry in quirks:
        where = f"{COMMERCE} > Quirks of Wealth ({entry.name})"
        if entry.approval_to_spend and cost > 0 and not approved:
            raise RulesError(
                where,
                entry.restriction,
                fix="have whoever controls the money approve it ({approved}), or buy what "
                "costs no points",
            )
        if for_other is None or entry.for_others is None:
            continue
        if entry.for_others == "forbidden":
            raise RulesError(where, entry.restriction, fix="buy only for yourself")
        if entry.for_others == "loan":
            notes.append(f"{entry.name}: {for_other} owes it back with interest")
        else:
            notes.append(
                f"{entry.name}: {for_other} owes a favour of significance; if refused, the "
                "item is demanded back"
            )
    return notes


def purchase(
    sheet: CoreCharacter | TieredCharacter,
    item: str,
    value: int,
    *,
    quantity: bool = False,
    haggled: bool = False,
    destiny: int = 0,
    away: bool = False,
    for_other: str | None = None,
    approved: bool = False,
) -> tuple[CoreCharacter | TieredCharacter, Purchase]:
    """Buy ``item`` with the sheet's commerce points; the sheet records the purchase.

    002 > Commerce Points; 002 > Narrator Tips > Commerce. ``haggled``: a passed
    persuasion/deception check dropped the value a level; ``destiny``: destiny points the narrator
    lets lower the value, a level each; ``away``: bought outside the home area, where Closed
    Trade/Unique Market treats the level as two lower; ``for_other``: who it is bought for
    (Scrooge refuses, Loan Shark lends, Hidden Price expects a favour); ``approved``: Family
    Ties' controller approved the spending. A tiered sheet spends its commerce points by the
    same scale (RULINGS.md "tiered purchases").
    """
    if not item.strip():
        raise InputError("item", "empty", expected="the name of what is bought")
    if for_other is not None and not for_other.strip():
        raise InputError("for", "empty", expected="who the item is bought for")
    if destiny < 0:
        raise InputError("destiny", f"{destiny}", expected="0 or more destiny points")
    if destiny > sheet.destiny.points:
        raise RulesError(
            COMMERCE,
            f"{destiny} destiny points asked, {sheet.destiny.points} held",
            fix="spend destiny you hold",
        )
    _check_value(value)
    points = commerce_points(sheet)
    effective, notes = _discounts(value, haggled, destiny)
    quirks = _quirks_of(sheet)
    level = _buyer_level(points, quirks, away, notes)
    _value_limits(quirks, effective, level)
    cost = purchase_cost(effective, level, quantity=quantity)
    owed = _spending_quirks(quirks, cost, for_other, approved)
    notes += owed
    record = Purchase(
        item=item,
        value=value,
        effective_value=effective,
        cost=cost,
        points_before=points,
        points_after=points - cost,
        destiny_spent=destiny,
        bought_for=for_other,
        notes=tuple(notes),
    )
    detail = f"{item} (value {value}) for {cost}"
    if for_other is not None:
        detail += f", bought for {for_other}" + "".join(f"; {note}" for note in owed)
    commerce = sheet.commerce.model_copy(update={"points": points - cost})
    spent = sheet.destiny.model_copy(update={"points": sheet.destiny.points - destiny})
    history = (*sheet.history, Award(event="purchase", detail=detail))
    items = (*sheet.equipment.items, item)
    equipment = sheet.equipment.model_copy(update={"items": items})
    updated = sheet.model_copy(
        update={"commerce": commerce, "destiny": spent, "history": history, "equipment": equipment}
    )
    return updated, record


def _roll_distinct(count: int, source: DiceSource, taken: set[int]) -> list[int]:
    faces: list[int] = []
    rolls = 0
    while len(faces) < count:
        rolls += 1
        if rolls > MAX_REROLLS:
            raise InputError("dice", "too many duplicate rolls", expected="fewer entries")
        (face,) = source.roll(20, 1)
        if face not in taken:
            taken.add(face)
            faces.append(face)
    return faces


def roll_quirks(count: int, source: DiceSource, *, already: tuple[str, ...] = ()) -> list[str]:
    """Roll ``count`` quirks of wealth on the d20 table, rerolling duplicates (002 > Quirks)."""
    if not 0 <= count <= 20 - len(already):
        raise InputError("count", f"{count}", expected="a number of quirks left on the table")
    table = quirk_table().core
    taken = {entry.roll for entry in table.entries if entry.name in already and entry.roll}
    faces = _roll_distinct(count, source, taken)
    return [next(entry.name for entry in table.entries if entry.roll == face) for face in faces]


def roll_disabling(source: DiceSource) -> str:
    """Roll a disabling characteristic on the d20 table (+2 skill points; it must be kept)."""
    (face,) = source.roll(20, 1)
    return disabling_table().rolled(face).name
