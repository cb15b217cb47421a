"""Dice of the Cortex-style pool system (004 > Rolling the Dice): d4 to d12, stepped.

Traits are rated as dice from d4 to d12; stepping a die up or down moves it one size.
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable.errors import InputError

__all__ = ["DIE_SIZES", "MAX_POOL_DICE", "parse_die", "parse_pool", "step_down", "step_up"]

#: The die sizes a trait can have.
DIE_SIZES = (4, 6, 8, 10, 12)
#: The most dice one pool (main or side) may hold (DESIGN > Principles 8).
MAX_POOL_DICE = 40


def parse_die(text: str | int, *, field: str = "--pool") -> int:
    """Read ``"d8"`` (or ``8``) as a die size, refusing sizes the system does not use."""
    raw = str(text).strip().lower()
    number = raw[1:] if raw.startswith("d") else raw
    if not number.isdigit() or int(number) not in DIE_SIZES:
        raise InputError(
            field, f"{text!r} is not a die of the system", expected="d4, d6, d8, d10 or d12"
        )
    return int(number)


def parse_pool(
    text: str | Sequence[str | int], *, field: str = "--pool", allow_empty: bool = False
) -> tuple[int, ...]:
    """Read ``"d8,d6,d6"`` (or a list) as die sizes, within :data:`MAX_POOL_DICE`."""
    parts = (
        [part for part in text.replace(" ", ",").split(",") if part]
        if isinstance(text, str)
        else list(text)
    )
    if not parts and not allow_empty:
        raise InputError(field, "no dice given", expected="a list like d8,d6,d6")
    if len(parts) > MAX_POOL_DICE:
        raise InputError(field, f"{len(parts)} dice", expected=f"at most {MAX_POOL_DICE}")
    return tuple(parse_die(part, field=field) for part in parts)


def step_up(size: int) -> int:
    """One size bigger, at most d12."""
    index = DIE_SIZES.index(parse_die(size, field="die"))
    return DIE_SIZES[min(index + 1, len(DIE_SIZES) - 1)]


def step_down(size: int) -> int | None:
    """One size smaller; below d4 the trait is gone (None)."""
    index = DIE_SIZES.index(parse_die(size, field="die"))
    return DIE_SIZES[index - 1] if index else None
