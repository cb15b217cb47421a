"""Rolling the dice (004 > Rolling the Dice).

The main pool is rolled; dice showing 1 are set aside as complications (if every die shows 1,
the roll fails). The side pool of Resources is rolled separately and its 1s are not
complications. The total is the two highest main dice plus the highest resource die; Plot Points
add more main dice to the total, one each. The scoring itself is
:func:`~taletable.systems.labcats.dice.total_of`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import computed_field

from taletable._model import ComputedRecord
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.labcats.dice import check_roll, total_of

__all__ = ["LabcatsRoll", "roll_pool", "score"]

SOURCE = "004 > Rolling the Dice"


class LabcatsRoll(ComputedRecord):
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
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The result in one line, as a note: the total, or a roll failed on 1s (004 > Rolling
        the Dice)."""
        if self.failed:
            return note("labcats.outcome.failed", f"{SOURCE} 1")
        return note("labcats.outcome.total", SOURCE, total=self.total)


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
    if len(resources) != len(resource_faces):
        raise InputError(
            "resource_faces",
            f"{len(resource_faces)} faces for {len(resources)} resource dice",
            expected="one face per resource die",
        )
    for sides, face in zip(resources, resource_faces, strict=True):
        if not 1 <= face <= sides:
            raise InputError(
                "resource_faces", f"a d{sides} cannot show {face}", expected=f"1 to {sides}"
            )
    scored = total_of(faces, pool, resource_faces, add)
    applied = [note("labcats.roll.total", SOURCE)]
    if scored.failed:
        applied.append(note("labcats.roll.all_ones", f"{SOURCE} 1"))
    if resource_faces and 1 in resource_faces:
        applied.append(note("labcats.roll.resource_one", f"{SOURCE} 2"))
    if add:
        kind = {
            (True, False): "labcats.roll.added_one",
            (False, False): "labcats.roll.added",
            (True, True): "labcats.roll.added_one_capped",
            (False, True): "labcats.roll.added_capped",
        }[scored.added == 1, scored.added < add]
        applied.append(note(kind, f"{SOURCE} 4", added=scored.added, asked=add))
    return LabcatsRoll(
        pool=tuple(pool), faces=tuple(faces), resources=tuple(resources),
        resource_faces=tuple(resource_faces), complications=scored.complications,
        kept=scored.kept, resource=scored.resource, added=scored.added,
        plot_points=scored.added, total=scored.total, failed=scored.failed,
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
    check_roll(pool, resources, add)
    faces = tuple(source.roll(sides, 1)[0] for sides in pool)
    side = resource_source or source
    resource_faces = tuple(side.roll(sides, 1)[0] for sides in resources)
    return score(pool, faces, resources, resource_faces, add=add, dice_source=source.kind)
