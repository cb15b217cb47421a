"""Let it Ride across scenes (issue 37.1; 003 > Additional Mechanics > Let it Ride): a roll
binds its situation until the narrator marks that the circumstances changed, "even the next
day"; the table switch ``let_it_ride_per_scene`` frees every situation at a new scene; the
narrator binds a freed situation again; an opposed contest binds as a check does; and a group
challenge is final (003 > Group Challenges)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN, Seats, make_table

RULE = "the check cannot be repeated for the same situation"
FINAL = "is final and cannot be modified by any further rolls or abilities"
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
SILARN = {"character": "Silarn", "situation": "deceive the magistrate", "tested": "Deception"}
#: 003 > Opposed Contests: Silarn's Stealth (5, 5, 2 + 5 + 4 = 21) against the shopkeeper's
#: Perception (4, 2, 7 + 2 = 15), in the situation of pocketing the potion.
POTION = {"a_bonus": 9, "b_bonus": 2, "faces_a": "5,5,2", "faces_b": "4,2,7",
          "situation": "pocket the potion", "character": "Silarn", "tested": "Stealth"}  # fmt: skip
#: A party scaling the cliff: Irzi (Acrobatics) and Dariel (Survival), 003 > Group Challenges.
CLIFF = {"difficulty": "moderate", "members": ["Irzi:9:25:Acrobatics", "Dariel:12:22:Survival"],
         "situation": "scale the cliff"}  # fmt: skip


def _act(client: TestClient, table: Seats, headers: dict[str, str], action: str,
         **args: Any) -> Any:  # fmt: skip
    return client.post(f"/api/tables/{table.id}/actions", json={"action": action, "args": args},
                       headers=headers)  # fmt: skip


def _check(client: TestClient, table: Seats, **args: Any) -> Any:
    return _act(client, table, table.mara, "boons.check", bonus=9, target=25, **{**SILARN, **args})


def _next_scene(client: TestClient, table: Seats) -> None:
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201


def _mark(client: TestClient, table: Seats, action: str, **args: Any) -> Any:
    return _act(client, table, table.narrator, action, **{"situation": SILARN["situation"], **args})


def test_silarn_may_not_repeat_the_deception_the_next_day(client: TestClient) -> None:
    """By default (the book's reading) the bound situation stays bound in the next scene and
    the one after ("later in the same conversation or even the next day"), until the narrator
    marks that the circumstances changed (the planted evidence)."""
    table = make_table(client, system="boons")
    assert _check(client, table).status_code == 201
    for _scene in range(2):
        _next_scene(client, table)
        again = _check(client, table)
        assert again.status_code == 422 and RULE in again.json()["error"]["message"]
    assert _mark(client, table, "boons.circumstances-changed").status_code == 201
    assert _check(client, table).status_code == 201


def test_the_per_scene_switch_frees_every_situation_at_a_new_scene(client: TestClient) -> None:
    """A table made with ``let_it_ride_per_scene`` refuses the repeat in the scene and allows
    it in the next; the narrator may bind it again there, and the repeat is refused again."""
    table = make_table(client, system="boons", rules={"let_it_ride_per_scene": True})
    shown = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()
    assert _check(client, table).status_code == 201
    assert _check(client, table).status_code == 422
    _next_scene(client, table)
    assert _mark(client, table, "boons.bind-again").status_code == 201
    assert _check(client, table).status_code == 422
    _next_scene(client, table)
    assert _check(client, table).status_code == 201, shown


def test_the_narrator_binds_a_freed_situation_again(client: TestClient) -> None:
    """After the mark that frees Silarn's deception, the narrator's ``boons.bind-again`` takes it
    back: the repeat is refused again. Binding where nothing was freed is 422
    ``args.situation`` and the log does not move; a player's is 403."""
    table = make_table(client, system="boons")
    nothing = _mark(client, table, "boons.bind-again")
    assert nothing.status_code == 422 and nothing.json()["error"]["field"] == "args.situation"
    assert "was freed" in nothing.json()["error"]["message"]
    assert _check(client, table).status_code == 201
    assert _mark(client, table, "boons.circumstances-changed").status_code == 201
    player = _act(client, table, table.mara, "boons.bind-again", situation="deceive the magistrate")
    assert player.status_code == 403 and player.json()["error"]["field"] == "action"
    bound = _mark(client, table, "boons.bind-again", situation="Deceive the  magistrate")
    assert bound.status_code == 201, bound.text
    assert bound.json()["result"]["rules_applied"][0]["kind"] == "boons.check.bound_again"
    again = _check(client, table)
    assert again.status_code == 422 and RULE in again.json()["error"]["message"]
    assert _mark(client, table, "boons.circumstances-changed").status_code == 201
    assert _check(client, table).status_code == 201


def test_only_the_freed_character_is_bound_again(client: TestClient) -> None:
    """A mark for one character, taken back for that character, binds only its checks."""
    table = make_table(client, system="boons")
    assert _check(client, table).status_code == 201
    assert _check(client, table, character="Irzi").status_code == 201
    _mark(client, table, "boons.circumstances-changed")
    assert _mark(client, table, "boons.bind-again", character="Irzi").status_code == 201
    assert _check(client, table, character="Irzi").status_code == 422
    assert _check(client, table).status_code == 201


def test_silarn_s_contest_with_the_shopkeeper_binds(client: TestClient) -> None:
    """003 > Opposed Contests with the book's numbers (21 against 15: Silarn wins); named in a
    situation, the contest binds it as a check does: the same attempt is refused, 422
    ``args.situation``, until the circumstances change; a check of the same test there is the
    same attempt."""
    table = make_table(client, system="boons", physical_dice=True)
    first = _act(client, table, table.mara, "boons.contest", **POTION)
    assert first.status_code == 201, first.text
    result = first.json()["result"]
    assert (result["a_total"], result["b_total"], result["winner"]) == (21, 15, "a")
    assert result["rules_applied"][-1]["kind"] == "boons.check.binding"
    again = _act(client, table, table.mara, "boons.contest", **POTION)
    assert again.status_code == 422 and RULE in again.json()["error"]["message"]
    alone = _act(client, table, table.mara, "boons.check", bonus=9, target=15,
                 **{key: POTION[key] for key in ("situation", "character", "tested")})
    assert alone.status_code == 422
    freed = {"situation": "pocket the potion"}
    _act(client, table, table.narrator, "boons.circumstances-changed", **freed)
    assert _act(client, table, table.mara, "boons.contest", **POTION).status_code == 201


def test_a_group_challenge_is_final(client: TestClient) -> None:
    """003 > Group Challenges: "Once the outcome of the challenge has been determined it is
    final and cannot be modified by any further rolls or abilities": run again in its situation
    it is refused (422 ``args.situation``, the book's words), in the next scene too, until the
    narrator marks that the circumstances changed."""
    table = make_table(client, system="boons")
    first = _act(client, table, table.narrator, "boons.group", **CLIFF)
    assert first.status_code == 201, first.text
    advice = [note["kind"] for note in first.json()["result"]["advice"]]
    assert advice[-1] == "boons.group.final"
    again = _act(client, table, table.narrator, "boons.group", **CLIFF)
    assert again.status_code == 422 and again.json()["error"]["field"] == "args.situation"
    assert FINAL in again.json()["error"]["message"]
    assert "003 > Group Challenges" in again.json()["error"]["message"]
    _next_scene(client, table)
    assert _act(client, table, table.narrator, "boons.group", **CLIFF).status_code == 422
    elsewhere = _act(client, table, table.narrator, "boons.group", **{**CLIFF, "situation": "ford"})
    assert elsewhere.status_code == 201
    _act(client, table, table.narrator, "boons.circumstances-changed", situation="scale the cliff")
    assert _act(client, table, table.narrator, "boons.group", **CLIFF).status_code == 201


def test_the_switch_is_a_boons_table_s(client: TestClient) -> None:
    """The rule options list the boons switch apart; a labcats table refuses it, and a boons
    table refuses a Cogent switch, each 422 naming the field."""
    options = client.get("/api/tables/rule-options").json()
    assert "let_it_ride_per_scene" in options["boons_rules"]
    assert "let_it_ride_per_scene" not in options["rules"]
    for system, rules in (("labcats", {"let_it_ride_per_scene": True}),
                          ("boons", {"destiny_after_cap": True})):  # fmt: skip
        made = client.post("/api/tables", json={"name": "T", "system": system, "rules": rules})
        assert made.status_code == 422, made.text
        assert made.json()["error"]["field"].startswith("rules")


def _page_table(client: TestClient, **form: str) -> str:
    made = client.post("/start", data={"name": "Tavern", "system": "boons", **form},
                       headers=SAME_ORIGIN)  # fmt: skip
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None, made.text
    return found.group(1)


@SQLITE
def test_the_narrator_s_page_marks_and_binds_again(client: TestClient) -> None:
    """The narrator's tools on a boons table free a situation and bind it again; the check
    panel's repeat is refused, allowed, refused again accordingly."""
    table_id = _page_table(client)
    page = client.get(f"/t/{table_id}").text
    assert "Let it Ride: situations" in page and "Bind it again" in page
    hx = {"HX-Request": "true"}
    form = {"bonus": "2", "boons": "0", "banes": "0", "target": "12", "situation": "the cliff"}
    panel = f"/t/{table_id}/panel/boons-check"
    assert "Rolled" in client.post(panel, data=form, headers=hx).text
    assert RULE in html.unescape(client.post(panel, data=form, headers=hx).text)
    freed = client.post(f"/t/{table_id}/situation", data={"situation": "the cliff",
                        "mark": "changed"}, headers=hx)  # fmt: skip
    assert "may be rolled again" in html.unescape(freed.text)
    bound = client.post(f"/t/{table_id}/situation", data={"situation": "the cliff",
                        "mark": "bind-again"}, headers=hx)  # fmt: skip
    assert "bind again" in html.unescape(bound.text)
    assert RULE in html.unescape(client.post(panel, data=form, headers=hx).text)


@SQLITE
def test_the_start_page_offers_the_switch_and_the_group_challenge(client: TestClient) -> None:
    """The Start page's boons box makes a per-scene table; the narrator's group challenge form
    shows 003's advice, runs the challenge, says when the same skill has different targets, and
    refuses it run again in its situation."""
    assert "let_it_ride_per_scene" in client.get("/?system=boons").text
    table_id = _page_table(client, rule_let_it_ride_per_scene="true")
    cookies = client.get(f"/t/{table_id}").text
    assert "same for everyone testing the same skill" in cookies
    assert "declared before the first roll" in cookies
    form = {"difficulty": "moderate", "situation": "scale the cliff", "visibility": "public",
            "members": "Irzi:9:25:Acrobatics\nDariel:12:22:Acrobatics"}  # fmt: skip
    hx = {"HX-Request": "true"}
    ran = html.unescape(client.post(f"/t/{table_id}/group", data=form, headers=hx).text)
    assert "Rolled" in ran and "the same difficulty for everyone testing the same skill" in ran
    assert "Irzi and Dariel test Acrobatics against different targets, 22 and 25" in ran
    again = html.unescape(client.post(f"/t/{table_id}/group", data=form, headers=hx).text)
    assert FINAL in again and "Rolled" not in again


def test_a_per_scene_table_s_export_verifies(client: TestClient) -> None:
    """A boons table made with the switch is exported and verified whole: its option is the
    live table's, not a Cogent rule, so its actions replay."""
    from taletable.audit import verify_table

    table = make_table(client, system="boons", rules={"let_it_ride_per_scene": True})
    assert _check(client, table).status_code == 201
    _next_scene(client, table)
    exported = client.get(f"/api/tables/{table.id}/export", headers=table.narrator)
    assert exported.status_code == 200, exported.text
    verified = verify_table(exported.json())
    assert verified.ok and verified.replayed >= 1, verified
