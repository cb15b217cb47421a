"""Scale: results between characters or items of different size (000 > Dice Pools > Scale).

The table gives a result adjustment by the target's scale. When both sides have a scale, both
are shifted so that the smaller is 0; the adjustment therefore depends only on the target's
scale relative to the roller's (RULINGS.md "scale"). With ``Rules.scale_clamp`` (000's rule) a
narrative success is never turned into a failure nor a failure into a success; without it (001)
the adjusted result stands.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.errors import InputError
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.tables import scale_table

__all__ = ["ScaleAdjustment", "adjust_for_scale", "normalise_scales", "scale_adjustment"]

SOURCE = "000 > Dice Pools > Scale"


class ScaleAdjustment(Record):
    """How scale changed a result: the scales, the adjustment and whether the clamp held it."""

    roller_scale: int
    target_scale: int
    adjustment: int
    margin_before: int
    margin: int
    clamped: bool
    method: str


def normalise_scales(first: int, second: int) -> tuple[int, int]:
    """Shift two scales so the smaller is 0 (000 > Scale): Ogre +1, Pixie -1 -> +2, 0."""
    smaller = min(first, second)
    return first - smaller, second - smaller


def scale_adjustment(roller_scale: int, target_scale: int, rules: Rules) -> int:
    """The adjustment to the roller's result against a target (000 > Dice Pools > Scale)."""
    roller, target = normalise_scales(roller_scale, target_scale)
    relative = target - roller
    table = scale_table()
    if abs(relative) > table.widest:  # the chart's range, whichever way it is read
        raise InputError(
            "scale",
            f"a scale difference of {relative:+d} is off the table",
            expected=f"scales at most {table.widest} apart",
        )
    if rules.scale_method == "difference":
        return -relative
    return table.adjustments[relative]


def adjust_for_scale(
    margin: int, roller_scale: int, target_scale: int, rules: Rules
) -> ScaleAdjustment:
    """Apply scale to a narrative result ``margin`` (>= 0 success, < 0 failure), with the clamp
    of 000 > Dice Pools > Scale ("Narrative Successes can not be turned into Narrative Failures")
    unless ``rules.scale_clamp`` is off (001 > Dice Pools > Scale, which has no clamp)."""
    adjustment = scale_adjustment(roller_scale, target_scale, rules)
    adjusted = margin + adjustment
    clamped = False
    if rules.scale_clamp:
        if margin >= 0 > adjusted:
            adjusted, clamped = 0, True
        elif margin < 0 <= adjusted:
            adjusted, clamped = -1, True
    return ScaleAdjustment(
        roller_scale=roller_scale,
        target_scale=target_scale,
        adjustment=adjustment,
        margin_before=margin,
        margin=adjusted,
        clamped=clamped,
        method=rules.scale_method,
    )
