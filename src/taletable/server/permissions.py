"""Who may do what at a live table: the one place the server decides it (DESIGN > Principles
12). The table session (:mod:`taletable.server.session`) asks these before it acts.

* A narrator runs the table: it may take any action and act for anyone.
* A player plays: it rolls and acts; in a fight, only for its own fighters
  (:mod:`taletable.server.combat_seats`).
* An observer watches and reads the log; it may not roll, act or edit.
* Dice are the server's: a client never sends a seed, and sends faces of physical dice only
  where the table allows them (marked as entered in the event). Which arguments carry such
  faces, each request declares (:meth:`taletable.play.requests.Request.dice_fields`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection

from taletable.server.auth import Seat
from taletable.server.combat_seats import check_combat_seat
from taletable.server.errors import ApiError, Forbidden
from taletable.server.limits import SLOW_ACTIONS
from taletable.server.log import TableHead

__all__ = [
    "REFUSED_ARGS",
    "check_action",
    "may_take",
    "narrator_only",
    "taking_part",
]

#: Arguments the server never takes from a client: the dice are the server's.
REFUSED_ARGS = ("seed",)


def taking_part(seat: Seat) -> Seat:
    """``seat``, which must play (narrator or player): an observer watches and reads the log,
    and may not roll, act or edit (403)."""
    if seat.role == "observer":
        raise Forbidden(
            "authorization",
            "an observer watches the table: it may not roll, act or edit; join as a player to "
            "take part",
        )
    return seat


def narrator_only(seat: Seat) -> Seat:
    """``seat``, which must be the table's narrator (403 otherwise)."""
    if not seat.narrator:
        raise Forbidden("authorization", "only the table's narrator may do this")
    return seat


def _entered_faces(action: str, args: Mapping[str, Any], head: TableHead) -> bool:
    """Refuse what the server never takes; return whether physical faces are entered (in the
    arguments the action's request declares as carrying them)."""
    from taletable.play import all_actions

    for name in args:
        if name in REFUSED_ARGS:
            raise ApiError(f"args.{name}", "the live table's dice are the server's; remove it")
    entered = all_actions()[action].request.dice_given(args)
    if entered and not head.physical_dice:
        raise ApiError(
            f"args.{entered[0]}",
            "this table does not allow physical dice; remove the faces (the server rolls)",
        )
    return bool(entered)


def may_take(seat: Seat, action: str) -> None:
    """Refuse, before any work, an action this seat may never take at a live table."""
    from taletable.play import all_actions

    taking_part(seat)
    if action not in all_actions():
        raise ApiError(
            "action", f"no action called {action!r}; GET this table's /actions lists them"
        )
    if action in SLOW_ACTIONS:
        raise ApiError("action", f"this table does not run {action}: {SLOW_ACTIONS[action]}")


def check_action(
    connection: Connection, head: TableHead, seat: Seat, action: str, args: Mapping[str, Any]
) -> bool:
    """Refuse an action this seat may not take at this table now (403 or 422 naming why), in
    the write's transaction; return whether it carries physical dice entered by the seat."""
    entered = _entered_faces(action, args, head)
    check_combat_seat(connection, head.id, seat, action, args)
    return entered
