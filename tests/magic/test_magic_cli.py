"""`taletable cogent cast` and `taletable cogent summon`."""

from __future__ import annotations

from typing import Any


def test_summon_json(run_cli: Any) -> None:
    """A CL 4 pyromancy summoning failed by 2 turns a lesser elemental on its caster."""
    result = run_cli("cogent", "summon", "--school", "pyromancy", "--cl", "4", "--pool", "6",
                     "--faces", "6,6,1,1,1,1", "--json")  # fmt: skip
    assert result.status == 0, result.stderr
    data = result.json()
    assert data["creature"]["name"] == "Lesser Elemental" and data["creature"]["combat_pool"] == 7
    assert (data["hostile"], data["duration"]) == (True, "one hour")


def test_summon_mirrored_and_readable(run_cli: Any) -> None:
    """--failure-duration mirrored: failing by 2 lasts as +1 (ten rounds)."""
    result = run_cli("cogent", "summon", "--school", "fire", "--cl", "4", "--points", "1",
                     "--attribute-points", "2", "--failure-duration", "mirrored",
                     "--faces", "6,6,1,1,1,1")  # fmt: skip
    assert result.status == 0, result.stderr
    assert "ten rounds" in result.stdout and "Lesser Elemental" in result.stdout


def test_cast_with_cl_and_movement(run_cli: Any) -> None:
    """A miscast by 2 at CL 3; levitation's CL from the table; no check for a small thing."""
    miscast = run_cli("cogent", "cast", "hydromancy", "--points", "2", "--cl", "3",
                      "--faces", "4,1,1,1,1", "--json")  # fmt: skip
    assert (miscast.json()["miscast"], miscast.json()["miscast_level"]) == (True, 2)
    lifted = run_cli("cogent", "cast", "levitation", "--points", "2", "--distance", "15",
                     "--size", "car", "--faces", "4,4,4,4,4", "--json")  # fmt: skip
    assert lifted.json()["check"]["cl"] == 5
    free = run_cli("cogent", "cast", "levitation", "--points", "2", "--distance", "5",
                   "--size", "human", "--json")  # fmt: skip
    assert free.json()["needs_check"] is False


def test_cast_minds_and_hard_spells(run_cli: Any) -> None:
    """Telepathy contest, counteraction and a hard spell through the CLI."""
    mind = run_cli("cogent", "cast", "telepathy", "--pool", "5", "--resist-pool", "3",
                   "--faces", "6,6,6,6,6,4,1,1", "--json")  # fmt: skip
    assert mind.json()["injury_levels"] == 1
    counter = run_cli("cogent", "cast", "counteraction", "--pool", "3", "--against-wins", "3",
                      "--faces", "4,4,4", "--json")  # fmt: skip
    assert counter.json()["outcome"] == "prevented"
    bloom = run_cli("cogent", "cast", "bloom", "--pool", "4", "--skill-points", "1",
                    "--has", "moonlight", "--faces", "4,4,1,1", "--json")  # fmt: skip
    assert bloom.json()["passed"] is True


def test_cast_errors(run_cli: Any) -> None:
    """No CL, three spell points, a missing component: one-line errors."""
    no_cl = run_cli("cogent", "cast", "pyromancy", "--points", "2")
    assert no_cl.status == 2 and "--cl" in no_cl.stderr
    three = run_cli("cogent", "cast", "pyromancy", "--points", "3", "--cl", "2")
    assert three.status == 2 and "up to 2 skill points" in three.stderr
    bare = run_cli("cogent", "cast", "earthrot", "--pool", "6", "--skill-points", "3")
    assert bare.status == 2 and "goat-skull" in bare.stderr
    unknown = run_cli("cogent", "summon", "--school", "telepathy", "--cl", "2", "--pool", "3")
    assert unknown.status == 2 and "cannot summon" in unknown.stderr


def test_cast_by_the_standard_difficulty(run_cli: Any) -> None:
    """002 > Classic Fantasy: the narrator's CL is "based on the standard Challenge Level
    difficulties, 1 common task, 2 uncommon, 3 specialized": --difficulty specialized is CL 3."""
    cast = run_cli("cogent", "cast", "pyromancy", "--pool", "4", "--difficulty", "specialised",
                   "--faces", "4,4,1,1", "--json")  # fmt: skip
    assert cast.status == 0, cast.stderr
    data = cast.json()
    assert (data["check"]["cl"], data["miscast"], data["miscast_level"]) == (3, True, 1)
    both = run_cli("cogent", "cast", "pyromancy", "--pool", "4", "--cl", "2",
                   "--difficulty", "common")  # fmt: skip
    assert both.status == 2 and "give one of them" in both.stderr
    wrong = run_cli("cogent", "cast", "pyromancy", "--pool", "4", "--difficulty", "hard")
    assert wrong.status == 2 and "--difficulty: 'hard'" in wrong.stderr
    assert "specialized (3)" in wrong.stderr and "Traceback" not in wrong.stderr


def test_cast_gust_and_hold_as_conflicts(run_cli: Any) -> None:
    """Aeromancy --defence-pool knocks a target down on a win; Levitation --resist-pool holds a
    resisting person still on a win; both read as conflicts, with the faces."""
    gust = run_cli("cogent", "cast", "aeromancy", "--pool", "5", "--defence-pool", "4",
                   "--faces", "6,6,6,1,1,6,1,1,1")  # fmt: skip
    assert gust.status == 0, gust.stderr
    assert (
        "winner: the caster (victory level 2)" in gust.stdout
        and "knocked_down: True" in gust.stdout
    )
    hold = run_cli("cogent", "cast", "levitation", "--pool", "3", "--resist-pool", "3",
                   "--faces", "4,1,1,5,5,1", "--json")  # fmt: skip
    assert hold.json()["held"] is False
    huge = run_cli("cogent", "cast", "aeromancy", "--pool", "5", "--defence-pool", "999")
    assert huge.status == 2 and "--defence-pool" in huge.stderr


