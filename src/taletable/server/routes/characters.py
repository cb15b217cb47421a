"""Characters of a table: the sheet document, kept by version; a stale save is refused (409)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Connection

from taletable.errors import TaletableError
from taletable.files import describe_validation_error
from taletable.server.auth import new_id
from taletable.server.errors import ActionError, ApiError, NotFound
from taletable.server.log import Writer, table_write
from taletable.server.owners import CHARACTER_OWNER
from taletable.server.permissions import check_character, check_sheet_edit, new_owner
from taletable.server.responses import ERRORS
from taletable.server.session import NarratorSession, PlayerSession, SessionDep, TableSession
from taletable.server.state import RecordingStore
from taletable.server.table_rules import SYSTEM_NAMES
from taletable.store.sql import SqlStore

__all__ = ["add_character", "edit_character", "hand_character", "router"]

router = APIRouter(prefix="/api/tables/{table_id}/characters", tags=["characters"])


class NewCharacter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sheet: dict[str, Any] = Field(description="The sheet, as in a sheet file, as JSON")


class EditedCharacter(NewCharacter):
    version: int = Field(ge=1, description="The version the sheet was read at")


class Saved(BaseModel):
    id: str
    version: int


class NewOwner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: str = Field(min_length=1, max_length=64, description="The seat that gets the character")


class Owned(BaseModel):
    character: str
    seat: str
    name: str = Field(description="The seat's name")


class Character(BaseModel):
    sheet: dict[str, Any]
    version: int


def check_sheet(system: str, sheet: dict[str, Any]) -> None:
    """Refuse an illegal sheet with every problem (as ``character validate`` lists them)."""
    if system == "boons":
        _check_tracks(sheet)
    if system != "cogent":
        if is_cogent_sheet(sheet):
            raise ApiError(
                "sheet",
                f"this is a Cogent Roleplay sheet (edition {sheet.get('edition', '?')}, "
                f"attributes STR, RFL, INT), and this table plays {SYSTEM_NAMES[system]}: "
                "import it at a Cogent table",
            )
        return  # boons and labcats sheets are kept as given: those systems have no sheet rules
    from taletable.systems.cogent.character import validate
    from taletable.systems.cogent.character.files import character_from_data

    try:
        report = validate(character_from_data(sheet, source="sheet"))
    except ValidationError as error:
        raise ApiError("sheet", describe_validation_error(error)) from None
    except TaletableError as error:
        raise ActionError(error, "sheet") from None
    if not report.legal:
        problems = [problem.to_data() for problem in report.problems]
        found = "; ".join(f"{problem['found']} ({problem['rule']})" for problem in problems)
        raise ApiError(
            "sheet", f"the sheet breaks {len(problems)} rule(s): {found}", problems=problems
        )


def is_cogent_sheet(sheet: dict[str, Any]) -> bool:
    """Whether ``sheet`` is a Cogent sheet: a Cogent edition, or Cogent's attributes."""
    attributes = sheet.get("attributes")
    marked = isinstance(attributes, dict) and bool({"STR", "RFL", "INT"} & set(attributes))
    return sheet.get("edition") in ("core", "tiered") or marked


def _check_tracks(sheet: dict[str, Any]) -> None:
    """A boons sheet's tracked values (003 > Accumulation Checks), each within its bounds."""
    from taletable.systems.boons.accumulation import tracks_of

    try:
        tracks_of(sheet)
    except TaletableError as error:
        raise ActionError(error, "sheet") from None


def _save(writer: Writer, seat: str, key: str, sheet: dict[str, Any], version: int | None) -> int:
    store = RecordingStore(SqlStore(writer.connection, writer.head.id))
    try:
        saved = store.save("character", key, sheet, version=version)
    except TaletableError as error:
        raise ActionError(error, "sheet") from None
    kind = "character.create" if version is None else "character.update"
    writer.append(kind, {"character": key, "saves": store.saves}, actor=seat)
    return saved.version


@router.post("", status_code=201, responses=ERRORS)
def create_character(session: PlayerSession, body: NewCharacter) -> Saved:
    """Add a character to the table; an illegal sheet is refused listing every problem."""
    return add_character(session, body.sheet)


def add_character(session: TableSession, sheet: dict[str, Any]) -> Saved:
    """Check ``sheet`` by every rule and add it to the table as the session's seat's doing."""
    system = session.head().system
    check_sheet_edit(session.seat, system, {}, sheet)
    check_sheet(system, sheet)
    key = new_id()
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        version = _save(writer, session.seat.id, key, sheet, None)
    return Saved(id=key, version=version)


def stored_character(session: TableSession, character_id: str) -> Character:
    """The character's sheet and version (404 naming the id when there is none)."""
    with session.reading() as reading:
        try:
            stored = reading.store.read("character", character_id)
        except TaletableError:
            raise NotFound("character_id", f"no character {character_id!r} at this table") from None
    return Character(sheet=dict(stored.data), version=stored.version)


@router.get("/{character_id}", responses=ERRORS)
def read_character(session: SessionDep, character_id: str) -> Character:
    """The character's sheet and the version to send back with an edit."""
    return stored_character(session, character_id)


def _may_edit(session: TableSession, connection: Connection, character_id: str) -> None:
    try:
        SqlStore(connection, session.table_id).read("character", character_id)
    except TaletableError:
        raise NotFound("character_id", f"no character {character_id!r} at this table") from None
    check_character(
        connection, session.table_id, session.seat, character_id, "character_id", "edit its sheet"
    )


def edit_character(
    session: TableSession, character_id: str, body: EditedCharacter
) -> dict[str, int]:
    """Replace the sheet read at ``body.version``; a stale version is a 409 and changes nothing;
    another player's character is a 403 naming its owner (checked before the sheet's rules,
    and again in the write: the narrator may have handed it meanwhile)."""
    with session.reading() as reading:
        _may_edit(session, reading.connection, character_id)
        system = reading.head.system
        before = reading.store.read("character", character_id).data
    check_sheet_edit(session.seat, system, before, body.sheet)
    check_sheet(system, body.sheet)
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        _may_edit(session, writer.connection, character_id)
        version = _save(writer, session.seat.id, character_id, body.sheet, body.version)
    return {"version": version}


@router.put("/{character_id}", responses=ERRORS)
def put_character(
    session: PlayerSession, character_id: str, body: EditedCharacter
) -> dict[str, int]:
    """Replace the sheet read at ``version``; if another edit landed since, 409 and no change."""
    return edit_character(session, character_id, body)


def hand_character(session: TableSession, character_id: str, seat: str) -> Owned:
    """Hand the character to ``seat`` (the narrator's doing: a ``character.owner`` event)."""
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        try:
            stored = SqlStore(writer.connection, session.table_id).read("character", character_id)
        except TaletableError:
            raise NotFound("character_id", f"no character {character_id!r} at this table") from None
        name = new_owner(writer.connection, session.table_id, seat)
        identity = stored.data.get("identity")
        shown = identity.get("name") if isinstance(identity, dict) else None
        body = {"character": character_id, "seat": seat, "name": str(shown or character_id)}
        writer.append(CHARACTER_OWNER, body, actor=session.seat.id)
    return Owned(character=character_id, seat=seat, name=name)


@router.put("/{character_id}/owner", responses=ERRORS)
def put_owner(session: NarratorSession, character_id: str, body: NewOwner) -> Owned:
    """Hand the character to another seat (the narrator only): from then on that seat, and no
    longer the one before, rolls with it and edits it."""
    return hand_character(session, character_id, body.seat)
