"""Which arguments carry physical dice is each request's own declaration (issue 22.3): a field
typed ``Faces`` or ``Face`` (:class:`taletable.play.fields.PhysicalDice`), never a name the
server guesses. For every registered action and each of its dice fields: at a table without
physical dice the field is refused (422 naming it, no event); at a table with them the action
is taken with it and its event is marked ``entered``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import AliasChoices, Field

from taletable.play import all_actions
from taletable.play.fields import Faces
from taletable.play.requests import Request
from tests.server.conftest import Seats, make_table

Args = dict[str, Any]
#: A function of a table (with physical dice) that prepares it and returns the args to post.
Prepare = Callable[[TestClient, Seats], Args]


def _post(client: TestClient, table: Seats, action: str, args: Args) -> Any:
    body = {"action": action, "args": args}
    return client.post(f"/api/tables/{table.id}/actions", json=body, headers=table.narrator)


def _taken(client: TestClient, table: Seats, action: str, args: Args) -> dict[str, Any]:
    answer = _post(client, table, action, args)
    assert answer.status_code == 201, answer.text
    event: dict[str, Any] = answer.json()
    return event


def _a_fight_declared(client: TestClient, table: Seats) -> Args:
    """Two goblins who have declared attacks on each other: 5 dice each to roll."""
    fighters = ["a:a:@goblin", "b:b:@goblin"]
    started = {"encounter": "f", "fighters": fighters, "faces": "6,1"}  # a's tie-break wins
    _taken(client, table, "cogent.combat.start", started)
    for actor, target in (("b", "a"), ("a", "b")):  # the slower declares first
        declared = {"encounter": "f", "actor": actor, "action": "attack", "target": target}
        _taken(client, table, "cogent.combat.declare", declared)
    return {"encounter": "f", "faces": "6,6,6,6,6,1,1,1,1,1"}


def _a_check_logged(client: TestClient, table: Seats) -> Args:
    """A tiered check of 4 dice, logged; a reroll after it rolls the 4 again."""
    check = _taken(client, table, "cogent.check", {"pool": 4, "cl": 2, "faces": "4,4,4,1"})
    return {"follows": check["seq"], "destiny_after": "reroll", "destiny_points": 3,
            "faces": "6,6,6,6"}  # fmt: skip


def _irzi_tracked(client: TestClient, table: Seats) -> Args:
    """A boons character with a track (003 > Accumulation Checks), at a boons table."""
    sheet = {"name": "Irzi", "tracks": {"strain": {"value": 2}}}
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=table.narrator)  # fmt: skip
    assert made.status_code == 201, made.text
    return {"character": made.json()["id"], "track": "strain", "formula": "1d6", "faces": "4"}


def _an_injured_ranger(client: TestClient, table: Seats) -> Args:
    """Rick the Ranger (tiered) with a minor injury, treated with his Wildcraft (RULINGS.md
    "healing"): as many faces as his pool has dice."""
    from pathlib import Path

    import yaml

    from taletable.systems.cogent.character import check_pool
    from taletable.systems.cogent.character.files import character_from_data

    path = Path(__file__).resolve().parents[2] / "examples/characters/tiered_rick_the_ranger.yaml"
    sheet = {**yaml.safe_load(path.read_text()), "injuries": [{"level": 1}]}
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=table.narrator)  # fmt: skip
    assert made.status_code == 201, made.text
    size = check_pool(character_from_data(dict(sheet), source="rick"), "Wildcraft").size
    return {"character": made.json()["id"], "skill": "Wildcraft", "faces": ",".join("6" * size)}


#: The system of the table an action's dice are tried at, where it is not a tiered Cogent one.
SYSTEMS = {"boons.accumulate": "boons"}


def _table_for(client: TestClient, action: str, **extra: Any) -> Seats:
    system = SYSTEMS.get(action, "cogent")
    edition = {"edition": "tiered"} if system == "cogent" else {}
    return make_table(client, system=system, **edition, **extra)


#: Known-good args of every action that takes physical dice, each dice field given, at a
#: tiered table (a function where the table must be prepared first).
GOOD: dict[str, Args | Prepare] = {
    "boons.accumulate": _irzi_tracked,
    "boons.check": {"target": 15, "faces": "1,2,5"},
    "boons.contest": {"a_bonus": 3, "b_bonus": 2, "faces_a": "4,4,4", "faces_b": "2,2,2"},
    "boons.group": {
        "difficulty": "moderate", "members": ["Irzi:9:25", "Bo:5:25"], "faces": "5,5,5,1,1,1"
    },
    "boons.scatter": {"grid": "square", "faces": "2,5"},
    "boons.twist": {"face": 5},
    "cogent.assist": {"pool": 4, "cl": 3, "faces": "6,6,1,1"},
    "cogent.cast": {"spell": "levitation", "pool": 7, "cl": 4, "faces": "6,5,4,4,1,1,1"},
    "cogent.check": {"pool": 4, "cl": 2, "faces": "4,5,1,2"},
    "cogent.character.treat": _an_injured_ranger,
    "cogent.collaborate": {"pools": [3, 2], "cl": 2, "faces": "6,5,1,1,6"},
    "cogent.combat.chase": {
        "distance": "close", "pursuer": "3", "target": "3", "rounds": 1, "faces": "6,6,6,1,1,1"
    },
    "cogent.combat.resolve": _a_fight_declared,
    "cogent.combat.start": {
        "encounter": "f", "fighters": ["a:a:@goblin", "b:b:@goblin"], "faces": "6,1"
    },
    "cogent.conflict": {"pool_a": 3, "pool_b": 2, "faces_a": "6,6,1", "faces_b": "1,1"},
    "cogent.destiny-after": _a_check_logged,
    "cogent.destiny-roll": {"face": 17},
    "cogent.encounter": {"where": "city", "time": "day", "faces": "50,3"},
    "cogent.summon": {"school": "pyromancy", "cl": 4, "pool": 6, "faces": "6,6,1,1,1,1"},
    "cogent.weather": {"season": "winter", "days": 1, "faces": "24,6"},
    "labcats.roll": {"pool": "d8,d6", "resources": "d6", "faces": "8,3", "resource_faces": "3"},
    "roll": {"notation": "2d6", "faces": "3,4"},
    "table.roll": {"name": "severity", "faces": "4"},
}  # fmt: skip

#: (action, one of its dice fields) for every registered action.
DICE_FIELDS = [
    (name, field)
    for name, action in all_actions().items()
    for field in action.request.dice_fields()
]


def _events(client: TestClient, table: Seats) -> list[dict[str, Any]]:
    answer = client.get(f"/api/tables/{table.id}/events", headers=table.narrator)
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def test_every_action_that_takes_dice_has_good_args() -> None:
    """Each action with a dice field has known-good args here, giving all its dice fields."""
    with_dice = {
        name: action for name, action in all_actions().items() if action.request.dice_fields()
    }
    assert set(GOOD) == set(with_dice)
    for name, args in GOOD.items():
        if isinstance(args, dict):
            assert set(with_dice[name].request.dice_fields()) <= set(args), name


def test_every_field_named_for_faces_is_declared_as_dice() -> None:
    """A request field (or alias) that speaks of faces carries physical dice and says so: a new
    one cannot slip past the table's rule by a name the server does not know."""
    for name, action in all_actions().items():
        declared = set(action.request.dice_fields())
        for field, info in action.request.model_fields.items():
            alias = info.validation_alias
            spellings = [field, *(alias.choices if isinstance(alias, AliasChoices) else [alias])]
            if any("face" in str(spelled).lower() for spelled in spellings if spelled):
                assert field in declared, f"{name}: {field} is not declared as dice"


