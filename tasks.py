#!/usr/bin/env python3
"""Bootstrap and run taletable with nothing but python3 on the machine.

    python3 tasks.py demo    install (into .venv, with the server) and start the live table with a
                             sample table ready; prints the narrator's link and the join code
    python3 tasks.py test    install (into .venv, with the dev extras) and run the whole test suite
    python3 tasks.py bench   install and run the benchmarks (never part of the tests)

The virtual environment is made on first use and refreshed when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def run(*command: str | Path) -> None:
    """Run a command from the project root; stop with its status if it fails."""
    print("+", " ".join(str(part) for part in command), flush=True)
    status = subprocess.call([str(part) for part in command], cwd=ROOT)
    if status:
        sys.exit(status)


def ensure_environment(extras: str) -> None:
    """Make .venv and install the package with ``extras`` unless already up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 -- tasks.py runs on the bare python3, not the venv
        sys.exit(f"taletable needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", target)
    stamp.write_text(digest)


def demo() -> None:
    ensure_environment("server")
    run(BIN / "taletable", "serve", "--sample", *sys.argv[2:])


def test() -> None:
    ensure_environment("dev")
    run(BIN / "ruff", "check", "src", "tests", "benchmarks", "tasks.py")
    run(BIN / "mypy")
    run(PYTHON, "-m", "pytest", *sys.argv[2:])


def bench() -> None:
    ensure_environment("dev")
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        run(PYTHON, script)


COMMANDS = {"demo": demo, "test": test, "bench": bench}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(COMMANDS)}}} [pytest arguments]")
    COMMANDS[sys.argv[1]]()
