"""The live table under load: SQLite with one worker, PostgreSQL with one and with two, in one run.

Run with ``python3 tasks.py bench`` (or ``.venv/bin/python benchmarks/bench_server.py``). For
each server the script starts a real ``taletable serve`` on 127.0.0.1 (rate limit lifted with
``TALETABLE_RATE_LIMIT``), makes 20 tables of 8 seats, opens every seat's event stream (160
server-sent-event connections), then posts ``cogent.check`` actions at a rising rate. It
measures the rate the server answered and, per action, the time from its POST being sent to
its event having arrived at every one of its table's 8 streams (the slowest seat): p50, p99.

The goals (issue 14): p99 under 50 ms at 200 actions/s, and at least 500 actions/s on
PostgreSQL with two workers. The script says which are met.

Everything runs on one machine, so the load is kept cheap (``load_clients.py``): the POSTs go
out over 128 kept-alive connections and the streams are read in a second process, both as
plain HTTP/1.1 on asyncio. Other programs on the machine slow the server too, so each row also
gives the server's CPU time per action (all its processes; PostgreSQL's own not counted), which
they change much less. PostgreSQL is ``TALETABLE_BENCH_DATABASE_URL`` (default: the local server as
``postgres``); each server gets a database of its own there, dropped at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from load_clients import Poster, Seat, cpu_seconds, stream_process

BASE_POSTGRESQL = os.environ.get(
    "TALETABLE_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
TABLES = 20
SEATS_PER_TABLE = 8  # the narrator and seven players, each with its stream open
RATES = (50, 100, 200, 400, 800)  # actions a second, one step each
STEP_SECONDS = 3.0
WARM_UP = (50, 1.0)  # a rate and seconds, not reported
POST_TIMEOUT = 3.0  # past it a POST counts as unanswered
SETTLE_SECONDS = 1.0  # after a step's last answer, before the next step
MAX_IN_FLIGHT = 128  # a send past it is skipped (the server has fallen behind)
ACTION = {"action": "cogent.check", "args": {"pool": 6, "cl": 3}}
ACTION_BODY = json.dumps(ACTION).encode()
GOAL_P99_MS, GOAL_P99_RATE, GOAL_RATE = 50.0, 200, 500


@dataclass
class Post:
    table: int
    step: int
    sent: float
    seq: int | None = None  # None: not answered 201
    answered: float = 0.0


@dataclass
class Step:
    rate: int
    started: float
    posts: list[Post] = field(default_factory=list)
    skipped: int = 0
    server_cpu: float = 0.0  # seconds, all the server's processes


# -- servers and databases ---------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(database: str, workers: int) -> Iterator[tuple[int, int]]:
    """A ``taletable serve`` process on a free port: (port, pid), once it answers."""
    port = free_port()
    environment = {**os.environ, "TALETABLE_RATE_LIMIT": "1000000,1000000"}
    command = [sys.executable, "-m", "taletable.cli.main", "serve", "--port", str(port),
               "--database", database, "--workers", str(workers)]  # fmt: skip
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, env=environment, stdout=errors, stderr=errors)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    errors.seek(0)
                    raise SystemExit(f"serve did not start: {errors.read().decode()[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    httpx.get(f"{url}/openapi.json", timeout=1).raise_for_status()
                    break
                time.sleep(0.1)
            yield port, process.pid
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def fresh_postgresql() -> Iterator[str | None]:
    """The URL of a new PostgreSQL database, dropped afterwards (None: no server reachable)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(BASE_POSTGRESQL)
    admin_info = base.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"taletable_bench_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        with psycopg.connect(admin_info, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        print(f"PostgreSQL at {BASE_POSTGRESQL} not reachable ({error}); its rows are left out")
        yield None
        return
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_info, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- the load ----------------------------------------------------------------------------------
def make_tables(url: str) -> list[Seat]:
    """``TABLES`` tables of ``SEATS_PER_TABLE`` seats, made through the API."""
    seats = []
    with httpx.Client(base_url=url, timeout=10) as http:
        for index in range(TABLES):
            made = http.post("/api/tables", json={"name": f"Bench {index}", "system": "cogent"})
            made.raise_for_status()
            table = made.json()
            seats.append(Seat(index, table["id"], table["narrator_token"]))
            for player in range(SEATS_PER_TABLE - 1):
                joined = http.post(
                    f"/api/tables/{table['id']}/join",
                    json={"code": table["join_code"], "name": f"P{player}", "role": "player"},
                )
                joined.raise_for_status()
                seats.append(Seat(index, table["id"], joined.json()["token"]))
    return seats


