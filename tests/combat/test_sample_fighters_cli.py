"""The two sample fighters (statblocks) fight a seeded duel to its end from the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = ("dead", "unconscious", "incapacitated")


def able(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in state["combatants"] if not set(OUT) & set(c["conditions"])]


def test_sample_fighters_duel_from_the_cli(run_cli: Any, tmp_path: Path) -> None:
    """Sergeant Hale (sword and dagger) against Ysolde (spear): readable reports, then an end."""
    file = tmp_path / "duel.json"
    started = run_cli(
        "cogent", "combat", "start",
        "--fighter", "hale:guard:examples/statblocks/sample_swordsman.yaml:Sword",
        "--fighter", "ysolde:mercs:examples/statblocks/sample_spearwoman.yaml:Spear",
        "--out", str(file), "--seed", "5",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    seed = 100
    for _ in range(80):
        state = json.loads(file.read_text())
        fighters = able(state)
        if len({c["side"] for c in fighters}) < 2:
            break
        order = sorted(fighters, key=lambda c: (c["sheet"]["attributes"]["RFL"], c["tie_roll"]))
        for fighter in order:
            other = next(c["id"] for c in fighters if c["id"] != fighter["id"])
            declared = run_cli(
                "cogent", "combat", "declare", str(file),
                "--actor", fighter["id"], "--action", "attack", "--target", other,
            )  # fmt: skip
            assert declared.status == 0, declared.stderr
        seed += 1
        report = run_cli("cogent", "combat", "resolve", str(file), "--seed", str(seed))
        assert report.status == 0, report.stderr
        assert "hale" in report.stdout and "ysolde" in report.stdout
        for victory in json.loads(file.read_text())["victories"]:
            if victory["outcome"] is None:
                chosen = run_cli(
                    "cogent", "combat", "choose", str(file), "--victory", str(victory["id"]),
                    "--json",
                )  # fmt: skip
                assert chosen.status == 0, chosen.stderr
                assert chosen.json()["victories"]
    final = json.loads(file.read_text())
    assert len({c["side"] for c in able(final)}) == 1
    assert final["log"][-1]


def test_start_names_the_fighter_option_for_a_bad_creature_or_id(
    run_cli: Any, tmp_path: Path
) -> None:
    """An unknown @NAME and an over-long id are one-line --fighter errors (exit 2)."""
    thug = "t:b:examples/statblocks/thug.yaml"
    out = str(tmp_path / "fight.json")
    for bad, problem in (
        ("g:a:@dragonfly", "no creature called 'dragonfly'; expected bandit"),
        ("x" * 61 + ":a:@goblin", "is too long; expected at most 60 characters"),
    ):
        result = run_cli(
            "cogent", "combat", "start", "--fighter", bad, "--fighter", thug, "--out", out
        )
        assert result.status == 2
        assert "--fighter: " in result.stderr and problem in result.stderr
        assert "Traceback" not in result.stderr
