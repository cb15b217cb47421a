"""The live table's guarantees against a real ``taletable serve`` process (SQLite and
PostgreSQL): the stream, reconnection, secrets on the wire, no lost update."""

from __future__ import annotations

import functools
import threading
import time
from typing import Any

import httpx

from taletable.ledger import canonical_json
from taletable.play import is_read
from tests.server.conftest import LiveServer, Seats, make_table
from tests.server.streams import head_seq, open_stream
from tests.server.test_characters import terrik

CHECK = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}


def post_action(http: httpx.Client, table: Seats, headers: dict[str, str], **body: Any) -> Any:
    answer = http.post(f"/api/tables/{table.id}/actions", json=body or CHECK, headers=headers)
    assert answer.status_code == (200 if is_read(body.get("action", "")) else 201), answer.text
    return answer.json()


def test_every_seat_hears_an_action_within_a_second(live_server: LiveServer) -> None:
    """An action posted by one seat reaches the open streams of the others, in order, fast."""
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        table = make_table(http)
        joined = head_seq(http, table.id, table.narrator)
        streams = [open_stream(live_server.url, table.id, h) for h in (table.narrator, table.bram)]
        posted = [(time.monotonic(), post_action(http, table, table.mara)) for _ in range(5)]
        for stream in streams:
            received = stream.wait_for(joined + len(posted))  # the table's opening, then ours
            assert [m.id for m in received] == list(range(1, joined + len(posted) + 1))
            for (sent, event), message in zip(posted, received[joined:], strict=True):
                assert message.data["result"] == event["result"]
                assert message.arrived - sent < 1.0
            stream.close()


def test_a_reconnect_with_last_event_id_gets_exactly_what_it_missed(
    live_server: LiveServer,
) -> None:
    """A client that drops after seq N and comes back with ``Last-Event-ID: N`` receives every
    event after N once, in order, then the live ones: no gap, no repeat, no drift."""
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        table = make_table(http)
        first = open_stream(live_server.url, table.id, table.bram)
        post_action(http, table, table.mara)
        seen = first.wait_for(head_seq(http, table.id, table.narrator))
        first.close()
        last = seen[-1].id
        missed = [post_action(http, table, table.mara)["seq"] for _ in range(4)]
        again = open_stream(live_server.url, table.id, table.bram, after=last)
        live = post_action(http, table, table.mara)["seq"]
        received = [m.id for m in again.wait_for(len(missed) + 1)]
        time.sleep(0.3)
        assert received == [*missed, live] and [m.id for m in again.messages] == received
        again.close()


def test_secrets_never_cross_the_wire_to_a_player(live_server: LiveServer) -> None:
    """On the raw bytes of a player's stream: no narrator-only event at all, and of a blind
    roll only its roller's stub (no result, no faces); the narrator's stream has everything."""
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        table = make_table(http)
        start = head_seq(http, table.id, table.narrator)
        mara = open_stream(live_server.url, table.id, table.mara, after=start)
        bram = open_stream(live_server.url, table.id, table.bram, after=start)
        narrator = open_stream(live_server.url, table.id, table.narrator, after=start)
        secret = post_action(
            http, table, table.narrator,
            action="cogent.check", args={"pool": 7, "cl": 3}, visibility="narrator",
        )  # fmt: skip
        blind = post_action(
            http, table, table.mara,
            action="cogent.check", args={"pool": 6, "cl": 2}, visibility="blind",
        )  # fmt: skip
        public = post_action(http, table, table.bram)
        assert [m.id for m in narrator.wait_for(3)] == [secret["seq"], blind["seq"], public["seq"]]
        assert narrator.messages[1].data["result"]["pool"] == 6
        assert [m.id for m in mara.wait_for(2)] == [blind["seq"], public["seq"]]
        assert [m.id for m in bram.wait_for(1)] == [public["seq"]]
        for stream in (mara, bram):
            raw = bytes(stream.raw)
            assert b'"pool":7' not in raw and b'"pool":6' not in raw
            assert raw.count(b'"result":') == 1  # the public roll's, and no other
            for hidden in narrator.messages[:2]:  # the secret's and the blind roll's dice
                assert canonical_json(hidden.data["dice"]).encode() not in raw
            assert f"id: {secret['seq']}\n".encode() not in raw
        assert mara.messages[0].data["hidden"] is True
        for stream in (mara, bram, narrator):
            stream.close()