def test_the_api_schema_marks_the_dice_fields(client: TestClient, table: Seats) -> None:
    """GET /actions shows each dice field as ``"physical_dice": true``, and no other field."""
    listed = client.get(f"/api/tables/{table.id}/actions", headers=table.mara).json()["actions"]
    for entry in listed:
        marked = {
            field
            for field, schema in entry["args"]["properties"].items()
            if schema.get("physical_dice")
        }
        assert marked == set(all_actions()[entry["name"]].request.dice_fields()), entry["name"]


@pytest.mark.parametrize(("action", "args"), [
    ("boons.twist", {"face": 100}),
    ("cogent.destiny-roll", {"face": 20}),
])  # fmt: skip
def test_a_single_die_typed_in_is_refused_without_physical_dice(
    client: TestClient, table: Seats, action: str, args: Args
) -> None:
    """The d100 of a twist of fate and the d20 of a destiny roll are physical dice too: a
    table that does not allow them refuses them (they were once rolled as asked, unmarked)."""
    before = _events(client, table)
    body = {"action": action, "args": args}
    answer = client.post(f"/api/tables/{table.id}/actions", json=body, headers=table.mara)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == {
        "field": "args.face",
        "message": "this table does not allow physical dice; remove the faces (the server rolls)",
    }
    assert _events(client, table) == before


@pytest.mark.parametrize(("action", "field"), DICE_FIELDS)
def test_a_dice_field_is_refused_at_a_table_without_physical_dice(
    client: TestClient, action: str, field: str
) -> None:
    """At a table without physical dice, the action with only this field given is refused,
    naming it, and nothing is logged."""
    table = _table_for(client, action)
    good = GOOD[action]
    if callable(good):  # prepared at another table: the refusal comes before any state is read
        good = good(client, _table_for(client, action, physical_dice=True))
    dice = set(all_actions()[action].request.dice_fields())
    given = {name: value for name, value in good.items() if name not in dice or name == field}
    before = _events(client, table)
    answer = _post(client, table, action, given)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == f"args.{field}"
    assert "does not allow physical dice" in answer.json()["error"]["message"]
    assert _events(client, table) == before


@pytest.mark.parametrize("action", sorted(GOOD))
def test_dice_fields_are_taken_and_marked_entered_where_the_table_allows_them(
    client: TestClient, action: str
) -> None:
    """At a table with physical dice, the action with its dice fields is taken with those
    faces: its event is marked ``entered`` and the server rolled no die of it."""
    table = _table_for(client, action, physical_dice=True)
    good = GOOD[action]
    args = good(client, table) if callable(good) else good
    assert set(all_actions()[action].request.dice_fields()) <= set(args)
    event = _taken(client, table, action, args)
    assert event["entered"] is True and event["dice"] == [], event


def test_a_dice_field_is_known_by_its_aliases_too() -> None:
    """A dice field given by an alias is given all the same, named as it was given."""

    class Aliased(Request):
        faces: Faces = Field(None, validation_alias=AliasChoices("faces", "rolled"))
        pool: int = 3

    assert Aliased.dice_fields() == ("faces",)
    assert Aliased.dice_given({"rolled": "1,2", "pool": 2}) == ("rolled",)
    assert Aliased.dice_given({"faces": None, "pool": 2}) == ()
