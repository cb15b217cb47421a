"""Running fuzz cases: in a worker process with a time and memory bound, and checking them.

The worker (``python -m tests.fuzz.runner``) runs cases through ``taletable.cli.main.main``
in-process, one after another, each in a fresh folder; it reads one JSON case per line and
answers one JSON outcome per line on its own copy of stdout (the command's output is captured).
Bounds: an interval timer stops a case after :data:`TIME_LIMIT` seconds and reports where it
was; the address space is capped at :data:`ADDRESS_LIMIT_MB`, and the peak resident memory of
each case is measured (Linux ``clear_refs``) against :data:`MEMORY_LIMIT_MB`. A worker that
stops answering (a hang in C code) is killed by the parent and the case counts as a hang.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import FrameType
from typing import Any

from tests.fuzz import hostile

#: No command may run longer than this on any input (the README's promise).
TIME_LIMIT = 10.0
#: Nor use more resident memory than this.
MEMORY_LIMIT_MB = 500
#: The worker's address-space cap: a safety net for the shared machine.
ADDRESS_LIMIT_MB = 1500
ROOT = hostile.ROOT


class Hang(BaseException):
    """Raised in the worker by the interval timer when a case runs past the time limit."""


def materialize(case: dict[str, Any], folder: Path, cache: Path) -> list[str]:
    """The case's command line, with its files made in ``folder``."""
    argv = list(case["command"])
    for token in case["args"]:
        argv.append(_token(token, folder, cache))
    return argv


def _token(token: Any, folder: Path, cache: Path) -> str:
    if isinstance(token, str):
        return token
    if "spec" in token:
        return ":".join(_token(part, folder, cache) for part in token["spec"])
    return hostile.make_file(token, folder, cache)


def _peak_reset() -> None:
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"over {TIME_LIMIT:.0f} s")


def run_case(case: dict[str, Any], cache: Path, stdin: str = "") -> dict[str, Any]:
    """Run one case in this process; return what happened (status, output, error, time...)."""
    from taletable.cli.main import main

    outcome: dict[str, Any] = {"case": case}
    home = Path.cwd()
    folder = Path(tempfile.mkdtemp(prefix="case-", dir=cache))
    try:
        argv = materialize(case, folder, cache)
    except Exception as error:  # a broken case is the harness's bug, not taletable's
        outcome.update(status=None, harness_error=repr(error))
        hostile.remove_tree(folder)
        return outcome
    outcome["argv"] = argv
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    _peak_reset()
    start = time.perf_counter()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        os.chdir(folder)
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
        outcome["status"] = main(argv)
    except BaseException as error:
        outcome["status"] = None
        outcome["exception"] = type(error).__name__
        outcome["traceback"] = traceback.format_exc(limit=-12)[-4000:]
        outcome["where"] = _where(error)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(home)
        outcome["seconds"] = round(time.perf_counter() - start, 3)
        outcome["peak_mb"] = round(_peak_mb(), 1)
        hostile.remove_tree(folder)
    outcome["stdout"] = out.getvalue()[-2000:]
    outcome["stderr"] = err.getvalue()[-2000:]
    return outcome


def _where(error: BaseException) -> str:
    """The innermost taletable frame the error passed (file:function), for grouping."""
    where = "?"
    for frame, _ in traceback.walk_tb(error.__traceback__):
        name = frame.f_code.co_filename
        if "taletable" in name and "/tests/" not in name:
            where = f"{Path(name).name}:{frame.f_code.co_name}"
    return where


