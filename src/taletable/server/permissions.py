"""Who may do what at a live table: the one place the server decides it (DESIGN > Principles
12). The table session (:mod:`taletable.server.session`) asks these before it acts.

* A narrator runs the table: it may take any action and act for anyone.
* A player plays: it rolls and acts, and acts for and edits only the characters its seat owns
  (:mod:`taletable.server.owners`: the seat that added it, or the one the narrator handed it
  to); in a fight, only for its own fighters (:mod:`taletable.server.combat_seats`). Awards
  (destiny, commerce, a campaign's advance) are the narrator's, and so are a tracked value's
  setting and bounds (``boons.track``).
* An observer watches and reads the log; it may not roll, act or edit (it may ask a read:
  odds, a fight's status as it may see it).
* A message (``chat.say``) is spoken as a character the seat owns (the narrator: as anyone),
  and whispered only to seats of the table (:func:`chat_visibility`).
* A boons check that names its situation binds it for the scene (003 > Let it Ride): the same
  character's repeat is refused until the narrator marks that the circumstances changed
  (:mod:`taletable.server.let_it_ride`).
* Dice are the server's: a client never sends a seed, and sends faces of physical dice only
  where the table allows them (marked as entered in the event). Which arguments carry such
  faces, each request declares (:meth:`taletable.play.requests.Request.dice_fields`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, select

from taletable.errors import TaletableError
from taletable.play import all_actions, is_read
from taletable.server import combat_seats
from taletable.server.auth import Seat
from taletable.server.combat_seats import check_combat_seat
from taletable.server.errors import ApiError, Forbidden
from taletable.server.let_it_ride import BIND_AGAIN, CIRCUMSTANCES_CHANGED, check_let_it_ride
from taletable.server.limits import SLOW_ACTIONS
from taletable.server.log import TableHead
from taletable.server.owners import character_owners, owner_of
from taletable.server.schema import SEATS
from taletable.server.visibility import WHISPER
from taletable.store.sql import SqlStore

__all__ = [
    "AWARDS",
    "CHARACTER_ARGS",
    "NARRATOR_ACTIONS",
    "NARRATOR_DOES",
    "REFUSED_ARGS",
    "UNDOING",
    "acts_for",
    "characters_to_speak_as",
    "chat_visibility",
    "check_action",
    "check_character",
    "check_sheet_edit",
    "may_roll_with",
    "may_take",
    "narrator_only",
    "new_owner",
    "only_the_narrator",
    "removing_own_seat",
    "taking_part",
]

#: Arguments the server never takes from a client: the dice are the server's.
REFUSED_ARGS = ("seed",)
#: Arguments naming a stored character an action rolls with, changes or saves over.
CHARACTER_ARGS = ("character", "out", "key", "healer")
#: What an action does with the character an argument names, for the refusal.
DOING = {"character": "roll with it or change it", "healer": "treat with it"}
#: Actions that name a character they do not change (a new NPC's statblock key): any seat that
#: takes part may take them with any character; so may every read (``reads=True`` in the
#: registry: odds, a sheet's pools, its check), which changes nothing.
READS_ONLY = ("cogent.npc.new",)
#: The action that says something at the table.
CHAT = "chat.say"
#: The spellings of a message's speaker (the API's ``as``, the request's field).
SPEAKER_ARGS = ("as", "speaker")
#: Awards to a character: the narrator's only (002 > Campaign Progression, Awarding Destiny
#: Points, Assigning Commerce Points: the narrator awards them).
AWARDS = ("cogent.character.destiny", "cogent.character.commerce", "cogent.character.advance")
#: Undoing (issue 24.7): the narrator's only. Striking a log entry, taking back a fight's last
#: step; a sheet's last change taken back is :func:`narrator_only` at its route.
UNDOING = ("log.strike", "cogent.combat.take-back")
#: A rest of days, which heals injuries (RULINGS.md "healing").
REST = "cogent.character.rest"
#: Actions only the narrator takes: setting a tracked value and its bounds (003 > Accumulation
#: Checks: the bounds are the narrator's; RULINGS.md "accumulation bounds").
#: So is the word that a situation's circumstances changed (003 > Let it Ride: "It is left to
#: the Game Master to arbitrate whether conditions have changed enough"), and its taking back.
NARRATOR_ACTIONS = ("boons.track", CIRCUMSTANCES_CHANGED, BIND_AGAIN, REST)
#: What each narrator-only action does, in a player's words, for the refusal.
#: (A rest: the days that pass are the narrator's word; RULINGS.md "healing".)
NARRATOR_DOES = {
    **combat_seats.NARRATOR_DOES,
    "boons.track": "keep a track",
    CIRCUMSTANCES_CHANGED: "say the circumstances have changed",
    BIND_AGAIN: "bind a situation again",
    REST: "say how many days a character rests",
}


def only_the_narrator(action: str) -> Forbidden:
    """The refusal of a narrator-only action to another seat, in words (no action's name)."""
    return Forbidden("action", f"only the narrator may {NARRATOR_DOES.get(action, 'do that')}")


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


def removing_own_seat(seat: Seat) -> Seat:
    """``seat``, which its player or observer may remove when leaving (with the characters it
    owns); the narrator's seat stays while the table does: the narrator deletes the table."""
    if seat.narrator:
        raise Forbidden(
            "authorization",
            "the narrator's seat stays while the table does; to end the table, delete it "
            "(DELETE /api/tables/{id})",
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


def acts_for(connection: Connection, table_id: str, seat: Seat, keys: list[str]) -> list[str]:
    """Of the characters ``keys``, those ``seat`` may roll with and spend from: every one for
    the narrator, a player's own (as :func:`check_character` decides)."""
    if seat.narrator:
        return list(keys)
    owners = character_owners(connection, table_id)
    return [key for key in keys if owners.get(key) == seat.id]


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
    if seat.narrator or action in READS_ONLY or is_read(action):
        return
    if action in AWARDS:
        raise Forbidden("action", "only the narrator awards destiny, commerce points and advances")
    for name in CHARACTER_ARGS:
        value = args.get(name)
        if isinstance(value, str) and value:
            doing = DOING.get(name, "save over it")
            check_character(connection, table_id, seat, value, f"args.{name}", doing)


def _check_speaker(
    connection: Connection, table_id: str, seat: Seat, args: Mapping[str, Any]
) -> None:
    """A player speaks only as a character its seat owns (403 naming the owner; 422 for no
    such character); the narrator speaks as any character, NPC or passer-by."""
    for field in SPEAKER_ARGS:
        key = args.get(field)
        if not isinstance(key, str) or not key or seat.narrator:
            continue
        if _character_name(connection, table_id, key) is None:
            raise ApiError(
                f"args.{field}",
                f"no character {key!r} at this table; speak as one of your characters, or "
                "leave it out to speak out of character",
            )
        check_character(connection, table_id, seat, key, f"args.{field}", "speak as them")


def characters_to_speak_as(connection: Connection, table_id: str, seat: Seat) -> set[str] | None:
    """The characters ``seat`` may speak as: those it owns; None: any (the narrator)."""
    if seat.narrator:
        return None
    owners = character_owners(connection, table_id)
    return {key for key, owner in owners.items() if owner == seat.id}


def chat_visibility(
    connection: Connection, table_id: str, action: str, args: Mapping[str, Any], visibility: str
) -> tuple[str, tuple[str, ...]]:
    """A message's visibility and audience: whispered (:data:`WHISPER`) to the seats of its
    ``to``, each a seat of this table (422 naming ``to`` otherwise), else public (a message is
    never blind nor the narrator's only: 422 naming ``visibility``). Another action's are its
    own, with no audience."""
    if action != CHAT:
        return visibility, ()
    if visibility != "public":
        raise ApiError(
            "visibility",
            "a message is public, or whispered to chosen seats with args.to; send it public",
        )
    to = args.get("to")
    if not isinstance(to, list | tuple) or not to or not all(isinstance(s, str) for s in to):
        return "public", ()  # none, or malformed: the request's own check names ``to``
    audience = tuple(dict.fromkeys(to))
    known = set(
        connection.execute(
            select(SEATS.c.id).where((SEATS.c.table_id == table_id) & SEATS.c.id.in_(audience))
        ).scalars()
    )
    for seat_id in audience:
        if seat_id not in known:
            raise ApiError(
                "args.to",
                f"no seat {seat_id!r} at this table; whisper to the ids of its seats (GET "
                f"/api/tables/{table_id} lists them)",
            )
    return WHISPER, audience


def may_take(seat: Seat, action: str) -> None:
    """Refuse, before any work, an action this seat may never take at a live table."""
    actions = all_actions()
    if action not in actions or not actions[action].reads:
        taking_part(seat)  # an observer reads the table: it may ask a read
    if action not in actions:
        raise ApiError(
            "action", f"no action called {action!r}; GET this table's /actions lists them"
        )
    if action in SLOW_ACTIONS:
        raise ApiError("action", f"this table does not run {action}: {SLOW_ACTIONS[action]}")
    if action in UNDOING and not seat.narrator:
        raise Forbidden(
            "action", "only the table's narrator may undo (strike an entry, take back a step)"
        )
    if action in NARRATOR_ACTIONS and not seat.narrator:
        raise only_the_narrator(action)


def check_sheet_edit(
    seat: Seat, system: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> None:
    """Refuse (403, ``sheet.tracks.NAME``) a player's edit of a boons sheet that sets a tracked
    value's bounds or what a check does at them, or adds or removes a track: those are the
    narrator's (003 > Accumulation Checks; RULINGS.md "accumulation bounds")."""
    if seat.narrator or system != "boons":
        return
    old, new = before.get("tracks") or {}, after.get("tracks") or {}
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return  # a malformed track is refused by the sheet's own check
    for name in sorted({*old, *new}, key=str):
        was, now = old.get(name), new.get(name)
        if (was is None) != (now is None):
            raise Forbidden(f"sheet.tracks.{name}", "only the narrator adds or removes a track")
        if not isinstance(was, Mapping) or not isinstance(now, Mapping):
            continue
        for bound in ("low", "high", "at_bounds"):
            if was.get(bound) != now.get(bound):
                raise Forbidden(
                    f"sheet.tracks.{name}.{bound}", "only the narrator sets a track's bounds"
                )


def check_action(
    connection: Connection, head: TableHead, seat: Seat, action: str, args: Mapping[str, Any]
) -> bool:
    """Refuse an action this seat may not take at this table now (403 or 422 naming why), in
    the write's transaction; return whether it carries physical dice entered by the seat."""
    entered = _entered_faces(action, args, head)
    check_combat_seat(connection, head.id, seat, action, args)
    _check_characters(connection, head.id, seat, action, args)
    if action == CHAT:
        _check_speaker(connection, head.id, seat, args)
    check_let_it_ride(connection, head, seat, action, args)
    return entered
