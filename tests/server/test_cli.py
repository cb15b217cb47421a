"""`taletable serve` and the shells' imports: nothing server-side loads unless ``serve`` runs."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any


def test_the_cli_and_the_engine_never_load_the_server_stack() -> None:
    """`import taletable`, a check, `verify` and `--help` import no FastAPI or SQLAlchemy; of
    the server package, `--help` loads nothing (it lists the commands from their summaries)
    and `serve --help` only the module defining `serve`."""
    probe = (
        "import sys, taletable, taletable.play, taletable.store, taletable.ledger; "
        "from taletable.cli.main import main; "
        "main(['cogent', 'check', '--pool', '3', '--cl', '1', '--seed', '1']); "
        "print('after check:', any(m.startswith('taletable.server') for m in sys.modules)); "
        "main(['--help']); "
        "print('after help:', any(m.startswith('taletable.server') for m in sys.modules)); "
        "main(['serve', '--help']); "
        "names = ('fastapi', 'sqlalchemy', 'uvicorn', 'taletable.server.app'); "
        "print(*(m in sys.modules for m in names), "
        "sorted(m for m in sys.modules if m.startswith('taletable.server')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()
    assert "after check: False" in lines  # the check loaded nothing of the server
    assert "after help: False" in lines
    assert lines[-1] == "False False False False ['taletable.server', 'taletable.server.serve']"


def test_serve_lives_in_the_server_and_is_reached_through_the_lazy_map() -> None:
    """`serve` is the server package's command (cli/ never imports server/); its help is the
    same, reached through `taletable serve --help`."""
    from taletable.cli.main import COMMANDS

    assert COMMANDS["serve"] == "taletable.server.serve:serve"
    out = subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--help"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    for option in ("--host", "--port", "--database", "--workers", "--sample"):
        assert option in out.stdout


def test_the_server_imports_no_cli_module() -> None:
    """The two shells never import each other (DESIGN > Layers)."""
    probe = (
        "import sys, taletable.server.app; "
        "print(any(m.startswith('taletable.cli') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_several_workers_on_sqlite_are_refused_in_one_line(run_cli: Any) -> None:
    """`serve --workers 2` on SQLite exits 2 with one line naming --workers."""
    result = run_cli("serve", "--workers", "2", "--database", "sqlite:///nowhere.db")
    assert result.status == 2
    assert result.stderr.count("\n") == 1 and "--workers" in result.stderr


def test_an_address_it_cannot_listen_on_is_refused_in_one_line(run_cli: Any, tmp_path: Any) -> None:
    """`serve --host` that names no address, or a `--port` in use, exits 2 with one line naming
    the option, before any database is made (no uvicorn error, no traceback)."""
    database = tmp_path / "never.db"
    url = f"sqlite:///{database}"
    for host in ("bad host!", "999.1.1.1"):
        result = run_cli("serve", "--host", host, "--port", "0", "--database", url)
        assert result.status == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "--host" in result.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = run_cli("serve", "--port", port, "--database", url)
    assert result.status == 2 and result.stderr.count("\n") == 1
    assert "--port" in result.stderr and "in use" in result.stderr
    assert not database.exists()
