"""A writer for the real-process tests: runs the CLI's ``main`` in a loop in its own process.

Run as ``python cli_worker.py SPEC`` with SPEC a JSON object:

* ``{"cycle": [[ARGS...], ...], "rounds": N}`` — N attempts; each runs the current ARGS of the
  cycle, and the writer moves on to the next ARGS only once the current one landed (a writer
  told to reload tries the same change again, as a person would);
* ``{"fight": FILE, "rounds": N}`` — N attempts at the encounter's next step, decided from the
  file as it stands: the next declaration (an attack on the other fighter), the resolve (seeded
  by the number of steps, so two writers roll alike), or the first pending victory's outcome
  (a stagger, so the fight goes on);
* ``"refusals": [TEXT, ...]`` — a rules refusal whose message holds TEXT is counted as
  ``refused`` (a limit the test expects the writers to reach, such as points all spent);
* ``"once": true`` — move on to the next ARGS after every attempt, landed or refused (each
  ARGS is tried once: a creator's files, made in turn);
* ``"unlink": FILE`` — remove FILE before each attempt (a creator makes it anew);
* ``"ready": true`` — print ``ready`` once the first attempt landed (a killer waits for it);
  ``"forever": true`` — keep going until killed.

Every attempt must land (exit 0) or be refused with one line on stderr: the conflict message
(another save landed since the file was read), or, in a fight, a rules refusal made because the
other writer moved the fight on (the file changed since this writer read it). Anything else, a
traceback included, stops the writer with status 1. At the end it prints a JSON object: how
many attempts of each command landed, ``conflicts``, ``raced`` and ``refused``.

``python cli_worker.py --serve`` imports the CLI once and then forks a writer for each line
``go SPEC`` it reads (answering the writer's process id; the writer prints ``ready``), and
reaps one for each line ``reap PID`` (answering ``reaped``), so a test can kill -9 writers
many times without paying for the start-up of each.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from taletable.cli.main import main
from taletable.systems.cogent.combat import Encounter
from taletable.systems.cogent.combat.aftermath import pending

CONFLICT = "changed by another save since it was read"


def _run(args: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(args)
    return status, err.getvalue()


def _fight_step(path: str) -> tuple[str, list[str], str]:
    """The encounter's next step as (command, CLI arguments, the file's text it was read from)."""
    text = Path(path).read_text(encoding="utf-8")
    data = {k: v for k, v in json.loads(text).items() if k not in ("seal", "revision")}
    encounter = Encounter.model_validate(data)
    waiting = pending(encounter)
    if waiting:
        victory = str(waiting[0].id)
        return "choose", ["choose", path, "--victory", victory, "--outcome", "stagger"], text
    declared = {d.actor for d in encounter.declarations}
    left = [ident for ident in encounter.declaration_order() if ident not in declared]
    if not left:
        return "resolve", ["resolve", path, "--seed", str(len(encounter.steps) + 1)], text
    actor = left[0]
    foe = next(f.id for f in encounter.combatants if f.id != actor)
    declare = ["declare", path, "--actor", actor, "--action", "attack", "--target", foe]
    return "declare", declare, text


def run(spec: dict[str, Any]) -> Counter[str]:
    """Make the spec's attempts; the counts of what landed and what was refused."""
    counts: Counter[str] = Counter()
    cycle = spec.get("cycle", [])
    current = 0
    attempt = 0
    while spec.get("forever") or attempt < spec["rounds"]:
        attempt += 1
        if "fight" in spec:
            name, tail, seen = _fight_step(spec["fight"])
            args = ["cogent", "combat", *tail]
        else:
            name, args, seen = str(current % len(cycle)), cycle[current % len(cycle)], ""
        if "unlink" in spec:
            Path(spec["unlink"]).unlink(missing_ok=True)
        status, err = _run(args)
        if spec.get("once"):
            current += 1
        if status == 0:
            counts[name] += 1
            current += 0 if spec.get("once") else 1
            if spec.get("ready") and sum(counts.values()) == 1:
                print("ready", flush=True)
            continue
        if status != 2 or err.count("\n") != 1:
            raise SystemExit(f"{args}: exit {status}, not one line: {err!r}")
        if CONFLICT in err and "reload" in err:
            counts["conflicts"] += 1
        elif seen and Path(spec["fight"]).read_text(encoding="utf-8") != seen:
            counts["raced"] += 1  # the other writer took this step first
        elif any(allowed in err for allowed in spec.get("refusals", ())):
            counts["refused"] += 1  # a limit of the rules, reached (the test checks when)
        else:
            raise SystemExit(f"{args}: refused with the file unchanged: {err!r}")
    return counts


def serve() -> None:
    """Fork a writer for each ``go SPEC`` line; reap one for each ``reap PID`` line."""
    for line in sys.stdin:
        command, _, argument = line.strip().partition(" ")
        if command == "go":
            child = os.fork()
            if child == 0:
                try:
                    run(json.loads(argument))
                except BaseException as error:  # the test reads this line instead of "ready"
                    print(f"failed: {error!r}", flush=True)
                finally:
                    os._exit(1)  # only a kill ends a writer that goes on forever
            print(child, flush=True)
        elif command == "reap":
            os.waitpid(int(argument), 0)
            print("reaped", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve()
    else:
        print(json.dumps(run(json.loads(sys.argv[1]))), flush=True)
