"""Who may act in a live table's fight: the server's rule, not the engine's (the rulebook leaves
it to the table). The narrator starts and ends fights, sets conditions and acts for anyone; a
player acts only for the fighters made from a character its seat owns
(:mod:`taletable.server.owners`: the seat that added it, or the one the narrator handed it to),
and chooses the outcome of its fighters' victories; an observer acts for no one.

:func:`check_combat_seat` is called by every action taken at the table (the API and the pages
alike), before the action is played; :func:`fighters_of` tells a page which forms to offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection

from taletable.errors import TaletableError
from taletable.server.auth import Seat
from taletable.server.errors import Forbidden
from taletable.server.owners import character_owners
from taletable.store.sql import SqlStore

__all__ = ["NARRATOR_ONLY", "check_combat_seat", "encounter_key", "fighters_of"]

#: Combat actions only the narrator takes.
NARRATOR_ONLY = ("cogent.combat.start", "cogent.combat.condition", "cogent.combat.end")
#: What each of them does, in a player's words (the refusal names no action).
NARRATOR_DOES = {
    "cogent.combat.start": "start a fight",
    "cogent.combat.condition": "set or end a condition in a fight",
    "cogent.combat.end": "end a fight",
}
#: Combat actions taken for one fighter: the argument naming it.
FOR_A_FIGHTER = {"cogent.combat.declare": "actor", "cogent.combat.destiny": "fighter"}
KEY_NAMES = ("encounter", "file", "out", "key")


def _encounter(connection: Connection, table_id: str, key: str) -> Mapping[str, Any] | None:
    try:
        return SqlStore(connection, table_id).read("encounter", key).data
    except TaletableError:
        return None  # the action itself says what is missing


def fighters_of(connection: Connection, table_id: str, seat: Seat, key: str) -> set[str] | None:
    """The fighters of the encounter ``key`` this seat acts for (None: every one)."""
    if seat.narrator:
        return None
    if seat.role != "player":
        return set()
    data = _encounter(connection, table_id, key) or {}
    sheets = data.get("sheets") or {}
    owners = character_owners(connection, table_id)
    return {fighter for fighter, character in sheets.items() if owners.get(character) == seat.id}


def encounter_key(args: Mapping[str, Any]) -> str:
    """The key of the encounter an action's ``args`` name ("" if none)."""
    return next((str(args[name]) for name in KEY_NAMES if args.get(name)), "")


def _winner(connection: Connection, table_id: str, key: str, victory: Any) -> str | None:
    data = _encounter(connection, table_id, key) or {}
    for won in data.get("victories") or ():
        if str(won.get("id")) == str(victory).strip():
            return str(won.get("winner"))
    return None


def check_combat_seat(
    connection: Connection, table_id: str, seat: Seat, action: str, args: Mapping[str, Any]
) -> None:
    """Refuse (403) a combat action this seat may not take; any other action passes."""
    if seat.narrator or not action.startswith("cogent.combat."):
        return
    if action in ("cogent.combat.status", "cogent.combat.replay"):
        return
    if action in NARRATOR_ONLY:
        raise Forbidden("action", f"only the narrator may {NARRATOR_DOES[action]}")
    mine = fighters_of(connection, table_id, seat, encounter_key(args))
    assert mine is not None
    if action in FOR_A_FIGHTER:
        field = FOR_A_FIGHTER[action]
        fighter = str(args.get(field, ""))
        if fighter not in mine:
            raise Forbidden(
                f"args.{field}",
                f"{fighter!r} is not your fighter: you act for {', '.join(sorted(mine)) or 'none'}"
                "; the narrator acts for the others",
            )
    elif action == "cogent.combat.choose":
        winner = _winner(connection, table_id, encounter_key(args), args.get("victory"))
        if winner is not None and winner not in mine:
            raise Forbidden(
                "args.victory",
                f"victory #{args.get('victory')} is {winner}'s: its seat or the narrator chooses",
            )
    elif not mine:
        raise Forbidden("action", f"you have no fighter in this encounter to take {action}")
