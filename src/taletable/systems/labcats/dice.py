"""Dice of the Cortex-style pool system (004 > Rolling the Dice): d4 to d12, stepped, scored.

Traits are rated as dice from d4 to d12; stepping a die up or down moves it one size.
:func:`total_of` is the whole scoring rule as one pure function of the faces, so the roll
(:mod:`taletable.systems.labcats.rolls`) and the exact odds share a single definition.
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable._model import Record
from taletable.errors import InputError

__all__ = [
    "DIE_SIZES",
    "KEPT_FOR_FREE",
    "MAX_ADD",
    "MAX_POOL_DICE",
    "Score",
    "check_roll",
    "parse_die",
    "parse_pool",
    "step_down",
    "step_up",
    "total_of",
]

#: The die sizes a trait can have, smallest first.
DIE_SIZES = (4, 6, 8, 10, 12)
#: The most dice one pool (main pool, side pool or Trouble Pool) may hold (DESIGN > Principles 8).
MAX_POOL_DICE = 40
#: Main dice that count toward the total without paying (004 > Rolling the Dice 3).
KEPT_FOR_FREE = 2
#: The most extra dice Plot Points may add: only dice that exist can be bought (004 > Rolling
#: the Dice 4), and a pool holds at most :data:`MAX_POOL_DICE`, two of them kept for free.
MAX_ADD = MAX_POOL_DICE - KEPT_FOR_FREE
_SIZES_TEXT = "d4, d6, d8, d10 or d12"


def parse_die(text: str | int, *, field: str = "pool") -> int:
    """Read ``"d8"`` (or ``8``) as a die size, refusing sizes the system does not use."""
    raw = str(text).strip().lower()
    number = raw[1:] if raw.startswith("d") else raw
    if not number.isdigit() or int(number) not in DIE_SIZES:
        raise InputError(
            field, f"{text!r} is not a die of the system", expected=_SIZES_TEXT, given=text
        )
    return int(number)


def parse_pool(
    text: str | Sequence[str | int], *, field: str = "pool", allow_empty: bool = False
) -> tuple[int, ...]:
    """Read ``"d8,d6,d6"`` (or a list) as die sizes; at most :data:`MAX_POOL_DICE` dice.

    Commas or spaces separate the dice. An empty pool is an :class:`InputError` naming
    ``field`` unless ``allow_empty`` (a side pool may be empty).
    """
    parts = (
        [part for part in text.replace(" ", ",").split(",") if part]
        if isinstance(text, str)
        else list(text)
    )
    if not parts and not allow_empty:
        raise InputError(field, "no dice given", expected="a list like d8,d6,d6", given=text)
    if len(parts) > MAX_POOL_DICE:
        raise InputError(
            field,
            f"{len(parts)} dice is over the limit",
            expected=f"at most {MAX_POOL_DICE} dice",
            given=len(parts),
        )
    return tuple(parse_die(part, field=field) for part in parts)


def check_roll(
    pool: Sequence[int],
    resources: Sequence[int] = (),
    add: int = 0,
    *,
    fields: tuple[str, str, str] = ("pool", "resources", "add"),
) -> None:
    """The one definition of what a roll may ask (004 > Rolling the Dice): at least one main
    die, at most :data:`MAX_POOL_DICE` in each pool, dice of the system, no negative Plot Point
    purchases. The roll (``rolls.roll_pool``) and the odds (``odds.total_distribution``) both
    check with it, so they refuse exactly the same rolls; at most :data:`MAX_ADD` extra dice,
    refused before any work. ``fields`` name pool, resources, add.
    """
    pool_field, resources_field, add_field = fields
    if not pool:
        raise InputError(pool_field, "the main pool is empty", expected="at least one die")
    for field, dice in ((pool_field, pool), (resources_field, resources)):
        if len(dice) > MAX_POOL_DICE:
            raise InputError(
                field, f"{len(dice)} dice is over the limit", expected=f"at most {MAX_POOL_DICE}"
            )
        for sides in dice:
            if sides not in DIE_SIZES:
                raise InputError(field, f"a d{sides} is not a die of the system",
                                 expected=_SIZES_TEXT, given=sides)  # fmt: skip
    if add < 0:
        raise InputError(add_field, f"{add} extra dice", expected="0 or more", given=add)
    if add > MAX_ADD:
        raise InputError(
            add_field,
            f"{add} extra dice is over the limit: only dice in the pool can be added",
            expected=f"0 to {MAX_ADD}",
            given=add,
        )


def step_up(size: int) -> int:
    """One size bigger; a d12 stays a d12 (004: dice run d4 to d12)."""
    index = DIE_SIZES.index(parse_die(size, field="die"))
    return DIE_SIZES[min(index + 1, len(DIE_SIZES) - 1)]


def step_down(size: int) -> int | None:
    """One size smaller; stepping a d4 down removes the trait (None)."""
    index = DIE_SIZES.index(parse_die(size, field="die"))
    return DIE_SIZES[index - 1] if index else None


class Score(Record):
    """How a set of faces scores: complications, the dice kept, the resource die, the total."""

    complications: tuple[int, ...]
    kept: tuple[int, ...]
    resource: int | None
    added: int
    total: int
    failed: bool


def total_of(
    main_faces: Sequence[int],
    main_sides: Sequence[int],
    resource_faces: Sequence[int] = (),
    add: int = 0,
) -> Score:
    """Score faces by 004 > Rolling the Dice (pure: no dice are thrown here).

    * main dice showing 1 are set aside as complications (``complications`` holds their sides);
      if every main die shows 1 the roll fails with total 0 (resource dice do not save it);
    * the total is the two highest main faces that are not 1, plus the highest resource face
      (resource 1s are not complications and count as 1);
    * ``add`` is the most extra main dice bought with Plot Points (one each), taken highest
      first from the dice left; only dice that exist can be bought, so ``added`` (the Plot
      Points actually spent) is ``add`` or fewer. A pool with one usable die totals that die.
    """
    if len(main_faces) != len(main_sides):
        raise InputError(
            "faces",
            f"{len(main_faces)} faces for {len(main_sides)} main dice",
            expected="one face per main die",
        )
    if add < 0:
        raise InputError("add", f"{add} extra dice", expected="0 or more", given=add)
    for sides, face in zip(main_sides, main_faces, strict=True):
        if not 1 <= face <= sides:
            raise InputError("faces", f"a d{sides} cannot show {face}", expected=f"1 to {sides}")
    complications = tuple(s for s, f in zip(main_sides, main_faces, strict=True) if f == 1)
    usable = sorted((face for face in main_faces if face != 1), reverse=True)
    resource = max(resource_faces) if resource_faces else None
    if not usable:
        return Score(
            complications=complications, kept=(), resource=resource, added=0, total=0, failed=True
        )
    added = min(add, max(0, len(usable) - KEPT_FOR_FREE))
    kept = tuple(usable[: KEPT_FOR_FREE + added])
    return Score(
        complications=complications,
        kept=kept,
        resource=resource,
        added=added,
        total=sum(kept) + (resource or 0),
        failed=False,
    )
