"""Two people stepping one fight at once: every step lands once or is refused, none is lost.

Both writers are real processes that, four hundred times each (each step kind well over a
hundred times in all), read the encounter file and take its next step: the next declaration,
the resolve, or the pending victory's outcome. So they try the same step at the same moments:
one lands, and the other is told to reload (the conflict) or, having read before the step
landed, refused by the rules ("a declaration cannot be changed"). At the end the file holds
exactly the steps that landed, it is sealed, and it replays.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.reliability.writers import landed, race

ROUNDS = 400  # each writer tries each of the three steps over a hundred times


def test_two_fighting_one_encounter_lose_no_step(tmp_path: Path, run_cli: Any) -> None:
    """declare, resolve and choose raced by two processes: each landed step is in the file."""
    fight = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--fighter", "a:x:@goblin", "--fighter", "b:y:@goblin",
        "--engaged", "a:b:adjacent", "--out", str(fight), "--seed", "1",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    results = race(*({"fight": str(fight), "rounds": ROUNDS} for _ in range(2)))
    data = json.loads(fight.read_text())
    kinds = [step["kind"] for step in data["steps"]]
    for kind in ("declare", "resolve", "choose"):
        assert kinds.count(kind) == sum(result[kind] for result in results), kind
    assert data["revision"] == 1 + sum(landed(result) for result in results)
    assert sum(landed(r) + r["conflicts"] + r["raced"] for r in results) == 2 * ROUNDS
    assert sum(r["conflicts"] + r["raced"] for r in results) > 0, "the writers never met"
    assert min(kinds.count(kind) for kind in ("declare", "resolve", "choose")) >= 20, kinds
    replayed = run_cli("cogent", "combat", "replay", str(fight))
    assert replayed.status == 0, replayed.stderr
