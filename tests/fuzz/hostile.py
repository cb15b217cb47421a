"""Hostile files for the fuzz test: each named by a kind and made on demand in a folder.

A case names a file as ``{"file": KIND, "suffix": ".yaml", "seed": N}``; :func:`make_file`
writes it (or a FIFO, a link, a folder...) and returns the path to give the command. Kinds:

* ``example:PATH`` a copy of a shipped example sheet or statblock, unchanged;
* ``mutant:PATH`` that example with one value swapped for a hostile one (seeded);
* ``encounter:STAGE`` / ``encounter-mutant:STAGE`` an encounter file made by ``combat start``
  (STAGE 0 fresh, 1 declared, 2 resolved), unchanged or with one value swapped;
* ``tables:VARIANT`` a folder of random tables (for ``--tables``);
* everything in :data:`RAW_KINDS`: deep nesting, alias bombs, huge integers, binary, a FIFO,
  a link to /dev/zero, a long or two-line name, a 5 MB sheet of 600,000 items...
"""

from __future__ import annotations

import json
import os
import random
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    str(path.relative_to(ROOT / "examples")) for path in (ROOT / "examples").rglob("*.yaml")
)
SHIPPED_TABLES = ROOT / "src/taletable/systems/cogent/data/tables"

#: Text a person might type that rich would read as markup, and other awkward text.
MARKUP = ["[/]", "[/x]", "[bold]", "[bold]x[/bold]", "[link=x]y", "[", "]", "\\[", "[red"]
AWKWARD_TEXT = [
    *MARKUP,
    "",
    " ",
    "a" * 300,
    "x\ny",
    "tab\there",
    "ünïcödé ✓",
    "\u202e",
    "'; rm -rf /",
    "{}",
    "%s %d",
    "-1",
    "@goblin",
    "a:b:c",
    "NAME=d8",
]
HUGE_INTEGERS = [2**31, 2**63, -(2**63), 10**18, 10**100, 10**4000]


