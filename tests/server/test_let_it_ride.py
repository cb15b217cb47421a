"""Let it Ride and Prior Declaration at the live table (003 > Additional Mechanics): a boons
check that names its situation binds it; the narrator frees it; an ability's
re-roll stays possible; boons and banes are declared before the roll, never after."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.play import all_actions
from tests.server.conftest import SAME_ORIGIN, Seats, make_table

RULE = "the check cannot be repeated for the same situation"
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
SILARN = {"character": "Silarn", "situation": "deceive the magistrate", "tested": "Deception"}


def _act(
    client: TestClient, table: Seats, headers: dict[str, str], action: str, **args: Any
) -> Any:
    return client.post(f"/api/tables/{table.id}/actions", json={"action": action, "args": args},
                       headers=headers)  # fmt: skip


def _check(client: TestClient, table: Seats, headers: dict[str, str], **args: Any) -> Any:
    return _act(client, table, headers, "boons.check", bonus=9, target=25, **args)


def _head(client: TestClient, table: Seats) -> int:
    return int(client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"])


@pytest.fixture
def boons(client: TestClient) -> Seats:
    return make_table(client, system="boons")


def test_silarn_magistrate_at_the_live_table(client: TestClient, boons: Seats) -> None:
    """003 > Let it Ride: Silarn's deception of the magistrate binds; his repeat in the scene is
    422 naming ``args.situation`` with the rule's words, and the log does not move; once the
    narrator marks that evidence was planted (the circumstances changed), he may try again."""
    assert _check(client, boons, boons.mara, **SILARN).status_code == 201
    seq = _head(client, boons)
    again = _check(client, boons, boons.mara, **{**SILARN, "situation": " Deceive the  magistrate"})
    assert again.status_code == 422
    error = again.json()["error"]
    assert error["field"] == "args.situation"
    assert RULE in error["message"]
    assert "003 > Additional Mechanics > Let it Ride" in error["message"]
    assert _head(client, boons) == seq
    changed = _act(client, boons, boons.narrator, "boons.circumstances-changed",
                   situation="deceive the magistrate")  # fmt: skip
    assert changed.status_code == 201 and changed.json()["kind"] == "boons.circumstances-changed"
    retried = _check(client, boons, boons.mara, **SILARN)
    assert retried.status_code == 201, retried.text
    assert retried.json()["result"]["rules_applied"][-1]["kind"] == "boons.check.binding"


def test_only_the_same_check_by_the_same_character_in_the_scene_is_refused(
    client: TestClient, boons: Seats
) -> None:
    """Another character, another test, a check naming no situation and a re-roll an ability
    grants are all allowed; the next scene is not (the book's reading: "or even the next
    day"; tests/server/test_let_it_ride_scenes.py has the switch that frees at a new scene)."""
    assert _check(client, boons, boons.mara, **SILARN).status_code == 201
    allowed = [
        {**SILARN, "character": "Irzi"},
        {**SILARN, "tested": "Persuasion"},
        {"character": "Silarn", "tested": "Deception"},
        {**SILARN, "reroll": True},
    ]
    for args in allowed:
        answer = _check(client, boons, boons.mara, **args)
        assert answer.status_code == 201, (args, answer.text)
    kinds = [note["kind"] for note in answer.json()["result"]["rules_applied"]]
    assert "boons.check.rerolled" in kinds
    assert _check(client, boons, boons.mara, **SILARN).status_code == 422
    scene = client.post(f"/api/tables/{boons.id}/scenes", headers=boons.narrator)
    assert scene.status_code == 201
    assert _check(client, boons, boons.mara, **SILARN).status_code == 422


def test_a_seat_without_a_character_is_bound_by_its_seat(client: TestClient, boons: Seats) -> None:
    """A check naming no character binds the seat that rolled: Mara's repeat is refused,
    Bram's first roll is not."""
    args = {"situation": "climb the cliff"}
    assert _check(client, boons, boons.mara, **args).status_code == 201
    assert _check(client, boons, boons.mara, **args).status_code == 422
    assert _check(client, boons, boons.bram, **args).status_code == 201


def test_only_the_narrator_marks_changed_circumstances(client: TestClient, boons: Seats) -> None:
    """A player's boons.circumstances-changed is 403; a change for one character frees only
    that character's checks."""
    _check(client, boons, boons.mara, **SILARN)
    _check(client, boons, boons.bram, **{**SILARN, "character": "Irzi"})
    refused = _act(client, boons, boons.mara, "boons.circumstances-changed",
                   situation="deceive the magistrate")  # fmt: skip
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "action"
    _act(client, boons, boons.narrator, "boons.circumstances-changed",
         situation="deceive the magistrate", character="Irzi")  # fmt: skip
    assert _check(client, boons, boons.bram, **{**SILARN, "character": "Irzi"}).status_code == 201
    assert _check(client, boons, boons.mara, **SILARN).status_code == 422


def test_boons_and_banes_are_declared_before_the_roll(client: TestClient, boons: Seats) -> None:
    """003 > Prior Declaration: no action follows a boons check to change it (the only
    follow-ups are Cogent's destiny), and a boons check sent as a follow-up is refused."""
    followers = [name for name, chosen in all_actions().items()
                 if "follows" in chosen.request.model_fields]  # fmt: skip
    assert followers and not [name for name in followers if name.startswith("boons.")]
    seq = _check(client, boons, boons.mara).json()["seq"]
    late = _check(client, boons, boons.mara, follows=seq, boons=2)
    assert late.status_code == 422 and late.json()["error"]["field"] == "args.follows"


@SQLITE
def test_the_roll_form_takes_a_situation(client: TestClient) -> None:
    """The boons check panel's Situation field binds the check: the second roll in the same
    situation is refused in words, the rule quoted."""
    made = client.post(
        "/start", data={"name": "Tavern", "system": "boons", "edition": "core"}, headers=SAME_ORIGIN
    )
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    table_id = found.group(1)
    assert 'name="situation"' in client.get(f"/t/{table_id}").text
    form = {"bonus": "2", "boons": "0", "banes": "0", "target": "12", "situation": "the cliff"}
    first = client.post(f"/t/{table_id}/panel/boons-check", data=form,
                        headers={"HX-Request": "true"})  # fmt: skip
    assert "Rolled" in first.text
    second = client.post(f"/t/{table_id}/panel/boons-check", data=form,
                         headers={"HX-Request": "true"})  # fmt: skip
    assert RULE in html.unescape(second.text) and "Rolled" not in second.text


#: The situation "deceive the magistrate" as an attacker spells it to roll again: each looks
#: the same (or nearly) on the page and must count as the same situation.
LOOK_ALIKES = {
    "a zero-width space": "deceive the\u200b magistrate",
    "full-width letters": "ｄｅｃｅｉｖｅ the magistrate",
    "a Cyrillic a (U+0430)": "deceive the m\u0430gistrate",
    "a soft hyphen": "de\u00adceive the magistrate",
    "a trailing combining accent": "deceive the magistrate\u0301",
    "a no-break space": "deceive\u00a0the magistrate",
    "Cyrillic capitals": "DECEIVE THE M\u0410GISTR\u0410T\u0415",
}


@pytest.mark.parametrize("spelling", LOOK_ALIKES.values(), ids=list(LOOK_ALIKES))
def test_a_look_alike_situation_is_the_same_situation(
    client: TestClient, boons: Seats, spelling: str
) -> None:
    """Let it Ride is not dodged with look-alike text (RULINGS.md "let it ride"): the repeat
    spelled with invisible, full-width, accented or Cyrillic letters is refused, 422
    ``args.situation``, and the log does not move; so is a repeat of a check first made with
    the look-alike spelling."""
    assert _check(client, boons, boons.mara, **SILARN).status_code == 201
    seq = _head(client, boons)
    again = _check(client, boons, boons.mara, **{**SILARN, "situation": spelling})
    assert again.status_code == 422, again.text
    assert again.json()["error"]["field"] == "args.situation"
    assert RULE in again.json()["error"]["message"]
    assert _head(client, boons) == seq
    other = {**SILARN, "character": "Irzi", "situation": spelling}
    assert _check(client, boons, boons.bram, **other).status_code == 201
    plain = _check(client, boons, boons.bram, **{**other, "situation": "deceive the magistrate"})
    assert plain.status_code == 422 and plain.json()["error"]["field"] == "args.situation"


def test_a_look_alike_character_or_test_is_the_same(client: TestClient, boons: Seats) -> None:
    """The character's and the test's names are folded alike: Silarn spelled with a Cyrillic
    ``а`` and a zero-width joiner, or Deception in full-width letters, is the same check."""
    assert _check(client, boons, boons.mara, **SILARN).status_code == 201
    for changed in ({"character": "Sil\u0430rn\u200d"}, {"tested": "Ｄｅｃｅｐｔｉｏｎ"}):
        again = _check(client, boons, boons.mara, **{**SILARN, **changed})
        assert again.status_code == 422, (changed, again.text)


def test_a_situation_of_invisible_characters_is_refused(client: TestClient, boons: Seats) -> None:
    """A situation made only of zero-width and format characters would bind nothing: 422
    ``args.situation`` saying to name it in words; nothing is logged."""
    seq = _head(client, boons)
    answer = _check(client, boons, boons.mara, situation="\u200b\u2060\u00ad")
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "args.situation"
    assert "words" in answer.json()["error"]["message"]
    assert _head(client, boons) == seq
