"""Characters of a table: the sheet document, kept by version; a stale save is refused (409)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taletable.errors import TaletableError
from taletable.files import describe_validation_error
from taletable.server.auth import PlayerDep, SeatDep, new_id, taking_part
from taletable.server.errors import ActionError, ApiError, NotFound
from taletable.server.log import Writer, read_table, table_write
from taletable.server.responses import ERRORS
from taletable.server.state import RecordingStore
from taletable.store.sql import SqlStore

__all__ = ["add_character", "router"]

router = APIRouter(prefix="/api/tables/{table_id}/characters", tags=["characters"])


class NewCharacter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sheet: dict[str, Any] = Field(description="The sheet, as in a sheet file, as JSON")


class EditedCharacter(NewCharacter):
    version: int = Field(ge=1, description="The version the sheet was read at")


class Saved(BaseModel):
    id: str
    version: int


class Character(BaseModel):
    sheet: dict[str, Any]
    version: int


def check_sheet(system: str, sheet: dict[str, Any]) -> None:
    """Refuse an illegal sheet with every problem (as ``character validate`` lists them)."""
    if system != "cogent":
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
def create_character(request: Request, table_id: str, seat: PlayerDep, body: NewCharacter) -> Saved:
    """Add a character to the table; an illegal sheet is refused listing every problem."""
    return add_character(request.app.state, table_id, taking_part(seat).id, body.sheet)


def add_character(state: Any, table_id: str, seat_id: str, sheet: dict[str, Any]) -> Saved:
    """Check ``sheet`` by every rule and add it to the table as ``seat_id``'s doing."""
    with state.database.read() as connection:
        check_sheet(read_table(connection, table_id).system, sheet)
    key = new_id()
    with table_write(state.database, state.hub, table_id) as writer:
        version = _save(writer, seat_id, key, sheet, None)
    return Saved(id=key, version=version)


@router.get("/{character_id}", responses=ERRORS)
def read_character(request: Request, table_id: str, character_id: str, seat: SeatDep) -> Character:
    """The character's sheet and the version to send back with an edit."""
    with request.app.state.database.read() as connection:
        try:
            stored = SqlStore(connection, table_id).read("character", character_id)
        except TaletableError:
            raise NotFound("character_id", f"no character {character_id!r} at this table") from None
    return Character(sheet=dict(stored.data), version=stored.version)


@router.put("/{character_id}", responses=ERRORS)
def edit_character(
    request: Request, table_id: str, character_id: str, seat: PlayerDep, body: EditedCharacter
) -> dict[str, int]:
    """Replace the sheet read at ``version``; if another edit landed since, 409 and no change."""
    taking_part(seat)
    state = request.app.state
    with state.database.read() as connection:
        check_sheet(read_table(connection, table_id).system, body.sheet)
    with table_write(state.database, state.hub, table_id) as writer:
        try:
            SqlStore(writer.connection, table_id).read("character", character_id)
        except TaletableError:
            raise NotFound("character_id", f"no character {character_id!r} at this table") from None
        version = _save(writer, seat.id, character_id, body.sheet, body.version)
    return {"version": version}
