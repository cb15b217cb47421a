"""Two people making one new file at once: exactly one makes it, the other is refused.

``npc new``, ``character new --from`` and ``combat start`` with ``--out``: two real processes
each try to make the same fifty files, in the same order, at the same moments. For every file
exactly one attempt lands; the other was refused (the file exists, or the conflict: another
save made it since this one looked), and the file is whole and read by the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.writers import race

FILES = 50
MARA = "examples/characters/core_mara_the_thief.yaml"
GUARD = ["--name", "Guard", "--tier", "elite", "--vocation", "Town Guard"]
GOBLINS = ["--fighter", "a:x:@goblin", "--fighter", "b:y:@goblin"]

CREATORS: dict[str, tuple[Callable[[str], list[str]], Callable[[str], list[str]]]] = {
    "npc.yaml": (
        lambda out: ["cogent", "npc", "new", *GUARD, "--out", out],
        lambda out: ["cogent", "npc", "show", out],
    ),
    "character.yaml": (
        lambda out: ["cogent", "character", "new", "--from", MARA, "--out", out],
        lambda out: ["cogent", "character", "validate", out],
    ),
    "fight.json": (
        lambda out: ["cogent", "combat", "start", *GOBLINS, "--out", out, "--seed", "1"],
        lambda out: ["cogent", "combat", "replay", out],
    ),
}


@pytest.mark.parametrize("name", sorted(CREATORS))
def test_two_making_one_file_make_it_once(name: str, tmp_path: Path, run_cli: Any) -> None:
    """Fifty files raced by two creators: each made once, the other attempt refused."""
    make, read = CREATORS[name]
    files = [str(tmp_path / f"{i}-{name}") for i in range(FILES)]
    spec = {"cycle": [make(out) for out in files], "rounds": FILES, "once": True,
            "refusals": ["exists"]}  # fmt: skip
    results = race(spec, spec)
    for index, out in enumerate(files):
        assert sum(result[str(index)] for result in results) == 1, out
        shown = run_cli(*read(out))
        assert shown.status == 0, shown.stderr
    assert sum(r["conflicts"] + r["refused"] for r in results) == FILES
