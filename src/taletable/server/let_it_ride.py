"""Let it Ride at a live table (003 > Additional Mechanics > Let it Ride; RULINGS.md "let it
ride"): a boons check that names its situation binds it for the scene; the same character's
repeat is refused until the narrator marks that the circumstances changed.

The scene's checks and marks are read from the log and replayed through the engine's
:class:`~taletable.systems.boons.tracking.LetItRide`, which compares names as
:func:`taletable.names.fold` does (look-alike text is the same situation).
:mod:`taletable.server.permissions` asks :func:`check_let_it_ride` before every action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, select

from taletable.errors import RulesError
from taletable.log_entry import read_entry
from taletable.server.auth import Seat
from taletable.server.errors import ApiError
from taletable.server.log import TableHead
from taletable.server.schema import EVENTS

__all__ = ["BINDING_CHECK", "CIRCUMSTANCES_CHANGED", "check_let_it_ride"]

#: The check Let it Ride binds at a boons table, and the narrator's word that frees it again.
BINDING_CHECK = "boons.check"
CIRCUMSTANCES_CHANGED = "boons.circumstances-changed"
_RIDING = (
    select(EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.event)
    .where(
        (EVENTS.c.table_id == bindparam("table_id"))
        & EVENTS.c.kind.in_((BINDING_CHECK, CIRCUMSTANCES_CHANGED))
    )
    .order_by(EVENTS.c.seq)
)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _who(actor: str | None, args: Mapping[str, Any]) -> str:
    """Who makes a check for Let it Ride: the character it names, else the seat."""
    return _text(args.get("character")) or f"seat {actor or ''}"


def _named(args: Mapping[str, Any]) -> str:
    """The situation ``args`` name, or "" when they name none (or one of no visible letter)."""
    from taletable.systems.boons.tracking import same

    situation = _text(args.get("situation"))
    return situation if same(situation) else ""


def check_let_it_ride(
    connection: Connection, head: TableHead, seat: Seat, action: str, args: Mapping[str, Any]
) -> None:
    """Refuse (422 ``args.situation``, quoting the rule) a boons check that repeats, in this
    scene, the same character's same check in the same situation, unless the narrator has since
    marked that its circumstances changed or an ability grants the re-roll (003 > Additional
    Mechanics > Let it Ride; RULINGS.md "let it ride"). A situation of invisible characters
    alone is refused too (422 ``args.situation``): it would bind nothing."""
    situation = _text(args.get("situation"))
    if action != BINDING_CHECK or not situation:
        return
    if not _named(args):
        raise ApiError(
            "args.situation",
            "a situation is named in visible letters; name it in words, or leave it out",
        )
    from taletable.systems.boons.tracking import LetItRide

    ride = LetItRide()
    for row in connection.execute(_RIDING, {"table_id": head.id}):
        entry = read_entry(row.event)
        before = entry.args
        if entry.scene != head.scene:
            continue
        if row.kind == CIRCUMSTANCES_CHANGED:
            ride = ride.mark_changed(_text(before.get("situation")), _text(before.get("character"))
                                     or None)  # fmt: skip
        elif _named(before):
            ride = ride.attempt(_named(before), _text(before.get("tested")),
                                character=_who(row.actor, before), reroll=True)  # fmt: skip
    try:
        ride.attempt(situation, _text(args.get("tested")), character=_who(seat.id, args),
                     reroll=args.get("reroll") is True)  # fmt: skip
    except RulesError as error:
        raise ApiError("args.situation", str(error)) from None
