"""An encounter is saved, resumed and replayed from its steps (issue: encounter state)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.combat.replay import replay, verify_replay
from taletable.systems.cogent.combat.simulate import simulate_duel
from taletable.systems.cogent.combat.state import Encounter

HALE = load_statblock("examples/statblocks/sample_swordsman.yaml").as_character()
YSOLDE = load_statblock("examples/statblocks/sample_spearwoman.yaml").as_character()


def test_a_seeded_duel_replays_to_the_same_encounter() -> None:
    """The opening and the steps (declarations, faces rolled, choices) make the same encounter,
    injuries and log included, even through a save to JSON and back."""
    duel = simulate_duel((HALE, "Sword"), (YSOLDE, "Spear"), SeededDice(11), max_rounds=40)
    saved = Encounter.model_validate(json.loads(json.dumps(duel.encounter.model_dump(mode="json"))))
    kinds = {step.kind for step in saved.steps}
    assert kinds == {"declare", "resolve", "choose"}
    assert replay(saved) == duel.encounter
    tampered = saved.model_copy(update={"round": saved.round + 1})
    with pytest.raises(InputError, match="not what its steps make"):
        verify_replay(tampered)


def test_cli_replay_checks_the_file(run_cli: Any, tmp_path: Path) -> None:
    """`combat replay FILE` replays the steps and says the saved state matches; an edited file
    is refused with a one-line error (exit 2)."""
    file = tmp_path / "duel.json"
    run_cli(
        "cogent", "combat", "start",
        "--fighter", "hale:guard:examples/statblocks/sample_swordsman.yaml:Sword",
        "--fighter", "ysolde:mercs:examples/statblocks/sample_spearwoman.yaml:Spear",
        "--out", str(file), "--seed", "5",
    )  # fmt: skip
    state = json.loads(file.read_text())
    order = sorted(
        state["combatants"], key=lambda c: (c["sheet"]["attributes"]["RFL"], c["tie_roll"])
    )
    for fighter in order:
        other = "ysolde" if fighter["id"] == "hale" else "hale"
        declared = run_cli(
            "cogent", "combat", "declare", str(file), "--actor", fighter["id"],
            "--action", "attack", "--target", other,
        )  # fmt: skip
        assert declared.status == 0, declared.stderr
    assert run_cli("cogent", "combat", "resolve", str(file), "--seed", "8").status == 0
    replayed = run_cli("cogent", "combat", "replay", str(file))
    assert replayed.status == 0, replayed.stderr
    assert "replayed 3 step(s): the saved state matches" in replayed.stdout
    edited = json.loads(file.read_text())
    edited["combatants"][0]["strength_left"] = 0 if edited["combatants"][0]["strength_left"] else 1
    file.write_text(json.dumps(edited))
    refused = run_cli("cogent", "combat", "replay", str(file))
    assert refused.status == 2 and "was edited outside taletable" in refused.stderr