def _race(calls: list[Any]) -> list[httpx.Response]:
    """Run ``calls`` at the same moment from their own threads; their answers, in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_two_seats_editing_one_sheet_at_once_lose_nothing(live_server: LiveServer) -> None:
    """A hundred rounds of two seats saving one sheet from the same version at the same moment:
    each round exactly one lands and the other gets 409 with the current version, and what
    is stored is always the edit that landed."""
    with (
        httpx.Client(base_url=live_server.url, timeout=30) as mara,
        httpx.Client(base_url=live_server.url, timeout=30) as narrator,
    ):
        table = make_table(mara)
        base = f"/api/tables/{table.id}/characters"
        cid = mara.post(base, json={"sheet": terrik()}, headers=table.mara).json()["id"]
        version = 1
        for round_number in range(100):
            edits = {}
            for who in ("mara", "narrator"):
                sheet = terrik()
                sheet["identity"]["name"] = f"{who} {round_number}"
                edits[who] = sheet
            answers = _race(
                [
                    functools.partial(
                        client.put,
                        f"{base}/{cid}",
                        json={"sheet": edits[who], "version": version},
                        headers=getattr(table, who),
                    )
                    for who, client in (("mara", mara), ("narrator", narrator))
                ]
            )
            statuses = sorted(answer.status_code for answer in answers)
            assert statuses == [200, 409], [answer.text for answer in answers]
            winner = "mara" if answers[0].status_code == 200 else "narrator"
            loser = answers[1] if winner == "mara" else answers[0]
            assert loser.json()["version"] == version + 1
            version += 1
            stored = mara.get(f"{base}/{cid}", headers=table.mara).json()
            assert stored == {"sheet": edits[winner], "version": version}


def test_two_seats_acting_on_one_encounter_at_once_never_double_a_step(
    live_server: LiveServer,
) -> None:
    """Fifty encounters: the same attack is declared twice at the same moment, then resolve is
    pressed twice at the same moment (the narrator's seat: only it acts for bestiary goblins,
    server/combat_seats.py). Each time one lands and the other is refused by the state it
    would have overwritten, so the encounter holds one declaration and one roll, never two."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        table = make_table(http)
        url = f"/api/tables/{table.id}/actions"
        for number in range(50):
            key = f"fight-{number}"
            post_action(
                http, table, table.narrator, action="cogent.combat.start",
                args={"encounter": key, "fighter": ["a:left:@goblin", "b:right:@goblin"]},
            )  # fmt: skip
            order = post_action(
                http, table, table.narrator, action="cogent.combat.status", args={"file": key}
            )["result"]
            first = min(
                order["combatants"],
                key=lambda f: (f["sheet"]["attributes"]["RFL"], f["tie_roll"], f["tie_rerolls"]),
            )["id"]  # a tied roll-off is rolled again
            other = "b" if first == "a" else "a"
            declare = {
                "action": "cogent.combat.declare",
                "args": {"file": key, "actor": first, "action": "attack", "target": other},
            }
            answers = _race([functools.partial(http.post, url, json=declare, headers=seat)
                             for seat in (table.narrator, table.narrator)])  # fmt: skip
            assert sorted(a.status_code for a in answers) == [201, 422], answers[0].text
            refused = next(a for a in answers if a.status_code == 422).json()["error"]
            assert "declared" in refused["message"], refused
            post_action(
                http, table, table.narrator, action="cogent.combat.declare",
                args={"file": key, "actor": other, "action": "attack", "target": first},
            )  # fmt: skip
            resolve = {"action": "cogent.combat.resolve", "args": {"file": key}}
            answers = _race([functools.partial(http.post, url, json=resolve, headers=seat)
                             for seat in (table.narrator, table.narrator)])  # fmt: skip
            assert sorted(a.status_code for a in answers) == [201, 422], answers[0].text
            final = post_action(
                http, table, table.narrator, action="cogent.combat.status", args={"file": key}
            )["result"]
            kinds = [step["kind"] for step in final["steps"]]
            assert kinds == ["declare", "declare", "resolve"], kinds


def test_a_second_table_is_not_woken_by_the_first(live_server: LiveServer) -> None:
    """A stream hears only its own table's events."""
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        one, two = make_table(http), make_table(http)
        stream = open_stream(
            live_server.url, two.id, two.bram, after=head_seq(http, two.id, two.bram)
        )
        post_action(http, one, one.mara)
        mine = post_action(http, two, two.mara)
        assert [m.id for m in stream.wait_for(1)] == [mine["seq"]]
        time.sleep(0.2)
        assert len(stream.messages) == 1
        stream.close()
