"""Actions: any action of :mod:`taletable.play`'s registry, rolled with the scene's dice.

The server holds no code per action: it looks the name up in the registry, hands the args to
:func:`taletable.play.perform` at a :class:`~taletable.play.Table` whose dice are the scene's
:class:`~taletable.ledger.LedgerDice` and whose store is the table's SQL store, and appends the
result as one event, all in one transaction (DESIGN > Principles 9 and 10).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from taletable.errors import TaletableError
from taletable.ledger import LedgerDice
from taletable.server.auth import Seat, SeatDep, taking_part
from taletable.server.combat_seats import check_combat_seat
from taletable.server.errors import ActionError, ApiError
from taletable.server.followups import FOLLOWS, followed
from taletable.server.limits import SLOW_ACTIONS
from taletable.server.log import TableHead, scene_seed, stub_of, table_write
from taletable.server.responses import ERRORS
from taletable.server.state import RecordingStore
from taletable.server.table_rules import table_context
from taletable.store.sql import SqlStore

__all__ = ["NewAction", "router", "shown_to", "take_action"]

router = APIRouter(prefix="/api/tables/{table_id}", tags=["actions"])

#: Arguments the server never takes from a client: the dice are the server's.
REFUSED_ARGS = ("seed",)


class NewAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=100, description="The CLI's command path joined by dots")
    args: dict[str, Any] = Field(
        default_factory=dict, description="The CLI's option names without dashes"
    )
    visibility: Literal["public", "narrator", "blind"] = "public"


def is_faces(name: str) -> bool:
    """Whether the argument ``name`` carries faces of physical dice (``faces``, ``faces_a``)."""
    return name == "faces" or name.startswith("faces_") or name.endswith("_faces")


def shown_to(event: dict[str, Any], *, narrator: bool) -> dict[str, Any]:
    """The event as the poster may see it (without its hashes)."""
    if narrator or event["visibility"] == "public":
        return {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    return stub_of(event)


def _check_args(args: dict[str, Any], head: TableHead) -> bool:
    """Refuse what the server never takes; return whether physical faces are entered."""
    for name in args:
        if name in REFUSED_ARGS:
            raise ApiError(f"args.{name}", "the live table's dice are the server's; remove it")
    entered = [name for name in args if is_faces(name) and args[name] is not None]
    if entered and not head.physical_dice:
        raise ApiError(
            f"args.{entered[0]}",
            "this table does not allow physical dice; remove the faces (the server rolls)",
        )
    return bool(entered)


def take_action(state: Any, table_id: str, seat: Seat, body: NewAction) -> dict[str, Any]:
    """Perform ``body`` at the table with the scene's dice; append and return its whole event."""
    from taletable.play import all_actions, perform

    taking_part(seat)
    if body.action not in all_actions():
        raise ApiError(
            "action", f"no action called {body.action!r}; GET this table's /actions lists them"
        )
    if body.action in SLOW_ACTIONS:
        raise ApiError(
            "action", f"this table does not run {body.action}: {SLOW_ACTIONS[body.action]}"
        )
    with table_write(state.database, state.hub, table_id) as writer:
        entered = _check_args(body.args, writer.head)
        check_combat_seat(writer.connection, table_id, seat, body.action, body.args)
        follow = followed(writer.connection, table_id, seat, body.action, body.args)
        seq = writer.head.head_seq + 1
        dice = LedgerDice(scene_seed(writer.connection, table_id, writer.head.scene), table_id, seq)
        store = RecordingStore(SqlStore(writer.connection, table_id))
        table = table_context(writer.head, store, dice=dice)
        try:
            played = perform(body.action, follow.args, table)
        except TaletableError as error:
            raise ActionError(error, "args") from None
        content = {
            "action": body.action,
            "args": body.args,
            "result": played.to_data(),
            "dice": dice.rolled,
            "entered": entered,
            "changes": [change.to_data() for change in played.events],
            "saves": store.saves,
        }
        if follow.seq is not None:
            content[FOLLOWS] = follow.seq
        visibility = follow.visibility or body.visibility
        return writer.append(body.action, content, actor=seat.id, visibility=visibility)


@router.post("/actions", status_code=201, responses=ERRORS)
def act(request: Request, table_id: str, seat: SeatDep, body: NewAction) -> JSONResponse:
    """Take an action; 201 with its event (a blind or narrator-only one shows a player a stub)."""
    event = take_action(request.app.state, table_id, seat, body)
    return JSONResponse(shown_to(event, narrator=seat.narrator), status_code=201)


@router.get("/actions", include_in_schema=True, responses=ERRORS)
def list_actions(table_id: str, seat: SeatDep) -> dict[str, list[dict[str, Any]]]:
    """Every action this server can take, by name, with its summary and the JSON schema of its
    ``args`` (each field described as the command line's ``--help`` describes its option)."""
    from taletable.play import all_actions

    return {
        "actions": [
            {"name": name, "summary": action.summary, "args": _args_schema(action.request)}
            for name, action in all_actions().items()
            if name not in SLOW_ACTIONS
        ]
    }


@cache
def _args_schema(request: type[BaseModel]) -> dict[str, Any]:
    return request.model_json_schema(by_alias=False)
