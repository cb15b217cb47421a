"""Every registered action, posted with arguments drawn from its own published schema
(``GET /api/tables/{id}/actions``), never answers a 5xx: whatever the schema allows, the engine
either plays or refuses it as a 4xx naming the field (no engine validation error escapes as a
500). The schemas are turned into an OpenAPI document whose operations Schemathesis draws
bodies from (valid ones: the schema's types, bounds and choices); the run is derandomized (the
same cases every time), with a bounded number of cases per action and a time bound on each."""

from __future__ import annotations

import json
import time
from typing import Any

import hypothesis
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck

from .conftest import Seats, make_table

#: Cases drawn for each action.
CASES = 12
#: The longest one action may take here (seconds): limits are checked before the work.
MOST_SECONDS = 10.0
SETTINGS = hypothesis.settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=CASES,
    suppress_health_check=list(HealthCheck),
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
)


def _document(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """An OpenAPI document with one operation per action, whose body is the action's request
    as published (its ``$defs`` moved to the document's components)."""
    paths, components = {}, {}
    for index, action in enumerate(actions):
        args = json.loads(json.dumps(action["args"]).replace("#/$defs/", "#/components/schemas/"))
        components.update(args.pop("$defs", {}))
        body = {
            "type": "object",
            "properties": {"action": {"const": action["name"]}, "args": args},
            "required": ["action", "args"],
            "additionalProperties": False,
        }
        paths[f"/action/{index}"] = {
            "post": {
                "operationId": action["name"],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": body}},
                },
                "responses": {"default": {"description": "any"}},
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "actions", "version": "1"},
        "paths": paths,
        "components": {"schemas": components},
    }


def _post_all(client: TestClient, table: Seats, operation: Any, seen: list[int]) -> None:
    url = f"/api/tables/{table.id}/actions"

    def post(case: Any) -> None:
        began = time.monotonic()
        answer = client.post(url, json=case.body, headers=table.narrator)
        took = time.monotonic() - began
        seen.append(answer.status_code)
        assert answer.status_code < 500, (case.body, answer.text)
        assert took < MOST_SECONDS, (case.body, took)
        if answer.status_code >= 400:
            assert answer.json()["error"]["message"], answer.text

    strategy = operation.as_strategy(schemathesis.GenerationMode.POSITIVE)
    SETTINGS(hypothesis.given(strategy)(post))()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_action_with_arguments_from_its_schema_answers_no_5xx(client: TestClient) -> None:
    """Each action of a Cogent and of a boons table, posted by the narrator with arguments
    its published schema allows, answers 2xx or 4xx (never 5xx), each within the bound; many
    are played (2xx), so the cases reach the engine."""
    for system in ("cogent", "boons"):
        seen: list[int] = []
        table = make_table(client, system=system)
        listed = client.get(f"/api/tables/{table.id}/actions", headers=table.narrator)
        actions = listed.json()["actions"]
        schema = schemathesis.openapi.from_dict(_document(actions))
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) == len(actions)
        for operation in operations:
            _post_all(client, table, operation, seen)
        played = sum(1 for status in seen if status < 300)
        assert len(seen) >= len(actions) and played >= len(actions), (system, played, seen)
