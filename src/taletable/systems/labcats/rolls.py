"""Rolling the dice (004 > Rolling the Dice).

The main pool is rolled; dice showing 1 are set aside as complications (if every die shows 1,
the roll fails). The side pool of Resources is rolled separately and its 1s are not
complications. The total is the two highest main dice plus the highest resource die; Plot Points
add more main dice to the total, one each.
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.systems.labcats.dice import MAX_POOL_DICE

__all__ = ["KEPT_FOR_FREE", "LabcatsRoll", "roll_pool", "score"]

SOURCE = "004 > Rolling the Dice"
#: Two main dice count toward the total for free.
KEPT_FOR_FREE = 2


class LabcatsRoll(Record):
    """A roll, explained: every die, the complications, the dice kept, the total."""

    pool: tuple[int, ...]
    faces: tuple[int, ...]
    resources: tuple[int, ...]
    resource_faces: tuple[int, ...]
    complications: tuple[int, ...]
    kept: tuple[int, ...]
    resource: int | None
    added: int
    plot_points: int
    total: int
    failed: bool
    dice_source: str
    rules_applied: tuple[str, ...]


def score(
    pool: Sequence[int],
    faces: Sequence[int],
    resources: Sequence[int] = (),
    resource_faces: Sequence[int] = (),
    *,
    add: int = 0,
    dice_source: str = "given",
) -> LabcatsRoll:
    """Score rolled faces by 004 > Rolling the Dice (pure: no dice are thrown here)."""
    if len(pool) != len(faces) or len(resources) != len(resource_faces):
        raise InputError("faces", "one face per die is needed", expected="as many faces as dice")
    for sides, face in zip((*pool, *resources), (*faces, *resource_faces), strict=True):
        if not 1 <= face <= sides:
            raise InputError("faces", f"a d{sides} cannot show {face}", expected=f"1 to {sides}")
    if add < 0:
        raise InputError("--add", f"{add}", expected="0 or more extra dice")
    complications = tuple(sides for sides, face in zip(pool, faces, strict=True) if face == 1)
    usable = sorted((face for face in faces if face != 1), reverse=True)
    failed = not usable
    applied = [f"1s are complications; two highest main dice + highest resource die ({SOURCE})"]
    if add > max(0, len(usable) - KEPT_FOR_FREE):
        raise InputError(
            "--add",
            f"only {max(0, len(usable) - KEPT_FOR_FREE)} more main dice can be added",
            expected="no more than the dice left beyond the two highest (1s excluded)",
        )
    kept = () if failed else tuple(usable[: KEPT_FOR_FREE + add])
    resource = max(resource_faces) if resource_faces else None
    if failed:
        applied.append("every main die shows 1: the roll fails")
    if add:
        applied.append(f"{add} Plot Point(s) add {add} more main dice to the total")
    total = 0 if failed else sum(kept) + (resource or 0)
    return LabcatsRoll(
        pool=tuple(pool), faces=tuple(faces), resources=tuple(resources),
        resource_faces=tuple(resource_faces), complications=complications, kept=kept,
        resource=resource, added=add, plot_points=add, total=total, failed=failed,
        dice_source=dice_source, rules_applied=tuple(applied),
    )  # fmt: skip


def roll_pool(
    pool: Sequence[int],
    source: DiceSource,
    resources: Sequence[int] = (),
    resource_source: DiceSource | None = None,
    *,
    add: int = 0,
) -> LabcatsRoll:
    """Roll the main pool and the side pool from dice sources and score them."""
    if not pool:
        raise InputError("--pool", "the main pool is empty", expected="at least one die")
    if len(pool) + len(resources) > 2 * MAX_POOL_DICE:
        raise InputError("--pool", "too many dice", expected=f"at most {MAX_POOL_DICE} each")
    faces = tuple(source.roll(sides, 1)[0] for sides in pool)
    side = resource_source or source
    resource_faces = tuple(side.roll(sides, 1)[0] for sides in resources)
    return score(pool, faces, resources, resource_faces, add=add, dice_source=source.kind)