def test_caster_pool_errors_name_their_option(run_cli: Any) -> None:
    """A pool past the limit names --pool; attribute points past a sheet's -5..10, or beside a
    whole --pool (where they would be ignored), name --attribute-points: one line, exit 2."""
    huge = run_cli("cogent", "cast", "pyromancy", "--pool", "999", "--cl", "2")
    assert huge.status == 2 and "--pool: a pool of 999 dice is over the limit" in huge.stderr
    strong = run_cli("cogent", "cast", "pyromancy", "--points", "1", "--attribute-points", "999",
                     "--cl", "2")  # fmt: skip
    assert strong.status == 2 and "'--attribute-points': 999" in strong.stderr
    beside = run_cli("cogent", "summon", "--school", "fire", "--cl", "2", "--pool", "3",
                     "--attribute-points", "1")  # fmt: skip
    assert beside.status == 2 and "--attribute-points: goes with --points" in beside.stderr
    for result in (huge, strong, beside):
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_options_a_spell_does_not_read_are_refused(run_cli: Any) -> None:
    """A hard spell's CL is fixed (Bloom: CL 2), so --cl is refused rather than ignored; the hard
    spells' --skill-points and --has are refused on a soft spell."""
    bloom = run_cli("cogent", "cast", "bloom", "--pool", "4", "--skill-points", "1",
                    "--has", "moonlight", "--cl", "5", "--faces", "4,4,1,1")  # fmt: skip
    assert bloom.status == 2 and "--cl/--difficulty: Bloom is a hard spell with a fixed CL 2" in (
        bloom.stderr
    )
    soft = run_cli("cogent", "cast", "pyromancy", "--pool", "4", "--cl", "2", "--has", "moonlight",
                   "--faces", "4,4,1,1")  # fmt: skip
    assert soft.status == 2 and "Pyromancy is not a hard-magic spell" in soft.stderr
    assert "Traceback" not in bloom.stderr + soft.stderr


ILSA = "examples/characters/core_ilsa_the_wizard.yaml"
ERIN = "examples/characters/tiered_erin_the_mage.yaml"


def test_cast_from_a_sheet(run_cli: Any) -> None:
    """--character builds the pool from the sheet's magic section: Ilsa's Levitation is
    3 base + 2 INT + 2 points; the report names each part."""
    cast = run_cli("cogent", "cast", "levitation", "--character", ILSA, "--cl", "4",
                   "--faces", "6,5,4,4,1,1,1", "--json")  # fmt: skip
    assert cast.status == 0, cast.stderr
    check = cast.json()["check"]
    assert (check["pool"], check["wins"], cast.json()["miscast"]) == (7, 4, False)
    readable = run_cli("cogent", "cast", "levitation", "--character", ILSA, "--cl", "4",
                       "--faces", "6,5,4,4,1,1,1")  # fmt: skip
    assert "CL 4: pool 7D6" in readable.stdout


def test_a_spell_not_on_the_sheet_is_refused_citing_the_rule(run_cli: Any) -> None:
    """002 > Classic Fantasy Magic system: "once a school is chosen the player can only select
    spells from that specific school": Ilsa (Wizardry) cannot cast Pyromancy; one line, exit 2."""
    fire = run_cli("cogent", "cast", "pyromancy", "--character", ILSA, "--cl", "2")
    assert fire.status == 2
    assert fire.stderr.startswith("taletable: error: Ilsa does not know Pyromancy")
    assert "Example Magic Systems > Classic Fantasy Magic system" in fire.stderr
    assert "cast a spell the sheet holds (Levitation, Telepathy, Counteraction)" in fire.stderr
    assert len(fire.stderr.strip().splitlines()) == 1


def test_options_name_their_flags(run_cli: Any) -> None:
    """An option the spell does not read, or a pool beside a sheet, is refused naming the flag
    typed (the engine names fields: speed, pool)."""
    speed = run_cli("cogent", "cast", "levitation", "--pool", "5", "--speed", "sprint")
    assert speed.status == 2
    assert speed.stderr == (
        "taletable: error: --speed: Levitation does not read --speed; expected with Levitation: "
        "--cl, --difficulty, --distance, --size, --resist-pool\n"
    )
    beside = run_cli("cogent", "cast", "levitation", "--character", ILSA, "--pool", "5",
                     "--cl", "2")  # fmt: skip
    assert beside.status == 2
    assert beside.stderr.startswith(
        "taletable: error: --pool: --character builds the pool from the sheet"
    )


def test_summon_from_a_tiered_sheet(run_cli: Any) -> None:
    """Erin's Sorcery specialisation casts Pyromancy's summoning: 6D6 in the tiered edition."""
    summoned = run_cli("cogent", "summon", "--school", "fire", "--character", ERIN, "--cl", "3",
                       "--faces", "6,6,6,6,1,1", "--json")  # fmt: skip
    assert summoned.status == 0, summoned.stderr
    data = summoned.json()
    assert (data["check"]["pool"], data["creature"]["name"], data["duration"]) == (
        6, "Greater sprite", "ten rounds")  # fmt: skip
    assert data["check"]["edition"] == "tiered"
