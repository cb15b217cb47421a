"""The CL tables of aeromancy flight, levitation and teleportation.

002 > Supplementary Content > Example Magic Systems > Aeromancy, Levitation, Teleportation.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.magic.system import MAGIC, magic_system

__all__ = ["MovementLevel", "flight_challenge_level", "movement_challenge_level"]

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
        raise InputError("--speed", f"{speed_kmh}", expected="sprint or a speed in km/h")
    for row in magic_system().flight.rows:
        if speed_kmh <= row.up_to_kmh:
            return MovementLevel(
                spell="Aeromancy",
                challenge_level=row.challenge_level,
                needs_check=True,
                reason=f"{row.effect}: CL {row.challenge_level} ({MAGIC} > Aeromancy)",
            )
    raise RulesError(
        f"{MAGIC} > Aeromancy",
        f"the flight table stops at 500 km/h, not {speed_kmh}",
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
            "SPELL", f"{spell!r} has no CL table",
            expected="Levitation, Self teleportation or Other teleportation",
        )  # fmt: skip
    if size not in system.sizes:
        raise InputError("--size", f"{size!r}", expected=", ".join(system.sizes))
    if not distance_m >= 0:
        raise InputError("--distance", f"{distance_m}", expected="metres, 0 or more")
    band = next((band for band in system.distance_bands if distance_m <= band), None)
    where = f"{MAGIC} > {table.spell}"
    if band is None:
        raise RulesError(where, f"the table stops at 100 m, not {distance_m:g} m",
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
