"""The file store with real processes: no lost update, no broken file after a kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

WRITER = """
import sys
from taletable.errors import ConflictError
from taletable.store import FileStore

path, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
landed = conflicts = 0
while landed < rounds:
    store = FileStore()  # a fresh process's view, as each CLI command has
    read = store.read("character", path)
    data = dict(read.data)
    data["count"] = data["count"] + 1
    data["log"] = [*data["log"], name]
    try:
        store.save("character", path, data, version=read.version)
        landed += 1
    except ConflictError:
        conflicts += 1
print(landed, conflicts)
"""


def _python(*args: str) -> list[str]:
    return [sys.executable, "-c", *args]


def test_two_writers_lose_no_update(tmp_path: Path) -> None:
    """Two processes add to one sheet a hundred times each: every change is there.

    A writer whose save is refused (someone saved first) reloads and tries again, as a person
    told to reload would; nothing is ever overwritten silently.
    """
    path = tmp_path / "sheet.yaml"
    path.write_text(yaml.safe_dump({"count": 0, "log": []}), encoding="utf-8")
    writers = [
        subprocess.Popen(_python(WRITER, str(path), name, "100"), stdout=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    outputs = [writer.communicate(timeout=120)[0].split() for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0]
    final = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert final["count"] == 200
    assert sorted(final["log"]) == ["a"] * 100 + ["b"] * 100
    assert final["revision"] == 200
    assert [int(landed) for landed, _ in outputs] == [100, 100]


SAVER = """
import sys
from taletable.store import FileStore

path = sys.argv[1]
store = FileStore()
first = True
while True:
    read = store.read("encounter", path)
    data = dict(read.data)
    data["steps"] = [*data["steps"], {"n": len(data["steps"]), "pad": "x" * 2000}][-200:]
    store.save("encounter", path, data, version=read.version)
    if first:
        print("saving", flush=True)
        first = False
"""


def test_kill_9_mid_save_leaves_a_whole_file(tmp_path: Path) -> None:
    """Killed at twenty moments while saving, the file is always a whole, readable save."""
    path = tmp_path / "fight.json"
    path.write_text(json.dumps({"steps": []}), encoding="utf-8")
    for attempt in range(20):
        saver = subprocess.Popen(_python(SAVER, str(path)), stdout=subprocess.PIPE, text=True)
        assert saver.stdout is not None and saver.stdout.readline() == "saving\n"
        time.sleep(0.005 + 0.007 * attempt)  # a different moment of the save loop each time
        os.kill(saver.pid, signal.SIGKILL)
        saver.wait()
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data["steps"], list)
        assert data["revision"] >= 0
    assert data["revision"] > 0, "the saver never saved: the test proved nothing"
