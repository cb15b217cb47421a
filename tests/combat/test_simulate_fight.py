"""Policy-driven group fights (simulate_fight) for Monte Carlo and demonstrations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.store.sheets import load_character, load_statblock
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.combat import Encounter, simulate_fight

TERRIK = load_character("examples/characters/core_sir_terrik.yaml")
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()
HALE = load_statblock("examples/statblocks/sample_swordsman.yaml").as_character()


def group() -> list[tuple[str, str, CoreCharacter | TieredCharacter, str | None]]:
    return [
        ("terrik", "knights", TERRIK, "Arming Sword"),
        ("hale", "knights", HALE, "Sword"),
        ("g1", "gang", THUG, "Club"),
        ("g2", "gang", THUG, "Club"),
    ]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["first", "most injured"]))
def test_group_fights_end_soundly(seed: int, targeting: str) -> None:
    """A seeded group fight ends with one side standing (or none), its state sound."""
    result = simulate_fight(group(), SeededDice(seed), targeting=targeting)  # type: ignore[arg-type]
    encounter = result.encounter
    assert Encounter.model_validate(encounter.model_dump(mode="json")) == encounter
    assert all(v.outcome is not None for v in encounter.victories)
    if result.winner is not None:
        assert encounter.sides() == {result.winner}
        assert result.rounds >= 1


def test_same_seed_same_fight() -> None:
    """A seed replays the same fight, log and all."""
    first = simulate_fight(group(), SeededDice(11))
    again = simulate_fight(group(), SeededDice(11))
    assert first == again


def test_bad_policy_and_cap_are_refused() -> None:
    """An unknown targeting policy or round cap is an InputError."""
    with pytest.raises(InputError, match="targeting"):
        simulate_fight(group(), SeededDice(1), targeting="random")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="max_rounds"):
        simulate_fight(group(), SeededDice(1), max_rounds=0)
