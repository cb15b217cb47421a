"""A campaign's log at 1,000, 10,000 and 100,000 events: does anything grow with it?

Run with ``.venv/bin/python benchmarks/bench_campaign.py [--sizes 1000,10000,100000]
[--databases sqlite,postgresql]``. For each size it plays a table's log through the API the
way a table makes one (``tests/server/campaign.py``: checks, rolls, chat with inline rolls,
whispers, conflicts, a secret roll, a goblin fight in every scene of 250 events), kept in
``benchmarks/.cache/`` so that a second run starts at once. Then, on a real ``taletable
serve`` (SQLite: the log as played; PostgreSQL: the same log imported into a fresh database,
which measures the import too), it measures, each the median of several tries:

* ``verify``: ``taletable verify`` of the narrator's export, its time and peak memory;
* ``export``: the narrator's export streamed to a file, its time and the server's peak memory;
* ``import``: ``POST /api/tables/import`` of that export into an empty server;
* the pages: the table page (narrator and player), the fight card, a page of ``/events``;
* one more action (a check), and a stream's catch-up on its last 500 events.

Its peer is the log itself at 1,000 events: the goals (issue 34) are memory bounded (verify's
and the export's peak at 100,000 within 1.5x the peak at 1,000 plus 64 MB) and time flat for
everything a table does while it plays (each page and the action at 100,000 within 1.3x the
same at 1,000). Verify, export and import read the whole log, so their time grows with it;
their rate (events a second) is printed. The load average is printed before and after: the
machine is shared, so compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from serving import free_port, fresh_postgresql, serving

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CACHE = Path(__file__).resolve().parent / ".cache"
TRIES = 5
CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 3}}
GOAL_MEMORY, GOAL_SLACK_MB, GOAL_TIME = 1.5, 64, 1.3


def played(size: int) -> tuple[Path, dict[str, Any]]:
    """A SQLite database holding a table of ``size`` events, and its seats (cached)."""
    CACHE.mkdir(exist_ok=True)
    database, seats = CACHE / f"campaign-{size}.db", CACHE / f"campaign-{size}.json"
    if database.exists() and seats.exists():
        return database, json.loads(seats.read_text())
    from fastapi.testclient import TestClient

    from taletable.server import create_app
    from tests.server.campaign import play_campaign
    from tests.server.conftest import TEST_LIMITS

    started = time.monotonic()
    partial = database.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    with TestClient(create_app(f"sqlite:///{partial}", limits=TEST_LIMITS)) as client:
        table = play_campaign(client, size)
        client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
    partial.rename(database)
    known = {"id": table.id, "narrator": table.narrator["Authorization"],
             "player": table.mara["Authorization"]}  # fmt: skip
    seats.write_text(json.dumps(known))
    print(f"  played {size:,} events in {time.monotonic() - started:.0f} s (kept in {CACHE})")
    return database, known


def median_ms(step: Callable[[], Any], tries: int = TRIES) -> float:
    step()  # warm
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        step()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def peak_kib(pid: int) -> int:
    """A process's peak resident memory so far (``VmHWM``), KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def verify(path: Path) -> tuple[float, int]:
    """``taletable verify``'s time (s) and peak memory (KiB) on ``path``."""
    code = (
        "import resource, sys\nfrom taletable.cli.main import main\n"
        "try:\n    main(['verify', sys.argv[1]])\n"
        "except SystemExit as done:\n    code = done.code\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if "ok:" not in done.stdout:
        raise SystemExit(f"verify failed: {done.stdout} {done.stderr}")
    return elapsed, int(done.stderr.strip().splitlines()[-1])


def seat_client(url: str, table_id: str, token: str) -> httpx.Client:
    """A browser-like client holding ``token``'s seat cookie (through the seat's link)."""
    client = httpx.Client(base_url=url, timeout=120)
    client.get(f"/t/{table_id}/enter", params={"token": token})
    client.headers["Authorization"] = f"Bearer {token}"
    return client


def catch_up(client: httpx.Client, table_id: str, after: int, until: int) -> None:
    """Read the seat's stream from ``after`` until it has sent event ``until``."""
    with client.stream("GET", f"/api/tables/{table_id}/stream", params={"after": after}) as body:
        for line in body.iter_lines():
            if line.startswith("id:") and int(line[3:]) >= until:
                return


def measure(url: str, pid: int, table: dict[str, Any], size: int, into: Path) -> dict[str, float]:
    """Every figure of one table on one running server."""
    table_id = table["id"]
    narrator = seat_client(url, table_id, table["narrator"].split()[-1])
    player = seat_client(url, table_id, table["player"].split()[-1])
    last = int(narrator.get(f"/api/tables/{table_id}").json()["head_seq"])
    after = max(last - 500, 0)
    seen = player.get(f"/api/tables/{table_id}/events", params={"after": after}).json()["events"]
    figures: dict[str, float] = {}
    narrator.post(f"/api/tables/{table_id}/scenes")  # every die checkable: the export imports
    before = peak_kib(pid)
    started = time.monotonic()
    with narrator.stream("GET", f"/api/tables/{table_id}/export") as answer, into.open("wb") as f:
        for chunk in answer.iter_bytes():
            f.write(chunk)
    figures["export s"] = time.monotonic() - started
    figures["export server peak MB"] = peak_kib(pid) / 1024
    figures["export server growth MB"] = (peak_kib(pid) - before) / 1024
    figures["verify s"], verify_peak = verify(into)
    figures["verify peak MB"] = verify_peak / 1024
    pages = {
        "table page (narrator) ms": lambda: narrator.get(f"/t/{table_id}"),
        "table page (player) ms": lambda: player.get(f"/t/{table_id}"),
        "fight card ms": lambda: narrator.get(f"/t/{table_id}/combat/card"),
        "/events page ms": lambda: player.get(
            f"/api/tables/{table_id}/events", params={"after": after}
        ),
        "one action ms": lambda: player.post(f"/api/tables/{table_id}/actions", json=CHECK),
        "stream catch-up (500) ms": lambda: catch_up(player, table_id, after, seen[-1]["seq"]),
    }
    for name, step in pages.items():
        figures[name] = median_ms(step)
    return figures


def imported(url: str, export: Path) -> tuple[dict[str, Any], float]:
    """The export imported into the server at ``url``: its seats (a player joins), and the
    import's time (s)."""
    with httpx.Client(base_url=url, timeout=3600) as client:
        started = time.monotonic()
        with export.open("rb") as body:
            made = client.post("/api/tables/import", content=body)
        elapsed = time.monotonic() - started
        if made.status_code != 201:
            raise SystemExit(f"the import was refused: {made.text}")
        table = made.json()
        joined = client.post(
            f"/api/tables/{table['id']}/join",
            json={"code": table["join_code"], "name": "Ann", "role": "player"},
        ).json()
    seats = {"id": table["id"], "narrator": f"Bearer {table['narrator_token']}",
             "player": f"Bearer {joined['token']}"}  # fmt: skip
    return seats, elapsed


def serve(database: str) -> Any:
    port = free_port()
    command = [sys.executable, "-m", "taletable.cli.main", "serve", "--port", str(port),
               "--database", database]  # fmt: skip
    return port, serving(command, port)


def run_size(size: int, databases: list[str], work: Path) -> dict[str, dict[str, float]]:
    database, table = played(size)
    rows: dict[str, dict[str, float]] = {}
    sqlite_export = work / f"export-{size}.json"
    port, server = serve(f"sqlite:///{database}")
    with server as pid:
        rows["sqlite"] = measure(f"http://127.0.0.1:{port}", pid, table, size, sqlite_export)
    if "postgresql" in databases:
        with fresh_postgresql() as url:
            if url is not None:
                port, server = serve(url)
                with server as pid:
                    base = f"http://127.0.0.1:{port}"
                    seats, import_s = imported(base, sqlite_export)
                    rows["postgresql"] = measure(base, pid, seats, size, work / "pg.json")
                    rows["postgresql"]["import s"] = import_s
    if "sqlite" in databases:
        with tempfile.TemporaryDirectory() as empty:
            port, server = serve(f"sqlite:///{empty}/import.db")
            with server:
                rows["sqlite"]["import s"] = imported(f"http://127.0.0.1:{port}", sqlite_export)[1]
    else:
        rows.pop("sqlite")
    return rows


def report(results: dict[int, dict[str, dict[str, float]]]) -> None:
    sizes = sorted(results)
    smallest, largest = sizes[0], sizes[-1]
    for database in sorted({db for rows in results.values() for db in rows}):
        print(f"\n{database}")
        names = list(results[smallest][database])
        print(f"  {'':28}" + "".join(f"{size:>12,}" for size in sizes) + f"{'ratio':>9}")
        for name in names:
            values = [results[size][database].get(name, float("nan")) for size in sizes]
            ratio = values[-1] / values[0] if values[0] else float("nan")
            print(f"  {name:28}" + "".join(f"{v:12.1f}" for v in values) + f"{ratio:9.2f}")
        first, last = results[smallest][database], results[largest][database]
        goals = []
        for name in ("verify peak MB", "export server peak MB"):
            bound = first[name] * GOAL_MEMORY + GOAL_SLACK_MB
            goals.append((name, last[name] <= bound, f"{last[name]:.0f} <= {bound:.0f}"))
        for name in [n for n in names if n.endswith(" ms")]:
            goals.append((name, last[name] <= first[name] * GOAL_TIME,
                          f"{last[name] / first[name]:.2f}x <= {GOAL_TIME}x"))  # fmt: skip
        for name in ("verify s", "export s", "import s"):
            if name in last:
                print(f"  {name[:-2]} rate at {largest:,}: {largest / last[name]:,.0f} events/s")
        print(f"  goals at {largest:,} events against {smallest:,}:")
        for name, met, how in goals:
            print(f"    {'met   ' if met else 'MISSED'} {name}: {how}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--databases", default="sqlite,postgresql")
    given = parser.parse_args()
    sizes = [int(size) for size in given.sizes.split(",")]
    databases = given.databases.split(",")
    print(f"load average before: {os.getloadavg()}")
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for size in sizes:
            print(f"{size:,} events")
            results[size] = run_size(size, databases, Path(work))
    report(results)
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
