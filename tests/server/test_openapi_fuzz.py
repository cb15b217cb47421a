"""Schemathesis fuzzes every operation of ``/openapi.json`` (issue 14): no answer is a 5xx,
every 4xx has the body ``{"error": {"field", "message"}}``, and each answer's status, content
type and body conform to the document.

An operation on a table is fuzzed three ways: with generated (mostly invalid) tokens, the 401
path; with a real narrator's token at generated table ids, the 403 path; and with that token at
the real table (and its real character), so the fuzz goes past the token to the body. Actions
are fuzzed once more with bodies naming real actions and their real argument names, so the
engine behind each action is reached too. The run is derandomized (the same cases every time)
and small enough that the whole test takes well under a minute on SQLite.
"""

from __future__ import annotations

from typing import Any

import hypothesis
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from taletable.play import all_actions
from tests.server.conftest import Seats
from tests.server.test_characters import terrik

#: Cases per operation and way of fuzzing.
EXAMPLES = 20
#: Cases of real actions with fuzzed arguments.
ACTION_EXAMPLES = 500
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
SETTINGS = hypothesis.settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
)


def error_shape(_ctx: Any, response: Any, _case: Any) -> None:
    """Every 4xx is ``{"error": {"field": str | None, "message": str}}``."""
    if not 400 <= response.status_code < 500:
        return
    body = response.json()
    assert set(body["error"]) == {"field", "message"}, body
    assert body["error"]["field"] is None or isinstance(body["error"]["field"], str), body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body


def _check(case: Any) -> None:
    case.call_and_validate(checks=CHECKS, additional_checks=[error_shape])


def _ways(path: str, seats: Seats, character: str, method: str = "GET") -> list[dict[str, Any]]:
    """The overrides of each way to fuzz the operation ``method`` ``path``."""
    if "{table_id}" not in path:
        return [{}]
    token = seats.narrator
    # a valid token opens a stream that never ends, and deletes the table every other
    # operation is fuzzed at (tests/server/test_deleting.py deletes one): errors only
    if path.endswith("/stream") or (method.upper() == "DELETE" and path.endswith("{table_id}")):
        return [{}, {"headers": token, "path_parameters": {"table_id": "no-such-table"}}]
    real = {"table_id": seats.id, "character_id": character}
    real = {name: value for name, value in real.items() if "{" + name + "}" in path}
    return [{}, {"headers": token}, {"headers": token, "path_parameters": real}]


def _fuzz(operation: Any, overrides: dict[str, Any]) -> None:
    modes = (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE)
    strategy = st.one_of(operation.as_strategy(mode, **overrides) for mode in modes)
    hypothesis.settings(SETTINGS, max_examples=EXAMPLES)(hypothesis.given(strategy)(_check))()


#: Argument values near the edges every action checks: sizes, signs, types, huge numbers.
VALUES = st.one_of(
    st.sampled_from([0, 1, 3, -1, 200, 201, 1000, 10**9, -(10**9), 10**30, 2.5, 1e308]),
    st.sampled_from([None, True, False, "", "4", "2d6", "@goblin", "../pyproject.toml"]),
    st.text(max_size=12),
    st.lists(st.sampled_from([0, 1, 4, 6, 200, -1, "x"]), max_size=8),
    st.dictionaries(st.text(max_size=5), st.integers(-3, 300), max_size=3),
)


def _action_bodies(character: str) -> st.SearchStrategy[dict[str, Any]]:
    """Bodies naming a real action with arguments named as its request's fields (a value may be
    the table's real character)."""
    actions = all_actions()
    values = st.one_of(VALUES, st.just(character), st.just([f"t:a:{character}", "g:b:@goblin"]))

    def with_args(name: str) -> st.SearchStrategy[dict[str, Any]]:
        fields = sorted(actions[name].request.model_fields)
        args = (
            st.dictionaries(st.sampled_from(fields), values, max_size=5) if fields else st.just({})
        )
        return st.fixed_dictionaries({"action": st.just(name), "args": args})

    return st.sampled_from(sorted(actions)).flatmap(with_args)


