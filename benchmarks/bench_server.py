"""The live table under load, beside its floor: SQLite with one worker, PostgreSQL with two.

Run with ``python3 tasks.py bench`` (or ``.venv/bin/python benchmarks/bench_server.py``). For
each database the script starts a real ``taletable serve`` on 127.0.0.1 (rate limit lifted with
``TALETABLE_RATE_LIMIT``) and, beside it, the floor (``floor_app.py``: the same durable work per
action, lock, hash-chained insert, head, NOTIFY, commit and the fan-out to the streams, and
nothing else, on the same stack), each on a database of its own. On each it makes 20 tables of
8 seats and opens every seat's event stream (160 server-sent-event connections per server),
then posts ``cogent.check`` actions at rising rates, one step per rate, the two servers taking
turns (taletable then the floor at one rate, the floor then taletable at the next) so that
what else the machine does falls on both. Last, both get a longer step at half the floor's
best delivered rate. Per action it measures the time from its POST being sent to its event
having arrived at every one of its table's 8 streams (the slowest seat): p50, p99.

It prints, per database, taletable's figures over the floor's: the server's CPU time per action
(all its processes; PostgreSQL's own not counted; pooled over the steps both delivered in
full), the best delivered rate (actions answered and at all 8 streams, per second) and the p99
at half the floor's best rate. The goals (issue 21): CPU per action at most 1.5x the floor's,
delivered rate at least 0.7x the floor's, p99 under 50 ms at half the floor's best rate. The
script says which are met, with the load average before and after (the machine is shared).

Everything runs on one machine, so the load is kept cheap (``load_clients.py``): the POSTs go
out over 128 kept-alive connections and each server's streams are read in a process of their
own, all plain HTTP/1.1 on asyncio. PostgreSQL is ``TALETABLE_BENCH_DATABASE_URL`` (default: the
local server as ``postgres``); each server gets a database there, dropped at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
from load_clients import Poster, Seat, cpu_seconds, stream_process
from serving import free_port, fresh_postgresql, serving

TABLES = 20
SEATS_PER_TABLE = 8  # the narrator and seven players, each with its stream open
RATES = (50, 100, 200, 400, 800, 1200)  # actions a second, one step each
STEP_SECONDS = 3.0
HALF_SECONDS = 5.0  # the step at half the floor's best rate
WARM_UP = (50, 1.0)  # a rate and seconds, not reported
POST_TIMEOUT = 3.0  # past it a POST counts as unanswered
SETTLE_SECONDS = 1.0  # after a step's last answer, before the next step
MAX_IN_FLIGHT = 128  # a send past it is skipped (the server has fallen behind)
ACTION = {"action": "cogent.check", "args": {"pool": 6, "cl": 3}}
ACTION_BODY = json.dumps(ACTION).encode()
GOAL_CPU, GOAL_RATE, GOAL_P99_MS = 1.5, 0.7, 50.0  # issue 21
FLOOR_APP = Path(__file__).with_name("floor_app.py")


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


@dataclass
class Target:
    """One server under load: its process, seats, stream readers and steps."""

    name: str
    port: int
    pid: int
    seats: list[Seat]
    readers: Connection  # to the process reading its streams
    steps: list[Step] = field(default_factory=list)
    poster: Poster | None = None


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


async def one_step(target: Target, rate: int, seconds: float) -> Step:
    """Load ``target`` at ``rate`` for ``seconds``; the step with the server's CPU time."""
    assert target.poster is not None
    await target.poster.reopen()  # kept-alive connections, fresh (not counted in the step)
    await asyncio.sleep(0.2)
    before = cpu_seconds(target.pid)
    step = Step(rate, time.monotonic())
    await run_step(target.poster, target.seats, step, seconds, len(target.steps))
    await asyncio.sleep(SETTLE_SECONDS)
    step.server_cpu = cpu_seconds(target.pid) - before
    return step


async def drive(taletable: Target, floor: Target) -> None:
    """Warm both up; the rising rates, the servers taking turns; then half the floor's best."""
    for target in (taletable, floor):
        target.poster = Poster(target.port, MAX_IN_FLIGHT)
        await one_step(target, *WARM_UP)
    for index, rate in enumerate(RATES):
        for target in (taletable, floor) if index % 2 == 0 else (floor, taletable):
            target.steps.append(await one_step(target, rate, STEP_SECONDS))
    floor.readers.send("report")
    arrivals = await asyncio.to_thread(floor.readers.recv)
    half = max(1, round(max(row.delivered for row in summarize(floor.steps, arrivals)) / 2))
    for target in (floor, taletable):  # the order the last rate did not use
        target.steps.append(await one_step(target, half, HALF_SECONDS))
    for target in (taletable, floor):
        target.poster.close()


