"""Monte Carlo odds of group fights (``odds cogent fight``) and the fighter references."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.errors import InputError
from taletable.play import Table
from taletable.play import fighters as play_fighters
from taletable.prob import proportion
from taletable.store import FileStore
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.fighters import Fighter, chosen_weapon
from taletable.systems.cogent.odds.duel import duel_odds, duelist_from_sheet
from taletable.systems.cogent.odds.fight import fight_odds

FILES = Table(store=FileStore())


def parse_fighter(text: str) -> tuple[Fighter, str | None]:
    """A fighter read from files (the CLI's store), and its second weapon."""
    spec = play_fighters.parse_fighter(FILES, text, field="fighter")
    return spec.fighter, spec.secondary


def load_fighter_sheet(reference: str) -> CoreCharacter:
    """The sheet behind a file or ``@NAME``."""
    return play_fighters.read_fighter(FILES, reference)[0]


TERRIK = "examples/characters/core_sir_terrik.yaml"


def test_a_fighter_reference_is_a_file_or_a_bestiary_creature() -> None:
    """``@NAME`` reads the bestiary; the weapon defaults to the first one the sheet carries."""
    ident, side, sheet, weapon = parse_fighter("g1:b:@goblin")[0]
    assert (ident, side, sheet.identity.name, weapon) == ("g1", "b", "Goblin", "Hatchet")
    assert parse_fighter(f"t:a:{TERRIK}")[0][3] == "Arming Sword"
    assert parse_fighter("t:a:examples/statblocks/thug.yaml:Club")[0][3] == "Club"
    assert parse_fighter(f"t:a:{TERRIK}:Unarmed")[0][3] is None  # bare hands
    assert chosen_weapon(load_fighter_sheet("@troll"), "unarmed") is None
    assert chosen_weapon(load_fighter_sheet("@troll"), None) == "Claws"
    assert parse_fighter(f"t:a:{TERRIK}:Arming Sword:Dagger")[1] == "Dagger"
    assert load_fighter_sheet("@Dire Wolf").identity.name == "Dire Wolf"
    with pytest.raises(InputError, match="fighter: 'g1:@goblin'; expected ID:SIDE:REF"):
        parse_fighter("g1:@goblin")
    with pytest.raises(InputError, match="fighter: 'g1:b:@goblin:'"):
        parse_fighter("g1:b:@goblin:")
    with pytest.raises(InputError, match="no creature called 'dragonfly'"):
        parse_fighter("d:b:@dragonfly")


def test_a_two_fighter_fight_agrees_with_the_exact_duel() -> None:
    """With two fighters the estimate falls within its 99.9% bound of the exact duel odds."""
    terrik, troll = load_fighter_sheet(TERRIK), load_fighter_sheet("@troll")
    exact = duel_odds(
        duelist_from_sheet(terrik, "Arming Sword"), duelist_from_sheet(troll, "Claws"), horizon=30
    )
    fighters = [parse_fighter(f"t:a:{TERRIK}")[0], parse_fighter("troll:b:@troll")[0]]
    estimate = fight_odds(fighters, samples=400, seed=3, max_rounds=30)
    assert estimate.wins["a"].agrees_with(float(exact.p_a))
    assert estimate.wins["b"].agrees_with(float(exact.p_b))
    assert 0.05 < estimate.wins["a"].probability < 0.3  # the troll is the favourite


def test_fight_odds_are_reproducible_and_add_up() -> None:
    """The same seed gives the same figures; sides and undecided sum to one; fates are bounded."""
    fighters = [parse_fighter(f"t:a:{TERRIK}")[0], parse_fighter("g1:b:@goblin")[0],
                parse_fighter("g2:b:@goblin")[0]]  # fmt: skip
    first = fight_odds(fighters, samples=60, seed=11)
    assert first == fight_odds(fighters, samples=60, seed=11)
    total = sum(e.probability for e in first.wins.values()) + first.undecided.probability
    assert total == pytest.approx(1)
    for fate in first.fates:
        assert fate.dead.probability <= fate.down.probability
    # Sir Terrik, 8D6 in armour, usually beats two 5D6 goblins (002 > Fighting Groups).
    assert first.wins["a"].probability > 0.8
    assert {fate.id for fate in first.fates} == {"t", "g1", "g2"}


def test_fight_odds_refuse_bad_input() -> None:
    """One side, or a sample count out of range, is refused with the field to fix."""
    lone = [parse_fighter("a:a:@goblin")[0], parse_fighter("b:a:@wolf")[0]]
    with pytest.raises(InputError, match="^fighters: a fight needs two sides"):
        fight_odds(lone)
    pair = [parse_fighter("a:a:@goblin")[0], parse_fighter("b:b:@wolf")[0]]
    with pytest.raises(InputError, match="^samples: 0"):
        fight_odds(pair, samples=0)


def test_a_proportion_with_no_hits_has_the_exact_one_sided_bound() -> None:
    """0 of n: the bound is 1 - 0.001 ** (1/n); otherwise the normal 99.9% half-width."""
    assert proportion(0, 100).bound == pytest.approx(1 - 0.001 ** (1 / 100))
    assert proportion(100, 100).bound == pytest.approx(1 - 0.001 ** (1 / 100))
    assert proportion(50, 100).bound == pytest.approx(3.2905 * 0.05)
    with pytest.raises(ValueError, match="hits"):
        proportion(5, 4)


def test_fight_cli(run_cli: Any) -> None:
    """`odds cogent fight --json` reports each side, the undecided share and every fate."""
    out = run_cli("odds", "cogent", "fight", "--fighter", f"t:a:{TERRIK}",
                  "--fighter", "w:b:@wolf", "--samples", "40", "--seed", "2", "--json")  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert data["method"] == "monte carlo"
    assert (data["samples"], data["seed"], data["confidence"]) == (40, 2, 0.999)
    assert set(data["wins"]) == {"a", "b"}
    assert [fate["id"] for fate in data["fates"]] == ["t", "w"]
    text = run_cli("odds", "cogent", "fight", "--fighter", f"t:a:{TERRIK}",
                   "--fighter", "w:b:@wolf", "--samples", "20")  # fmt: skip
    assert "side a is the last standing" in text.stdout
    for bad, message in (
        (["--fighter", "w:b:@wolf"], "a fight needs two sides"),
        (["--fighter", "w:b:@wolf", "--fighter", "x:a:@nobody"], "no creature called 'nobody'"),
        (["--fighter", "w:b:@wolf", "--fighter", "x:a:@orc", "--samples", "-1"], "--samples"),
        (["--fighter", "w:b:@wolf", "--fighter", "x:a:@orc", "--rounds", "0"], "--rounds"),
        (["--fighter", "w:b:@wolf", "--fighter", "x:a:@orc:Axe:Axe"], "dual wielding is not"),
    ):
        failed = run_cli("odds", "cogent", "fight", *bad)
        assert failed.status == 2
        assert message in failed.stderr
        assert failed.stderr.count("\n") == 1


def test_combat_start_takes_bestiary_creatures_and_default_weapons(
    run_cli: Any, tmp_path: Path
) -> None:
    """`combat start --fighter g1:b:@goblin`: the creature with its first weapon, as in odds."""
    out = tmp_path / "fight.json"
    started = run_cli("cogent", "combat", "start", "--fighter", f"t:a:{TERRIK}",
                      "--fighter", "g1:b:@goblin", "--fighter", "g2:b:@goblin:unarmed",
                      "--out", str(out), "--seed", "1", "--json")  # fmt: skip
    assert started.status == 0, started.stderr
    weapons = {c["id"]: c["weapon"] for c in started.json()["combatants"]}
    assert weapons == {"t": "Arming Sword", "g1": "Hatchet", "g2": None}