def problems(outcome: dict[str, Any]) -> list[str]:
    """What the outcome breaks of the promise (empty: all kept)."""
    found = []
    if outcome.get("harness_error"):
        return [f"harness: {outcome['harness_error']}"]
    if outcome.get("exception"):
        found.append(f"{outcome['exception']} escaped at {outcome.get('where')}")
    status = outcome.get("status")
    if status is not None and status not in (0, 1, 2):
        found.append(f"exit status {status}")
    for stream in ("stdout", "stderr"):
        if "Traceback" in outcome.get(stream, ""):
            found.append(f"a traceback on {stream}")
    stderr = outcome.get("stderr", "")
    if _prompted(outcome):  # the prompts and their answers are on stderr; the error is last
        stderr = stderr.rstrip("\n").rpartition("\n")[2]
    if status and stderr.rstrip("\n").count("\n"):
        found.append("stderr is more than one line")
    if (status == 1 and not _verification_failed(outcome)) or "internal error" in stderr:
        found.append(f"internal error: {stderr.strip()[:80]}")
    if status and not stderr.strip() and not outcome.get("stdout", "").strip():
        found.append("failed without a message")
    if outcome.get("seconds", 0) > TIME_LIMIT:
        found.append(f"took {outcome['seconds']} s")
    if outcome.get("peak_mb", 0) > MEMORY_LIMIT_MB:
        found.append(f"peak memory {outcome['peak_mb']} MB")
    return found


def _verification_failed(outcome: dict[str, Any]) -> bool:
    """Whether the case is `verify` reporting an export that fails (its documented exit 1)."""
    return (outcome.get("argv") or [])[:1] == ["verify"]


def _prompted(outcome: dict[str, Any]) -> bool:
    """Whether the case ran `character new` with its prompts (no --from)."""
    argv = outcome.get("argv") or []
    return argv[:3] == ["cogent", "character", "new"] and "--from" not in argv


def signature(outcome: dict[str, Any], found: list[str]) -> str:
    """What makes two failures the same failure: the command and the kind of problem."""
    command = " ".join(outcome["case"]["command"])
    kind = found[0].split(" at ")[0] if found else "?"
    if outcome.get("exception") == "Hang" or kind.startswith("took"):
        kind = f"hang at {outcome.get('where', '?')}"
    elif outcome.get("exception"):
        kind = found[0]
    elif kind.startswith("peak memory"):
        kind = "memory"
    elif "stderr" in kind:
        first = outcome.get("stderr", "").split(":")[1:3]
        kind = f"{kind}: {':'.join(first)[:60]}"
    return f"{command} | {kind}"


def serve() -> None:
    """The worker loop: a JSON case per line in, a JSON outcome per line out."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    limit = ADDRESS_LIMIT_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    cache = Path(tempfile.mkdtemp(prefix="taletable-fuzz-"))
    try:
        for line in sys.stdin:
            request = json.loads(line)
            outcome = run_case(request["case"], cache, request.get("stdin", ""))
            protocol.write(json.dumps(outcome, default=str) + "\n")
    finally:
        hostile.remove_tree(cache)


class Worker:
    """The parent's end: start a worker, give it cases, kill and restart it when it hangs."""

    def __init__(self, *, recycle_after: int = 300) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.recycle_after = recycle_after
        self.served = 0

    def _start(self) -> subprocess.Popen[str]:
        path = f"{ROOT / 'src'}{os.pathsep}{ROOT}"
        env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1"}
        env.pop("TALETABLE_HOUSE_RULES", None)
        env["COLUMNS"] = "100"
        env["TALETABLE_TRACEBACK"] = "1"  # an unexpected error shows where it happened
        return subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.runner"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, case: dict[str, Any], stdin: str = "") -> dict[str, Any]:
        """Run ``case`` in the worker; a worker that dies or stops answering is a failure."""
        if self.process is None or self.served >= self.recycle_after:
            self.close()
            self.process = self._start()
            self.served = 0
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        self.served += 1
        process.stdin.write(json.dumps({"case": case, "stdin": stdin}) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], TIME_LIMIT + 20)
        line = process.stdout.readline() if ready else ""
        if line:
            outcome = dict(json.loads(line))
            if outcome.get("peak_mb", 0) > MEMORY_LIMIT_MB or outcome.get("exception"):
                self.close()  # memory it kept, or state it broke, must not blame the next case
            return outcome
        self.close()
        reason = "stopped answering" if not ready else "died"
        return {
            "case": case,
            "status": None,
            "exception": "Hang" if not ready else "Died",
            "where": reason,
            "seconds": TIME_LIMIT + 20 if not ready else 0,
        }

    def close(self) -> None:
        """Stop the worker (killing it if it does not stop)."""
        if self.process is None:
            return
        with contextlib.suppress(OSError):
            if self.process.stdin:
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


if __name__ == "__main__":
    serve()