async def post_one(poster: Poster, seat: Seat, post: Post) -> None:
    path = f"/api/tables/{seat.table_id}/actions"
    with contextlib.suppress(OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        status, answer = await poster.post(path, seat.token, ACTION_BODY)
        if status == 201:
            post.seq = int(json.loads(answer)["seq"])
            post.answered = time.monotonic()


async def run_step(poster: Poster, seats: list[Seat], step: Step, seconds: float,
                   number: int) -> None:  # fmt: skip
    """Post ``step.rate`` actions a second for ``seconds``, round the tables and their seats."""
    in_flight: set[asyncio.Task[None]] = set()
    for index in range(int(step.rate * seconds)):
        delay = step.started + index / step.rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if len(in_flight) >= MAX_IN_FLIGHT:
            step.skipped += 1
            continue
        seat = seats[(index % TABLES) * SEATS_PER_TABLE + (index // TABLES) % SEATS_PER_TABLE]
        post = Post(seat.table, number, time.monotonic())
        step.posts.append(post)
        task = asyncio.create_task(post_one(poster, seat, post))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if in_flight:
        await asyncio.wait(in_flight, timeout=POST_TIMEOUT)
        for task in in_flight:
            task.cancel()


async def drive(port: int, server_pid: int, seats: list[Seat]) -> list[Step]:
    """The warm-up, then one step per rate; every step's posts and the server's CPU time."""
    poster = Poster(port, MAX_IN_FLIGHT)
    steps = []
    for number, (rate, seconds) in enumerate([WARM_UP, *((r, STEP_SECONDS) for r in RATES)]):
        before = cpu_seconds(server_pid)
        step = Step(rate, time.monotonic())
        await run_step(poster, seats, step, seconds, number)
        await asyncio.sleep(SETTLE_SECONDS)
        step.server_cpu = cpu_seconds(server_pid) - before
        steps.append(step)
    poster.close()
    return steps[1:]


# -- one server, measured ----------------------------------------------------------------------
@dataclass
class Row:
    server: str
    rate: int
    sent: int
    achieved: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    failed: int  # not answered 201, or not delivered to every stream
    skipped: int
    cpu_ms: float  # the server's CPU time per answered action


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summarize(server: str, steps: list[Step],
              arrivals: list[tuple[int, int, float]]) -> list[Row]:  # fmt: skip
    """Each step's answered rate and its delivery latencies (to every stream of the table)."""
    reached: dict[tuple[int, int], list[float]] = defaultdict(list)
    for table, seq, arrived in arrivals:
        reached[(table, seq)].append(arrived)
    rows = []
    for step in steps:
        answered = [post for post in step.posts if post.seq is not None]
        latencies = []
        failed = len(step.posts) - len(answered)
        for post in answered:
            times = reached.get((post.table, post.seq or 0), [])
            if len(times) == SEATS_PER_TABLE:
                latencies.append((max(times) - post.sent) * 1000)
            else:
                failed += 1
                latencies.append(float("inf"))
        latencies.sort()
        last = max((post.answered for post in answered), default=step.started)
        elapsed = max(last - step.started, len(step.posts) / step.rate)
        rows.append(Row(
            server, step.rate, len(step.posts), len(answered) / elapsed,
            percentile(latencies, 0.5) if latencies else float("inf"),
            percentile(latencies, 0.99) if latencies else float("inf"),
            latencies[-1] if latencies else float("inf"), failed, step.skipped,
            step.server_cpu * 1000 / max(1, len(answered)),
        ))  # fmt: skip
    return rows


def measure(server: str, database: str, workers: int) -> tuple[list[Row], str]:
    """Serve ``database``, load it, and return the rows and a line of CPU seconds."""
    with serving(database, workers) as (port, pid):
        seats = make_tables(f"http://127.0.0.1:{port}")
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        readers = context.Process(target=stream_process, args=(port, seats, theirs))
        readers.start()
        try:
            if not ours.poll(60) or ours.recv() != "open":
                raise SystemExit(f"{server}: the streams did not open")
            started = time.process_time()
            steps = asyncio.run(drive(port, pid, seats))
            posting_cpu = time.process_time() - started
            ours.send("stop")
            arrivals, reading_cpu = ours.recv()
        finally:
            readers.join(timeout=10)
            if readers.is_alive():
                readers.kill()
    note = f"load generator CPU: posting {posting_cpu:.1f} s, reading streams {reading_cpu:.1f} s"
    return summarize(server, steps, arrivals), note


def servers() -> Iterator[tuple[str, str, int]]:
    """(name, database URL, workers) for each server measured."""
    with tempfile.TemporaryDirectory() as folder:
        yield "SQLite, 1 worker", f"sqlite:///{Path(folder) / 'bench.db'}", 1
    for workers in (1, 2):
        with fresh_postgresql() as url:
            if url is None:
                return
            yield f"PostgreSQL, {workers} worker{'s' if workers > 1 else ''}", url, workers


def show(row: Row) -> str:
    def ms(value: float) -> str:
        return f"{value:>9.1f}" if value != float("inf") else f"{'lost':>9}"

    return (
        f"{row.server:<24}{row.rate:>7}{row.sent:>7}{row.achieved:>11.0f}"
        f"{ms(row.p50_ms)}{ms(row.p99_ms)}{ms(row.max_ms)}{row.failed:>8}{row.skipped:>8}"
        f"{row.cpu_ms:>8.1f}"
    )


def verdicts(rows: list[Row]) -> list[str]:
    """One line per goal and server: met or MISSED, with the figure."""
    lines = []
    for server in dict.fromkeys(row.server for row in rows):
        at = next(row for row in rows if row.server == server and row.rate == GOAL_P99_RATE)
        met = at.p99_ms < GOAL_P99_MS and at.failed == 0
        lines.append(
            f"{'met   ' if met else 'MISSED'} p99 < {GOAL_P99_MS:.0f} ms at {GOAL_P99_RATE}/s "
            f"on {server}: {at.p99_ms:.1f} ms"
        )
    two = "PostgreSQL, 2 workers"
    if rows and rows[-1].server == two:
        top = max((row.achieved for row in rows if row.server == two and not row.failed), default=0)
        lines.append(
            f"{'met   ' if top >= GOAL_RATE else 'MISSED'} >= {GOAL_RATE} actions/s on "
            f"PostgreSQL, 2 workers: {top:.0f}/s at most (every action delivered)"
        )
    return lines


def main() -> None:
    print(f"load average before (1, 5, 15 min): {os.getloadavg()}")
    print(
        f"live table: {TABLES} tables x {SEATS_PER_TABLE} open streams, {ACTION['action']} "
        f"posted at each rate for {STEP_SECONDS:.0f} s; latency = POST sent -> event at every "
        f"stream of its table ({os.cpu_count()} cores shared by server, database and load)"
    )
    print(f"{'server':<24}{'rate/s':>7}{'sent':>7}{'answered/s':>11}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}{'failed':>8}{'skipped':>8}{'CPU ms':>8}")  # fmt: skip
    rows: list[Row] = []
    for server, database, workers in servers():
        measured, note = measure(server, database, workers)
        for row in measured:
            print(show(row), flush=True)
        print(f"  {note}")
        rows += measured
    print(f"load average at the end (1, 5, 15 min): {os.getloadavg()}")
    for line in verdicts(rows):
        print(line)


if __name__ == "__main__":
    main()