def _dump(data: Any, suffix: str) -> str:
    if suffix == ".json":
        return json.dumps(data, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _hostile_value(rng: random.Random) -> Any:
    choices: list[Callable[[], Any]] = [
        lambda: rng.choice(AWKWARD_TEXT),
        lambda: rng.choice(HUGE_INTEGERS),
        lambda: rng.choice([-1, 0, 1, 7, 201, 1001, -(10**6), 10**6]),
        lambda: rng.choice([None, True, False, 1.5, float("nan"), [], {}, [1, 2], {"a": 1}]),
        lambda: [rng.choice(AWKWARD_TEXT)] * rng.choice([1, 3, 50, 2000]),
        lambda: {rng.choice(AWKWARD_TEXT): rng.choice([1, "x", None])},
    ]
    return rng.choice(choices)()


def mutate(data: Any, rng: random.Random, rounds: int = 1) -> Any:
    """``data`` with ``rounds`` values (or keys) swapped for hostile ones."""
    for _ in range(rounds):
        data = _mutate_once(data, rng)
    return data


def _mutate_once(data: Any, rng: random.Random) -> Any:
    if isinstance(data, dict) and data and rng.random() < 0.85:
        key = rng.choice(list(data))
        data = dict(data)
        roll = rng.random()
        if roll < 0.1:
            del data[key]
        elif roll < 0.2:
            data[rng.choice(AWKWARD_TEXT)] = data.pop(key)
        else:
            data[key] = _mutate_once(data[key], rng)
        return data
    if isinstance(data, list) and data and rng.random() < 0.85:
        data = list(data)
        index = rng.randrange(len(data))
        roll = rng.random()
        if roll < 0.1:
            data.append(data[index])
        elif roll < 0.2:
            del data[index]
        else:
            data[index] = _mutate_once(data[index], rng)
        return data
    return _hostile_value(rng)


def _deep(depth: int, suffix: str) -> str:
    if suffix == ".json":
        return "[" * depth + "]" * depth
    return "a: " + "[" * depth + "]" * depth + "\n"


def _deep_block(depth: int) -> str:
    return "".join(" " * level + "a:\n" for level in range(depth)) + " " * depth + "b: 1\n"


def _laughs(levels: int, width: int = 9) -> str:
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    lines.append(f"name: *a{levels - 1}")
    return "\n".join(lines) + "\n"


def _sheet_laughs(levels: int) -> str:
    """An example sheet whose items are an alias bomb (valid YAML, a huge sheet)."""
    base = (ROOT / "examples/characters/core_sir_terrik.yaml").read_text()
    bomb = _laughs(levels, width=10).replace("name: ", "bomb: ")
    return bomb + base.replace("items: [Warhorse, Bedroll]", f"items: *a{levels - 1}")


def _many_items(count: int) -> str:
    base = (ROOT / "examples/characters/core_sir_terrik.yaml").read_text()
    items = ", ".join(f"i{index % 10000}" for index in range(count))
    return base.replace("[Warhorse, Bedroll]", f"[{items}]")


def _sheet_alias_strings(copies: int) -> str:
    """A 25 KB sheet whose items name one 20 KB string ``copies`` times (a 20 MB save once)."""
    base = (ROOT / "examples/characters/core_sir_terrik.yaml").read_text()
    items = "[&s " + "x" * 20_000 + ", " + ", ".join(["*s"] * copies) + "]"
    return base.replace("[Warhorse, Bedroll]", items)


#: Kinds whose content is a fixed text (made by a function of the suffix).
RAW_KINDS: dict[str, Callable[[str], str | bytes]] = {
    "deep-100": lambda suffix: _deep(100, suffix),
    "deep-1000": lambda suffix: _deep(1000, suffix),
    "deep-100000": lambda suffix: _deep(100_000, suffix),
    "deep-block-3000": lambda suffix: _deep_block(3000),
    "laughs-6": lambda suffix: _laughs(6),
    "laughs-9": lambda suffix: _laughs(9),
    "sheet-laughs-5": lambda suffix: _sheet_laughs(5),
    "sheet-laughs-7": lambda suffix: _sheet_laughs(7),
    "bigint-4301": lambda suffix: "size: " + "9" * 4301 + "\n",
    "bigint-100000": lambda suffix: "size: " + "9" * 100_000 + "\n",
    "bigint-sheet": lambda suffix: (
        (ROOT / "examples/characters/core_sir_terrik.yaml")
        .read_text()
        .replace("points: 3, maximum: 3", "points: " + "9" * 5000 + ", maximum: 3")
    ),
    "binary": lambda suffix: bytes(range(256)) * 8,
    "latin1": lambda suffix: "name: caf\xe9\n".encode("latin-1"),
    "empty": lambda suffix: "",
    "null": lambda suffix: "null\n",
    "scalar": lambda suffix: "42\n",
    "list": lambda suffix: "[1, 2, 3]\n",
    "broken": lambda suffix: "a: [1, 2\n",
    "tabs": lambda suffix: "a:\n\t- b\n",
    "many-items": lambda suffix: _many_items(600_000),
    "over-5mb": lambda suffix: "# " + "x" * 5_100_000 + "\n",
    "python-tag": lambda suffix: "a: !!python/object/apply:os.system ['true']\n",
    "sheet-alias-20kb": lambda suffix: _sheet_alias_strings(1000),
    "not-export": lambda suffix: '{"a": 1}\n',
    "markup-sheet": lambda suffix: (
        (ROOT / "examples/characters/core_sir_terrik.yaml")
        .read_text()
        .replace("name: Sir Terrik", "name: '[/] [/x] [bold]'")
        .replace("[Warhorse, Bedroll]", "['[/]', '[/x]']")
    ),
}

#: Kinds that are not a regular file of text.
SPECIAL_KINDS = [
    "fifo",
    "dev-zero",
    "dev-null",
    "folder",
    "missing",
    "long-name",
    "newline-name",
    "unreadable-folder",
    "no-permission",
    "dangling-link",
    "link-loop",
    "under-a-file",
]

ENCOUNTER_STAGES = [0, 1, 2]
TABLE_VARIANTS = ["shipped", "lattice", "fan-out", "deep-chain", "broken", "markup", "many"]


def kinds() -> list[str]:
    """Every file kind a case may name."""
    return [
        *(f"example:{path}" for path in EXAMPLES),
        *(f"mutant:{path}" for path in EXAMPLES),
        *(f"encounter:{stage}" for stage in ENCOUNTER_STAGES),
        *(f"encounter-mutant:{stage}" for stage in ENCOUNTER_STAGES),
        *RAW_KINDS,
        *SPECIAL_KINDS,
    ]


def make_file(spec: dict[str, Any], folder: Path, cache: Path) -> str:
    """Make the file ``spec`` names inside ``folder``; return the path to pass."""
    kind: str = spec["file"]
    suffix: str = spec.get("suffix", ".yaml")
    rng = random.Random(spec.get("seed", 0))
    name = f"f{len(list(folder.iterdir()))}{suffix}"
    path = folder / name
    if kind.startswith("example:"):
        shutil.copyfile(ROOT / "examples" / kind.partition(":")[2], path)
    elif kind.startswith("mutant:"):
        data = yaml.safe_load((ROOT / "examples" / kind.partition(":")[2]).read_text())
        path.write_text(_dump(mutate(data, rng, rng.choice([1, 1, 2, 4])), suffix))
    elif kind.startswith("encounter"):
        return _encounter(kind, folder, cache, rng)
    elif kind.startswith("tables:"):
        return _table_folder(kind.partition(":")[2], folder, rng)
    elif kind in RAW_KINDS:
        content = _cached(kind, suffix, cache)
        shutil.copyfile(content, path)
    else:
        return _special(kind, folder, suffix)
    return str(path)


def _cached(kind: str, suffix: str, cache: Path) -> Path:
    """Big contents are made once per cache folder."""
    target = cache / f"raw-{kind}{suffix}"
    if not target.exists():
        content = RAW_KINDS[kind](suffix)
        data = content.encode("utf-8") if isinstance(content, str) else content
        target.write_bytes(data)
    return target


def _special(kind: str, folder: Path, suffix: str) -> str:
    number = len(list(folder.iterdir()))  # a case may name several special files
    path = folder / f"special{number}{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "dev-null":
        path.symlink_to("/dev/null")
    elif kind == "folder":
        path.mkdir()
    elif kind == "missing":
        pass
    elif kind == "long-name":
        path = folder / (f"{number}" + "n" * 300 + suffix)
    elif kind == "newline-name":
        path = folder / f"two{number}\nlines{suffix}"
        shutil.copyfile(ROOT / "examples/statblocks/thug.yaml", path)
    elif kind == "unreadable-folder":
        locked = folder / f"locked{number}"
        locked.mkdir()
        path = locked / f"sheet{suffix}"
        shutil.copyfile(ROOT / "examples/statblocks/thug.yaml", path)
        locked.chmod(0)
    elif kind == "no-permission":
        shutil.copyfile(ROOT / "examples/statblocks/thug.yaml", path)
        path.chmod(0)
    elif kind == "dangling-link":
        path.symlink_to(folder / "nowhere.yaml")
    elif kind == "link-loop":
        path.symlink_to(path)
    elif kind == "under-a-file":
        (folder / f"plain{number}").write_text("x")
        path = folder / f"plain{number}" / f"sheet{suffix}"
    else:
        raise ValueError(f"unknown file kind {kind!r}")
    return str(path)


def _encounter(kind: str, folder: Path, cache: Path, rng: random.Random) -> str:
    stage = int(kind.rpartition(":")[2])
    source = cache / f"encounter-{stage}.json"
    if not source.exists():
        make_encounter(source, stage)
    path = folder / f"fight{len(list(folder.iterdir()))}.json"
    if kind.startswith("encounter-mutant"):
        data = json.loads(source.read_text())
        path.write_text(json.dumps(mutate(data, rng, rng.choice([1, 2, 3])), indent=1))
    else:
        shutil.copyfile(source, path)
    return str(path)


def make_encounter(path: Path, stage: int) -> None:
    """An encounter file of two fighters, declared (stage 1) and resolved (stage 2)."""
    from taletable.cli.main import main

    examples = ROOT / "examples"
    terrik = f"terrik:knights:{examples}/characters/core_sir_terrik.yaml:Arming Sword"
    thug = f"thug:gang:{examples}/statblocks/thug.yaml:Club"
    steps = [["cogent", "combat", "start", "--fighter", terrik, "--fighter", thug]]
    steps[0] += ["--out", str(path), "--seed", "3"]
    if stage >= 1:
        for actor, target in (("terrik", "thug"), ("thug", "terrik")):
            steps.append(["cogent", "combat", "declare", str(path), "--actor", actor])
            steps[-1] += ["--action", "attack", "--target", target]
    if stage >= 2:
        steps.append(["cogent", "combat", "resolve", str(path), "--seed", "4"])
    for step in steps:
        status = main(step)
        if status:
            raise RuntimeError(f"making an encounter failed at {step}")


def _table_folder(variant: str, folder: Path, rng: random.Random) -> str:
    tables = folder / f"tables-{variant}"
    tables.mkdir()
    if variant in {"shipped", "markup", "broken"}:
        for file in SHIPPED_TABLES.glob("*.yaml"):
            shutil.copyfile(file, tables / file.name)
    if variant == "markup":
        (tables / "markup.yaml").write_text(
            _dump(_table("markup", [], result="[/] [/x] [bold]", title="[/x]"), ".yaml")
        )
    elif variant == "broken":
        victim = rng.choice(sorted(tables.iterdir()))
        data = yaml.safe_load(victim.read_text())
        victim.write_text(_dump(mutate(data, rng, 2), ".yaml"))
    elif variant == "lattice":  # each of 30 layers names both tables of the next layer
        for layer in range(30):
            for side in "ab":
                follow = [f"t{layer + 1}{s}" for s in "ab"] if layer < 29 else []
                (tables / f"t{layer}{side}.yaml").write_text(
                    _dump(_table(f"t{layer}{side}", follow), ".yaml")
                )
    elif variant in {"fan-out", "deep-chain"}:  # fan-out: each rolls the next forty times,
        # six levels (as deep as follow-ups may chain): 40^5 rolls; deep-chain: eight levels
        width, levels = (40, 6) if variant == "fan-out" else (1, 8)
        for level in range(levels):
            follow = [f"t{level + 1}"] * width if level < levels - 1 else []
            (tables / f"t{level}.yaml").write_text(_dump(_table(f"t{level}", follow), ".yaml"))
    elif variant == "many":
        for index in range(rng.choice([10, 501])):
            (tables / f"m{index}.yaml").write_text(_dump(_table(f"m{index}", []), ".yaml"))
    return str(tables)


def _table(name: str, follow: list[str], *, result: str = "X", title: str = "T") -> Any:
    return {
        "name": name,
        "title": title,
        "die": "d6",
        "follow_up": follow,
        "entries": [{"roll": "1-6", "result": result}],
    }


def remove_tree(folder: Path) -> None:
    """Remove a case's folder even where the case locked a sub-folder."""
    for path in folder.rglob("*") if folder.exists() else []:
        try:
            if path.is_dir() and not path.is_symlink():
                path.chmod(stat.S_IRWXU)
        except OSError:
            continue
    shutil.rmtree(folder, ignore_errors=True)
