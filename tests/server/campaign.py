"""A campaign's log made the way a table makes one: through the API, in mixed play.

:func:`play_campaign` seats a narrator and two players and plays until the log holds the
events asked for: checks, rolls, whispers and chat with inline rolls, conflicts, a secret
narrator roll, a goblin fight in every scene, a scene closed every :data:`SCENE_LENGTH`
events. The campaign benchmark (``benchmarks/bench_campaign.py``) plays 1,000 to 100,000
events with it; the tests play a few thousand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.conftest import Seats, make_table

#: Events in a scene before the narrator closes it.
SCENE_LENGTH = 250


def _fight(post: Callable[..., Any], table: Seats, number: int) -> int:
    """A goblin fight: started, both sides declared, one round resolved (events written)."""
    encounter = f"f{number}"
    start = {"encounter": encounter, "fighters": ["a:a:@goblin", "b:b:@goblin"]}
    post(table.narrator, "cogent.combat.start", start)
    written = 1
    for first, other in (("a", "b"), ("b", "a"), ("a", "b")):  # the roll-off's winner first
        declared = {"encounter": encounter, "actor": first, "action": "attack", "target": other}
        if post(table.narrator, "cogent.combat.declare", declared):
            written += 1
    if post(table.narrator, "cogent.combat.resolve", {"encounter": encounter}):
        written += 1
    return written


def _round(post: Callable[..., Any], table: Seats, number: int) -> int:
    """One round of mixed play; how many events it wrote."""
    players = (table.mara, table.bram)
    seat = players[number % 2]
    steps: list[tuple[dict[str, str], str, dict[str, Any], str]] = [
        (seat, "cogent.check", {"pool": 3 + number % 5, "cl": 1 + number % 4}, "public"),
        (seat, "roll", {"notation": "2d6+1"}, "public"),
        (seat, "chat.say", {"text": f"I look around [[1d6]] ({number})"}, "public"),
        (table.narrator, "cogent.conflict", {"pool_a": 5, "pool_b": 4}, "public"),
        (seat, "chat.say", {"text": "psst", "to": [table.bram_seat]}, "public"),
        (table.narrator, "roll", {"notation": "3d1000"}, "narrator"),
    ]
    return sum(1 for who, action, args, seen in steps if post(who, action, args, seen))


def play_campaign(client: Any, events: int) -> Seats:
    """A table whose log holds at least ``events`` events (``client``: a TestClient or an
    httpx client of a server), played as above."""
    table = make_table(client)

    def post(who: dict[str, str], action: str, args: dict[str, Any], seen: str = "public") -> bool:
        body = {"action": action, "args": args, "visibility": seen}
        answer = client.post(f"/api/tables/{table.id}/actions", json=body, headers=who)
        assert answer.status_code in (201, 422), answer.text
        return bool(answer.status_code == 201)

    written, number, in_scene = 5, 0, 0
    while written < events:
        if in_scene >= SCENE_LENGTH:
            answer = client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
            assert answer.status_code == 201, answer.text
            written, in_scene = written + 2, 0
            made = _fight(post, table, number)
            written, in_scene = written + made, in_scene + made
        made = _round(post, table, number)
        written, in_scene, number = written + made, in_scene + made, number + 1
    return table
