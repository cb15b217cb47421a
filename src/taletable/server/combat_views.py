"""What each seat may see of a fight: the one place the server decides it (ARCHITECTURE.md,
"A fight's secret steps").

The stored encounter is the whole truth, and the narrator sees it. A step taken with
visibility ``narrator`` or ``blind`` is secret: a player or an observer sees the fight as it
stood after its last public step (the encounter that step's public event holds, which the log
already shows every seat), and of the secret steps since only how many there are. A public
step after secret ones shows the fight as it then stands: it reveals them; so only the
narrator's step reveals, and a player's step in a fight with secret steps pending is kept
narrator-only too (:func:`hides_a_secret`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, select

from taletable.errors import TaletableError
from taletable.log_entry import read_entry
from taletable.server.auth import Seat
from taletable.server.combat_seats import encounter_key
from taletable.server.schema import EVENTS
from taletable.store.sql import SqlStore

__all__ = ["FIGHT_READS", "FIGHT_STEPS", "SeenFight", "hides_a_secret", "seen_fight"]

#: The reads that show a fight (answered to a player or an observer as :func:`seen_fight` says).
FIGHT_READS = ("cogent.combat.status", "cogent.combat.replay")
#: The actions that make a fight's steps (each event's result is the encounter after it).
FIGHT_STEPS = (
    "cogent.combat.start",
    "cogent.combat.declare",
    "cogent.combat.resolve",
    "cogent.combat.choose",
    "cogent.combat.condition",
    "cogent.combat.destiny",
    "cogent.combat.take-back",
)
#: The narrator's taking back of a fight's last step (its event holds the fight as it leaves it).
TAKE_BACK = "cogent.combat.take-back"
#: A table's fight steps, newest first (through the ``events_by_kind`` index).
_STEPS_BACK = (
    select(EVENTS.c.kind, EVENTS.c.visibility, EVENTS.c.event)
    .where((EVENTS.c.table_id == bindparam("table_id")) & EVENTS.c.kind.in_(FIGHT_STEPS))
    .order_by(EVENTS.c.seq.desc())
)
#: Rows read at a time while looking back (a fight's last public step is near the end).
_BATCH = 16


@dataclass(frozen=True)
class SeenFight:
    """A fight as one seat may see it: the encounter's data (None: nothing of it is public)
    and how many secret steps were taken since."""

    encounter: Mapping[str, Any] | None
    secret_steps: int = 0


def _steps(data: Mapping[str, Any] | None) -> int:
    steps = data.get("steps") if isinstance(data, Mapping) else None
    return len(steps) if isinstance(steps, list | tuple) else 0


def seen_fight(
    connection: Connection, table_id: str, seat: Seat, key: str, whole: Mapping[str, Any]
) -> SeenFight:
    """The fight stored under ``key`` (``whole``: the encounter's data as stored) as ``seat``
    may see it."""
    if seat.narrator:
        return SeenFight(whole)
    public = _public(connection, table_id, key)
    return SeenFight(public, max(0, _steps(whole) - _steps(public)))


def _public(connection: Connection, table_id: str, key: str) -> Mapping[str, Any] | None:
    """The fight ``key`` as its last public step left it (None: nothing of it is public),
    read back from the newest step to that one or to the fight's start, never further: the
    table's earlier fights are not read."""
    rows = connection.execution_options(yield_per=_BATCH).execute(
        _STEPS_BACK, {"table_id": table_id}
    )
    try:
        for row in rows:
            entry = read_entry(row.event)
            if encounter_key(entry.args) != key:
                continue
            if row.visibility == "public":
                return entry.result
            if row.kind == "cogent.combat.start":
                return None  # the fight under this key started in secret
        return None
    finally:
        rows.close()


def hides_a_secret(
    connection: Connection, seat: Seat, action: str, args: Mapping[str, Any]
) -> bool:
    """Whether ``seat``'s public step ``action`` would reveal the narrator's secret steps of
    its fight (its event holds the encounter as it then stands): such a step is kept
    narrator-only; the narrator alone reveals a secret. The narrator's taking back of a secret
    step is as secret (the fight it leaves may hold other secret steps)."""
    if action not in FIGHT_STEPS or (seat.narrator and action != TAKE_BACK):
        return False
    key = encounter_key(args)
    try:
        whole = SqlStore(connection, seat.table_id).read("encounter", key).data
    except TaletableError:
        return False
    return _steps(whole) > _steps(_public(connection, seat.table_id, key))