def _fuzz_actions(operation: Any, seats: Seats, character: str) -> None:
    def case(body: dict[str, Any]) -> Any:
        return operation.Case(
            headers=seats.narrator,
            path_parameters={"table_id": seats.id},
            body=body,
            media_type="application/json",
        )

    strategy = _action_bodies(character).map(case)
    hypothesis.settings(SETTINGS, max_examples=ACTION_EXAMPLES)(
        hypothesis.given(strategy)(_check)
    )()


def fuzz_all(client: TestClient, seats: Seats) -> list[str]:
    """Fuzz every operation of the app's document; return the operations fuzzed."""
    made = client.post(
        f"/api/tables/{seats.id}/characters", json={"sheet": terrik()}, headers=seats.mara
    )
    character = made.json()["id"]
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    fuzzed = []
    for result in schema.get_all_operations():
        operation = result.ok()
        for overrides in _ways(operation.path, seats, character, operation.method):
            _fuzz(operation, overrides)
        if operation.path.endswith("/actions") and operation.method.upper() == "POST":
            _fuzz_actions(operation, seats, character)
        fuzzed.append(operation.label)
    return fuzzed


def test_no_operation_answers_a_5xx_or_breaks_its_document(
    client: TestClient, table: Seats
) -> None:
    """Fuzzing every operation finds no 5xx, no 4xx of another shape, no undocumented answer."""
    fuzzed = fuzz_all(client, table)
    assert "POST /api/tables/{table_id}/actions" in fuzzed and len(fuzzed) == 20


def test_a_body_that_is_not_utf8_json_is_422_naming_body(client: TestClient, table: Seats) -> None:
    """Bytes that are not UTF-8 were a bare 400 (found by the fuzz), text that is not JSON named
    field ``0``; both are now 422 field ``body``."""
    expected = {
        "error": {"field": "body", "message": "the body is not JSON in UTF-8; send a JSON document"}
    }
    for content in (b"\xff\xfe\x18", b"{name: 1"):
        answer = client.post(
            "/api/tables/import", content=content, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 422
        assert answer.json() == expected


def test_an_engine_field_in_capitals_is_named_as_its_json_argument(
    client: TestClient, table: Seats
) -> None:
    """``roll``'s NOTATION (the CLI's metavar) is answered as the JSON path ``args.notation``."""
    body = {"action": "roll", "args": {"notation": "2x6"}}
    answer = client.post(f"/api/tables/{table.id}/actions", json=body, headers=table.mara)
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "args.notation"


def test_the_document_describes_every_error_answer(client: TestClient) -> None:
    """Every operation documents 401, 403, 404, 409, 413, 422 and 429 as the one error body."""
    document = client.get("/openapi.json").json()
    error = document["components"]["schemas"]["ErrorBody"]
    assert error["required"] == ["error"]
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            for status in ("401", "403", "404", "409", "413", "422", "429"):
                answer = operation["responses"][status]["content"]["application/json"]["schema"]
                assert answer == {"$ref": "#/components/schemas/ErrorBody"}, (method, path, status)


def test_the_action_route_documents_the_body_and_token_it_reads_itself(
    client: TestClient, table: Seats
) -> None:
    """The action route reads its body and bearer token itself (the hot path); its document
    still names both, and a body it cannot read is answered as any other route's."""
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/api/tables/{table_id}/actions"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["action"] and schema["additionalProperties"] is False
    assert operation["security"] == [{"HTTPBearer": []}]
    assert "HTTPBearer" in document["components"]["securitySchemes"]
    path = f"/api/tables/{table.id}/actions"
    json_type = {"Content-Type": "application/json"}
    for content, field in ((b"", "body"), (b"[]", "body"), (b'{"args": {}}', "action"),
                           (b'{"action": "roll", "to": 1}', "to")):  # fmt: skip
        answer = client.post(path, content=content, headers={**table.mara, **json_type})
        assert answer.status_code == 422 and answer.json()["error"]["field"] == field, content
    lowercase = {"Authorization": table.mara["Authorization"].replace("Bearer", "bearer")}
    rolled = {"action": "roll", "args": {"notation": "1d6"}}
    assert client.post(path, json=rolled, headers=lowercase).status_code == 201
    assert client.post(path, json=rolled, headers={"Authorization": "Basic x"}).status_code == 401
