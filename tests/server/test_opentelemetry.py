"""``TALETABLE_OPENTELEMETRY=on`` (issue 36.2): ``taletable serve`` sends FastAPI's traces by
OTLP over HTTP where the standard ``OTEL_*`` variables say: a served process, its requests'
spans received by a collector of the test's own."""

from __future__ import annotations

import http.server
import threading
import time
from pathlib import Path
from typing import ClassVar

import httpx

from tests.server.conftest import start_server


class _Collector(http.server.BaseHTTPRequestHandler):
    """An OTLP/HTTP collector that keeps the path and size of every export posted to it."""

    received: ClassVar[list[tuple[str, int]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.received.append((self.path, len(body)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *_args: object) -> None:  # quiet
        pass


def test_serve_sends_traces_where_the_otel_variables_say(tmp_path: Path) -> None:
    collector = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}"
    environment = {
        "TALETABLE_OPENTELEMETRY": "on",
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
        "OTEL_BSP_SCHEDULE_DELAY": "200",  # spans sent within 0.2 s
        "OTEL_METRICS_EXPORTER": "none",
        "OTEL_LOGS_EXPORTER": "none",
    }
    server = start_server(f"sqlite:///{tmp_path / 'otel.db'}", environment=environment)
    try:
        for _ in range(3):
            assert httpx.get(f"{server.url}/api/tables/rule-options").status_code == 200
        deadline = time.monotonic() + 20
        while not _Collector.received and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
        collector.shutdown()
    paths = {path for path, size in _Collector.received if size > 0}
    assert paths == {"/v1/traces"}, _Collector.received
