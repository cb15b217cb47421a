"""Actions: any action of :mod:`taletable.play`'s registry, rolled with the scene's dice.

The server holds no code per action: the route hands the action's name and args to the seat's
:class:`~taletable.server.session.TableSession`, which checks the seat may take it, performs it
at the table's ``Table`` with the scene's dice and appends the result as one event, all in one
transaction (DESIGN > Principles 9, 10 and 12). A read (an action the registry declares
``reads=True``) is answered by :meth:`~taletable.server.session.TableSession.answer` on a read
of the table: no event, the result as the seat may see it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from functools import cache
from typing import Any, Literal, cast

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from taletable.play import all_actions, is_read
from taletable.server.limits import SLOW_ACTIONS
from taletable.server.responses import ERRORS
from taletable.server.retries import HEADER, retry_key
from taletable.server.session import SessionDep, request_session

__all__ = ["NewAction", "router"]

router = APIRouter(prefix="/api/tables/{table_id}", tags=["actions"])


class NewAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=100, description="The CLI's command path joined by dots")
    args: dict[str, Any] = Field(
        default_factory=dict, description="The CLI's option names without dashes"
    )
    visibility: Literal["public", "narrator", "blind"] = "public"


#: The action's body, read by :func:`act` itself (its schema for the API's description).
_BODY = {
    "required": True,
    "content": {"application/json": {"schema": NewAction.model_json_schema()}},
}


class DirectRoute(APIRoute):
    """A route whose endpoint is called with the request and its path's parameters as they
    are, without FastAPI's solving of its parameters (the endpoint reads its body and token
    itself, and its description says what they are). The rest is FastAPI's: its place in the
    API's description, the exception handlers, the middlewares."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint = self.endpoint

        async def handler(request: Request) -> Response:
            return cast(Response, await endpoint(request=request, **request.path_params))

        return handler


async def act(table_id: str, request: Request) -> Response:
    """Take an action; 201 with its event (a blind or narrator-only one shows a player a stub).
    A read (odds, a fight's status or replay, a sheet's pools: ``"read": true`` in ``GET
    /actions``) makes no event: 200 with ``{"action", "result"}``, the result as this seat may
    see it (a fight's secret steps are the narrator's: a player sees it as of its last public
    step, and ``secret_steps`` counts those since). With an ``Idempotency-Key`` header, a
    retry by the same seat is answered as the first was, and writes nothing; the same key with
    another body is a 422 naming the header (``server/retries.py``)."""
    # the hot path: the session and the body are read here, not solved as FastAPI dependencies
    # (about 6% of an action's instructions; the answers to a bad token or body are the same)
    session = await request_session(request, table_id)
    body = await _new_action(request)
    retry = retry_key(request.headers.get(HEADER), body.model_dump(mode="json"))
    if is_read(body.action):
        answer = await asyncio.to_thread(session.answer, body.action, body.args)
        return JSONResponse(answer, status_code=200)
    taken = await session.act_on_loop(body.action, body.args, body.visibility, retry)
    return Response(taken.answer, status_code=taken.status, media_type="application/json")


# the hot path's route: its parameters solved by no one (~5% of an action's instructions)
router.add_api_route(
    "/actions",
    act,
    methods=["POST"],
    status_code=201,
    responses={
        200: {"description": "A read's answer (no event)", "content": {"application/json": {}}},
        201: {"content": {"application/json": {}}},
        **ERRORS,
    },
    response_class=Response,
    openapi_extra={
        "requestBody": _BODY,
        "security": [{"HTTPBearer": []}],
        "parameters": [
            {
                "name": HEADER,
                "in": "header",
                "required": False,
                "description": "A retry with the same key by the same seat gets the first "
                "answer and writes nothing (kept 24 hours); 1 to 128 of A-Z a-z 0-9 . _ : + / = -",
                "schema": {"type": "string", "maxLength": 128, "pattern": "^[A-Za-z0-9._:+/=-]+$"},
            }
        ],
    },
    route_class_override=DirectRoute,
)


async def _new_action(request: Request) -> NewAction:
    """The request's body as a :class:`NewAction`; 422 naming the field, as FastAPI's own."""
    try:
        return NewAction.model_validate_json(await request.body())
    except ValidationError as error:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors()]
        raise RequestValidationError(problems) from None


@router.get("/actions", include_in_schema=True, responses=ERRORS)
def list_actions(session: SessionDep) -> dict[str, list[dict[str, Any]]]:
    """Every action this server can take, by name, with its summary and the JSON schema of its
    ``args`` (each field described as the command line's ``--help`` describes its option)."""
    return {
        "actions": [
            {
                "name": name,
                "summary": action.summary,
                "read": action.reads,
                "args": _args_schema(action.request),
            }
            for name, action in all_actions().items()
            if name not in SLOW_ACTIONS
        ]
    }


@cache
def _args_schema(request: type[BaseModel]) -> dict[str, Any]:
    return request.model_json_schema(by_alias=False)
