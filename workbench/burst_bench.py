"""A burst of link preview fetches, and what it does to ordinary pages: the app under Gunicorn
with two worker processes (``guess_bench.serve``: the reference server, one SQLite store), 16
clients (each its own address, through one trusted proxy) asking five times a second each for
the preview images of 66 different links, while one player's phone opens a game page every 100 ms. The
page's times (p50, p99) and how the previews were answered (drawn, or Boardpass's generic
image past the drawing limits) are the figures.
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from workbench.guess_bench import _wait_for
from workbench.measure import spread

CLIENTS = 16
LINKS = 66
PACE = 0.2  # seconds between a fetcher's asks, at most: 80 a second from all 16 (a flood of
# requests as such is the edge limits' to stop: docs/deploy.md)


def _get(port: int, path: str, address: str, body=None) -> tuple[int, bytes, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    try:
        headers = {"X-Forwarded-For": address}
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request("POST" if body is not None else "GET", path,
                           json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        return response.status, response.read(), (time.perf_counter() - start) * 1000
    finally:
        connection.close()


def burst_bench(seconds: float = 20.0) -> dict:
    with tempfile.TemporaryDirectory() as folder, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = subprocess.Popen(
            [sys.executable, "-c", "import sys; from workbench.guess_bench import serve; "
             "serve(sys.argv[1], int(sys.argv[2]))", f"sqlite:///{folder}/store.db", str(port)])
        try:
            _wait_for(port, server)
            players = [{"name": "Ana", "color": "yellow"}, {"name": "Ben", "color": "red"}]
            tokens = [json.loads(_get(port, "/api/games", f"192.0.2.{n % 200 + 1}",
                                      {"game": "parcheesi", "players": players})[1])["token"]
                      for n in range(LINKS)]
            generic = _get(port, "/preview.png", "192.0.2.250")[1]
            until = time.perf_counter() + seconds
            answers = {"drawn or kept": 0, "generic": 0}
            lock = threading.Lock()

            def fetcher(number: int) -> None:
                address, n = f"198.51.100.{number + 1}", number
                while time.perf_counter() < until:
                    asked = time.perf_counter()
                    _, body, _ = _get(port, f"/g/{tokens[n % LINKS]}/preview.png", address)
                    with lock:
                        answers["generic" if body == generic else "drawn or kept"] += 1
                    n += CLIENTS
                    time.sleep(max(0.0, asked + PACE - time.perf_counter()))

            page_ms = []

            def player() -> None:
                while time.perf_counter() < until:
                    status, _, took = _get(port, f"/g/{tokens[0]}", "203.0.113.1")
                    assert status == 200, status
                    page_ms.append(took)
                    time.sleep(0.1)

            quiet = [_get(port, f"/g/{tokens[0]}", "203.0.113.1")[2] for _ in range(50)]
            threads = [threading.Thread(target=fetcher, args=(n,)) for n in range(CLIENTS)]
            threads.append(threading.Thread(target=player))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
    return {"workers": 2, "clients": CLIENTS, "links": LINKS, "seconds": seconds,
            "page ms, quiet": spread(quiet, 1), "page ms, during the burst": spread(page_ms, 1),
            "previews answered": answers}
