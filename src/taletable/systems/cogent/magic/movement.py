"""Aeromancy's flight CLs and gusts of wind; the CL tables of levitation and teleportation.

002 > Supplementary Content > Example Magic Systems > Aeromancy, Levitation, Teleportation.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.conflicts import ConflictResult, roll_conflict
from taletable.systems.cogent.magic.system import MAGIC, magic_system
from taletable.systems.cogent.pools import DicePool

__all__ = [
    "GustResult",
    "HoldResult",
    "MovementLevel",
    "flight_challenge_level",
    "gust_of_wind",
    "hold_still",
    "movement_challenge_level",
]

MAX_SPEED_KMH = 100_000


class MovementLevel(Record):
    """The CL a movement spell needs, and why."""

    spell: str
    challenge_level: int
    needs_check: bool
    reason: str


def flight_challenge_level(speed_kmh: int) -> MovementLevel:
    """The CL to fly at ``speed_kmh`` with Aeromancy (002 > Example Magic Systems > Aeromancy)."""
    if not 1 <= speed_kmh <= MAX_SPEED_KMH:
        raise InputError("speed", f"{speed_kmh}", expected="sprint or a speed in km/h")
    rows = magic_system().flight.rows
    for row in rows:
        if speed_kmh <= row.up_to_kmh:
            return MovementLevel(
                spell="Aeromancy",
                challenge_level=row.challenge_level,
                needs_check=True,
                reason=f"{row.effect}: CL {row.challenge_level} ({MAGIC} > Aeromancy)",
            )
    raise RulesError(
        f"{MAGIC} > Aeromancy",
        f"the flight table stops at {rows[-1].up_to_kmh} km/h, not {speed_kmh}",
        fix="the narrator sets a CL past the table",
    )


def movement_challenge_level(
    spell: str, distance_m: float, size: str, *, unseen: bool = False
) -> MovementLevel:
    """The CL to levitate or teleport ``size`` over ``distance_m`` metres.

    002 > Example Magic Systems > Levitation, Self teleportation, Other teleportation. The
    distance falls into a band (within 10 m, 10-20, 20-50, 50-100; for other teleportation the
    farthest distance counts); teleportation CLs double to an unseen place.
    """
    system = magic_system()
    table = system.movement_table(spell)
    if table is None:
        raise InputError(
            "spell", f"{spell!r} has no CL table",
            expected="Levitation, Self teleportation or Other teleportation",
        )  # fmt: skip
    wanted = size.strip().lower()
    if wanted not in system.sizes:
        raise InputError("size", f"{size!r}", expected=", ".join(system.sizes))
    size = wanted
    if not distance_m >= 0:
        raise InputError("distance", f"{distance_m}", expected="metres, 0 or more")
    band = next((band for band in system.distance_bands if distance_m <= band), None)
    where = f"{MAGIC} > {table.spell}"
    if band is None:
        raise RulesError(where, f"the table stops at {system.distance_bands[-1]} m, not "
                         f"{distance_m:g} m",
                         fix="the narrator sets a CL past the table")  # fmt: skip
    for row in table.rows:
        if (band, size) in row.cases:
            level = row.challenge_level
            reason = f"{size} size within the {band} m band: CL {level} ({where})"
            if unseen:
                if not table.doubled_unseen:
                    raise RulesError(where, "only teleportation doubles CLs to unseen places")
                level *= 2
                reason += f"; doubled to an unseen place: CL {level}"
            return MovementLevel(
                spell=table.spell, challenge_level=level, needs_check=level > 0, reason=reason
            )
    raise RulesError(
        where,
        f"the table has no CL for {size} size at {distance_m:g} m",
        fix="the narrator sets a CL past the table",
    )


class GustResult(Record):
    """A gust of wind against a defender: the conflict, and whether the target is knocked down."""

    conflict: ConflictResult
    knocked_down: bool
    rules_applied: tuple[Note, ...]


def gust_of_wind(caster_pool: DicePool, defence_pool: DicePool, source: DiceSource) -> GustResult:
    """Knock a target off their feet (002 > Example Magic Systems > Aeromancy).

    A conflict of the caster's Aeromancy pool against the target's defence roll, in which weapon
    bonuses cannot be used: ``defence_pool`` must be given without them. The caster must win.
    """
    conflict = roll_conflict(caster_pool, defence_pool, source)
    return GustResult(
        conflict=conflict,
        knocked_down=conflict.winner == "a",
        rules_applied=(
            note("cogent.spell.gust", f"{MAGIC} > Aeromancy"),
            *conflict.rules_applied,
        ),
    )


class HoldResult(Record):
    """Levitation holding a resisting person still: the conflict, and whether they are held."""

    conflict: ConflictResult
    held: bool
    rules_applied: tuple[Note, ...]


def hold_still(caster_pool: DicePool, resist_pool: DicePool, source: DiceSource) -> HoldResult:
    """Hold a resisting person still with Levitation (002 > Example Magic Systems > Levitation).

    "Hold another person still who is actively trying to resist. In that case, it is a Conflict
    CL": a conflict of the caster's Levitation pool against the pool the narrator gives the
    resisting person (RULINGS.md "levitation against a resisting person"); held if the caster wins.
    """
    conflict = roll_conflict(caster_pool, resist_pool, source)
    return HoldResult(
        conflict=conflict,
        held=conflict.winner == "a",
        rules_applied=(
            note("cogent.spell.hold_still", f"{MAGIC} > Levitation"),
            *conflict.rules_applied,
        ),
    )
