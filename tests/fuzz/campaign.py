"""A long fuzz campaign over every leaf command, outside CI (one worker process, one core).

    .venv/bin/python -m tests.fuzz.campaign --minutes 240 --report fuzz-report.json

Each invocation is a random command line (:mod:`tests.fuzz.generate`) with hostile files
(:mod:`tests.fuzz.hostile`), run under the time and memory bounds of :mod:`tests.fuzz.runner`.
Failures are grouped by signature (command and kind of problem); the report keeps the count and
the first case of each, so every distinct failure can be replayed with ``--replay REPORT``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.fuzz.generate import RandomChooser, generate_case, leaf_commands
from tests.fuzz.runner import Worker, problems, signature


def campaign(minutes: float, seed: int, report: Path) -> dict[str, Any]:
    """Run cases for ``minutes``; write and return the figures."""
    commands = leaf_commands()
    names = sorted(commands)
    chooser = RandomChooser(random.Random(seed))
    worker = Worker()
    failures: dict[str, dict[str, Any]] = {}
    per_command: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    invocations = 0
    slowest = 0.0
    peak = 0.0
    start = time.monotonic()
    last_report = start
    try:
        while time.monotonic() - start < minutes * 60:
            command = chooser.pick(names)
            case = generate_case(chooser, command, commands[command])
            outcome = worker.run(case, stdin=chooser.pick(["", "\n" * 40, "[/]\n" * 40]))
            invocations += 1
            per_command[" ".join(command)] += 1
            statuses[str(outcome.get("status"))] += 1
            slowest = max(slowest, outcome.get("seconds") or 0)
            peak = max(peak, outcome.get("peak_mb") or 0)
            found = problems(outcome)
            if found:
                key = signature(outcome, found)
                entry = failures.setdefault(key, {"count": 0, "problems": found, "first": outcome})
                entry["count"] += 1
                if entry["count"] == 1:
                    print(f"[{invocations}] NEW {key}", flush=True)
            if time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                _write(report, invocations, failures, per_command, statuses, slowest, peak, seed)
    finally:
        worker.close()
    return _write(report, invocations, failures, per_command, statuses, slowest, peak, seed)


def _write(
    report: Path,
    invocations: int,
    failures: dict[str, dict[str, Any]],
    per_command: Counter[str],
    statuses: Counter[str],
    slowest: float,
    peak: float,
    seed: int,
) -> dict[str, Any]:
    figures = {
        "seed": seed,
        "invocations": invocations,
        "distinct_failures": len(failures),
        "distinct_causes": len({key.partition(" | ")[2] for key in failures}),
        "failing_invocations": sum(entry["count"] for entry in failures.values()),
        "exit_statuses": dict(statuses),
        "slowest_seconds": slowest,
        "peak_memory_mb": peak,
        "commands": len(per_command),
        "per_command": dict(sorted(per_command.items())),
        "failures": failures,
    }
    report.write_text(json.dumps(figures, indent=1, default=str))
    return figures


def replay(report: Path) -> int:
    """Run the first case of every failure in ``report`` again; print which still fail."""
    failures = json.loads(report.read_text())["failures"]
    worker = Worker()
    still = 0
    try:
        for key, entry in sorted(failures.items()):
            outcome = worker.run(entry["first"]["case"])
            found = problems(outcome)
            still += bool(found)
            print(("FAILS " if found else "fixed ") + key + (f": {found}" if found else ""))
    finally:
        worker.close()
    print(f"{still} of {len(failures)} still fail")
    return 1 if still else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--report", type=Path, default=Path("fuzz-report.json"))
    parser.add_argument("--replay", type=Path, help="re-run the failures of a report")
    options = parser.parse_args(argv)
    if options.replay:
        return replay(options.replay)
    figures = campaign(options.minutes, options.seed, options.report)
    summary = {key: figures[key] for key in ("invocations", "distinct_failures", "slowest_seconds")}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
