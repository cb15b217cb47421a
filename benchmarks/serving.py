"""Servers and databases for ``bench_server.py``: a process serving on a free port, a fresh
PostgreSQL database (dropped afterwards)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import httpx

BASE_POSTGRESQL = os.environ.get(
    "TALETABLE_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serving(command: list[str], port: int) -> Iterator[int]:
    """Run ``command`` (a server on ``port``) until the block ends; its pid, once it answers."""
    environment = {**os.environ, "TALETABLE_RATE_LIMIT": "1000000,1000000"}
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, env=environment, stdout=errors, stderr=errors)
        try:
            deadline = time.monotonic() + 120  # a loaded machine starts it slowly
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    errors.seek(0)
                    said = errors.read().decode()[-2000:]
                    raise SystemExit(f"{' '.join(command[1:3])} did not start: {said}")
                with contextlib.suppress(httpx.HTTPError):
                    httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=1).raise_for_status()
                    break
                time.sleep(0.1)
            yield process.pid
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
