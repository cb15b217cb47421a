"""Who may do what at a live table: the one place the server decides it (DESIGN > Principles
12). The table session (:mod:`taletable.server.session`) asks these before it acts.

* A narrator runs the table: it may take any action and act for anyone.
* A player plays: it rolls and acts, and acts for and edits only the characters its seat owns
  (:mod:`taletable.server.owners`: the seat that added it, or the one the narrator handed it
  to); in a fight, only for its own fighters (:mod:`taletable.server.combat_seats`). Awards
  (destiny, commerce, a campaign's advance) are the narrator's.
* An observer watches and reads the log; it may not roll, act or edit (it may ask a read:
  odds, a fight's status as it may see it).
* Dice are the server's: a client never sends a seed, and sends faces of physical dice only
  where the table allows them (marked as entered in the event). Which arguments carry such
  faces, each request declares (:meth:`taletable.play.requests.Request.dice_fields`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, select

from taletable.errors import TaletableError
from taletable.server.auth import Seat
from taletable.server.combat_seats import check_combat_seat
from taletable.server.errors import ApiError, Forbidden
from taletable.server.limits import SLOW_ACTIONS
from taletable.server.log import TableHead
from taletable.server.owners import owner_of
from taletable.server.schema import SEATS
from taletable.store.sql import SqlStore

__all__ = [
    "AWARDS",
    "CHARACTER_ARGS",
    "REFUSED_ARGS",
    "check_action",
    "check_character",
    "may_roll_with",
    "may_take",
    "narrator_only",
    "new_owner",
    "taking_part",
]

#: Arguments the server never takes from a client: the dice are the server's.
REFUSED_ARGS = ("seed",)
#: Arguments naming a stored character an action rolls with, changes or saves over.
CHARACTER_ARGS = ("character", "out", "key")
#: Actions that name a character they do not change (a new NPC's statblock key): any seat that
#: takes part may take them with any character; so may every read (``reads=True`` in the
#: registry: odds, a sheet's pools, its check), which changes nothing.
READS_ONLY = ("cogent.npc.new",)
#: Awards to a character: the narrator's only (002 > Campaign Progression, Awarding Destiny
#: Points, Assigning Commerce Points: the narrator awards them).
AWARDS = ("cogent.character.destiny", "cogent.character.commerce", "cogent.character.advance")


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


def _character_name(connection: Connection, table_id: str, key: str) -> str | None:
    """The name on the stored sheet ``key`` (its key if it has none); None: no such character."""
    try:
        data = SqlStore(connection, table_id).read("character", key).data
    except TaletableError:
        return None
    identity = data.get("identity")
    name = identity.get("name") if isinstance(identity, Mapping) else None
    return str(name) if name else key


def may_roll_with(seat: Seat, owner: str | None) -> bool:
    """Whether ``seat`` may roll with (or change) a character whose owner is the seat
    ``owner`` (None: no seat added it, so it is the narrator's): the narrator any, a player its
    own, an observer none. :func:`check_character` refuses by the same rule."""
    if seat.role == "observer":
        return False
    return seat.narrator or (owner is not None and owner == seat.id)


def check_character(
    connection: Connection, table_id: str, seat: Seat, key: str, field: str, doing: str
) -> None:
    """Refuse (403, ``field``) a player's ``doing`` with the stored character ``key`` that
    another seat owns; the narrator acts for any character, and a key no character has yet
    is free (the action stores a new one, which is then this seat's)."""
    if seat.narrator:
        return
    name = _character_name(connection, table_id, key)
    if name is None:
        return
    owner = owner_of(connection, table_id, key)
    if may_roll_with(seat, owner.seat):
        return
    who = "only the narrator" if owner.narrator else f"only {owner.name} or the narrator"
    raise Forbidden(field, f"{name} belongs to {owner.name}; {who} may {doing}")


def new_owner(connection: Connection, table_id: str, seat_id: str) -> str:
    """The name of the seat ``seat_id``, to which the narrator may hand a character: a seat
    of this table that plays (422 ``seat`` otherwise: an observer may not roll or edit)."""
    row = connection.execute(
        select(SEATS.c.name, SEATS.c.role).where(
            (SEATS.c.table_id == table_id) & (SEATS.c.id == seat_id)
        )
    ).first()
    if row is None:
        raise ApiError("seat", f"no seat {seat_id!r} at this table")
    if row.role == "observer":
        raise ApiError("seat", f"{row.name} observes: an observer may not roll or edit")
    return str(row.name)


def _check_characters(
    connection: Connection, table_id: str, seat: Seat, action: str, args: Mapping[str, Any]
) -> None:
    from taletable.play import is_read

    if seat.narrator or action in READS_ONLY or is_read(action):
        return
    if action in AWARDS:
        raise Forbidden(
            "action", f"only the narrator awards destiny, commerce and advances ({action})"
        )
    for name in CHARACTER_ARGS:
        value = args.get(name)
        if isinstance(value, str) and value:
            doing = "roll with it or change it" if name == "character" else "save over it"
            check_character(connection, table_id, seat, value, f"args.{name}", doing)


def may_take(seat: Seat, action: str) -> None:
    """Refuse, before any work, an action this seat may never take at a live table."""
    from taletable.play import all_actions

    actions = all_actions()
    if action not in actions or not actions[action].reads:
        taking_part(seat)  # an observer reads the table: it may ask a read
    if action not in actions:
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
    _check_characters(connection, head.id, seat, action, args)
    return entered
