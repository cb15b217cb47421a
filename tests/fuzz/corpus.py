"""The fuzz test's seed corpus: every case issue 13 reported, run on every test run.

Each case is plain JSON as :mod:`tests.fuzz.generate` makes them (``command`` and ``args``,
a file named by its hostile kind). Lost updates between two writers and kill -9 during a save
need two processes and are proved in ``tests/reliability`` and ``tests/test_saving.py``; a full
disk needs a small file system and is proved in ``tests/test_hostile_files.py``.
"""

from __future__ import annotations

from typing import Any

TERRIK = "characters/core_sir_terrik.yaml"
THUG = "statblocks/thug.yaml"


def file(kind: str, suffix: str = ".yaml", seed: int = 0) -> dict[str, Any]:
    """A file token: a hostile file of ``kind`` made in the case's folder."""
    return {"file": kind, "suffix": suffix, "seed": seed}


def fighter(name: str, sheet: dict[str, Any], weapon: str, side: str = "x") -> dict[str, Any]:
    """An ``ID:SIDE:FILE:WEAPON`` token."""
    return {"spec": [name, side, sheet, weapon]}


def _case(label: str, command: str, *args: Any) -> tuple[str, dict[str, Any]]:
    return label, {"command": command.split(), "args": list(args)}


TERRIK_FILE = file(f"example:{TERRIK}")
THUG_FILE = file(f"example:{THUG}")
FIGHTERS = ("--fighter", fighter("a", THUG_FILE, "Club"), "--fighter",
            fighter("b", THUG_FILE, "Club", "y"))  # fmt: skip
POOLS_100_OF_200 = ",".join(["200"] * 100)

#: Point 3: limits checked before the work (and the audit's cases of it).
LIMITS = [
    _case("boons party of a million", "odds boons", "--target", "10", "--party", "1000000"),
    _case("boons party of 2e9", "odds boons", "--target", "10", "--party", "2000000000"),
    _case("labcats add 1e7", "odds labcats", "--pool", "d6,d8", "--target", "5",
          "--add", "10000000"),
    _case("labcats add 1e8", "odds labcats", "--pool", "d6,d8", "--target", "5",
          "--add", "100000000"),
    _case("labcats add 1e12", "odds labcats", "--pool", "d6,d8", "--target", "5",
          "--add", "1000000000000"),
    _case("labcats add against", "odds labcats", "--pool", "d6,d8", "--resources", "d6",
          "--against", "d6", "--add", "10000000"),
    _case("labcats roll add 1e12", "labcats roll", "--pool", "d6,d8", "--add", "1000000000000"),
    _case("labcats forty d12 all bought", "odds labcats", "--pool", ",".join(["d12"] * 40),
          "--target", "300", "--add", "38"),
    _case("collaborate 100 x 200", "odds cogent collaborate", "--pools", POOLS_100_OF_200,
          "--cl", "1"),
    _case("collaborate 40 x 200", "odds cogent collaborate", "--pools",
          ",".join(["200"] * 40), "--cl", "1"),
    _case("collaborate 20 x 200", "odds cogent collaborate", "--pools",
          ",".join(["200"] * 20), "--cl", "1"),
    _case("roll collaboration 100 x 200", "cogent collaborate", "--pools", POOLS_100_OF_200,
          "--cl", "1"),
    *(_case(f"lattice {name}", name, *args, "--tables", file("tables:lattice"))
      for name, args in (("table list", ()), ("table roll", ("t0a",)), ("table odds", ("t0a",)),
                         ("cogent weather", ("--season", "winter")),
                         ("cogent encounter", ("--where", "city", "--time", "day")))),
    _case("fan-out roll", "table roll", "t0", "--tables", file("tables:fan-out")),
    _case("fan-out weather", "cogent weather", "--season", "winter", "--tables",
          file("tables:fan-out")),
    _case("alias 20 KB x1000 buy", "cogent buy", file("sheet-alias-20kb"), "--item", "Rope",
          "--value", "1"),
    _case("alias 20 KB x1000 fight", "cogent combat start", "--fighter",
          fighter("a", file("sheet-alias-20kb"), "Arming Sword"), "--fighter",
          fighter("b", THUG_FILE, "Club", "y"), "--out", file("missing", ".json")),
    _case("alias bomb sheet", "cogent character show", file("sheet-laughs-7")),
    _case("alias bomb fight", "cogent combat start", "--fighter",
          fighter("a", file("sheet-laughs-5"), "Arming Sword"), "--fighter",
          fighter("b", THUG_FILE, "Club", "y"), "--out", file("missing", ".json")),
]  # fmt: skip

#: Point 4: text a person typed is printed as typed.
MARKUP = [
    _case("markup item", "cogent buy", TERRIK_FILE, "--item", "[/]", "--value", "1"),
    _case("markup fighter id", "cogent combat start", "--fighter",
          fighter("[/x]", THUG_FILE, "Club"), "--fighter", fighter("b", THUG_FILE, "Club", "y"),
          "--out", file("missing", ".json")),
    _case("markup encounter name", "cogent combat start", *FIGHTERS, "--name", "[/x]",
          "--out", file("missing", ".json")),
    _case("markup npc", "cogent npc new", "--name", "[/]", "--tier", "1"),
    _case("markup sheet", "cogent character show", file("markup-sheet")),
    _case("markup table", "table roll", "markup", "--tables", file("tables:markup")),
    _case("markup table list", "table list", "--tables", file("tables:markup")),
]  # fmt: skip

#: Point 2: a hand-edited encounter is refused by every combat command.
FORGED = [
    _case(f"forged {command} {seed}", f"cogent combat {command}",
          file(f"encounter-mutant:{stage}", ".json", seed), *extra)
    for seed in (1, 2)
    for command, stage, extra in (
        ("status", 0, ()), ("replay", 2, ()), ("resolve", 1, ("--seed", "1")),
        ("declare", 0, ("--actor", "thug", "--action", "attack", "--target", "terrik")),
        ("choose", 2, ("--victory", "1", "--outcome", "deathblow")),
    )
]  # fmt: skip

#: Point 5 and the audit: files and paths that ended in a traceback or a hang.
FILES = [
    *(_case(f"{kind} {suffix}", "cogent character show", file(kind, suffix))
      for kind in ("deep-100000", "deep-block-3000", "bigint-4301", "bigint-sheet", "dev-zero",
                   "fifo", "unreadable-folder", "no-permission", "newline-name", "many-items",
                   "over-5mb", "binary", "link-loop", "long-name", "under-a-file")
      for suffix in (".yaml", ".json")),
    _case("long --out", "cogent combat start", *FIGHTERS, "--out", file("long-name", ".json")),
    _case("long --tables", "table list", "--tables", file("long-name", "")),
    _case("link-loop --out", "cogent combat start", *FIGHTERS, "--out",
          file("link-loop", ".json")),
    _case("link-loop cheatsheet", "cheatsheet cogent", "--out", file("link-loop", ".md")),
    _case("link-loop sheet save", "cogent buy", TERRIK_FILE, "--item", "Rope", "--value", "1",
          "--out", file("link-loop")),
    _case("verify not an export", "verify", file("not-export", ".json")),
    _case("verify a fifo", "verify", file("fifo", ".json")),
    _case("verify dev-zero", "verify", file("dev-zero", ".json")),
    _case("verify deep", "verify", file("deep-100000", ".json")),
]  # fmt: skip

CASES: list[tuple[str, dict[str, Any]]] = [*LIMITS, *MARKUP, *FORGED, *FILES]
