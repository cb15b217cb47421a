"""Start writer processes (:mod:`tests.reliability.cli_worker`) and collect what they did."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

WORKER = Path(__file__).with_name("cli_worker.py")
#: Files a save writes before its rename (taletable.files.TEMPORARY_SUFFIX).
TEMPORARY = "*.taletable-tmp"
#: The counts of attempts that did not land.
REFUSALS = ("conflicts", "raced", "refused")


def writer(spec: dict[str, Any]) -> subprocess.Popen[str]:
    """One writer process running ``spec`` (it inherits the test's config folder)."""
    return subprocess.Popen(
        [sys.executable, str(WORKER), json.dumps(spec)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def race(*specs: dict[str, Any]) -> list[Counter[str]]:
    """Run one writer per spec at once; each one's counts (landed per command, refusals)."""
    started = [writer(spec) for spec in specs]
    results = []
    for process in started:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        results.append(Counter(json.loads(out)))
    return results


def landed(counts: Counter[str]) -> int:
    """How many of a writer's attempts landed."""
    return sum(n for name, n in counts.items() if name not in REFUSALS)


def temporaries(folder: Path) -> list[str]:
    """The names of save temporaries left in ``folder``."""
    return sorted(path.name for path in folder.glob(".*" + TEMPORARY[1:]))


class Forker:
    """A process that has imported the CLI and forks writers on demand, to be killed."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def start(self, spec: dict[str, Any]) -> int:
        """Fork a writer running ``spec`` and return its process id once it has saved once."""
        assert self.process.stdout is not None
        pid = int(self._ask("go " + json.dumps({**spec, "forever": True, "ready": True})))
        ready = self.process.stdout.readline().strip()
        assert ready == "ready", ready
        return pid

    def kill_after(self, pid: int, seconds: float) -> None:
        """kill -9 the writer ``pid`` after ``seconds`` and wait until it is gone (reaped)."""
        time.sleep(seconds)
        os.kill(pid, signal.SIGKILL)
        assert self._ask(f"reap {pid}") == "reaped"

    def close(self) -> None:
        """Stop forking."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
