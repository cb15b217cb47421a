"""Let it Ride at a live table (003 > Additional Mechanics > Let it Ride; 003 > Group
Challenges; RULINGS.md "let it ride"): a boons check or contest that names its situation binds
it, and so does a group challenge; the same character's repeat (the same group challenge) is
refused until the narrator marks that the circumstances changed. The narrator may take such a
mark back (``boons.bind-again``): what it freed binds again. A table made with the switch
``let_it_ride_per_scene`` also frees every situation at a new scene.

The table's checks and marks are read from the log and replayed through the engine's
:class:`~taletable.systems.boons.tracking.LetItRide`, which compares names as
:func:`taletable.names.fold` does (look-alike text is the same situation).
:mod:`taletable.server.permissions` asks :func:`check_let_it_ride` before every action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, bindparam, select

from taletable.errors import TaletableError
from taletable.log_entry import read_entry
from taletable.server.auth import Seat
from taletable.server.errors import ApiError
from taletable.server.log import TableHead
from taletable.server.schema import EVENTS

if TYPE_CHECKING:
    from taletable.systems.boons.tracking import LetItRide

__all__ = [
    "BINDING_CHECKS",
    "BIND_AGAIN",
    "CIRCUMSTANCES_CHANGED",
    "GROUP_CHALLENGE",
    "PER_SCENE",
    "check_let_it_ride",
]

#: The rolls Let it Ride binds at a boons table (a check, an opposed contest), the group
#: challenge that is final, the narrator's word that frees a situation and the word that binds
#: it again.
BINDING_CHECKS = ("boons.check", "boons.contest")
GROUP_CHALLENGE = "boons.group"
CIRCUMSTANCES_CHANGED = "boons.circumstances-changed"
BIND_AGAIN = "boons.bind-again"
#: The table switch that frees every situation at a new scene (RULINGS.md "let it ride").
PER_SCENE = "let_it_ride_per_scene"
_KINDS = (*BINDING_CHECKS, GROUP_CHALLENGE, CIRCUMSTANCES_CHANGED, BIND_AGAIN)
_RIDING = (
    select(EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.event)
    .where((EVENTS.c.table_id == bindparam("table_id")) & EVENTS.c.kind.in_(_KINDS))
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


def _replayed(ride: LetItRide, kind: str, actor: str | None, args: Mapping[str, Any]) -> LetItRide:
    """``ride`` after one logged entry: a roll binds, a mark frees or binds again."""
    situation, character = _text(args.get("situation")), _text(args.get("character")) or None
    if kind == CIRCUMSTANCES_CHANGED:
        return ride.mark_changed(situation, character)
    if kind == BIND_AGAIN:
        try:
            return ride.bind_again(situation, character)
        except TaletableError:
            return ride
    if not _named(args):
        return ride
    try:
        if kind == GROUP_CHALLENGE:
            return ride.run_group(situation)
        return ride.attempt(_named(args), _text(args.get("tested")), character=_who(actor, args),
                            reroll=True)  # fmt: skip
    except TaletableError:  # logged before the limit of situations tracked: as it was then
        return ride


def _ride(connection: Connection, head: TableHead) -> LetItRide:
    """The table's Let it Ride, replayed from its log (every scene: a situation stays bound
    across scenes unless the table frees them at each new scene)."""
    from taletable.systems.boons.tracking import LetItRide

    per_scene = head.rules.get(PER_SCENE) is True
    ride, scene = LetItRide(), None
    for row in connection.execute(_RIDING, {"table_id": head.id}):
        entry = read_entry(row.event)
        if per_scene and scene is not None and entry.scene != scene:
            ride = ride.new_scene()
        scene = entry.scene
        ride = _replayed(ride, row.kind, row.actor, entry.args)
    if per_scene and scene is not None and head.scene != scene:
        ride = ride.new_scene()
    return ride


def check_let_it_ride(
    connection: Connection, head: TableHead, seat: Seat, action: str, args: Mapping[str, Any]
) -> None:
    """Refuse (422 ``args.situation``, quoting the rule) a boons check or contest that repeats
    the same character's same check in the same situation, or a group challenge run again in
    its situation, unless the narrator has since marked that its circumstances changed (or an
    ability grants a check's re-roll); refuse the narrator's ``boons.bind-again`` where nothing
    was freed (003 > Additional Mechanics > Let it Ride; 003 > Group Challenges; RULINGS.md "let
    it ride"). A situation of invisible characters alone is refused too: it would bind
    nothing."""
    situation = _text(args.get("situation"))
    if action not in (*BINDING_CHECKS, GROUP_CHALLENGE, BIND_AGAIN) or not situation:
        return
    if not _named(args):
        raise ApiError(
            "args.situation",
            "a situation is named in visible letters; name it in words, or leave it out",
        )
    ride = _ride(connection, head)
    try:
        if action == BIND_AGAIN:
            ride.bind_again(situation, _text(args.get("character")) or None)
        elif action == GROUP_CHALLENGE:
            ride.run_group(situation)
        else:
            ride.attempt(situation, _text(args.get("tested")), character=_who(seat.id, args),
                         reroll=args.get("reroll") is True)  # fmt: skip
    except TaletableError as error:
        raise ApiError("args.situation", str(error)) from None