# -- the figures -------------------------------------------------------------------------------
@dataclass
class Row:
    rate: int
    sent: int
    answered: int
    achieved: float  # answered per second
    delivered: float  # answered and at every stream of the table, per second
    p50_ms: float
    p99_ms: float
    max_ms: float
    failed: int  # not answered 201, or not delivered to every stream
    skipped: int
    cpu_s: float  # the server's CPU time in the step

    @property
    def cpu_ms(self) -> float:  # per answered action
        return self.cpu_s * 1000 / max(1, self.answered)

    @property
    def full(self) -> bool:  # every action sent, answered and delivered
        return not self.failed and not self.skipped


def percentile(ordered: list[float], fraction: float) -> float:
    if not ordered:
        return float("inf")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summarize(steps: list[Step], arrivals: list[tuple[int, int, float]]) -> list[Row]:
    """Each step's answered and delivered rates and its latencies (to every stream)."""
    reached: dict[tuple[int, int], list[float]] = defaultdict(list)
    for table, seq, arrived in arrivals:
        reached[(table, seq)].append(arrived)
    rows = []
    for step in steps:
        answered = [post for post in step.posts if post.seq is not None]
        latencies = []
        for post in answered:
            times = reached.get((post.table, post.seq or 0), [])
            full = len(times) == SEATS_PER_TABLE
            latencies.append((max(times) - post.sent) * 1000 if full else float("inf"))
        latencies.sort()
        delivered = sum(latency != float("inf") for latency in latencies)
        last = max((post.answered for post in answered), default=step.started)
        elapsed = max(last - step.started, len(step.posts) / step.rate)
        rows.append(Row(
            step.rate, len(step.posts), len(answered), len(answered) / elapsed,
            delivered / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.99),
            latencies[-1] if latencies else float("inf"), len(step.posts) - delivered,
            step.skipped, step.server_cpu,
        ))  # fmt: skip
    return rows


# -- one database, both servers measured -------------------------------------------------------
def command(name: str, database: str, workers: int, port: int) -> list[str]:
    program = [str(FLOOR_APP)] if name == "floor" else ["-m", "taletable.cli.main", "serve"]
    options = ["--port", str(port), "--database", database, "--workers", str(workers)]
    return [sys.executable, *program, *options]


@contextlib.contextmanager
def target(name: str, database: str, workers: int) -> Iterator[Target]:
    """The server ``name`` serving ``database``, its tables made and every stream open."""
    port = free_port()
    with serving(command(name, database, workers, port), port) as pid:
        seats = make_tables(f"http://127.0.0.1:{port}")
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        readers = context.Process(target=stream_process, args=(port, seats, theirs))
        readers.start()
        try:
            if not ours.poll(60) or ours.recv() != "open":
                raise SystemExit(f"{name}: the streams did not open")
            yield Target(name, port, pid, seats, ours)
        finally:
            readers.join(timeout=10)
            if readers.is_alive():
                readers.kill()


def measure(databases: dict[str, str], workers: int) -> tuple[dict[str, list[Row]], str]:
    """Load taletable and the floor in turns; each one's rows, and a line of the load's CPU."""
    with contextlib.ExitStack() as stack:
        targets = [stack.enter_context(target(name, databases[name], workers))
                   for name in ("taletable", "floor")]  # fmt: skip
        started = time.process_time()
        asyncio.run(drive(*targets))
        posting = time.process_time() - started
        rows, reading = {}, []
        for each in targets:
            each.readers.send("stop")
            arrivals, seconds = each.readers.recv()
            rows[each.name] = summarize(each.steps, arrivals)
            reading.append(f"{each.name}'s {seconds:.1f} s")
    note = f"load generator CPU: posting {posting:.1f} s, reading streams {', '.join(reading)}"
    return rows, note


def configs() -> Iterator[tuple[str, dict[str, str], int]]:
    """(name, the database URL of each server, workers) for each database measured
    (``TALETABLE_BENCH_ONLY=sqlite`` or ``=postgresql`` measures one)."""
    only = os.environ.get("TALETABLE_BENCH_ONLY", "")
    if only in ("", "sqlite"):
        with tempfile.TemporaryDirectory() as folder:
            urls = {name: f"sqlite:///{Path(folder) / name}.db" for name in ("taletable", "floor")}
            yield "SQLite, 1 worker", urls, 1
    if only not in ("", "postgresql"):
        return
    with fresh_postgresql() as mine, fresh_postgresql() as floors:
        if mine is not None and floors is not None:
            yield "PostgreSQL, 2 workers", {"taletable": mine, "floor": floors}, 2


