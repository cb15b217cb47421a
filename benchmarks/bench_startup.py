"""Start-up of the commands a table types most, against named peers, in one run.

Run with ``python3 tasks.py bench`` or ``.venv/bin/python benchmarks/bench_startup.py``.
Each command is a fresh process (this interpreter running the ``taletable`` console script),
timed whole, from its start to its exit: wall seconds by ``time.perf_counter``, CPU seconds
(user + system) by the kernel's accounting of the reaped child (``os.wait4``). Three
commands, each held by an import budget in ``tests/test_import_budget.py``:

- ``taletable --help``
- ``taletable odds cogent --pool 6 --cl 3`` (a check's exact odds)
- ``taletable cogent check --pool 6 --cl 3``

The peers, each at its fastest (a bare ``-c`` of one line, bytecode already written):

- **floor**, ``python -c pass``: the interpreter and its site-packages alone. No Python
  command can start under it; the ratio says how many interpreter starts a command costs.
- **stack**, ``python -c "import click, rich.console, yaml; from pydantic import BaseModel"``:
  the libraries the command line is built on, imported as far as a command uses them (pydantic
  and rich import their parts lazily: ``import pydantic`` alone loads little) and nothing
  else. What taletable adds is the time over it.

The sides of a command take turns within one run (command, floor, stack, then rotated), and
the ratios are taken round by round, so the machine's other load falls on every side alike.
``--before SRC`` adds one more side: the same command from another tree's ``src`` (an older
checkout), to see a change before and after in one run. Every side is run once before it is
timed, with bytecode writing allowed, so no side pays for compiling its modules. The goal
(issue "The house, round two", 6): each command under 0.3 s of wall time on a quiet machine;
the load average is printed before and after, and on a busy machine the CPU time is the figure
to read. ``--instructions`` also counts each side's instructions once under Valgrind's
callgrind (when it is installed): a figure no other load moves, slow to take (about a minute
a side on a busy machine). Never run as a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

COMMANDS = {
    "--help": ["--help"],
    "odds cogent": ["odds", "cogent", "--pool", "6", "--cl", "3"],
    "cogent check": ["cogent", "check", "--pool", "6", "--cl", "3"],
}
PEERS = {
    "floor": ["-c", "pass"],
    "stack": ["-c", "import click, rich.console, yaml; from pydantic import BaseModel"],
}
#: The goal of each command's median wall time, on a quiet machine, in seconds.
GOAL = 0.3


@dataclass
class Side:
    """One thing timed: its name, its arguments to this interpreter and its environment."""

    name: str
    argv: list[str]
    env: dict[str, str]
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def _environment(source: str | None = None) -> dict[str, str]:
    """The children's environment: bytecode may be written (as after an install), and
    ``source`` (a tree's ``src``) first on the path when given."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.pop("PYTHONPATH", None)
    if source is not None:
        env["PYTHONPATH"] = str(Path(source).resolve())
    return env


def run_once(side: Side) -> tuple[float, float]:
    """Start the side's process, wait for it, and return its wall and CPU seconds."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, *side.argv],
        env=side.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{side.name}: exit status {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def sides_of(arguments: list[str], before: str | None) -> list[Side]:
    """The command (and its older self under ``--before``) and the peers, in turn order."""
    script = str(Path(sys.executable).with_name("taletable"))
    sides = [Side("taletable", [script, *arguments], _environment())]
    if before is not None:
        sides.append(Side("before", [script, *arguments], _environment(before)))
    sides += [Side(name, argv, _environment()) for name, argv in PEERS.items()]
    return sides


def measure(sides: list[Side], runs: int) -> list[dict[str, float]]:
    """Warm every side once, then ``runs`` rounds, each side once a round, the order rotated
    each round; return each round's wall times by side."""
    for side in sides:
        run_once(side)
    rounds = []
    for number in range(runs):
        order = sides[number % len(sides) :] + sides[: number % len(sides)]
        walls = {}
        for side in order:
            wall, cpu = run_once(side)
            side.wall.append(wall)
            side.cpu.append(cpu)
            walls[side.name] = wall
        rounds.append(walls)
    return rounds


def report(title: str, sides: list[Side], rounds: list[dict[str, float]]) -> None:
    """Medians (min-max) of each side, then the command's ratio over each other side."""
    print(f"\n{title}")
    for side in sides:
        print(
            f"  {side.name:<10} wall {statistics.median(side.wall):6.3f} s "
            f"({min(side.wall):.3f}-{max(side.wall):.3f})   "
            f"cpu {statistics.median(side.cpu):6.3f} s"
        )
    ours = sides[0]
    for other in sides[1:]:
        ratios = [walls[ours.name] / walls[other.name] for walls in rounds]
        print(f"  taletable / {other.name:<6} {statistics.median(ratios):6.2f}x (wall, by round)")
    median = statistics.median(ours.wall)
    verdict = "under" if median < GOAL else "OVER"
    print(f"  goal: wall under {GOAL} s on a quiet machine: {verdict} ({median:.3f} s)")


def instructions(side: Side) -> int:
    """The instructions the side's process runs, counted by callgrind (user space)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind")
    out = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         *side.argv],
        env=side.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"{side.name}: callgrind counted nothing")
    return int(found[1])


def report_instructions(sides: list[Side]) -> None:
    """Each side's instructions, and the command's over each other side's."""
    counts = {side.name: instructions(side) for side in sides}
    ours = counts[sides[0].name]
    for name, count in counts.items():
        ratio = "" if name == sides[0].name else f"   taletable / {name} {ours / count:6.2f}x"
        print(f"  {name:<10} {count / 1e6:9.1f} M instructions{ratio}")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed rounds per command")
    parser.add_argument("--before", metavar="SRC", help="also time the commands from SRC")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (callgrind)"
    )
    options = parser.parse_args()
    print(f"start-up, {options.runs} rounds; load average {load()}")
    for title, arguments in COMMANDS.items():
        sides = sides_of(arguments, options.before)
        rounds = measure(sides, options.runs)
        report(f"taletable {title}", sides, rounds)
        if options.instructions:
            report_instructions(sides)
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