# -- the report --------------------------------------------------------------------------------
def show(name: str, row: Row) -> str:
    def ms(value: float) -> str:
        return f"{value:>9.1f}" if value != float("inf") else f"{'lost':>9}"

    return (
        f"{name:<11}{row.rate:>7}{row.sent:>7}{row.achieved:>11.0f}{row.delivered:>12.0f}"
        f"{ms(row.p50_ms)}{ms(row.p99_ms)}{ms(row.max_ms)}{row.failed:>8}{row.skipped:>8}"
        f"{row.cpu_ms:>8.2f}"
    )


def compare(config: str, rows: dict[str, list[Row]]) -> tuple[list[str], list[str]]:
    """taletable's figures over the floor's (lines), and one verdict line per goal."""
    mine, floor = rows["taletable"], rows["floor"]
    both = [i for i in range(len(RATES)) if mine[i].full and floor[i].full] or [0]

    def cpu_ms(server: list[Row]) -> float:  # pooled over the steps both delivered in full
        answered = max(1, sum(server[i].answered for i in both))
        return sum(server[i].cpu_s for i in both) * 1000 / answered

    cpu = (cpu_ms(mine), cpu_ms(floor))
    best = (max(row.delivered for row in mine), max(row.delivered for row in floor))
    half = (mine[-1], floor[-1])
    ratios = (cpu[0] / cpu[1], best[0] / max(best[1], 1e-9), half[0].p99_ms / half[1].p99_ms)
    rates = ", ".join(str(RATES[i]) for i in both)
    lines = [
        f"{config}: taletable / floor",
        f"  CPU per action   {ratios[0]:>6.2f}x  ({cpu[0]:.2f} vs {cpu[1]:.2f} ms, pooled over the "
        f"rates both delivered in full: {rates}/s)",
        f"  best delivered   {ratios[1]:>6.2f}x  ({best[0]:.0f} vs {best[1]:.0f} actions/s)",
        f"  {f'p99 at {half[1].rate}/s':<17}{ratios[2]:>6.2f}x  ({half[0].p99_ms:.1f} vs "
        f"{half[1].p99_ms:.1f} ms; half the floor's best rate; failed {half[0].failed} vs "
        f"{half[1].failed})",
    ]
    met = (ratios[0] <= GOAL_CPU, ratios[1] >= GOAL_RATE, half[0].p99_ms < GOAL_P99_MS)
    goals = (
        f"CPU per action <= {GOAL_CPU}x the floor's on {config}: {ratios[0]:.2f}x",
        f"delivered rate >= {GOAL_RATE}x the floor's on {config}: {ratios[1]:.2f}x",
        f"p99 < {GOAL_P99_MS:.0f} ms at half the floor's best rate ({half[1].rate}/s) on "
        f"{config}: {half[0].p99_ms:.1f} ms",
    )
    marks = ["met   " if ok else "MISSED" for ok in met]
    return lines, [f"{mark} {goal}" for mark, goal in zip(marks, goals, strict=True)]


def main() -> None:
    print(f"load average at the start (1, 5, 15 min): {os.getloadavg()}")
    print(
        f"live table: {TABLES} tables x {SEATS_PER_TABLE} open streams per server, "
        f"{ACTION['action']} posted at each rate for {STEP_SECONDS:.0f} s, taletable and the "
        f"floor in turns; latency = POST sent -> event at every stream of its table "
        f"({os.cpu_count()} cores shared by both servers, the database and the load)"
    )
    print(f"{'server':<11}{'rate/s':>7}{'sent':>7}{'answered/s':>11}{'delivered/s':>12}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'failed':>8}{'skipped':>8}"
          f"{'CPU ms':>8}")  # fmt: skip
    verdicts: list[str] = []
    for config, databases, workers in configs():
        print(f"-- {config}")
        rows, note = measure(databases, workers)
        for index in range(len(rows["floor"])):
            for name in ("taletable", "floor"):
                print(show(name, rows[name][index]), flush=True)
        print(f"  (the last two rows: half the floor's best rate, {HALF_SECONDS:.0f} s)\n  {note}")
        lines, goals = compare(config, rows)
        print("\n".join(lines), flush=True)
        verdicts += goals
    print(f"load average at the end (1, 5, 15 min): {os.getloadavg()}")
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
